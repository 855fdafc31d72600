// The body of every edition check: included, so it is compiled under the
// including crate's edition and lints. Not a module of its own on purpose.

use envelope::Envelope;

/// An error of every variant shape.
#[derive(Debug, Envelope)]
#[envelope(suggested_tools(ObjectNotFound = "inspect"))]
pub enum EditionError {
    /// Struct variant with a list role.
    #[envelope(class = ObjectNotFound, message = "no {name}")]
    Missing {
        /// The name asked for.
        name: String,
        /// Near misses.
        #[envelope(fuzzy_matches)]
        candidates: Vec<String>,
    },
    /// Tuple variant with a generic message.
    #[envelope(class = Busy)]
    Busy(#[envelope(retry_after_ms)] u64),
    /// Unit variant using Display.
    #[envelope(class = InvalidArguments)]
    Bad,
}

impl std::fmt::Display for EditionError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("edition error")
    }
}

#[cfg(test)]
mod edition_tests {
    use super::*;

    #[test]
    fn expands() {
        let err = EditionError::Missing {
            name: "a".into(),
            candidates: vec!["b".into()],
        };
        assert_eq!(
            err.to_envelope().to_json_string(),
            r#"{"isError":true,"error_class":"OBJECT_NOT_FOUND","message":"no a","suggested_tool":"inspect","fuzzy_matches":["b"],"code":"MISSING","category":"NotFound"}"#
        );
        assert_eq!(
            EditionError::Busy(3).into_envelope().retry_after_ms,
            Some(3)
        );
        assert_eq!(EditionError::Bad.to_envelope().message, "edition error");
    }
}
