//! [`Envelope`](crate::Envelope) for the errors of `std` and `serde_json`, so they can be
//! `#[envelope(transparent)]` fields and links of a source chain.
//!
//! Each error gets a class, a stable code (`IO_NOT_FOUND`, `JSON_SYNTAX`,
//! `PARSE_INT`) and a message by the crate's one rule: a server-owned class
//! gets [`ErrorClass::generic_message`], a caller-owned one a fixed text per
//! kind written here. Never the error's `Display`: an `io::Error` made with
//! `io::Error::new(kind, text)` prints whatever text it was given (a path,
//! a host name), and a `serde_json` data error quotes the offending value.
//! Only numbers (a line and column, a byte offset) go into `details`.

use std::borrow::Cow;
use std::io::{self, ErrorKind};
use std::num::{IntErrorKind, ParseIntError};
use std::time::Duration;

use crate::model::class::{ErrorClass, Owner};
use crate::model::effect::Effect;
use crate::model::envelope::ErrorEnvelope;

/// One error's place in the table: its class, its code, and the message for
/// a caller-owned class (server-owned classes ignore it). Each library
/// integration writes its table with it too, so one message rule holds for
/// every foreign error.
#[derive(Clone, Copy)]
pub(crate) struct Row {
    pub(crate) class: ErrorClass,
    pub(crate) code: &'static str,
    pub(crate) text: &'static str,
    /// What the failed operation changed, when the error tells it better
    /// than the class's default (a refused connection sent nothing).
    pub(crate) effect: Option<Effect>,
}

/// The text slot of a server-owned row: its message is the class's generic
/// text, whatever this says.
pub(crate) const GENERIC: &str = "";

pub(crate) const fn row(class: ErrorClass, code: &'static str, text: &'static str) -> Row {
    Row {
        class,
        code,
        text,
        effect: None,
    }
}

impl Row {
    /// The row, with `effect` instead of the class's default.
    // Only library integrations know an effect better than the class's.
    #[allow(dead_code)]
    pub(crate) const fn with_effect(self, effect: Effect) -> Row {
        Row {
            effect: Some(effect),
            ..self
        }
    }

    /// The message rule: internals never reach the model for a server-owned
    /// class.
    const fn message(self) -> &'static str {
        match self.class.owner() {
            Owner::Server => self.class.generic_message(),
            _ => self.text,
        }
    }

    /// The row's envelope. A `BUSY` row waits [`DEFAULT_BUSY_RETRY_AFTER`],
    /// a stand-in that a call context's wait replaces, and says so in its
    /// class's step; an error that knows its own delay (a `Retry-After`
    /// header) replaces the hint in `add_details`.
    pub(crate) fn envelope(self) -> ErrorEnvelope {
        let mut envelope =
            ErrorEnvelope::new(self.class, self.message()).with_code(Cow::Borrowed(self.code));
        if self.class == ErrorClass::Busy {
            envelope = envelope.with_retry_after(DEFAULT_BUSY_RETRY_AFTER);
            envelope.fields_mut().rule.stand_in_wait = true;
        }
        if let Some(step) = self.class.default_step() {
            envelope = envelope.with_next_step(step);
        }
        match self.effect {
            Some(effect) => envelope.with_effect(effect),
            None => envelope,
        }
    }
}

/// The retry hint of every `BUSY` envelope the library mappings make
/// (`SQLITE_BUSY`, `SQLITE_LOCKED`, PostgreSQL's lock and connection
/// limits, a full sqlx pool, an `io::Error` of kind `WouldBlock` or
/// `ResourceBusy`): one second, its `retry_after_ms` (over HTTP its
/// `Retry-After`). A call answered through a context with its own wait
/// (`CallContext::with_busy_retry_after`, or the rmcp router's and the
/// axum layer's setting of the same name) says that wait instead; an
/// error that knows its own delay (an upstream's `Retry-After`) keeps it.
pub const DEFAULT_BUSY_RETRY_AFTER: Duration = Duration::from_secs(1);

/// The next step of a unique violation whose columns are not known.
const UNIQUE_STEP: &str = "use other values for the fields that must be unique, or look up the existing record and use it instead of creating another";

/// The columns a SQLite unique violation names in its message
/// (`UNIQUE constraint failed: notes.title, notes.owner`: `title`,
/// `owner`), without their table; none for any other message.
// Only the SQL integrations read SQLite's messages.
#[allow(dead_code)]
pub(crate) fn sqlite_unique_columns(message: &str) -> Vec<&str> {
    message
        .strip_prefix("UNIQUE constraint failed: ")
        .map(|list| {
            list.split(", ")
                .map(|column| column.rsplit_once('.').map_or(column, |(_, name)| name))
                .collect()
        })
        .unwrap_or_default()
}

/// Completes the envelope of a unique violation on `columns` (as the
/// database names them; empty when it does not say): the message names
/// the columns, `details.columns` lists them, and the next step says what
/// to do. Never the table, the values or the SQL; a name that is not a
/// plain identifier of at most 64 ASCII letters, digits and `_` is left
/// out, and so are all of them when one is.
#[allow(dead_code)] // only the SQL integrations
pub(crate) fn name_unique_columns(envelope: &mut ErrorEnvelope, columns: &[&str]) {
    let plain = |name: &&str| {
        !name.is_empty()
            && name.len() <= 64
            && name.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'_')
    };
    let step = if !columns.is_empty() && columns.iter().all(plain) {
        let names = columns.join(" and ");
        let fields = envelope.fields_mut();
        fields.message = format!("a record with the same {names} already exists");
        fields.details.insert(
            String::from("columns"),
            serde_json::Value::from(columns.to_vec()),
        );
        format!(
            "use another {names}, or look up the existing record and use it instead of creating another"
        )
    } else {
        String::from(UNIQUE_STEP)
    };
    envelope.fields_mut().next_steps.push(step);
}

/// An error type with a row, and what it may add to the row's envelope:
/// numbers as `details`, the effect a library's error tells.
pub(crate) trait StdError {
    fn row(&self) -> Row;

    fn add_details(&self, _envelope: &mut ErrorEnvelope) {}

    /// The row's envelope with the error's details.
    fn envelope(&self) -> ErrorEnvelope {
        let mut envelope = self.row().envelope();
        self.add_details(&mut envelope);
        envelope
    }
}

/// For each type: `Envelope` and the two `From` conversions into
/// [`ErrorEnvelope`] (as the derive gives a derived type), from its
/// [`StdError`] row; and a `find` function in the calling module, which
/// recognises them all in a source chain. This file invokes it for the
/// std errors, each library integration for its own types.
macro_rules! foreign_envelope {
    ($($ty:ty),* $(,)?) => {
        /// The envelope of an error in a source chain, if `error` is one
        /// of the types this module maps.
        pub(crate) fn find<'e>(
            error: &'e (dyn ::std::error::Error + 'static),
        ) -> ::core::option::Option<&'e dyn $crate::Envelope> {
            $(
                if let ::core::option::Option::Some(found) = error.downcast_ref::<$ty>() {
                    return ::core::option::Option::Some(found);
                }
            )*
            ::core::option::Option::None
        }
    $(
        /// Class, code and message from the table of the guide's "One
        /// server, many error types" (std, `serde_json`) or of the
        /// integration's module (a library's error); never the error's
        /// `Display`.
        impl $crate::Envelope for $ty {
            fn error_class(&self) -> $crate::ErrorClass {
                $crate::convert::std_errors::StdError::row(self).class
            }

            fn code(&self) -> ::core::option::Option<&'static str> {
                ::core::option::Option::Some($crate::convert::std_errors::StdError::row(self).code)
            }

            fn to_envelope(&self) -> $crate::ErrorEnvelope {
                $crate::convert::std_errors::StdError::envelope(self)
            }
        }

        /// The error's envelope, as [`Envelope::into_envelope`](crate::Envelope::into_envelope).
        impl ::core::convert::From<$ty> for $crate::ErrorEnvelope {
            fn from(error: $ty) -> Self {
                $crate::convert::std_errors::StdError::envelope(&error)
            }
        }

        /// The error's envelope, as [`Envelope::to_envelope`](crate::Envelope::to_envelope).
        impl ::core::convert::From<&$ty> for $crate::ErrorEnvelope {
            fn from(error: &$ty) -> Self {
                $crate::convert::std_errors::StdError::envelope(error)
            }
        }
    )*};
}
// Used by the library integrations, none without their features.
#[allow(unused_imports)]
pub(crate) use foreign_envelope;

foreign_envelope!(
    io::Error,
    serde_json::Error,
    ParseIntError,
    std::num::ParseFloatError,
    std::str::ParseBoolError,
    std::char::ParseCharError,
    std::net::AddrParseError,
    std::str::Utf8Error,
    std::string::FromUtf8Error,
    std::string::FromUtf16Error,
    std::num::TryFromIntError,
    std::char::CharTryFromError,
    std::array::TryFromSliceError,
    std::env::VarError,
);

/// Whether `value`'s `Display` text starts with `prefix`, read without
/// allocating (the accessors of an envelope never allocate): the text is
/// compared as it is written, and writing stops at the first difference.
fn display_starts_with(value: &dyn std::fmt::Display, prefix: &str) -> bool {
    struct Prefix<'p> {
        rest: &'p str,
        matched: bool,
    }
    impl std::fmt::Write for Prefix<'_> {
        fn write_str(&mut self, text: &str) -> std::fmt::Result {
            let n = text.len().min(self.rest.len());
            if text.as_bytes()[..n] != self.rest.as_bytes()[..n] {
                return Err(std::fmt::Error);
            }
            self.rest = &self.rest[n..];
            if self.rest.is_empty() {
                self.matched = true;
                return Err(std::fmt::Error);
            }
            Ok(())
        }
    }
    let mut prefix = Prefix {
        rest: prefix,
        matched: false,
    };
    let _ = std::fmt::write(&mut prefix, format_args!("{value}"));
    prefix.matched
}

/// The row of an I/O error kind. Every kind stable at the crate's MSRV has
/// its own code; the rest (`Other`, kinds still unstable, kinds added
/// later) are `Internal`.
const fn io_row(kind: ErrorKind) -> Row {
    use ErrorClass as C;
    match kind {
        ErrorKind::NotFound => row(
            C::ObjectNotFound,
            "IO_NOT_FOUND",
            "the file or resource does not exist",
        ),
        ErrorKind::PermissionDenied => row(
            C::InsufficientPrivilege,
            "IO_PERMISSION_DENIED",
            "permission to access the file or resource is denied",
        ),
        ErrorKind::AlreadyExists => row(
            C::AlreadyExists,
            "IO_ALREADY_EXISTS",
            "the file or resource already exists",
        ),
        ErrorKind::InvalidInput => row(
            C::InvalidArguments,
            "IO_INVALID_INPUT",
            "an argument is not valid for this operation",
        ),
        ErrorKind::InvalidData => row(
            C::InvalidArguments,
            "IO_INVALID_DATA",
            "the data is not valid for this operation",
        ),
        ErrorKind::UnexpectedEof => row(
            C::InvalidArguments,
            "IO_UNEXPECTED_EOF",
            "the input ended before it was complete",
        ),
        ErrorKind::NotADirectory => row(
            C::InvalidArguments,
            "IO_NOT_A_DIRECTORY",
            "a part of the path is not a directory",
        ),
        ErrorKind::IsADirectory => row(
            C::InvalidArguments,
            "IO_IS_A_DIRECTORY",
            "the path names a directory where a file is expected",
        ),
        ErrorKind::FileTooLarge => row(
            C::InvalidArguments,
            "IO_FILE_TOO_LARGE",
            "the file is larger than allowed",
        ),
        ErrorKind::TooManyLinks => row(
            C::InvalidArguments,
            "IO_TOO_MANY_LINKS",
            "the object has too many links",
        ),
        ErrorKind::InvalidFilename => row(
            C::InvalidArguments,
            "IO_INVALID_FILENAME",
            "the file name is invalid or too long",
        ),
        ErrorKind::ArgumentListTooLong => row(
            C::InvalidArguments,
            "IO_ARGUMENT_LIST_TOO_LONG",
            "the argument list is too long",
        ),
        ErrorKind::DirectoryNotEmpty => row(
            C::PreconditionFailed,
            "IO_DIRECTORY_NOT_EMPTY",
            "the directory is not empty; remove its contents first",
        ),
        ErrorKind::Unsupported => row(
            C::Unsupported,
            "IO_UNSUPPORTED",
            "the operation is not supported on this platform",
        ),
        ErrorKind::NotSeekable => row(
            C::Unsupported,
            "IO_NOT_SEEKABLE",
            "the stream does not support seeking",
        ),
        ErrorKind::CrossesDevices => row(
            C::Unsupported,
            "IO_CROSSES_DEVICES",
            "the operation cannot move or link across filesystems",
        ),
        ErrorKind::QuotaExceeded => row(
            C::QuotaExceeded,
            "IO_QUOTA_EXCEEDED",
            "a storage quota is used up; retrying will not help until it is raised",
        ),
        ErrorKind::TimedOut => row(C::Timeout, "IO_TIMED_OUT", GENERIC),
        ErrorKind::ConnectionRefused => row(C::ConnectionFailed, "IO_CONNECTION_REFUSED", GENERIC),
        ErrorKind::ConnectionReset => row(C::ConnectionFailed, "IO_CONNECTION_RESET", GENERIC),
        ErrorKind::ConnectionAborted => row(C::ConnectionFailed, "IO_CONNECTION_ABORTED", GENERIC),
        ErrorKind::NotConnected => row(C::ConnectionFailed, "IO_NOT_CONNECTED", GENERIC),
        ErrorKind::HostUnreachable => row(C::ConnectionFailed, "IO_HOST_UNREACHABLE", GENERIC),
        ErrorKind::NetworkUnreachable => {
            row(C::ConnectionFailed, "IO_NETWORK_UNREACHABLE", GENERIC)
        }
        ErrorKind::NetworkDown => row(C::ConnectionFailed, "IO_NETWORK_DOWN", GENERIC),
        ErrorKind::BrokenPipe => row(C::ConnectionFailed, "IO_BROKEN_PIPE", GENERIC),
        ErrorKind::WouldBlock => row(C::Busy, "IO_WOULD_BLOCK", GENERIC),
        ErrorKind::ResourceBusy => row(C::Busy, "IO_RESOURCE_BUSY", GENERIC),
        ErrorKind::ExecutableFileBusy => row(C::Busy, "IO_EXECUTABLE_FILE_BUSY", GENERIC),
        ErrorKind::Interrupted => row(C::Transient, "IO_INTERRUPTED", GENERIC),
        ErrorKind::Deadlock => row(C::Transient, "IO_DEADLOCK", GENERIC),
        ErrorKind::StaleNetworkFileHandle => {
            row(C::Transient, "IO_STALE_NETWORK_FILE_HANDLE", GENERIC)
        }
        ErrorKind::AddrInUse => row(C::Internal, "IO_ADDR_IN_USE", GENERIC),
        ErrorKind::AddrNotAvailable => row(C::Internal, "IO_ADDR_NOT_AVAILABLE", GENERIC),
        ErrorKind::ReadOnlyFilesystem => row(C::Internal, "IO_READ_ONLY_FILESYSTEM", GENERIC),
        ErrorKind::StorageFull => row(C::Internal, "IO_STORAGE_FULL", GENERIC),
        ErrorKind::WriteZero => row(C::Internal, "IO_WRITE_ZERO", GENERIC),
        ErrorKind::OutOfMemory => row(C::Internal, "IO_OUT_OF_MEMORY", GENERIC),
        ErrorKind::Other => row(C::Internal, "IO_OTHER", GENERIC),
        // `Uncategorized` (an OS error std has no kind for), kinds still
        // unstable (`FilesystemLoop`, `InProgress`) and any added later.
        _ => row(C::Internal, "IO_ERROR", GENERIC),
    }
}

/// By [`io::Error::kind`]. The error's own text is never used: it may be
/// any string the code that made the error passed in, a path included.
impl StdError for io::Error {
    fn row(&self) -> Row {
        io_row(self.kind())
    }
}

/// By [`serde_json::error::Category`]: JSON that does not parse or ends
/// early is `SYNTAX_ERROR`, JSON of the wrong shape `INVALID_ARGUMENTS`,
/// both the caller's; an I/O failure while reading is `INTERNAL`. The
/// position goes into `details` as `line` and `column` (1-based) when
/// serde_json knows it; the error's text does not, as a data error quotes
/// the value it rejected.
impl StdError for serde_json::Error {
    fn row(&self) -> Row {
        use serde_json::error::Category;
        match self.classify() {
            // serde_json's one message without a code of its own: the
            // document is well-formed, only deeper than it reads.
            Category::Syntax if display_starts_with(self, "recursion limit exceeded") => row(
                ErrorClass::InvalidArguments,
                "JSON_TOO_DEEP",
                "the JSON nests arrays and objects more than 128 levels deep",
            ),
            Category::Syntax => row(
                ErrorClass::SyntaxError,
                "JSON_SYNTAX",
                "the JSON is not well-formed",
            ),
            Category::Eof => row(
                ErrorClass::SyntaxError,
                "JSON_EOF",
                "the JSON ends before its last value is complete",
            ),
            Category::Data => row(
                ErrorClass::InvalidArguments,
                "JSON_DATA",
                "the JSON does not have the expected shape: a field is missing or has the wrong type or value",
            ),
            Category::Io => row(ErrorClass::Internal, "JSON_IO", GENERIC),
        }
    }

    fn add_details(&self, envelope: &mut ErrorEnvelope) {
        // Line 0: an error with no position (`from_value`, a custom error).
        if self.line() > 0 {
            let details = &mut envelope.fields_mut().details;
            details.insert("line".into(), self.line().into());
            details.insert("column".into(), self.column().into());
        }
    }
}

/// By [`ParseIntError::kind`]: one code, a text per kind.
impl StdError for ParseIntError {
    fn row(&self) -> Row {
        let text = match self.kind() {
            IntErrorKind::Empty => "the integer is empty",
            IntErrorKind::InvalidDigit => "the integer contains an invalid digit",
            IntErrorKind::PosOverflow => "the integer is too large for its type",
            IntErrorKind::NegOverflow => "the integer is too small for its type",
            IntErrorKind::Zero => "the integer must not be zero",
            _ => "the text is not a valid integer",
        };
        row(ErrorClass::InvalidArguments, "PARSE_INT", text)
    }
}

/// The std errors with a single row each.
macro_rules! fixed_rows {
    ($($ty:ty => $class:ident, $code:literal, $text:expr;)*) => {$(
        impl StdError for $ty {
            fn row(&self) -> Row {
                row(ErrorClass::$class, $code, $text)
            }
        }
    )*};
}

fixed_rows! {
    std::num::ParseFloatError => InvalidArguments, "PARSE_FLOAT",
        "the text is not a valid floating-point number";
    std::str::ParseBoolError => InvalidArguments, "PARSE_BOOL",
        "the text is not `true` or `false`";
    std::char::ParseCharError => InvalidArguments, "PARSE_CHAR",
        "the text is not exactly one character";
    std::net::AddrParseError => InvalidArguments, "PARSE_ADDR",
        "the text is not a valid IP or socket address";
    std::string::FromUtf16Error => InvalidArguments, "INVALID_UTF16",
        "the text is not valid UTF-16";
    std::num::TryFromIntError => InvalidArguments, "INT_OUT_OF_RANGE",
        "the number is out of range for its type";
    std::char::CharTryFromError => InvalidArguments, "CHAR_OUT_OF_RANGE",
        "the number is not a valid Unicode scalar value";
    std::array::TryFromSliceError => InvalidArguments, "WRONG_LENGTH",
        "the sequence does not have the expected length";
    // A missing or non-UTF-8 environment variable is the server's setup.
    std::env::VarError => Internal, "ENV_VAR", GENERIC;
}

const UTF8: Row = row(
    ErrorClass::InvalidArguments,
    "INVALID_UTF8",
    "the bytes are not valid UTF-8",
);

/// Where the valid UTF-8 ends, in bytes from the start: `valid_up_to`.
fn utf8_details(error: &std::str::Utf8Error, envelope: &mut ErrorEnvelope) {
    envelope
        .fields_mut()
        .details
        .insert("valid_up_to".into(), error.valid_up_to().into());
}

impl StdError for std::str::Utf8Error {
    fn row(&self) -> Row {
        UTF8
    }

    fn add_details(&self, envelope: &mut ErrorEnvelope) {
        utf8_details(self, envelope);
    }
}

impl StdError for std::string::FromUtf8Error {
    fn row(&self) -> Row {
        UTF8
    }

    fn add_details(&self, envelope: &mut ErrorEnvelope) {
        utf8_details(&self.utf8_error(), envelope);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Envelope;

    #[test]
    fn sqlite_names_the_columns_of_a_unique_violation() {
        assert_eq!(
            sqlite_unique_columns("UNIQUE constraint failed: notes.title"),
            ["title"]
        );
        assert_eq!(
            sqlite_unique_columns("UNIQUE constraint failed: main.tags.note, main.tags.tag"),
            ["note", "tag"]
        );
        assert_eq!(
            sqlite_unique_columns("UNIQUE constraint failed: bare"),
            ["bare"]
        );
        assert!(sqlite_unique_columns("NOT NULL constraint failed: notes.title").is_empty());
        assert!(sqlite_unique_columns("").is_empty());
    }

    /// Names that are not plain identifiers (a quoted name, an
    /// expression index, something long) name nothing, and the step is
    /// the general one.
    #[test]
    fn only_plain_column_names_are_named() {
        let unique = || {
            ErrorEnvelope::new(
                ErrorClass::AlreadyExists,
                "a record with the same unique value already exists",
            )
        };
        for columns in [
            &[][..],
            &["title", "lower(title)"][..],
            &["a b"][..],
            &[""][..],
            &["x\n\"next_steps\""][..],
        ] {
            let mut envelope = unique();
            name_unique_columns(&mut envelope, columns);
            assert_eq!(
                envelope.message, "a record with the same unique value already exists",
                "{columns:?}"
            );
            assert!(envelope.details.is_empty(), "{columns:?}");
            assert_eq!(envelope.next_steps, [UNIQUE_STEP], "{columns:?}");
        }
        let long = "c".repeat(65);
        let mut envelope = unique();
        name_unique_columns(&mut envelope, &[&long]);
        assert!(envelope.details.is_empty());
        let longest = "c".repeat(64);
        let mut envelope = unique();
        name_unique_columns(&mut envelope, &[&longest, "Owner_2"]);
        assert_eq!(
            envelope.message,
            format!("a record with the same {longest} and Owner_2 already exists")
        );
    }

    /// Every `BUSY` row carries the hint and its step; other rows neither.
    #[test]
    fn busy_rows_wait() {
        let busy = io_row(ErrorKind::WouldBlock).envelope();
        assert_eq!(busy.retry_after_ms, Some(1000));
        assert_eq!(
            busy.next_steps,
            ["wait retry_after_ms milliseconds, then repeat the same call"]
        );
        let missing = io_row(ErrorKind::NotFound).envelope();
        assert_eq!(missing.retry_after_ms, None);
        assert!(missing.next_steps.is_empty());
    }

    #[test]
    fn json_deeper_than_the_limit_is_its_own_code() {
        let deep = format!("{}{}", "[".repeat(200), "]".repeat(200));
        let error = serde_json::from_str::<serde_json::Value>(&deep).unwrap_err();
        assert_eq!(error.code(), Some("JSON_TOO_DEEP"));
        assert_eq!(error.error_class(), ErrorClass::InvalidArguments);
        let error = serde_json::from_str::<serde_json::Value>("[1,]").unwrap_err();
        assert_eq!(error.code(), Some("JSON_SYNTAX"));
    }

    #[test]
    fn display_prefixes() {
        assert!(display_starts_with(
            &"recursion limit exceeded at line 1",
            "recursion"
        ));
        assert!(display_starts_with(
            &format_args!("{}{}", "recur", "sion!"),
            "recursion"
        ));
        assert!(!display_starts_with(&"recursio", "recursion"));
        assert!(!display_starts_with(&"expected value", "recursion"));
        assert!(display_starts_with(&"anything", ""));
    }
}
