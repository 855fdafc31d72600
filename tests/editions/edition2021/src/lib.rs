//! `#[derive(Envelope)]` in an edition 2021 crate, under strict lints, with
//! the facade renamed (`agent_errors`) and named by `crate = "..."`.
#![deny(warnings, missing_docs, clippy::all, clippy::pedantic)]

use agent_errors::Envelope;

/// An error of every variant shape.
#[derive(Debug, Envelope)]
#[envelope(crate = "::agent_errors", suggested_tools(ObjectNotFound = "inspect"))]
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

/// Derived through a renamed dependency, as a re-exporting crate would.
#[derive(Debug, Envelope)]
#[envelope(crate = "::agent_errors", class = Conflict, message = "stale {0}")]
pub struct Renamed(pub u32);

#[cfg(test)]
mod tests {
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

    #[test]
    fn renamed_crate_path() {
        assert_eq!(
            agent_errors::Envelope::to_envelope(&Renamed(3)).to_json_string(),
            r#"{"isError":true,"error_class":"CONFLICT","message":"stale 3","code":"RENAMED","category":"WorkflowDependency"}"#
        );
    }
}
