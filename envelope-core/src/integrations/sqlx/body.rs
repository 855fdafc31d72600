// The body of `envelope::sqlx` and `envelope::sqlx08`: each includes it
// after naming its sqlx-core line `lib`.

use lib::error::{Error, ErrorKind};

use crate::convert::std_errors::{
    GENERIC, Row, StdError, foreign_envelope, name_unique_columns, row, sqlite_unique_columns,
};
use crate::model::class::ErrorClass;
use crate::model::effect::Effect;
use crate::model::envelope::ErrorEnvelope;

foreign_envelope!(Error);

impl StdError for Error {
    /// A unique violation names its columns when SQLite's message gives
    /// them, and says what to do (see the module docs).
    fn add_details(&self, envelope: &mut ErrorEnvelope) {
        if let Error::Database(error) = self
            && envelope.code.as_deref() == Some("DB_UNIQUE")
        {
            let columns = sqlite_unique_columns(error.message());
            name_unique_columns(envelope, &columns);
        }
    }

    fn row(&self) -> Row {
        use ErrorClass as C;
        match self {
            Error::Database(error) => database_row(error.kind(), error.code().as_deref()),
            Error::RowNotFound => row(
                C::ObjectNotFound,
                "DB_NO_ROWS",
                "no row matched the request",
            ),
            Error::PoolTimedOut => row(C::Busy, "DB_POOL_TIMEOUT", GENERIC),
            Error::PoolClosed | Error::WorkerCrashed => {
                row(C::Transient, "DB_UNAVAILABLE", GENERIC).with_effect(Effect::Nothing)
            }
            Error::Io(_) | Error::Tls(_) => row(C::ConnectionFailed, "DB_CONNECTION", GENERIC),
            _ => row(C::Internal, "DB_ERROR", GENERIC),
        }
    }
}

/// The row of a database's own error, from its kind and its code.
fn database_row(kind: ErrorKind, code: Option<&str>) -> Row {
    use ErrorClass as C;
    let unique = || {
        row(
            C::AlreadyExists,
            "DB_UNIQUE",
            "a record with the same unique value already exists",
        )
    };
    let foreign_key = || {
        row(
            C::PreconditionFailed,
            "DB_FOREIGN_KEY",
            "the record refers to a record that does not exist",
        )
    };
    let constraint = || {
        row(
            C::InvalidArguments,
            "DB_CONSTRAINT",
            "a value breaks a rule of the stored data (a required value is missing, or a check failed)",
        )
    };
    match kind {
        ErrorKind::UniqueViolation => return unique(),
        ErrorKind::ForeignKeyViolation => return foreign_key(),
        // An exclusion violation (`23P01`; a kind of its own in sqlx 0.9
        // only) is a constraint by its code below.
        ErrorKind::NotNullViolation | ErrorKind::CheckViolation => {
            return constraint();
        }
        _ => {}
    }
    let code = code.unwrap_or_default();
    // A SQLSTATE has five characters; SQLite's result codes are numbers of
    // at most four digits, whose low byte is the primary code.
    if code.len() < 5
        && let Ok(sqlite) = code.parse::<u32>()
    {
        return match sqlite & 0xff {
            5 | 6 => row(C::Busy, "DB_BUSY", GENERIC),
            19 => constraint(),
            _ => row(C::Internal, "DB_ERROR", GENERIC),
        };
    }
    let class = code.get(..2).unwrap_or_default();
    match (class, code) {
        (_, "23505") => unique(),
        (_, "23503") => foreign_key(),
        ("23", _) => constraint(),
        ("22", _) => row(
            C::InvalidArguments,
            "DB_INVALID_VALUE",
            "a value is not valid for where it is stored (too long, out of range, or of the wrong type)",
        ),
        ("40", _) => row(C::Transient, "DB_SERIALIZATION", GENERIC).with_effect(Effect::Nothing),
        ("53", _) | (_, "55P03") => row(C::Busy, "DB_BUSY", GENERIC),
        (_, "57014") => row(C::Timeout, "DB_TIMEOUT", GENERIC),
        ("08", _) | (_, "57P01" | "57P02" | "57P03") => {
            row(C::ConnectionFailed, "DB_CONNECTION", GENERIC)
        }
        _ => row(C::Internal, "DB_ERROR", GENERIC),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Envelope;

    /// Every row of the table, by kind and code; the drivers' own errors
    /// are tested against a real SQLite database in the test suite.
    #[test]
    fn database_rows() {
        let cases = [
            (ErrorKind::UniqueViolation, None, "DB_UNIQUE"),
            (ErrorKind::Other, Some("23505"), "DB_UNIQUE"),
            (
                ErrorKind::ForeignKeyViolation,
                Some("787"),
                "DB_FOREIGN_KEY",
            ),
            (ErrorKind::Other, Some("23503"), "DB_FOREIGN_KEY"),
            (ErrorKind::NotNullViolation, Some("23502"), "DB_CONSTRAINT"),
            (ErrorKind::Other, Some("23514"), "DB_CONSTRAINT"),
            (ErrorKind::Other, Some("23000"), "DB_CONSTRAINT"),
            (ErrorKind::Other, Some("275"), "DB_CONSTRAINT"),
            (ErrorKind::Other, Some("22001"), "DB_INVALID_VALUE"),
            (ErrorKind::Other, Some("40001"), "DB_SERIALIZATION"),
            (ErrorKind::Other, Some("40P01"), "DB_SERIALIZATION"),
            (ErrorKind::Other, Some("55P03"), "DB_BUSY"),
            (ErrorKind::Other, Some("53300"), "DB_BUSY"),
            (ErrorKind::Other, Some("5"), "DB_BUSY"),
            (ErrorKind::Other, Some("517"), "DB_BUSY"),
            (ErrorKind::Other, Some("6"), "DB_BUSY"),
            (ErrorKind::Other, Some("57014"), "DB_TIMEOUT"),
            (ErrorKind::Other, Some("08006"), "DB_CONNECTION"),
            (ErrorKind::Other, Some("57P01"), "DB_CONNECTION"),
            (ErrorKind::Other, Some("42501"), "DB_ERROR"),
            (ErrorKind::Other, Some("42P01"), "DB_ERROR"),
            (ErrorKind::Other, Some("1"), "DB_ERROR"),
            (ErrorKind::Other, None, "DB_ERROR"),
        ];
        for (kind, code, expected) in cases {
            let shown = format!("{kind:?} {code:?}");
            assert_eq!(database_row(kind, code).code, expected, "{shown}");
        }
        let serialization = database_row(ErrorKind::Other, Some("40001")).envelope();
        assert_eq!(
            serialization.to_json_string(),
            r#"{"isError":true,"error_class":"TRANSIENT","message":"a temporary failure occurred","code":"DB_SERIALIZATION","category":"Technical","retryable":true}"#
        );
    }
}
