//! A tool's declared failures, read from its `tools/list` entry.

use serde_json::Value;

use super::bound::MAX_NAME_CHARS;
use crate::model::contract::{DeclaredFailure, FAILURES_META_KEY};

/// The most declared failures read from one tool: a contract is a type's
/// variants, tens at most; a longer list is cut.
const MAX_FAILURES: usize = 256;

/// The failures a tool declares it can return, from its `tools/list`
/// entry (a tool object as JSON): the array under `_meta.failures`
/// ([`FAILURES_META_KEY`], written by `envelope::rmcp::Router::with_failures`),
/// or `None` when the tool declares none. An item that is not a
/// [`DeclaredFailure`] (an unknown class, a missing `owner`) is skipped,
/// so a contract from a newer server still reads; so is one whose `code`
/// is longer than [`MAX_NAME_CHARS`](super::MAX_NAME_CHARS), and at most
/// 256 items are read.
///
/// A host can plan with it: whether a write may be rate limited, whether
/// a tool's failures ever need a person (`owner: "user"`), which codes to
/// expect.
#[must_use]
pub fn read_failures(tool: &Value) -> Option<Vec<DeclaredFailure>> {
    let items = tool.get("_meta")?.get(FAILURES_META_KEY)?.as_array()?;
    Some(
        items
            .iter()
            .take(MAX_FAILURES)
            .filter_map(|item| serde_json::from_value::<DeclaredFailure>(item.clone()).ok())
            .filter(|failure| {
                failure
                    .code
                    .as_ref()
                    .is_none_or(|code| code.chars().count() <= MAX_NAME_CHARS)
            })
            .collect(),
    )
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;
    use crate::model::class::ErrorClass;

    #[test]
    fn reads_a_tools_declared_failures_and_skips_what_it_cannot_read() {
        let tool = json!({
            "name": "get_note",
            "_meta": {"failures": [
                {"class": "OBJECT_NOT_FOUND", "code": "NOT_FOUND", "owner": "caller", "retryable": false},
                {"class": "NOT_A_CLASS_YET", "owner": "caller"},
                {"class": "BUSY"},
                {"class": "BUSY", "code": "X".repeat(MAX_NAME_CHARS + 1), "owner": "server"},
                "text",
            ]}
        });
        let failures = read_failures(&tool).unwrap();
        assert_eq!(failures.len(), 2, "{failures:?}");
        assert!(failures[0].matches(ErrorClass::ObjectNotFound, Some("NOT_FOUND")));
        assert_eq!(failures[0].retryable, Some(false));
        // An unknown class reads as `UNKNOWN`, as an envelope's does.
        assert_eq!(failures[1].class, ErrorClass::Unknown);
        assert_eq!(read_failures(&json!({"name": "list_tables"})), None);
        let long =
            json!({"_meta": {"failures": vec![json!({"class": "BUSY", "owner": "server"}); 300]}});
        assert_eq!(read_failures(&long).unwrap().len(), MAX_FAILURES);
    }
}
