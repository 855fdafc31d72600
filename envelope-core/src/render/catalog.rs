//! A type's error catalog (`Envelope::catalog()`) as a Markdown table and as
//! JSON, for tool descriptions, docs and contract snapshots.

use std::fmt::Write as _;

use serde_json::Value;

use crate::model::variant_spec::VariantSpec;

/// The header of the table [`catalog_markdown`] writes, with its separator.
const HEADER: &str = "| code | class | owner | category | effect | retryable | suggested tool | message template |\n\
                      |---|---|---|---|---|---|---|---|\n";

/// Stands in an empty cell, so a reader can tell "none" from a rendering bug.
const NONE: &str = "—";

/// The catalog as a GitHub-flavoured Markdown table, one row per variant in
/// catalog order, each line ending in `\n`:
///
/// | column | content |
/// |---|---|
/// | code | the domain code, in backticks |
/// | class | the [`ErrorClass`](crate::ErrorClass) wire name, in backticks |
/// | owner | `caller`, `server` or `user` ([`Owner`](crate::Owner)) |
/// | category | the [`UserErrorCategory`](crate::UserErrorCategory) wire name, in backticks |
/// | effect | what a failure changed: `nothing`, `unknown` or `partial` ([`Effect`](crate::Effect)) |
/// | retryable | `yes` or `no`: whether the variant's envelopes say `retryable`, by the same retry rule (see [`VariantSpec::retryable`]), for a call that declares nothing; a failure of a read-only, idempotent or keyed call ([`CallBehaviour`](crate::CallBehaviour): one that carries an idempotency key its server stores) is retryable whatever its effect, when its class's failures may pass |
/// | suggested tool | the static tool, in backticks |
/// | message template | the `message` template as written (`{field}` kept), or `(Display)` when the message is the error's `Display` text |
///
/// A delegating variant (`transparent` or `with`) has no static class: its
/// row reads `*delegated*` in the class column, `—` in the other static
/// columns, and names the variant in the message column. An empty cell is
/// `—`. `|` in a template is escaped as `\|` and a line break becomes a
/// space, so every variant stays one row.
///
/// ```
/// # extern crate envelope_core as envelope;
/// use envelope::{ErrorClass, VariantSpec, catalog_markdown};
///
/// const CATALOG: &[VariantSpec] = &[
///     VariantSpec::new("Busy")
///         .with_class(ErrorClass::Busy)
///         .with_code("BUSY")
///         .with_message("the pool is full"),
///     // A transient write: it may have taken effect, so it is not retryable.
///     VariantSpec::new("Flaky")
///         .with_class(ErrorClass::Transient)
///         .with_code("FLAKY"),
/// ];
/// assert_eq!(
///     catalog_markdown(CATALOG),
///     "| code | class | owner | category | effect | retryable | suggested tool | message template |\n\
///      |---|---|---|---|---|---|---|---|\n\
///      | `BUSY` | `BUSY` | server | `Technical` | nothing | yes | — | the pool is full |\n\
///      | `FLAKY` | `TRANSIENT` | server | `Technical` | unknown | no | — | (Display) |\n",
/// );
/// ```
#[must_use]
pub fn catalog_markdown(catalog: &[VariantSpec]) -> String {
    let mut out = String::from(HEADER);
    for spec in catalog {
        let code = spec.code.map_or_else(|| NONE.to_owned(), code_span);
        let tool = spec
            .suggested_tool
            .map_or_else(|| NONE.to_owned(), code_span);
        let row = match (spec.class, spec.owner(), spec.effect, spec.retryable()) {
            (Some(class), Some(owner), Some(effect), Some(retryable)) => {
                let category = spec.category.unwrap_or_else(|| class.default_category());
                let message = spec.message.map_or_else(|| "(Display)".to_owned(), cell);
                [
                    code,
                    code_span(class.as_str()),
                    owner.as_str().to_owned(),
                    code_span(category.as_str()),
                    effect.as_str().to_owned(),
                    yes_no(retryable).to_owned(),
                    tool,
                    message,
                ]
            }
            _ => [
                code,
                "*delegated*".to_owned(),
                NONE.to_owned(),
                NONE.to_owned(),
                NONE.to_owned(),
                NONE.to_owned(),
                tool,
                format!("variant {} delegates its envelope", code_span(spec.name)),
            ],
        };
        // Writing to a `String` cannot fail.
        let _ = writeln!(out, "| {} |", row.join(" | "));
    }
    out
}

/// The catalog as a JSON array: each [`VariantSpec`] in catalog order, in
/// its own serialization (every key present, `null` when unknown; see
/// [`VariantSpec`] for the keys). `owner`, `effect` and `retryable` are
/// the spec's, computed by the envelope's own rules; a delegating variant
/// has `null` there as well as in `class`, `code` and `category`.
#[must_use]
pub fn catalog_json(catalog: &[VariantSpec]) -> Value {
    // Cannot fail: a spec holds strings, booleans, slices and enums with
    // string forms.
    serde_json::to_value(catalog).unwrap_or_default()
}

fn yes_no(value: bool) -> &'static str {
    if value { "yes" } else { "no" }
}

/// A table cell of free text: `|` escaped, line breaks flattened.
fn cell(text: &str) -> String {
    text.replace('|', "\\|").replace(['\r', '\n'], " ")
}

/// A code span that survives a backtick inside `text` (CommonMark: a longer
/// run of backticks as the fence, padded with spaces).
fn code_span(text: &str) -> String {
    let text = cell(text);
    if text.contains('`') {
        format!("`` {text} ``")
    } else {
        format!("`{text}`")
    }
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;
    use crate::{ErrorClass, UserErrorCategory};

    const CATALOG: &[VariantSpec] = &[
        VariantSpec::new("Missing")
            .with_class(ErrorClass::ObjectNotFound)
            .with_code("TABLE_MISSING")
            .with_suggested_tool("list_tables")
            .with_message("table {name} | view does not exist")
            .with_next_steps(&["check {name}"]),
        VariantSpec::new("Io")
            .with_class(ErrorClass::Internal)
            .with_code("IO")
            .with_category(UserErrorCategory::Technical),
        VariantSpec::new("Script").transparent(),
    ];

    #[test]
    fn markdown_rows() {
        assert_eq!(
            catalog_markdown(CATALOG),
            concat!(
                "| code | class | owner | category | effect | retryable | suggested tool | message template |\n",
                "|---|---|---|---|---|---|---|---|\n",
                "| `TABLE_MISSING` | `OBJECT_NOT_FOUND` | caller | `NotFound` | nothing | no | `list_tables` | table {name} \\| view does not exist |\n",
                "| `IO` | `INTERNAL` | server | `Technical` | unknown | no | — | (Display) |\n",
                "| — | *delegated* | — | — | — | — | — | variant `Script` delegates its envelope |\n",
            )
        );
    }

    #[test]
    fn markdown_of_nothing_is_the_header() {
        assert_eq!(catalog_markdown(&[]), HEADER);
    }

    #[test]
    fn code_span_with_backtick() {
        assert_eq!(code_span("a`b"), "`` a`b ``");
        assert_eq!(cell("a\nb|c"), "a b\\|c");
    }

    #[test]
    fn json_objects() {
        assert_eq!(
            catalog_json(CATALOG),
            json!([
                {
                    "name": "Missing", "code": "TABLE_MISSING", "class": "OBJECT_NOT_FOUND",
                    "owner": "caller", "category": "NotFound", "effect": "nothing", "retryable": false,
                    "suggested_tool": "list_tables",
                    "message": "table {name} | view does not exist",
                    "next_steps": ["check {name}"], "help_url": null, "ora_code": null, "retry_after_ms": null, "idempotent": false,
                    "correlation_id": null, "transparent": false
                },
                {
                    "name": "Io", "code": "IO", "class": "INTERNAL", "owner": "server",
                    "category": "Technical", "effect": "unknown", "retryable": false, "suggested_tool": null,
                    "message": null, "next_steps": [], "help_url": null, "ora_code": null, "retry_after_ms": null, "idempotent": false,
                    "correlation_id": null, "transparent": false
                },
                {
                    "name": "Script", "code": null, "class": null, "owner": null,
                    "category": null, "effect": null, "retryable": null, "suggested_tool": null,
                    "message": null, "next_steps": [], "help_url": null, "ora_code": null, "retry_after_ms": null, "idempotent": false,
                    "correlation_id": null, "transparent": true
                }
            ])
        );
    }
}
