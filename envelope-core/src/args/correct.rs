//! The corrected arguments of a rejected call: what the caller sent with
//! every problem fixed, when each fix follows from what was sent. A model
//! that reads them repeats the call right, instead of guessing from a list
//! of problems.
//!
//! The fixes made, and only these:
//!
//! - an unknown key with a near miss among the argument type's names, or
//!   the one unknown key without a near miss of an object that lacks
//!   exactly one required key, is renamed (`note_id` → `id`; the missing
//!   key also becomes the unknown key's suggestion);
//! - a string where an integer, a number or a boolean belongs, that reads
//!   as one (`"20"` → `20`, `"true"` → `true`), becomes that value;
//! - a value that is not one of an enum's names, with exactly one near
//!   miss, becomes the near miss.
//!
//! A call with any other problem (a missing value, a number out of range)
//! gets no corrected arguments. The result must deserialize into the
//! argument type, and its JSON must fit in `MAX_CORRECTED_BYTES`.

use serde::de::DeserializeOwned;
use serde_json::{Map, Value};

use super::{pointer, unescape};
use crate::model::argument_error::{ArgumentError, ArgumentErrorKind, CORRECTED_ARGUMENTS, fits};
use crate::model::envelope::ErrorEnvelope;

/// `envelope` with the corrected arguments of `arguments` as the detail
/// `corrected_arguments` (and each renamed key's new name as its
/// suggestion), when every problem has a fix and the fixed arguments
/// deserialize into `T`.
pub(crate) fn offer<T: DeserializeOwned>(
    envelope: ErrorEnvelope,
    arguments: &Value,
) -> ErrorEnvelope {
    let mut problems = envelope.argument_errors.clone();
    pair_renames(&mut problems);
    let fixed = corrected(arguments, &problems)
        .filter(|fixed| serde_json::from_value::<T>(fixed.clone()).is_ok())
        .filter(fits);
    // A paired rename is only a suggestion when the type took its result.
    match fixed {
        Some(fixed) => envelope
            .with_argument_errors(problems)
            .with_detail(CORRECTED_ARGUMENTS, fixed),
        None => envelope,
    }
}

/// Gives each unknown key without a near miss of its own the name of a
/// required key its object lacks, as its suggestion. Only a pairing that
/// is one to one survives: [`corrected`] refuses two keys renamed to one
/// name and a missing key left unfilled, and [`offer`] keeps the
/// suggestions only with the corrected arguments.
fn pair_renames(problems: &mut [ArgumentError]) {
    let parent = |path: &str| {
        path.rsplit_once('/')
            .map_or("", |(parent, _)| parent)
            .to_owned()
    };
    for i in 0..problems.len() {
        let problem = &problems[i];
        if problem.kind != ArgumentErrorKind::UnknownField || !problem.suggestions.is_empty() {
            continue;
        }
        let object = parent(&problem.path);
        let missing = problems
            .iter()
            .find(|p| p.kind == ArgumentErrorKind::Missing && parent(&p.path) == object)
            .and_then(|p| p.path.rsplit_once('/'))
            .map(|(_, name)| unescape(name));
        if let Some(name) = missing {
            problems[i].suggestions = vec![name];
        }
    }
}

/// `arguments` with every problem fixed, or `None` when one has no fix.
fn corrected(arguments: &Value, problems: &[ArgumentError]) -> Option<Value> {
    if problems.is_empty() {
        return None;
    }
    let mut fixed = arguments.clone();
    // Renamed keys first: a missing key is fixed by the rename that fills it.
    let mut filled = Vec::new();
    for problem in problems {
        if problem.kind != ArgumentErrorKind::UnknownField {
            continue;
        }
        let (object, key) = split(&problem.path)?;
        let name = problem.suggestions.first()?;
        let map = object_at(&mut fixed, &object)?;
        if map.contains_key(name.as_str()) {
            return None;
        }
        let value = map.remove(&key)?;
        map.insert(name.clone(), value);
        filled.push(format!("{object}{}", pointer([name])));
    }
    for problem in problems {
        match problem.kind {
            ArgumentErrorKind::UnknownField => {}
            ArgumentErrorKind::Missing if filled.contains(&problem.path) => {}
            ArgumentErrorKind::WrongType => {
                let value = fixed.pointer_mut(&problem.path)?;
                *value = typed(value, problem.expected.as_deref()?)?;
            }
            ArgumentErrorKind::UnknownVariant if problem.suggestions.len() == 1 => {
                let value = fixed.pointer_mut(&problem.path)?;
                if !value.is_string() {
                    return None;
                }
                *value = Value::from(problem.suggestions[0].as_str());
            }
            _ => return None,
        }
    }
    Some(fixed)
}

/// The string `value` read as the type `expected` names (`"an integer"`,
/// `"a number"`, `"a boolean"`, possibly with a range after it).
fn typed(value: &Value, expected: &str) -> Option<Value> {
    let text = value.as_str()?.trim();
    if expected.starts_with("an integer") {
        text.parse::<i64>()
            .map(Value::from)
            .or_else(|_| text.parse::<u64>().map(Value::from))
            .ok()
    } else if expected.starts_with("a number") {
        text.parse::<f64>()
            .ok()
            .filter(|n| n.is_finite())
            .map(Value::from)
    } else if expected.starts_with("a boolean") {
        match text {
            "true" => Some(Value::Bool(true)),
            "false" => Some(Value::Bool(false)),
            _ => None,
        }
    } else {
        None
    }
}

/// A pointer split into its parent's pointer and its last key, unescaped.
fn split(path: &str) -> Option<(String, String)> {
    let (parent, key) = path.rsplit_once('/')?;
    // A key cut for echoing (`…`) no longer names the key sent.
    (!key.ends_with('…')).then(|| (parent.to_owned(), unescape(key)))
}

/// The object at the pointer `path`.
fn object_at<'v>(value: &'v mut Value, path: &str) -> Option<&'v mut Map<String, Value>> {
    value.pointer_mut(path)?.as_object_mut()
}

#[cfg(test)]
mod tests {
    use serde::Deserialize;
    use serde_json::json;

    use super::*;
    use crate::args::invalid_arguments;
    use crate::model::argument_error::MAX_CORRECTED_BYTES;

    #[derive(Debug, Deserialize)]
    #[serde(deny_unknown_fields)]
    #[allow(dead_code)]
    struct Query {
        sql: String,
        limit: Option<u32>,
        archived: Option<bool>,
    }

    fn problem(kind: ArgumentErrorKind, path: &str) -> ArgumentError {
        ArgumentError::new(kind, path)
    }

    #[test]
    fn a_lone_unknown_key_fills_the_lone_missing_one() {
        let sent = json!({"query": "SELECT 1", "limit": "20"});
        let envelope = invalid_arguments(vec![
            problem(ArgumentErrorKind::Missing, "/sql"),
            problem(ArgumentErrorKind::UnknownField, "/query"),
            problem(ArgumentErrorKind::WrongType, "/limit").with_expected("an integer"),
        ]);
        let offered = offer::<Query>(envelope, &sent);
        assert_eq!(
            offered.details[CORRECTED_ARGUMENTS],
            json!({"sql": "SELECT 1", "limit": 20})
        );
        let unknown = offered
            .argument_errors
            .iter()
            .find(|p| p.kind == ArgumentErrorKind::UnknownField)
            .unwrap();
        assert_eq!(unknown.suggestions, ["sql"]);
    }

    #[test]
    fn strings_read_as_the_expected_type() {
        assert_eq!(
            typed(&json!("20"), "an integer from 1 to 1000"),
            Some(json!(20))
        );
        assert_eq!(typed(&json!("-3"), "an integer"), Some(json!(-3)));
        assert_eq!(typed(&json!("2.5"), "a number"), Some(json!(2.5)));
        assert_eq!(typed(&json!("true"), "a boolean"), Some(json!(true)));
        assert_eq!(typed(&json!("yes"), "a boolean"), None);
        assert_eq!(typed(&json!("NaN"), "a number"), None);
        assert_eq!(typed(&json!(20), "an integer"), None);
        assert_eq!(typed(&json!("20"), "a string"), None);
    }

    #[test]
    fn a_boolean_sent_as_a_string_is_corrected_either_way() {
        for (sent, value) in [("true", true), ("false", false)] {
            let rejected =
                crate::args::parse::<Query>(json!({"sql": "x", "archived": sent})).unwrap_err();
            assert_eq!(
                rejected.details[CORRECTED_ARGUMENTS],
                json!({"sql": "x", "archived": value})
            );
        }
    }

    #[test]
    fn no_offer_when_a_problem_has_no_fix_or_the_fix_does_not_parse() {
        // A missing value nothing fills.
        let envelope = invalid_arguments(vec![problem(ArgumentErrorKind::Missing, "/sql")]);
        assert!(offer::<Query>(envelope, &json!({})).details.is_empty());
        // Two unknown keys for one missing one: no guess.
        let envelope = invalid_arguments(vec![
            problem(ArgumentErrorKind::Missing, "/sql"),
            problem(ArgumentErrorKind::UnknownField, "/a"),
            problem(ArgumentErrorKind::UnknownField, "/b"),
        ]);
        assert!(
            offer::<Query>(envelope, &json!({"a": "x", "b": "y"}))
                .details
                .is_empty()
        );
        // A fix the type still rejects (out of range for u32).
        let envelope = invalid_arguments(vec![
            problem(ArgumentErrorKind::WrongType, "/limit").with_expected("an integer"),
        ]);
        let sent = json!({"sql": "x", "limit": "-1"});
        assert!(offer::<Query>(envelope, &sent).details.is_empty());
    }

    #[test]
    fn a_large_call_gets_no_offer() {
        let sql = "x".repeat(MAX_CORRECTED_BYTES);
        let envelope = invalid_arguments(vec![
            problem(ArgumentErrorKind::WrongType, "/limit").with_expected("an integer"),
        ]);
        let sent = json!({"sql": sql, "limit": "5"});
        assert!(offer::<Query>(envelope, &sent).details.is_empty());
    }
}
