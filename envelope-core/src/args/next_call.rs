//! The arguments of the model's next call, computed from the arguments of
//! the call that failed, when the failure's own fields say what to change:
//!
//! - a near miss (`fuzzy_matches`) of a value the caller sent: the same
//!   arguments with the value replaced, as `details.corrected_arguments`
//!   (`{"table":"EMPLOYES"}` and the near miss `EMPLOYEES` give
//!   `{"table":"EMPLOYEES"}`);
//! - a tool to call next (`suggested_tool`, as the lead of the text names
//!   it: to check whether a write took effect, or to call first): each
//!   argument the tool's input schema lists, from the failure's `details`
//!   under the same name (what the server found: the id of the note that
//!   exists already), else from the failed call's arguments, as
//!   `details.suggested_arguments` (`create_order
//!   {"customer_id":"c-4","item":"chair"}` and `list_orders`, which takes
//!   `customer_id`, give `{"customer_id":"c-4"}`), when they cover every
//!   argument the schema requires.
//!
//! Nothing is guessed beyond that: one near miss of one sent value, names
//! taken as they are, at most [`MAX_CORRECTED_BYTES`] of JSON. A model
//! that reads the whole next call makes it; one that reads "call
//! list_orders" calls it with no arguments or waits first (the recovery
//! benchmark, `BENCHMARKS.md`).

use serde_json::{Map, Value};

use super::correct::MAX_CORRECTED_BYTES;
use crate::model::argument_error::{CORRECTED_ARGUMENTS, SUGGESTED_ARGUMENTS};
use crate::model::class::Owner;
use crate::model::envelope::ErrorEnvelope;
use crate::render::text::Lead;

/// `envelope` with the next call's arguments computed from `arguments`
/// (the failed call's), where the module docs say; `input_schema` gives a
/// tool's input schema by name. An envelope that has them already keeps
/// its own.
pub(crate) fn complete(
    mut envelope: ErrorEnvelope,
    arguments: &Value,
    input_schema: &dyn Fn(&str) -> Option<Value>,
) -> ErrorEnvelope {
    if !envelope.details.contains_key(CORRECTED_ARGUMENTS)
        && envelope.argument_errors.is_empty()
        && envelope.error_class.owner() == Owner::Caller
        && let [name] = envelope.fuzzy_matches.as_slice()
        && let Some(fixed) = near_miss_fixed(arguments, name).filter(fits)
    {
        envelope = envelope.with_detail(CORRECTED_ARGUMENTS, fixed);
    }
    let tool = match Lead::of(&envelope) {
        Lead::CallTool(tool) | Lead::Check(Some(tool)) => tool.to_owned(),
        _ => return envelope,
    };
    if !envelope.details.contains_key(SUGGESTED_ARGUMENTS)
        && let Some(carried) = input_schema(&tool)
            .and_then(|schema| carried(&envelope.details, arguments, &schema))
            .filter(fits)
    {
        envelope = envelope.with_detail(SUGGESTED_ARGUMENTS, carried);
    }
    envelope
}

/// Whether the arguments are small enough to offer.
fn fits(arguments: &Value) -> bool {
    arguments.to_string().len() <= MAX_CORRECTED_BYTES
}

/// `arguments` with `name` in place of the string value it is the nearest
/// miss of (`fuzzy::suggest`'s measure: the fewest edits, ignoring case);
/// `None` when no value is a near miss of it, or two are equally near.
fn near_miss_fixed(arguments: &Value, name: &str) -> Option<Value> {
    let object = arguments.as_object()?;
    let wanted = name.to_lowercase();
    let mut missed: Vec<(usize, &String)> = object
        .iter()
        .filter_map(|(key, value)| {
            let sent = value.as_str().filter(|sent| *sent != name)?;
            crate::model::fuzzy::suggest(sent, [name], 1).pop()?;
            Some((strsim::osa_distance(&sent.to_lowercase(), &wanted), key))
        })
        .collect();
    missed.sort();
    let key = match missed.as_slice() {
        [(_, key)] => *key,
        [(nearest, key), (next, _), ..] if nearest < next => *key,
        _ => return None,
    };
    let mut fixed = object.clone();
    fixed.insert(key.clone(), Value::from(name));
    Some(Value::Object(fixed))
}

/// A value for each name `schema` (a JSON Schema of an object, a tool's
/// `inputSchema`) lists in `properties`: the one in `details`, else the
/// one in `arguments`; `None` when a name it lists in `required` has
/// neither.
fn carried(details: &Map<String, Value>, arguments: &Value, schema: &Value) -> Option<Value> {
    let properties = schema.get("properties").and_then(Value::as_object)?;
    let sent = arguments.as_object();
    let known = |key: &str| {
        details
            .get(key)
            .filter(|_| key != CORRECTED_ARGUMENTS && key != SUGGESTED_ARGUMENTS)
            .or_else(|| sent?.get(key))
    };
    let taken: Map<String, Value> = properties
        .keys()
        .filter_map(|key| Some((key.clone(), known(key)?.clone())))
        .collect();
    let required = schema.get("required").and_then(Value::as_array);
    let covered = required.is_none_or(|required| {
        required
            .iter()
            .all(|key| key.as_str().is_some_and(|key| taken.contains_key(key)))
    });
    covered.then_some(Value::Object(taken))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::class::ErrorClass;
    use crate::model::effect::Effect;
    use serde_json::json;

    fn schemas(tool: &str) -> Option<Value> {
        match tool {
            "list_orders" => Some(json!({
                "type": "object",
                "properties": {"customer_id": {"type": "string"}, "status": {"type": "string"}},
                "required": ["customer_id"],
            })),
            "connect" => Some(json!({
                "type": "object",
                "properties": {"database": {"type": "string"}},
                "required": ["database"],
            })),
            "list_outbox" => Some(json!({"type": "object", "properties": {}})),
            _ => None,
        }
    }

    fn timed_out(tool: &str) -> ErrorEnvelope {
        ErrorEnvelope::new(ErrorClass::Timeout, "the order service did not answer")
            .with_effect(Effect::Unknown)
            .with_suggested_tool(tool)
    }

    #[test]
    fn a_check_tool_gets_the_arguments_it_takes() {
        let sent = json!({"customer_id": "c-4", "item": "chair", "quantity": 2});
        let envelope = complete(timed_out("list_orders"), &sent, &schemas);
        assert_eq!(
            envelope.details[SUGGESTED_ARGUMENTS],
            json!({"customer_id": "c-4"})
        );
        assert_eq!(
            envelope.to_string().lines().next(),
            Some(
                r#"Do not repeat this call: it may already have taken effect. Call list_orders with {"customer_id":"c-4"} now to check whether it did."#
            )
        );
        // A tool that takes nothing is called with nothing.
        let envelope = complete(timed_out("list_outbox"), &sent, &schemas);
        assert_eq!(envelope.details[SUGGESTED_ARGUMENTS], json!({}));
    }

    #[test]
    fn a_detail_of_the_failure_fills_what_the_call_did_not_send() {
        let schemas = |tool: &str| {
            (tool == "update_note").then(|| {
                json!({
                    "type": "object",
                    "properties": {"id": {"type": "string"}, "body": {"type": "string"}, "version": {"type": "integer"}},
                    "required": ["id", "body"],
                })
            })
        };
        let exists =
            ErrorEnvelope::new(ErrorClass::AlreadyExists, "a note titled Groceries exists")
                .with_suggested_tool("update_note")
                .with_detail("id", "n-5")
                .with_detail("body", "from the details");
        let sent = json!({"title": "Groceries", "body": "milk, eggs", "folder": "home"});
        let envelope = complete(exists.clone(), &sent, &schemas);
        // The server's fact wins over what was sent.
        assert_eq!(
            envelope.details[SUGGESTED_ARGUMENTS],
            json!({"id": "n-5", "body": "from the details"})
        );
        // Without the detail, a required argument is missing: no call.
        let bare = ErrorEnvelope::new(ErrorClass::AlreadyExists, "a note titled Groceries exists")
            .with_suggested_tool("update_note");
        assert!(complete(bare, &sent, &schemas).details.is_empty());
    }

    #[test]
    fn no_arguments_without_every_required_one_or_a_schema() {
        let sent = json!({"sql": "SELECT 1"});
        let first = ErrorEnvelope::new(ErrorClass::PreconditionFailed, "no database connected")
            .with_suggested_tool("connect");
        let envelope = complete(first.clone(), &sent, &schemas);
        assert!(envelope.details.is_empty());
        assert_eq!(
            envelope.to_string().lines().next(),
            Some("Call connect now; do not repeat this call unchanged before that.")
        );
        let unknown = first.with_suggested_tool("reconnect");
        assert!(complete(unknown, &sent, &schemas).details.is_empty());
        // Arguments that are not an object carry nothing a schema requires.
        let envelope = complete(timed_out("list_orders"), &json!([1]), &schemas);
        assert!(envelope.details.is_empty());
    }

    #[test]
    fn a_near_miss_of_a_sent_value_is_put_in_its_place() {
        let missing =
            ErrorEnvelope::new(ErrorClass::ObjectNotFound, "table EMPLOYES does not exist")
                .with_fuzzy_matches(vec!["EMPLOYEES".into()])
                .with_suggested_tool("list_tables");
        let sent = json!({"table": "EMPLOYES", "schema": "HR"});
        let envelope = complete(missing.clone(), &sent, &schemas);
        assert_eq!(
            envelope.details[CORRECTED_ARGUMENTS],
            json!({"table": "EMPLOYEES", "schema": "HR"})
        );
        assert_eq!(
            envelope.to_string().lines().next(),
            Some(
                r#"Call this tool again with these arguments: {"schema":"HR","table":"EMPLOYEES"}"#
            )
        );
        // Two values the name is a near miss of: the nearer one missed.
        let both = json!({"table": "EMPLOYES", "column": "EMPLOYEE_ID"});
        assert_eq!(
            complete(missing.clone(), &both, &schemas).details[CORRECTED_ARGUMENTS],
            json!({"table": "EMPLOYEES", "column": "EMPLOYEE_ID"})
        );
        // Two equally near: which one is meant is a guess, so nothing is
        // offered.
        let tied = json!({"table": "EMPLOYES", "view": "EMPLOYEESS"});
        assert!(
            complete(missing.clone(), &tied, &schemas)
                .details
                .is_empty()
        );
        // Two near misses: the model picks.
        let two = missing
            .clone()
            .with_fuzzy_matches(vec!["EMPLOYEES".into(), "EMPLOYERS".into()]);
        assert!(complete(two, &sent, &schemas).details.is_empty());
        // A server's fault is not the caller's value.
        let server = ErrorEnvelope::new(ErrorClass::Internal, "lookup failed")
            .with_fuzzy_matches(vec!["EMPLOYEES".into()]);
        assert!(complete(server, &sent, &schemas).details.is_empty());
    }

    #[test]
    fn an_envelope_keeps_its_own_and_large_arguments_are_not_offered() {
        let own = timed_out("list_orders")
            .with_detail(SUGGESTED_ARGUMENTS, json!({"customer_id": "c-1"}));
        let sent = json!({"customer_id": "c-4"});
        assert_eq!(
            complete(own, &sent, &schemas).details[SUGGESTED_ARGUMENTS],
            json!({"customer_id": "c-1"})
        );
        let large = json!({"customer_id": "c".repeat(MAX_CORRECTED_BYTES)});
        assert!(
            complete(timed_out("list_orders"), &large, &schemas)
                .details
                .is_empty()
        );
    }
}
