//! The arguments of the model's next call, computed from the arguments of
//! the call that failed, when the failure's own fields say what to change:
//!
//! - a near miss (`fuzzy_matches`, exactly one name) of a value the caller
//!   sent: the same arguments with that value replaced, as
//!   `details.corrected_arguments` (`{"table":"EMPLOYES"}` and the near
//!   miss `EMPLOYEES` give `{"table":"EMPLOYEES"}`). The value must be a
//!   whole top-level string one or two edits from the name (not a case
//!   change alone, at most half the name's length), and the only such
//!   value: `HR.EMPLOYES` or `DESC EMPLOYES` is not replaced;
//! - a tool to call next (`suggested_tool`, when the one decision,
//!   `NextMove::of`, calls it: to check whether a write took effect, or to call first; never
//!   the tool that failed): each argument the tool's input schema lists,
//!   from the failure's `details` under the same name (what the server
//!   found: the id of the note that exists already; a `null` detail is
//!   none), else from the failed call's arguments, as
//!   `details.suggested_arguments` (`create_order
//!   {"customer_id":"c-4","item":"chair"}` and `list_orders`, which takes
//!   `customer_id`, give `{"customer_id":"c-4"}`), when they cover every
//!   argument the schema requires and each has the JSON type the schema
//!   gives it. A schema this cannot read whole (`anyOf`, `oneOf`, `allOf`,
//!   `$ref`, `if`, `dependentRequired`, `dependentSchemas` at its top, or a
//!   `required` that is not a list of names) gets nothing;
//! - a number out of range on a read-only call (`argument_errors` of kind
//!   `out_of_range` only): the same arguments with each such number moved
//!   to the nearest bound its property's schema gives, as
//!   `details.corrected_arguments` (`{"limit":5000}` and `"maximum":1000`
//!   give `{"limit":1000}`). `minimum` and `maximum` are sent as the
//!   schema writes them; an integer's `exclusiveMinimum` and
//!   `exclusiveMaximum` as the next integer inside. A property with
//!   `multipleOf`, a number's exclusive bound, or a number inside the
//!   schema's bounds (the server's own limit, which the schema does not
//!   give) gets nothing. A write never does: its number is what the user
//!   asked for (an amount, a duration), and a smaller one is another
//!   action, so the text gives the bounds and the model or the user picks.
//!
//! All three are JSON objects of at most `MAX_CORRECTED_BYTES`. A model that
//! reads the whole next call makes it; given only "call list_orders", a
//! small model called it with no arguments (the recovery benchmark,
//! `BENCHMARKS.md`).

use serde_json::{Map, Value};

use super::unescape;
use crate::model::argument_error::{
    ArgumentError, ArgumentErrorKind, CORRECTED_ARGUMENTS, NEXT_CALL_KEYS, SUGGESTED_ARGUMENTS,
    fits, json_type,
};
use crate::model::class::Owner;
use crate::model::envelope::ErrorEnvelope;
use crate::model::next_move::{Attempt, NextMove};

/// `envelope` with the next call's arguments computed from `arguments`
/// (those of the failed call of `tool`, read-only or not), where the
/// module docs say; `input_schema` gives a tool's input schema by name. An
/// envelope that has them already keeps its own.
pub(crate) fn complete(
    mut envelope: ErrorEnvelope,
    arguments: &Value,
    tool: &str,
    read_only: bool,
    input_schema: &dyn Fn(&str) -> Option<Value>,
) -> ErrorEnvelope {
    if read_only
        && !envelope.argument_errors.is_empty()
        && !envelope.details.contains_key(CORRECTED_ARGUMENTS)
        && let Some(fixed) = input_schema(tool)
            .and_then(|schema| clamped(arguments, &envelope.argument_errors, &schema))
            .filter(fits)
    {
        envelope = envelope.with_detail(CORRECTED_ARGUMENTS, fixed);
    }
    if !envelope.details.contains_key(CORRECTED_ARGUMENTS)
        && envelope.argument_errors.is_empty()
        && envelope.error_class.owner() == Owner::Caller
        && let [name] = envelope.fuzzy_matches.as_slice()
        && let Some(fixed) = near_miss_fixed(arguments, name).filter(fits)
    {
        envelope = envelope.with_detail(CORRECTED_ARGUMENTS, fixed);
    }
    let next = match NextMove::of(&envelope, &Attempt::default()) {
        NextMove::CallTool { tool: next, .. }
        | NextMove::Check {
            tool: Some(next), ..
        } if next != tool => next,
        _ => return envelope,
    };
    if !envelope.details.contains_key(SUGGESTED_ARGUMENTS)
        && let Some(carried) = input_schema(&next)
            .and_then(|schema| carried(&envelope.details, arguments, &schema))
            .filter(fits)
    {
        envelope = envelope.with_detail(SUGGESTED_ARGUMENTS, carried);
    }
    envelope
}

/// `arguments` with `name` in place of the one top-level string value
/// that is a near miss of it (see the module docs); `None` when none is,
/// or more than one.
fn near_miss_fixed(arguments: &Value, name: &str) -> Option<Value> {
    let object = arguments.as_object()?;
    let wanted = name.to_lowercase();
    let length = wanted.chars().count();
    let most = (length / 2).min(2);
    let mut missed = object.iter().filter(|(_, value)| {
        value.as_str().is_some_and(|sent| {
            // Checked first, so a long value costs nothing.
            sent.chars().count().abs_diff(length) <= most
                && (1..=most).contains(&strsim::osa_distance(&sent.to_lowercase(), &wanted))
        })
    });
    let (key, _) = missed.next()?;
    if missed.next().is_some() {
        return None;
    }
    let mut fixed = object.clone();
    fixed.insert(key.clone(), Value::from(name));
    Some(Value::Object(fixed))
}

/// `arguments` with each number that `problems` (all `out_of_range`)
/// point at moved to the nearest bound of its property in `schema`; `None`
/// when a problem is of another kind or has no such bound (see the module
/// docs).
fn clamped(arguments: &Value, problems: &[ArgumentError], schema: &Value) -> Option<Value> {
    if UNREAD.iter().any(|keyword| schema.get(keyword).is_some()) {
        return None;
    }
    let mut fixed = arguments.clone();
    for problem in problems {
        if problem.kind != ArgumentErrorKind::OutOfRange {
            return None;
        }
        let property = property_at(schema, &problem.path)?;
        let value = fixed.pointer_mut(&problem.path)?;
        *value = nearest_bound(value, property)?;
    }
    Some(fixed)
}

/// The schema of the value at `path` (a JSON Pointer into the arguments):
/// each token a name in `properties`, or an index into `items`.
fn property_at<'a>(schema: &'a Value, path: &str) -> Option<&'a Value> {
    let mut at = schema;
    for token in path.strip_prefix('/')?.split('/') {
        at = match at
            .get("properties")
            .and_then(|names| names.get(unescape(token)))
        {
            Some(property) => property,
            None if token.parse::<usize>().is_ok() => at.get("items")?,
            None => return None,
        };
    }
    Some(at)
}

/// The bound of `property` nearest to `value` when `value` is outside
/// them: `minimum` or `maximum` as written, or for an integer the next
/// integer inside an exclusive bound.
fn nearest_bound(value: &Value, property: &Value) -> Option<Value> {
    let sent = value.as_f64()?;
    if property.get("multipleOf").is_some() {
        return None;
    }
    let integer = value.is_i64() || value.is_u64();
    let inside = |exclusive: &str, step: i64| {
        let bound = property.get(exclusive)?;
        if !integer {
            return None;
        }
        Some((
            bound.as_f64()?,
            Value::from(bound.as_i64()?.checked_add(step)?),
        ))
    };
    let below = |limit: f64, exclusive: bool| sent < limit || (exclusive && sent == limit);
    let above = |limit: f64, exclusive: bool| sent > limit || (exclusive && sent == limit);
    if let Some(minimum) = property.get("minimum")
        && below(minimum.as_f64()?, false)
    {
        return Some(minimum.clone());
    }
    if let Some(maximum) = property.get("maximum")
        && above(maximum.as_f64()?, false)
    {
        return Some(maximum.clone());
    }
    if property.get("exclusiveMinimum").is_some() {
        let (limit, next) = inside("exclusiveMinimum", 1)?;
        if below(limit, true) {
            return Some(next);
        }
    }
    if property.get("exclusiveMaximum").is_some() {
        let (limit, next) = inside("exclusiveMaximum", -1)?;
        if above(limit, true) {
            return Some(next);
        }
    }
    None
}

/// The top-level keywords of a schema that make `properties` and
/// `required` not the whole story.
const UNREAD: [&str; 7] = [
    "anyOf",
    "oneOf",
    "allOf",
    "$ref",
    "if",
    "dependentRequired",
    "dependentSchemas",
];

/// A value for each name `schema` (a JSON Schema of an object, a tool's
/// `inputSchema`) lists in `properties`: the one in `details` (not
/// `null`), else the one in `arguments`, when it has the type the property
/// gives; `None` when a name it lists in `required` has neither, or the
/// schema is one this does not read whole (see the module docs).
fn carried(details: &Map<String, Value>, arguments: &Value, schema: &Value) -> Option<Value> {
    if UNREAD.iter().any(|keyword| schema.get(keyword).is_some()) {
        return None;
    }
    let properties = schema.get("properties").and_then(Value::as_object)?;
    let required: Vec<&str> = match schema.get("required") {
        None => Vec::new(),
        Some(Value::Array(names)) => names.iter().map(Value::as_str).collect::<Option<_>>()?,
        Some(_) => return None,
    };
    let sent = arguments.as_object();
    let taken: Map<String, Value> = properties
        .iter()
        .filter_map(|(key, property)| {
            let detail = details
                .get(key)
                .filter(|value| !value.is_null() && !NEXT_CALL_KEYS.contains(&key.as_str()));
            let value = detail.or_else(|| sent?.get(key))?;
            typed(value, property).then(|| (key.clone(), value.clone()))
        })
        .collect();
    required
        .iter()
        .all(|key| taken.contains_key(*key))
        .then_some(Value::Object(taken))
}

/// Whether `value` has a JSON type the property's `type` allows (a name or
/// a list of names; `number` takes an integer); a property without one
/// allows any.
fn typed(value: &Value, property: &Value) -> bool {
    let actual = json_type(value);
    let allows = |name: &Value| {
        name.as_str()
            .is_some_and(|name| name == actual || (name == "number" && actual == "integer"))
    };
    match property.get("type") {
        None => true,
        Some(Value::Array(names)) => names.iter().any(allows),
        Some(name) => allows(name),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::argument_error::MAX_CORRECTED_BYTES;
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
        let envelope = complete(
            timed_out("list_orders"),
            &sent,
            "failed_tool",
            false,
            &schemas,
        );
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
        let envelope = complete(
            timed_out("list_outbox"),
            &sent,
            "failed_tool",
            false,
            &schemas,
        );
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
        let envelope = complete(exists.clone(), &sent, "failed_tool", false, &schemas);
        // The server's fact wins over what was sent.
        assert_eq!(
            envelope.details[SUGGESTED_ARGUMENTS],
            json!({"id": "n-5", "body": "from the details"})
        );
        // Without the detail, a required argument is missing: no call.
        let bare = ErrorEnvelope::new(ErrorClass::AlreadyExists, "a note titled Groceries exists")
            .with_suggested_tool("update_note");
        assert!(
            complete(bare, &sent, "failed_tool", false, &schemas)
                .details
                .is_empty()
        );
    }

    #[test]
    fn no_arguments_without_every_required_one_or_a_schema() {
        let sent = json!({"sql": "SELECT 1"});
        let first = ErrorEnvelope::new(ErrorClass::PreconditionFailed, "no database connected")
            .with_suggested_tool("connect");
        let envelope = complete(first.clone(), &sent, "failed_tool", false, &schemas);
        assert!(envelope.details.is_empty());
        assert_eq!(
            envelope.to_string().lines().next(),
            Some("Call connect now.")
        );
        let unknown = first.with_suggested_tool("reconnect");
        assert!(
            complete(unknown, &sent, "failed_tool", false, &schemas)
                .details
                .is_empty()
        );
        // Arguments that are not an object carry nothing a schema requires.
        let envelope = complete(
            timed_out("list_orders"),
            &json!([1]),
            "failed_tool",
            false,
            &schemas,
        );
        assert!(envelope.details.is_empty());
    }

    #[test]
    fn a_near_miss_of_a_sent_value_is_put_in_its_place() {
        let missing =
            ErrorEnvelope::new(ErrorClass::ObjectNotFound, "table EMPLOYES does not exist")
                .with_fuzzy_matches(vec!["EMPLOYEES".into()])
                .with_suggested_tool("list_tables");
        let sent = json!({"table": "EMPLOYES", "schema": "HR"});
        let envelope = complete(missing.clone(), &sent, "failed_tool", false, &schemas);
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
            complete(missing.clone(), &both, "failed_tool", false, &schemas).details
                [CORRECTED_ARGUMENTS],
            json!({"table": "EMPLOYEES", "column": "EMPLOYEE_ID"})
        );
        // Two equally near: which one is meant is a guess, so nothing is
        // offered.
        let tied = json!({"table": "EMPLOYES", "view": "EMPLOYEESS"});
        assert!(
            complete(missing.clone(), &tied, "failed_tool", false, &schemas)
                .details
                .is_empty()
        );
        // Two near misses: the model picks.
        let two = missing
            .clone()
            .with_fuzzy_matches(vec!["EMPLOYEES".into(), "EMPLOYERS".into()]);
        assert!(
            complete(two, &sent, "failed_tool", false, &schemas)
                .details
                .is_empty()
        );
        // A server's fault is not the caller's value.
        let server = ErrorEnvelope::new(ErrorClass::Internal, "lookup failed")
            .with_fuzzy_matches(vec!["EMPLOYEES".into()]);
        assert!(
            complete(server, &sent, "failed_tool", false, &schemas)
                .details
                .is_empty()
        );
    }

    #[test]
    fn an_envelope_keeps_its_own_and_large_arguments_are_not_offered() {
        let own = timed_out("list_orders")
            .with_detail(SUGGESTED_ARGUMENTS, json!({"customer_id": "c-1"}));
        let sent = json!({"customer_id": "c-4"});
        assert_eq!(
            complete(own, &sent, "failed_tool", false, &schemas).details[SUGGESTED_ARGUMENTS],
            json!({"customer_id": "c-1"})
        );
        let large = json!({"customer_id": "c".repeat(MAX_CORRECTED_BYTES)});
        assert!(
            complete(
                timed_out("list_orders"),
                &large,
                "failed_tool",
                false,
                &schemas
            )
            .details
            .is_empty()
        );
    }

    #[test]
    fn only_a_whole_value_one_or_two_edits_away_is_replaced() {
        let missing = |name: &str| {
            ErrorEnvelope::new(ErrorClass::ObjectNotFound, "not found")
                .with_fuzzy_matches(vec![name.into()])
        };
        let none = |_: &str| None;
        for sent in [
            json!({"table": "HR.EMPLOYES"}),
            json!({"sql": "DESC EMPLOYES"}),
            json!({"table": "employees"}),
            json!({"table": 12}),
        ] {
            let envelope = complete(missing("EMPLOYEES"), &sent, "describe_table", false, &none);
            assert!(envelope.details.is_empty(), "{sent}");
        }
        // A value that differs in case only is not the one that missed.
        let envelope = complete(
            missing("EMPLOYEES"),
            &json!({"table": "EMPLOYES", "schema": "employees"}),
            "describe_table",
            false,
            &none,
        );
        assert_eq!(
            envelope.details[CORRECTED_ARGUMENTS],
            json!({"table": "EMPLOYEES", "schema": "employees"})
        );
        let envelope = complete(
            missing("CITY"),
            &json!({"table": "LOCATIONS", "column": "CITYS"}),
            "find_column",
            false,
            &none,
        );
        assert_eq!(
            envelope.details[CORRECTED_ARGUMENTS],
            json!({"table": "LOCATIONS", "column": "CITY"})
        );
        // Three edits are too many for a name of four characters.
        let envelope = complete(
            missing("CITY"),
            &json!({"table": "LOCATIONS", "column": "CITIES"}),
            "find_column",
            false,
            &none,
        );
        assert!(envelope.details.is_empty());
        // A short name allows one edit.
        let envelope = complete(
            missing("n-1"),
            &json!({"id": "n-12"}),
            "get_note",
            false,
            &none,
        );
        assert_eq!(envelope.details[CORRECTED_ARGUMENTS], json!({"id": "n-1"}));
        let envelope = complete(
            missing("n-1"),
            &json!({"id": "m-12"}),
            "get_note",
            false,
            &none,
        );
        assert!(envelope.details.is_empty());
    }

    #[test]
    fn the_tool_that_failed_is_not_suggested_again() {
        let sent = json!({"customer_id": "c-4"});
        let envelope = complete(
            timed_out("list_orders"),
            &sent,
            "list_orders",
            false,
            &schemas,
        );
        assert!(envelope.details.is_empty());
    }

    #[test]
    fn only_values_of_the_schemas_types_and_no_null_detail() {
        let schemas = |tool: &str| match tool {
            "list_orders" => Some(json!({
                "type": "object",
                "properties": {"customer_id": {"type": "string"}, "limit": {"type": ["integer", "null"]}},
                "required": ["customer_id"],
            })),
            "by_number" => Some(json!({
                "properties": {"customer_id": {"type": "number"}},
                "required": ["customer_id"],
            })),
            _ => None,
        };
        let envelope = complete(
            timed_out("list_orders").with_detail("customer_id", Value::Null),
            &json!({"customer_id": "c-4", "limit": "5"}),
            "create_order",
            false,
            &schemas,
        );
        assert_eq!(
            envelope.details[SUGGESTED_ARGUMENTS],
            json!({"customer_id": "c-4"})
        );
        let envelope = complete(
            timed_out("by_number"),
            &json!({"customer_id": "c-4"}),
            "create_order",
            false,
            &schemas,
        );
        assert!(envelope.details.is_empty());
        let envelope = complete(
            timed_out("by_number"),
            &json!({"customer_id": 4}),
            "create_order",
            false,
            &schemas,
        );
        assert_eq!(
            envelope.details[SUGGESTED_ARGUMENTS],
            json!({"customer_id": 4})
        );
    }

    #[test]
    fn a_schema_not_read_whole_gets_nothing() {
        let sent = json!({"id": "n-1", "name": "ann"});
        for schema in [
            // schemars' form of a flattened untagged enum.
            json!({
                "type": "object",
                "properties": {"id": {"type": "string"}},
                "required": ["id"],
                "anyOf": [{"properties": {"name": {"type": "string"}}, "required": ["name"]}],
            }),
            json!({"$ref": "#/$defs/Lock", "$defs": {"Lock": {"properties": {"id": {}}}}}),
            json!({"properties": {"id": {}}, "required": "id"}),
            json!({"properties": {"id": {}}, "required": [1]}),
        ] {
            let lookup = move |_: &str| Some(schema.clone());
            let envelope = complete(timed_out("lock"), &sent, "create_lock", false, &lookup);
            assert!(envelope.details.is_empty());
        }
    }

    #[test]
    fn a_read_gets_the_nearest_bound_in_place_of_a_number_out_of_range() {
        let schema = json!({
            "type": "object",
            "properties": {
                "sql": {"type": "string"},
                "limit": {"type": ["integer", "null"], "minimum": 1, "maximum": 1000},
                "page": {"type": "integer", "exclusiveMinimum": 0, "exclusiveMaximum": 50},
                "ratio": {"type": "number", "exclusiveMaximum": 1.0},
                "step": {"type": "integer", "maximum": 100, "multipleOf": 10},
                "rows": {"type": "array", "items": {"type": "integer", "maximum": 9}},
            },
            "required": ["sql"],
        });
        let lookup = move |_: &str| Some(schema.clone());
        let out_of_range = |paths: &[&str]| {
            let problems = paths
                .iter()
                .map(|path| ArgumentError::new(ArgumentErrorKind::OutOfRange, *path))
                .collect();
            super::super::invalid_arguments(problems)
        };
        let fixed = |sent: Value, paths: &[&str], read_only: bool| {
            complete(out_of_range(paths), &sent, "run_query", read_only, &lookup)
                .details
                .get(CORRECTED_ARGUMENTS)
                .cloned()
        };
        let sent = json!({"sql": "SELECT 1", "limit": 5000});
        assert_eq!(
            fixed(sent.clone(), &["/limit"], true),
            Some(json!({"sql": "SELECT 1", "limit": 1000}))
        );
        let envelope = complete(out_of_range(&["/limit"]), &sent, "run_query", true, &lookup);
        assert_eq!(
            envelope.to_string(),
            "Call this tool again with these arguments: {\"limit\":1000,\"sql\":\"SELECT 1\"}\n\
             - /limit is out of range: send 1000\n\
             INVALID_ARGUMENTS\n\
             Call this tool again with these arguments: {\"limit\":1000,\"sql\":\"SELECT 1\"}"
        );
        assert_eq!(
            fixed(json!({"sql": "", "limit": 0}), &["/limit"], true),
            Some(json!({"sql": "", "limit": 1}))
        );
        // An integer's exclusive bounds: the next integer inside.
        assert_eq!(
            fixed(json!({"sql": "", "page": 50}), &["/page"], true),
            Some(json!({"sql": "", "page": 49}))
        );
        assert_eq!(
            fixed(json!({"sql": "", "page": -3}), &["/page"], true),
            Some(json!({"sql": "", "page": 1}))
        );
        // Inside an array.
        assert_eq!(
            fixed(json!({"sql": "", "rows": [1, 12]}), &["/rows/1"], true),
            Some(json!({"sql": "", "rows": [1, 9]}))
        );
        for (sent, paths) in [
            // A number has no "next value" inside an exclusive bound.
            (json!({"sql": "", "ratio": 1.5}), &["/ratio"][..]),
            // The bound may not be a multiple.
            (json!({"sql": "", "step": 105}), &["/step"]),
            // Inside the schema's bounds, or on one: the server's own limit.
            (json!({"sql": "", "limit": 500}), &["/limit"]),
            (json!({"sql": "", "limit": 1000}), &["/limit"]),
            (json!({"sql": "", "limit": 1}), &["/limit"]),
            (json!({"sql": "", "page": 20}), &["/page"]),
            // An object where the schema has an array: its keys are no
            // items.
            (json!({"sql": "", "rows": {"a": 12}}), &["/rows/a"]),
            // A property the schema does not list, a value that is not a
            // number, a second problem without a bound.
            (json!({"sql": "", "offset": 5000}), &["/offset"]),
            (json!({"sql": "", "limit": "5000"}), &["/limit"]),
            (
                json!({"sql": "", "limit": 5000, "page": 0}),
                &["/limit", "/sql"],
            ),
        ] {
            assert_eq!(fixed(sent.clone(), paths, true), None, "{sent}");
        }
        // A write's number is what the user asked for: no value is offered.
        assert_eq!(fixed(sent, &["/limit"], false), None);
        // Another kind of problem is not a bound to apply.
        let missing = super::super::invalid_arguments(vec![ArgumentError::new(
            ArgumentErrorKind::Missing,
            "/sql",
        )]);
        assert!(
            complete(missing, &json!({}), "run_query", true, &lookup)
                .details
                .is_empty()
        );
    }
}
