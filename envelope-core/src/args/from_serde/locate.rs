//! Where serde's problem is when serde read the value through a buffer.
//!
//! serde reads an internally or adjacently tagged enum, an untagged enum
//! and a `#[serde(flatten)]`ed field in two steps: it first copies the
//! value into a buffer, then deserializes the buffer, where
//! `serde_path_to_error` sees nothing. Its path then stops at the buffered
//! value and the problem is somewhere inside it.
//!
//! The arguments are at hand, so the place is found by trial: the
//! candidates are the values inside that fit what serde says (the value
//! it quotes, an object without the missing field, an object with the
//! unknown key, the unknown variant's name). A single candidate is the
//! place. With several, each is changed in turn (a marker value, the field
//! added, the key renamed) and the arguments deserialized again; the one
//! candidate whose change moves serde's problem to the marker is the
//! place. When no single candidate answers, the place is the nearest
//! value that holds every candidate: true, though not exact.

use serde_json::Value;

use super::super::lookup;

/// How many candidates are tried; with more, the buffered value itself is
/// the place unless it answers first.
const MAX_TRIED: usize = 16;

/// What is appended to a string or key to mark it: a control character no
/// name of an argument type holds.
const MARK: char = '\u{1f}';

/// What serde said, as far as locating it goes.
pub(super) enum Fault<'m> {
    /// `invalid type: <unexpected>, expected <expected>` or `invalid
    /// value: ...`.
    Value {
        unexpected: &'m str,
        expected: &'m str,
    },
    /// `missing field `name``.
    Missing(&'m str),
    /// `unknown field `name`, ...`, found in the object at the tokens
    /// given.
    UnknownField(&'m str),
    /// `unknown variant `name`, ...`.
    UnknownVariant(&'m str),
    /// `invalid length ...`: an array.
    Length,
}

/// Where a fault is: exactly at these tokens (for a missing or unknown
/// field, in the object at them), or somewhere within the value at them.
#[derive(Debug, PartialEq)]
pub(super) enum Place {
    Exact(Vec<String>),
    Within(Vec<String>),
}

/// serde's outcome for changed arguments: `None` when they deserialize,
/// else the reference tokens of serde's path and its message.
pub(in crate::args) type Retry<'r> = &'r dyn Fn(&Value) -> Option<(Vec<String>, String)>;

/// The place of `fault`, which serde reported at `tokens` (the object
/// holding the key, for a missing or unknown field) with `said`: the
/// tokens of its path and its message.
pub(super) fn locate(
    fault: &Fault<'_>,
    tokens: Vec<String>,
    arguments: &Value,
    said: (&[String], &str),
    retry: Retry<'_>,
) -> Place {
    let Some(at) = lookup(arguments, &tokens) else {
        return Place::Exact(tokens);
    };
    let (path, message) = said;
    // The same problem as before, at the same place in serde's path.
    let unchanged = |outcome: &Option<(Vec<String>, String)>| {
        outcome
            .as_ref()
            .is_some_and(|(p, m)| p.as_slice() == path && m == message)
    };
    match fault {
        Fault::Value {
            unexpected,
            expected,
        } => {
            let Some(quoted) = Quoted::read(unexpected) else {
                return Place::Exact(tokens);
            };
            // A scalar serde quotes is its own only candidate: exact.
            let found = candidates(at, &tokens, |value| quoted.agrees(value));
            // The candidate answers when serde now quotes the marker, with
            // the same expectation, at the same path.
            let answers = |value: &Value, tokens: &[String]| {
                markers(value).into_iter().any(|marker| {
                    let changed = replaced(arguments, tokens, marker.clone());
                    retry(&changed).is_some_and(|(p, m)| {
                        p.as_slice() == path
                            && super::split_invalid(&m).is_some_and(|(u, e)| {
                                e == *expected && Quoted::read(u).is_some_and(|q| q.is(&marker))
                            })
                    })
                })
            };
            settle(found, &tokens, arguments, &answers, |c| c)
        }
        Fault::Missing(name) => {
            let found = candidates(at, &tokens, |value| {
                value.as_object().is_some_and(|o| !o.contains_key(*name))
            });
            // Adding the field moves serde on, unless the object refuses
            // it as unknown, or serde now stops at or inside an object
            // below its path: then serde sees that object (inside the
            // buffer it would not), and the field belongs to something
            // else (a map's entries).
            let answers = |_: &Value, tokens: &[String]| {
                let mut changed = arguments.clone();
                if let Some(Value::Object(object)) = lookup_mut(&mut changed, tokens) {
                    object.insert(String::from(*name), Value::String(String::from(MARK)));
                }
                let outcome = retry(&changed);
                !unchanged(&outcome)
                    && !outcome.is_some_and(|(p, m)| {
                        (tokens != path && p.starts_with(tokens))
                            || m.starts_with(&format!("unknown field `{name}`"))
                    })
            };
            settle(found, &tokens, arguments, &answers, |mut c| {
                c.push(String::from(*name));
                c
            })
        }
        Fault::UnknownField(name) => {
            // serde's path ends at the key when serde saw it (`tokens` is
            // then that path without the key).
            if path.last().is_some_and(|last| last == name) {
                let mut tokens = tokens;
                tokens.push(String::from(*name));
                return Place::Exact(tokens);
            }
            let found = candidates(at, &tokens, |value| {
                value.as_object().is_some_and(|o| o.contains_key(*name))
            });
            let marked = format!("{name}{MARK}");
            let answers = |_: &Value, tokens: &[String]| {
                let mut changed = arguments.clone();
                if let Some(Value::Object(object)) = lookup_mut(&mut changed, tokens)
                    && let Some(value) = object.remove(*name)
                {
                    object.insert(marked.clone(), value);
                }
                retry(&changed).is_some_and(|(p, m)| {
                    p.as_slice() == path && m.starts_with(&format!("unknown field `{marked}`"))
                })
            };
            settle(found, &tokens, arguments, &answers, |mut c| {
                c.push(String::from(*name));
                c
            })
        }
        Fault::Length => {
            if at.is_array() {
                return Place::Exact(tokens);
            }
            // serde quotes no value: an only array is the place, else
            // there is nothing to try.
            let found = candidates(at, &tokens, Value::is_array);
            settle(found, &tokens, arguments, &|_, _| false, |c| c)
        }
        Fault::UnknownVariant(name) => {
            let named = |value: &Value| value.as_str() == Some(*name);
            // The value itself, or an externally tagged enum's key.
            if named(at) || at.as_object().is_some_and(|o| o.contains_key(*name)) {
                return Place::Exact(tokens);
            }
            let found = candidates(at, &tokens, named);
            let marked = format!("{name}{MARK}");
            let answers = |_: &Value, tokens: &[String]| {
                let changed = replaced(arguments, tokens, Value::String(marked.clone()));
                retry(&changed).is_some_and(|(p, m)| {
                    p.as_slice() == path && m.starts_with(&format!("unknown variant `{marked}`"))
                })
            };
            settle(found, &tokens, arguments, &answers, |c| c)
        }
    }
}

/// The values under `root` (itself included) that `fits`, in document
/// order, at most [`MAX_TRIED`]; and whether there were more.
fn candidates(
    root: &Value,
    tokens: &[String],
    fits: impl Fn(&Value) -> bool,
) -> (Vec<Vec<String>>, bool) {
    let mut found = Vec::new();
    // An explicit stack: the arguments may nest deeper than the call
    // stack allows.
    let mut stack: Vec<(Vec<String>, &Value)> = vec![(tokens.to_vec(), root)];
    while let Some((tokens, value)) = stack.pop() {
        if fits(value) {
            if found.len() == MAX_TRIED {
                return (found, true);
            }
            found.push(tokens.clone());
        }
        let children: Vec<(String, &Value)> = match value {
            Value::Object(object) => object.iter().map(|(k, v)| (k.clone(), v)).collect(),
            Value::Array(items) => items
                .iter()
                .enumerate()
                .map(|(i, v)| (i.to_string(), v))
                .collect(),
            _ => Vec::new(),
        };
        for (token, child) in children.into_iter().rev() {
            let mut inner = tokens.clone();
            inner.push(token);
            stack.push((inner, child));
        }
    }
    (found, false)
}

/// The place among `found`: the only candidate; else the buffered value
/// itself if it is a candidate and answers; else the only one that
/// answers; else the nearest value holding them all. `exact` turns a
/// candidate into the place's tokens.
fn settle(
    (found, more): (Vec<Vec<String>>, bool),
    tokens: &[String],
    arguments: &Value,
    answers: &dyn Fn(&Value, &[String]) -> bool,
    exact: impl Fn(Vec<String>) -> Vec<String>,
) -> Place {
    let value_at = |c: &[String]| lookup(arguments, c).unwrap_or(&Value::Null);
    match found.as_slice() {
        [] => return Place::Within(tokens.to_vec()),
        // One found is all there are: `more` needs `MAX_TRIED` found.
        [only] => return Place::Exact(exact(only.clone())),
        _ => {}
    }
    if found[0] == tokens && answers(value_at(tokens), tokens) {
        return Place::Exact(exact(tokens.to_vec()));
    }
    let answering: Vec<&Vec<String>> = found
        .iter()
        .filter(|c| c.as_slice() != tokens)
        .filter(|c| answers(value_at(c), c))
        .collect();
    match answering.as_slice() {
        [only] if !more => Place::Exact(exact((*only).clone())),
        _ if more => Place::Within(tokens.to_vec()),
        _ => Place::Within(common(&found)),
    }
}

/// The longest common prefix of `paths`.
fn common(paths: &[Vec<String>]) -> Vec<String> {
    let mut prefix = paths[0].clone();
    for path in &paths[1..] {
        let same = prefix.iter().zip(path).take_while(|(a, b)| a == b).count();
        prefix.truncate(same);
    }
    prefix
}

/// The markers for a candidate value: one of the same JSON type that
/// serde quotes differently, then a string and a boolean (for a value
/// whose type serde does not quote, or a field that accepts the first).
fn markers(value: &Value) -> Vec<Value> {
    let mut markers = Vec::new();
    match value {
        Value::String(s) => markers.push(Value::String(format!("{s}{MARK}"))),
        Value::Bool(b) => markers.push(Value::Bool(!b)),
        Value::Number(n) => {
            // Further from zero: a number out of range stays out of range.
            if let Some(n) = n.as_u64() {
                markers.push(Value::from(n.checked_add(1).unwrap_or(n - 1)));
            } else if let Some(n) = n.as_i64() {
                markers.push(Value::from(n.checked_sub(1).unwrap_or(n + 1)));
            } else if let Some(x) = n.as_f64() {
                let moved = if x == 0.0 {
                    1.0
                } else if x.fract() == 0.0 {
                    x * 2.0
                } else {
                    x + 1.0
                };
                // Past the largest float (infinite): none; the string
                // marker follows.
                markers.extend(serde_json::Number::from_f64(moved).map(Value::Number));
            }
        }
        _ => {}
    }
    if !value.is_string() {
        markers.push(Value::String(String::from(MARK)));
    }
    if !value.is_boolean() {
        markers.push(Value::Bool(true));
    }
    markers
}

/// `arguments` with the value at `tokens` replaced.
fn replaced(arguments: &Value, tokens: &[String], value: Value) -> Value {
    let mut changed = arguments.clone();
    if let Some(slot) = lookup_mut(&mut changed, tokens) {
        *slot = value;
    }
    changed
}

fn lookup_mut<'v>(root: &'v mut Value, tokens: &[String]) -> Option<&'v mut Value> {
    tokens.iter().try_fold(root, |value, token| match value {
        Value::Object(map) => map.get_mut(token),
        Value::Array(items) => items.get_mut(token.parse::<usize>().ok()?),
        _ => None,
    })
}

/// The value serde quotes in an `invalid type` or `invalid value` message
/// (`serde::de::Unexpected` as serde_json writes it).
#[derive(Debug, PartialEq)]
pub(super) enum Quoted {
    Str(String),
    Integer(i128),
    Float(f64),
    Bool(bool),
    Null,
    Object,
    Array,
}

impl Quoted {
    /// `string "x"`, ``integer `5` ``, ``floating point `1.5` ``,
    /// ``boolean `true` ``, `null` / `unit value`, `map`, `sequence`;
    /// `None` for anything else (a char, bytes, a newtype).
    pub(super) fn read(unexpected: &str) -> Option<Quoted> {
        let ticked = |prefix: &str| {
            unexpected
                .strip_prefix(prefix)
                .and_then(|rest| rest.strip_prefix(" `"))
                .and_then(|rest| rest.strip_suffix('`'))
        };
        let quoted = match unexpected {
            "null" | "unit value" => Quoted::Null,
            "map" => Quoted::Object,
            "sequence" => Quoted::Array,
            _ => {
                if let Some(text) = unexpected.strip_prefix("string ") {
                    // Written with `Debug`: a JSON string literal reads
                    // the same for what serde_json escapes.
                    Quoted::Str(unquote(text)?)
                } else if let Some(n) = ticked("integer") {
                    Quoted::Integer(n.parse().ok()?)
                } else if let Some(x) = ticked("floating point") {
                    Quoted::Float(x.parse().ok()?)
                } else if let Some(b) = ticked("boolean") {
                    Quoted::Bool(b.parse().ok()?)
                } else {
                    return None;
                }
            }
        };
        Some(quoted)
    }

    /// Whether `value` is what serde quotes.
    pub(super) fn agrees(&self, value: &Value) -> bool {
        match (self, value) {
            (Quoted::Str(s), Value::String(v)) => s == v,
            (Quoted::Integer(n), Value::Number(v)) => {
                v.as_i64().map(i128::from).or(v.as_u64().map(i128::from)) == Some(*n)
            }
            (Quoted::Float(x), Value::Number(v)) => v.is_f64() && v.as_f64() == Some(*x),
            (Quoted::Bool(b), Value::Bool(v)) => b == v,
            (Quoted::Null, Value::Null)
            | (Quoted::Object, Value::Object(_))
            | (Quoted::Array, Value::Array(_)) => true,
            _ => false,
        }
    }

    /// Whether this is exactly the marker `value` (not only its type).
    fn is(&self, value: &Value) -> bool {
        !matches!(self, Quoted::Null | Quoted::Object | Quoted::Array) && self.agrees(value)
    }
}

/// The text of a string written with Rust's `Debug` (`"a\"b"`), as far
/// as it tells the string apart: escapes are read back, `\u{..}` too.
fn unquote(text: &str) -> Option<String> {
    let inner = text.strip_prefix('"')?.strip_suffix('"')?;
    let mut out = String::with_capacity(inner.len());
    let mut chars = inner.chars();
    while let Some(c) = chars.next() {
        if c != '\\' {
            out.push(c);
            continue;
        }
        match chars.next()? {
            'n' => out.push('\n'),
            'r' => out.push('\r'),
            't' => out.push('\t'),
            '0' => out.push('\0'),
            'u' => {
                let rest = chars.as_str().strip_prefix('{')?;
                let end = rest.find('}')?;
                out.push(char::from_u32(u32::from_str_radix(&rest[..end], 16).ok()?)?);
                chars = rest[end + 1..].chars();
            }
            other => out.push(other),
        }
    }
    Some(out)
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    #[test]
    fn quoted_values() {
        assert_eq!(
            Quoted::read(r#"string "a\"b\n\u{1f}c""#),
            Some(Quoted::Str(String::from("a\"b\n\u{1f}c")))
        );
        assert_eq!(Quoted::read("integer `-5`"), Some(Quoted::Integer(-5)));
        assert_eq!(
            Quoted::read("floating point `1.8446744073709552e+19`"),
            Some(Quoted::Float(18_446_744_073_709_551_616.0))
        );
        assert_eq!(Quoted::read("boolean `false`"), Some(Quoted::Bool(false)));
        assert_eq!(Quoted::read("null"), Some(Quoted::Null));
        assert_eq!(Quoted::read("unit value"), Some(Quoted::Null));
        assert_eq!(Quoted::read("map"), Some(Quoted::Object));
        assert_eq!(Quoted::read("sequence"), Some(Quoted::Array));
        assert_eq!(Quoted::read("character `c`"), None);
        assert_eq!(Quoted::read("string x"), None);
        assert_eq!(Quoted::read(r#"string "\u{zz}""#), None);
    }

    #[test]
    fn quoted_agrees_with_its_value_only() {
        assert!(Quoted::Integer(5).agrees(&json!(5)));
        assert!(Quoted::Integer(-5).agrees(&json!(-5)));
        assert!(!Quoted::Integer(5).agrees(&json!(5.0)));
        assert!(Quoted::Float(5.0).agrees(&json!(5.0)));
        assert!(!Quoted::Float(5.0).agrees(&json!(5)));
        assert!(!Quoted::Str(String::from("a")).agrees(&json!("b")));
        assert!(Quoted::Object.agrees(&json!({})));
        assert!(!Quoted::Object.is(&json!({})));
        assert!(Quoted::Bool(true).is(&json!(true)));
    }

    #[test]
    fn markers_keep_a_number_out_of_range() {
        assert_eq!(
            markers(&json!(300)),
            [json!(301), json!("\u{1f}"), json!(true)]
        );
        assert_eq!(
            markers(&json!(u64::MAX)),
            [json!(u64::MAX - 1), json!("\u{1f}"), json!(true)]
        );
        assert_eq!(
            markers(&json!(-1)),
            [json!(-2), json!("\u{1f}"), json!(true)]
        );
        assert_eq!(
            markers(&json!(i64::MIN)),
            [json!(i64::MIN + 1), json!("\u{1f}"), json!(true)]
        );
        assert_eq!(
            markers(&json!(1.5)),
            [json!(2.5), json!("\u{1f}"), json!(true)]
        );
        assert_eq!(
            markers(&json!(4.0)),
            [json!(8.0), json!("\u{1f}"), json!(true)]
        );
        assert_eq!(
            markers(&json!(0.0)),
            [json!(1.0), json!("\u{1f}"), json!(true)]
        );
        assert_eq!(markers(&json!(1e308)), [json!("\u{1f}"), json!(true)]);
        assert_eq!(markers(&json!("x")), [json!("x\u{1f}"), json!(true)]);
        assert_eq!(markers(&json!(false)), [json!(true), json!("\u{1f}")]);
        assert_eq!(markers(&json!(null)), [json!("\u{1f}"), json!(true)]);
    }

    #[test]
    fn common_prefix() {
        let p = |s: &[&str]| s.iter().map(|t| String::from(*t)).collect::<Vec<_>>();
        assert_eq!(
            common(&[p(&["a", "b", "c"]), p(&["a", "b", "d"])]),
            p(&["a", "b"])
        );
        assert_eq!(common(&[p(&["a"]), p(&["b"])]), p(&[]));
    }
}
