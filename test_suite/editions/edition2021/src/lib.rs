//! `#[derive(Envelope)]` in an edition 2021 crate, under strict lints, with
//! the facade renamed (`agent_errors`): the shared checks see it under its
//! usual name through `extern crate ... as`, and `Renamed` names it with
//! `crate = "..."`.
#![deny(warnings, missing_docs, clippy::all, clippy::pedantic)]

extern crate agent_errors as envelope;

include!("../../shared.rs");

/// Derived through a renamed dependency, as a re-exporting crate would.
#[derive(Debug, agent_errors::Envelope)]
#[envelope(crate = "::agent_errors", class = Conflict, message = "stale {0}")]
pub struct Renamed(pub u32);

#[cfg(test)]
mod renamed_tests {
    use super::Renamed;

    #[test]
    fn renamed_crate_path() {
        assert_eq!(
            agent_errors::Envelope::to_json_string(&Renamed(3)),
            r#"{"isError":true,"error_class":"CONFLICT","message":"stale 3","code":"RENAMED","category":"WorkflowDependency"}"#
        );
    }
}
