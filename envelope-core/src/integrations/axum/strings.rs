//! Arguments that arrive as strings (a URL's query, a route's path
//! parameters), read the way `serde_urlencoded` and axum's `Path` read
//! them: by what the argument type asks for.
//!
//! [`Coerce`] is a deserializer over a JSON value whose leaves are strings.
//! When the type asks for a boolean or a number and the value is a string,
//! the string is parsed (`"5"` is the integer 5, `"true"` the boolean); an
//! `Option` of a present value is `Some`; a sequence accepts one string as
//! a sequence of one (a key given once) or an array (a key given several
//! times). Everything else is the JSON value's own deserializer, so a
//! string that does not parse is a wrong type ("/limit must be an integer,
//! got a string"), and an integer out of the type's range is out of range.
//!
//! What serde reads through a buffer (`#[serde(flatten)]`, untagged
//! enums) asks for "anything", and gets the string, as with
//! `serde_urlencoded`.

use std::borrow::Cow;

use serde::de::value::{MapDeserializer, SeqDeserializer};
use serde::de::{self, DeserializeOwned, Deserializer, IntoDeserializer, Unexpected, Visitor};
use serde_json::{Map, Value};

use crate::args::from_serde;
use crate::model::argument_error::ArgumentError;
use crate::model::envelope::ErrorEnvelope;

/// The values of a query string or of a route's path parameters, as
/// strings, in the shape the argument type is read from.
#[derive(Debug)]
pub(crate) enum Strings {
    /// A query's values by key, for a struct or map (a key given several
    /// times holds an array of its values, in order), and its pairs in
    /// order, `["key", "value"]` each, for a sequence of pairs
    /// (`Vec<(String, String)>`).
    Named {
        /// An object.
        map: Value,
        /// Arrays of two strings.
        pairs: Vec<Value>,
    },
    /// Path parameters in the route's order, for a type that reads them
    /// by position (a tuple) or, with exactly one, as one value.
    Positional(Vec<(String, Value)>),
}

impl Strings {
    /// A query string's pairs (`form_urlencoded`'s, percent-decoded).
    pub(crate) fn query<I, K, V>(pairs: I) -> Self
    where
        I: IntoIterator<Item = (K, V)>,
        K: Into<String>,
        V: Into<String>,
    {
        let mut map = Map::new();
        let mut ordered = Vec::new();
        for (key, value) in pairs {
            let (key, value) = (key.into(), value.into());
            ordered.push(Value::Array(vec![
                Value::String(key.clone()),
                Value::String(value.clone()),
            ]));
            let value = Value::String(value);
            match map.entry(key) {
                serde_json::map::Entry::Vacant(slot) => {
                    slot.insert(value);
                }
                serde_json::map::Entry::Occupied(mut slot) => match slot.get_mut() {
                    Value::Array(values) => values.push(value),
                    first => {
                        let first = first.take();
                        *slot.get_mut() = Value::Array(vec![first, value]);
                    }
                },
            }
        }
        Strings::Named {
            map: Value::Object(map),
            pairs: ordered,
        }
    }

    /// A route's path parameters, in the route's order.
    pub(crate) fn path<I, K, V>(params: I) -> Self
    where
        I: IntoIterator<Item = (K, V)>,
        K: Into<String>,
        V: Into<String>,
    {
        Strings::Positional(
            params
                .into_iter()
                .map(|(name, value)| (name.into(), Value::String(value.into())))
                .collect(),
        )
    }
}

/// The message of a type that reads one path parameter from a route with
/// another number of them: the route and its extractor disagree, a
/// server's mistake.
pub(crate) const PARAMETER_COUNT: &str = "the route's path parameters do not match the type";

/// Parses `strings` into `T`, or returns the `INVALID_ARGUMENTS` envelope
/// naming the problem at the parameter's name (`/limit`): serde's first
/// problem, and with the `jsonschema` feature every problem `T`'s schema
/// finds in the values as the schema types them.
///
/// # Errors
///
/// The envelope; `Err(None)` when the route's parameters and the type
/// disagree (in number, [`PARAMETER_COUNT`], or in names: a field the
/// route does not have, a parameter the type does not take), a server's
/// mistake.
pub(crate) fn parse<T>(strings: &Strings) -> Result<T, Option<ErrorEnvelope>>
where
    T: DeserializeOwned + schemars::JsonSchema,
{
    let (arguments, error) = match strings {
        Strings::Named { map, pairs } => {
            match serde_path_to_error::deserialize(Query { map, pairs }) {
                Ok(value) => return Ok(value),
                Err(error) => (map.clone(), error),
            }
        }
        Strings::Positional(params) => match serde_path_to_error::deserialize(Params(params)) {
            Ok(value) => return Ok(value),
            // The client sends a route's values, never its names or
            // their number: a missing field, an unknown one or another
            // count is the route's disagreement with the type.
            Err(error) if route_mismatch(&error.inner().to_string()) => return Err(None),
            Err(error) => (Params(params).as_value(&error), error),
        },
    };
    // Where serde read through a buffer, the place is found by reading
    // changed arguments again, the same way.
    let retry = |changed: &Value| {
        serde_path_to_error::deserialize::<_, T>(Coerce(changed))
            .err()
            .map(|error| {
                (
                    from_serde::tokens(error.path(), changed),
                    error.inner().to_string(),
                )
            })
    };
    let first = from_serde::problem_with(&error, &as_read(&arguments, &error), &retry);
    #[cfg(feature = "jsonschema")]
    let (problems, omitted) = every_problem::<T>(&arguments, first);
    #[cfg(not(feature = "jsonschema"))]
    let (problems, omitted) = (vec![first], 0);
    Err(Some(crate::args::summarize(for_url(strings, problems), omitted)))
}

/// Whether serde's `message` on path parameters says the route and the
/// type disagree (see [`parse`]).
fn route_mismatch(message: &str) -> bool {
    message == PARAMETER_COUNT
        || message.starts_with("missing field `")
        || message.starts_with("unknown field `")
}

/// `arguments` with the string at the error's place replaced by the
/// integer serde read from it, when it is one: serde's message quotes that
/// integer (`"300"` for a `u8`: ``invalid value: integer `300` ``), and
/// the problem is then placed, and judged out of range, as it would be for
/// the JSON number.
fn as_read<'a>(
    arguments: &'a Value,
    error: &serde_path_to_error::Error<serde_json::Error>,
) -> Cow<'a, Value> {
    let message = error.inner().to_string();
    let quotes_an_integer = ["invalid value: integer `", "invalid type: integer `"]
        .iter()
        .any(|start| message.starts_with(start));
    if !quotes_an_integer {
        return Cow::Borrowed(arguments);
    }
    let mut read = arguments.clone();
    let tokens = from_serde::tokens(error.path(), arguments);
    let at = read.pointer_mut(&crate::args::pointer(&tokens));
    if let Some(at) = at
        && let Value::String(text) = &*at
        && let Some(number) = integer(text).and_then(|integer| match integer {
            Integer::Signed(n) => Some(Value::from(n)),
            Integer::Unsigned(n) => Some(Value::from(n)),
            _ => None,
        })
    {
        *at = number;
    }
    Cow::Owned(read)
}

/// serde's `first` problem, and every problem of `T`'s schema in the
/// values as the schema types them when the `jsonschema` feature is on;
/// how many more were found.
#[cfg(feature = "jsonschema")]
fn every_problem<T: schemars::JsonSchema>(
    arguments: &Value,
    first: ArgumentError,
) -> (Vec<ArgumentError>, usize) {
    crate::args::with_schema::<T>(arguments, first, |schema| {
        let mut typed = arguments.clone();
        schema_types(schema, schema, &mut typed, 0);
        Some(typed)
    })
}

/// The problems in a URL's terms: a URL has no `null` (an optional
/// parameter is one left out), so `"an integer or null"` is `"an
/// integer"`; and positional parameters are named in the paths (`/1`
/// becomes `/id`).
fn for_url(strings: &Strings, mut problems: Vec<ArgumentError>) -> Vec<ArgumentError> {
    for problem in &mut problems {
        if let Some(expected) = &mut problem.expected
            && let Some(kept) = expected.strip_suffix(" or null")
        {
            *expected = kept.to_owned();
        }
    }
    let Strings::Positional(params) = strings else {
        return problems;
    };
    for problem in &mut problems {
        let (head, rest) = match problem.path.strip_prefix('/') {
            Some(tail) => tail.split_once('/').map_or((tail, ""), |(h, r)| (h, r)),
            None => ("", ""),
        };
        let index = match (params.len(), head.parse::<usize>()) {
            // One parameter read as one value: the whole value is it.
            (1, _) if problem.path.is_empty() => Some(0),
            (_, Ok(index)) => Some(index),
            _ => None,
        };
        if let Some((name, _)) = index.and_then(|index| params.get(index)) {
            let name = crate::args::pointer([name.as_str()]);
            problem.path = if rest.is_empty() {
                name
            } else {
                format!("{name}/{rest}")
            };
        }
    }
    problems
}

/// The string values typed as `schema` types them, where a string parses
/// as the only kinds the schema allows (integer, number, boolean), and a
/// string where the schema wants an array made an array of one. `root`
/// resolves `$ref`s; `depth` bounds the work.
#[cfg(feature = "jsonschema")]
fn schema_types(root: &Value, schema: &Value, value: &mut Value, depth: usize) {
    if depth > 16 {
        return;
    }
    let schema = resolve(root, schema, depth);
    match value {
        Value::Object(map) => {
            let properties = schema.get("properties").and_then(Value::as_object);
            for (key, value) in map.iter_mut() {
                if let Some(property) = properties.and_then(|p| p.get(key)) {
                    schema_types(root, property, value, depth + 1);
                }
            }
        }
        Value::Array(items) => {
            let prefix = schema.get("prefixItems").and_then(Value::as_array);
            for (index, item) in items.iter_mut().enumerate() {
                let item_schema = prefix
                    .and_then(|prefix| prefix.get(index))
                    .or_else(|| schema.get("items"));
                if let Some(item_schema) = item_schema {
                    schema_types(root, item_schema, item, depth + 1);
                }
            }
        }
        Value::String(text) => {
            let kinds = kinds(root, schema, depth);
            if kinds.contains(&"string") {
                return;
            }
            if kinds.contains(&"array") {
                let mut one = Value::Array(vec![value.take()]);
                schema_types(root, schema, &mut one, depth + 1);
                *value = one;
                return;
            }
            let integer = kinds.contains(&"integer");
            let number = kinds.contains(&"number");
            let boolean = kinds.contains(&"boolean");
            let typed = if integer || number {
                number_literal(text).map(Value::Number)
            } else {
                None
            };
            let typed = typed.or(match text.as_str() {
                "true" if boolean => Some(Value::Bool(true)),
                "false" if boolean => Some(Value::Bool(false)),
                _ => None,
            });
            if let Some(typed) = typed {
                *value = typed;
            }
        }
        _ => {}
    }
}

/// The JSON types `schema` allows: its `type`, and those of its `anyOf` /
/// `oneOf` alternatives.
#[cfg(feature = "jsonschema")]
fn kinds<'s>(root: &'s Value, schema: &'s Value, depth: usize) -> Vec<&'s str> {
    let schema = resolve(root, schema, depth);
    let mut kinds: Vec<&str> = match schema.get("type") {
        Some(Value::String(kind)) => vec![kind.as_str()],
        Some(Value::Array(list)) => list.iter().filter_map(Value::as_str).collect(),
        _ => Vec::new(),
    };
    if depth < 16 {
        for key in ["anyOf", "oneOf"] {
            for alternative in schema
                .get(key)
                .and_then(Value::as_array)
                .into_iter()
                .flatten()
            {
                kinds.extend(self::kinds(root, alternative, depth + 1));
            }
        }
    }
    if schema.get("enum").is_some() || schema.get("const").is_some() {
        kinds.push("string");
    }
    kinds
}

/// `schema`, or the definition its local `$ref` (`#/$defs/Name`) names.
#[cfg(feature = "jsonschema")]
fn resolve<'s>(root: &'s Value, schema: &'s Value, depth: usize) -> &'s Value {
    let mut schema = schema;
    for _ in depth..16 {
        let Some(target) = schema.get("$ref").and_then(Value::as_str) else {
            break;
        };
        match target
            .strip_prefix('#')
            .and_then(|pointer| root.pointer(pointer))
        {
            Some(found) => schema = found,
            None => break,
        }
    }
    schema
}

/// A deserializer over a JSON value whose leaves are strings, that parses
/// a string where the type asks for a boolean or a number (see the module
/// documentation).
#[derive(Clone, Copy)]
struct Coerce<'a>(&'a Value);

impl<'de> Coerce<'de> {
    /// A tuple: a sequence, whose length the visitor checks.
    fn tuple<V: Visitor<'de>>(
        self,
        _len: usize,
        visitor: V,
    ) -> Result<V::Value, serde_json::Error> {
        self.deserialize_seq(visitor)
    }
}

impl<'de> IntoDeserializer<'de, serde_json::Error> for Coerce<'de> {
    type Deserializer = Self;

    fn into_deserializer(self) -> Self {
        self
    }
}

/// A number the type asks for, from a string: parsed as the widest integer
/// and handed to the visitor, which judges the range (`"300"` for a `u8`
/// is out of range, as the JSON number 300 would be). A type of at most 64
/// bits gets digits beyond 64 bits as out of its range, as serde_json
/// reads such a literal (a float no 64-bit type takes), and a 128-bit type
/// digits beyond its own bounds; not as an integer its visitor has no
/// method for or quotes as one of another type.
macro_rules! integer {
    ($($method:ident: $bits:literal $signed:literal,)*) => {$(
        fn $method<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, Self::Error> {
            let beyond = || de::Error::invalid_value(Unexpected::Other("integer"), &visitor);
            match self.0 {
                Value::String(text) => match integer(text) {
                    Some(Integer::Signed(n)) => visitor.visit_i64(n),
                    Some(Integer::Unsigned(n)) => visitor.visit_u64(n),
                    Some(Integer::Wide(n)) if $bits == 128 && $signed => visitor.visit_i128(n),
                    Some(Integer::Wide(n)) if $bits == 128 && n > 0 => {
                        visitor.visit_u128(n.unsigned_abs())
                    }
                    Some(Integer::WideUnsigned(n)) if $bits == 128 && !$signed => {
                        visitor.visit_u128(n)
                    }
                    Some(_) => Err(beyond()),
                    None => self.0.$method(visitor),
                },
                _ => self.0.$method(visitor),
            }
        }
    )*};
}

/// Methods that read the value as it is.
macro_rules! forward {
    ($($method:ident)*) => {$(
        fn $method<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, Self::Error> {
            self.0.$method(visitor)
        }
    )*};
}

/// The shapes read as another: a struct as a map, a tuple (struct) as a
/// sequence (through the type's own `tuple`, which may check the length).
macro_rules! shapes {
    () => {
        fn deserialize_struct<V: Visitor<'de>>(
            self,
            _name: &'static str,
            _fields: &'static [&'static str],
            visitor: V,
        ) -> Result<V::Value, Self::Error> {
            self.deserialize_map(visitor)
        }

        fn deserialize_tuple<V: Visitor<'de>>(
            self,
            len: usize,
            visitor: V,
        ) -> Result<V::Value, Self::Error> {
            self.tuple(len, visitor)
        }

        fn deserialize_tuple_struct<V: Visitor<'de>>(
            self,
            _name: &'static str,
            len: usize,
            visitor: V,
        ) -> Result<V::Value, Self::Error> {
            self.tuple(len, visitor)
        }

        fn deserialize_newtype_struct<V: Visitor<'de>>(
            self,
            _name: &'static str,
            visitor: V,
        ) -> Result<V::Value, Self::Error> {
            visitor.visit_newtype_struct(self)
        }
    };
}

impl<'de> Deserializer<'de> for Coerce<'de> {
    type Error = serde_json::Error;

    shapes!();

    fn deserialize_any<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, Self::Error> {
        match self.0 {
            Value::Object(map) => visit_map(map.iter(), visitor),
            Value::Array(items) => visit_seq(items.iter(), visitor),
            other => other.deserialize_any(visitor),
        }
    }

    fn deserialize_bool<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, Self::Error> {
        match self.0 {
            Value::String(text) if text == "true" => visitor.visit_bool(true),
            Value::String(text) if text == "false" => visitor.visit_bool(false),
            other => other.deserialize_bool(visitor),
        }
    }

    integer!(
        deserialize_i8: 8 true, deserialize_i16: 16 true, deserialize_i32: 32 true,
        deserialize_i64: 64 true, deserialize_i128: 128 true,
        deserialize_u8: 8 false, deserialize_u16: 16 false, deserialize_u32: 32 false,
        deserialize_u64: 64 false, deserialize_u128: 128 false,
    );

    fn deserialize_f32<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, Self::Error> {
        self.deserialize_f64(visitor)
    }

    fn deserialize_f64<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, Self::Error> {
        match self.0 {
            Value::String(text) => match number_literal(text).and_then(|n| n.as_f64()) {
                Some(number) => visitor.visit_f64(number),
                None => self.0.deserialize_f64(visitor),
            },
            other => other.deserialize_f64(visitor),
        }
    }

    fn deserialize_option<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, Self::Error> {
        match self.0 {
            Value::Null => visitor.visit_none(),
            _ => visitor.visit_some(self),
        }
    }

    fn deserialize_seq<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, Self::Error> {
        match self.0 {
            Value::Array(items) => visit_seq(items.iter(), visitor),
            // A key given once.
            Value::String(_) => visit_seq(std::iter::once(self.0), visitor),
            other => other.deserialize_seq(visitor),
        }
    }

    fn deserialize_map<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, Self::Error> {
        match self.0 {
            Value::Object(map) => visit_map(map.iter(), visitor),
            other => other.deserialize_map(visitor),
        }
    }

    fn deserialize_enum<V: Visitor<'de>>(
        self,
        name: &'static str,
        variants: &'static [&'static str],
        visitor: V,
    ) -> Result<V::Value, Self::Error> {
        self.0.deserialize_enum(name, variants, visitor)
    }

    fn deserialize_unit_struct<V: Visitor<'de>>(
        self,
        name: &'static str,
        visitor: V,
    ) -> Result<V::Value, Self::Error> {
        self.0.deserialize_unit_struct(name, visitor)
    }

    forward!(
        deserialize_char deserialize_str deserialize_string deserialize_bytes
        deserialize_byte_buf deserialize_unit deserialize_identifier deserialize_ignored_any
    );
}

/// `entries` as a map of coerced values.
fn visit_map<'de, V: Visitor<'de>>(
    entries: impl Iterator<Item = (&'de String, &'de Value)>,
    visitor: V,
) -> Result<V::Value, serde_json::Error> {
    let mut access = MapDeserializer::new(entries.map(|(k, v)| (k.as_str(), Coerce(v))));
    let value = visitor.visit_map(&mut access)?;
    access.end()?;
    Ok(value)
}

/// `items` as a sequence of coerced values.
fn visit_seq<'de, V: Visitor<'de>>(
    items: impl Iterator<Item = &'de Value>,
    visitor: V,
) -> Result<V::Value, serde_json::Error> {
    let mut access = SeqDeserializer::new(items.map(Coerce));
    let value = visitor.visit_seq(&mut access)?;
    access.end()?;
    Ok(value)
}

/// A number as a URL carries it: a JSON number literal (`5`, `-1.5`,
/// `2e3`), with an optional leading `+`; no spaces, no `NaN` or `inf`.
fn number_literal(text: &str) -> Option<serde_json::Number> {
    let literal = text.strip_prefix('+').unwrap_or(text);
    if literal.is_empty()
        || !literal
            .bytes()
            .all(|b| b.is_ascii_digit() || b"-.eE+".contains(&b))
    {
        return None;
    }
    serde_json::from_str(literal).ok()
}

/// An integer literal (`-12`, `+7`, `300`), by the narrowest type that
/// holds it.
enum Integer {
    Signed(i64),
    Unsigned(u64),
    Wide(i128),
    WideUnsigned(u128),
    /// Digits beyond 128 bits: out of every integer type's range.
    Huge,
}

fn integer(text: &str) -> Option<Integer> {
    let digits = text.strip_prefix(['-', '+']).unwrap_or(text);
    if digits.is_empty() || !digits.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    let text = text.strip_prefix('+').unwrap_or(text);
    Some(if let Ok(n) = text.parse::<i64>() {
        Integer::Signed(n)
    } else if let Ok(n) = text.parse::<u64>() {
        Integer::Unsigned(n)
    } else if let Ok(n) = text.parse::<i128>() {
        Integer::Wide(n)
    } else if let Ok(n) = text.parse::<u128>() {
        Integer::WideUnsigned(n)
    } else {
        Integer::Huge
    })
}

/// A query string, read as a map of its keys (a struct, a map), or as a
/// sequence of its pairs (`Vec<(String, String)>`, as `serde_urlencoded`
/// reads it).
#[derive(Clone, Copy)]
struct Query<'a> {
    map: &'a Value,
    pairs: &'a [Value],
}

impl<'de> Query<'de> {
    /// A tuple: the sequence of pairs, whose length the visitor checks.
    fn tuple<V: Visitor<'de>>(
        self,
        _len: usize,
        visitor: V,
    ) -> Result<V::Value, serde_json::Error> {
        self.deserialize_seq(visitor)
    }
}

/// Methods that read the query by its keys.
macro_rules! by_key {
    ($($method:ident)*) => {$(
        fn $method<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, Self::Error> {
            Coerce(self.map).$method(visitor)
        }
    )*};
}

impl<'de> Deserializer<'de> for Query<'de> {
    type Error = serde_json::Error;

    shapes!();

    fn deserialize_seq<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, Self::Error> {
        visit_seq(self.pairs.iter(), visitor)
    }

    fn deserialize_enum<V: Visitor<'de>>(
        self,
        name: &'static str,
        variants: &'static [&'static str],
        visitor: V,
    ) -> Result<V::Value, Self::Error> {
        Coerce(self.map).deserialize_enum(name, variants, visitor)
    }

    fn deserialize_unit_struct<V: Visitor<'de>>(
        self,
        name: &'static str,
        visitor: V,
    ) -> Result<V::Value, Self::Error> {
        Coerce(self.map).deserialize_unit_struct(name, visitor)
    }

    by_key!(
        deserialize_any deserialize_bool deserialize_i8 deserialize_i16 deserialize_i32
        deserialize_i64 deserialize_i128 deserialize_u8 deserialize_u16 deserialize_u32
        deserialize_u64 deserialize_u128 deserialize_f32 deserialize_f64 deserialize_char
        deserialize_str deserialize_string deserialize_bytes deserialize_byte_buf
        deserialize_option deserialize_unit deserialize_map deserialize_identifier
        deserialize_ignored_any
    );
}

/// Path parameters by position, read in the shape the type asks for: a
/// struct or map by name, a tuple or sequence by position, anything else
/// from the one parameter there must be.
#[derive(Clone, Copy)]
struct Params<'a>(&'a [(String, Value)]);

impl<'de> Params<'de> {
    /// A tuple of as many items as the route has parameters; another
    /// number is the route's and the type's disagreement.
    fn tuple<V: Visitor<'de>>(self, len: usize, visitor: V) -> Result<V::Value, serde_json::Error> {
        if len != self.0.len() {
            return Err(de::Error::custom(PARAMETER_COUNT));
        }
        self.deserialize_seq(visitor)
    }
}

impl Params<'_> {
    /// The parameters as the problem's arguments: an object for a type
    /// that read them by name (the problem's path has a name), an array by
    /// position, or the one value.
    fn as_value(self, error: &serde_path_to_error::Error<serde_json::Error>) -> Value {
        let by_name = matches!(
            error.path().iter().next(),
            Some(serde_path_to_error::Segment::Map { .. })
        );
        match self.0 {
            [(_, one)] if !by_name && error.path().iter().next().is_none() => one.clone(),
            params if by_name => Value::Object(
                params
                    .iter()
                    .map(|(name, value)| (name.clone(), value.clone()))
                    .collect(),
            ),
            params => Value::Array(params.iter().map(|(_, value)| value.clone()).collect()),
        }
    }
}

/// Methods that read one value: the one parameter's.
macro_rules! one {
    ($($method:ident)*) => {$(
        fn $method<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, Self::Error> {
            match self.0 {
                [(_, value)] => Coerce(value).$method(visitor),
                _ => Err(de::Error::custom(PARAMETER_COUNT)),
            }
        }
    )*};
}

impl<'de> Deserializer<'de> for Params<'de> {
    type Error = serde_json::Error;

    shapes!();

    fn deserialize_any<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, Self::Error> {
        self.deserialize_map(visitor)
    }

    fn deserialize_map<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, Self::Error> {
        visit_map(self.0.iter().map(|(k, v)| (k, v)), visitor)
    }

    fn deserialize_seq<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, Self::Error> {
        visit_seq(self.0.iter().map(|(_, v)| v), visitor)
    }

    fn deserialize_enum<V: Visitor<'de>>(
        self,
        name: &'static str,
        variants: &'static [&'static str],
        visitor: V,
    ) -> Result<V::Value, Self::Error> {
        match self.0 {
            [(_, value)] => Coerce(value).deserialize_enum(name, variants, visitor),
            _ => Err(de::Error::custom(PARAMETER_COUNT)),
        }
    }

    fn deserialize_unit_struct<V: Visitor<'de>>(
        self,
        name: &'static str,
        visitor: V,
    ) -> Result<V::Value, Self::Error> {
        match self.0 {
            [(_, value)] => Coerce(value).deserialize_unit_struct(name, visitor),
            _ => Err(de::Error::custom(PARAMETER_COUNT)),
        }
    }

    one!(
        deserialize_bool deserialize_i8 deserialize_i16 deserialize_i32 deserialize_i64
        deserialize_i128 deserialize_u8 deserialize_u16 deserialize_u32 deserialize_u64
        deserialize_u128 deserialize_f32 deserialize_f64 deserialize_char deserialize_str
        deserialize_string deserialize_bytes deserialize_byte_buf deserialize_option
        deserialize_unit deserialize_identifier deserialize_ignored_any
    );
}

#[cfg(test)]
mod tests {
    use std::collections::BTreeMap;

    use serde::Deserialize;
    use serde_json::json;

    use super::*;

    #[derive(Debug, PartialEq, Deserialize, schemars::JsonSchema)]
    #[serde(deny_unknown_fields)]
    struct Search {
        q: String,
        limit: Option<u8>,
        exact: Option<bool>,
        #[serde(default)]
        tag: Vec<String>,
        offset: Option<i128>,
        ratio: Option<f64>,
    }

    fn query(text: &str) -> Strings {
        Strings::query(form_urlencoded::parse(text.as_bytes()))
    }

    fn problems(envelope: Option<ErrorEnvelope>) -> Value {
        serde_json::to_value(&envelope.expect("an envelope").argument_errors).unwrap()
    }

    #[test]
    fn query_values_are_read_as_the_type_asks() {
        let search: Search =
            parse(&query("q=a+b%21&limit=5&exact=true&tag=x&tag=y&offset=-170141183460469231731687303715884105728&ratio=2.5e-1")).unwrap();
        assert_eq!(
            search,
            Search {
                q: String::from("a b!"),
                limit: Some(5),
                exact: Some(true),
                tag: vec![String::from("x"), String::from("y")],
                offset: Some(i128::MIN),
                ratio: Some(0.25),
            }
        );
        // A key given once fills a one-item Vec; absent options are None.
        let search: Search = parse(&query("q=7&tag=only")).unwrap();
        assert_eq!(search.q, "7");
        assert_eq!(search.tag, ["only"]);
        assert_eq!((search.limit, search.exact), (None, None));
        // A `+` sign is allowed, as Rust's parsers allow it.
        let search: Search = parse(&query("q=&limit=%2B9")).unwrap();
        assert_eq!(search.limit, Some(9));
    }

    #[test]
    fn query_problems_are_at_the_parameter() {
        let cases = [
            ("limit=5", json!([{"path": "/q", "kind": "missing"}])),
            (
                "q=a&exact=yes",
                json!([{"path": "/exact", "kind": "wrong_type", "expected": "a boolean", "received": "string"}]),
            ),
            (
                "q=a&limit=256",
                json!([{"path": "/limit", "kind": "out_of_range", "expected": "an integer from 0 to 255", "received": "integer"}]),
            ),
            (
                "q=a&limit=-1",
                json!([{"path": "/limit", "kind": "out_of_range", "expected": "an integer from 0 to 255", "received": "integer"}]),
            ),
            (
                "q=a&limit=",
                json!([{"path": "/limit", "kind": "wrong_type", "expected": "an integer", "received": "string"}]),
            ),
            (
                "q=a&ratio=NaN",
                json!([{"path": "/ratio", "kind": "wrong_type", "expected": "a number", "received": "string"}]),
            ),
            (
                "q=a&limit=1&limit=2",
                json!([{"path": "/limit", "kind": "wrong_type", "expected": "an integer", "received": "array"}]),
            ),
        ];
        for (text, expected) in cases {
            let error = parse::<Search>(&query(text)).unwrap_err();
            assert_eq!(problems(error), expected, "{text}");
        }
    }

    #[test]
    fn query_pairs_in_order() {
        let pairs: Vec<(String, String)> = parse(&query("b=1&a=2&b=3")).unwrap();
        let expected = [("b", "1"), ("a", "2"), ("b", "3")];
        assert_eq!(pairs, expected.map(|(k, v)| (k.to_owned(), v.to_owned())));
        let typed: Vec<(String, u8)> = parse(&query("x=1&y=2")).unwrap();
        assert_eq!(typed, [(String::from("x"), 1), (String::from("y"), 2)]);
        let map: BTreeMap<String, Vec<u8>> = parse(&query("x=1&y=2&x=3")).unwrap();
        assert_eq!(map["x"], [1, 3]);
    }

    /// Every integer width, one past each bound, in a query and as a
    /// path value: `out_of_range` with the type's bounds, with serde alone
    /// and with the schema.
    #[test]
    fn every_width_out_of_range_names_its_bounds() {
        #[derive(Debug, Deserialize, schemars::JsonSchema)]
        struct One<T> {
            #[allow(dead_code)]
            n: T,
        }
        fn check<T>(min: &str, max: &str, below: &str, above: &str)
        where
            T: serde::de::DeserializeOwned + schemars::JsonSchema + std::fmt::Debug,
        {
            let expected = format!("an integer from {min} to {max}");
            for text in [below, above] {
                let problem = json!([{"path": "/n", "kind": "out_of_range", "expected": expected, "received": "integer"}]);
                let from_query = parse::<One<T>>(&query(&format!("n={text}"))).unwrap_err();
                assert_eq!(problems(from_query), problem, "query {text}");
                let from_path = parse::<T>(&Strings::path([("n", text)])).unwrap_err();
                assert_eq!(problems(from_path), problem, "path {text}");
            }
        }
        check::<u8>("0", "255", "-1", "256");
        check::<u16>("0", "65535", "-1", "65536");
        check::<u32>("0", "4294967295", "-1", "99999999999");
        check::<u64>("0", "18446744073709551615", "-1", "18446744073709551616");
        check::<usize>("0", "18446744073709551615", "-1", "18446744073709551616");
        check::<i8>("-128", "127", "-129", "128");
        check::<i16>("-32768", "32767", "-32769", "32768");
        check::<i32>("-2147483648", "2147483647", "-2147483649", "2147483648");
        check::<i64>(
            "-9223372036854775808",
            "9223372036854775807",
            "-9223372036854775809",
            "9223372036854775808",
        );
        check::<u128>(
            "0",
            "340282366920938463463374607431768211455",
            "-1",
            "340282366920938463463374607431768211456",
        );
        check::<u128>(
            "0",
            "340282366920938463463374607431768211455",
            "-9223372036854775809",
            "340282366920938463463374607431768211456",
        );
        // Within 128 bits, beyond 64: read.
        let wide: u128 = parse(&Strings::path([("n", "170141183460469231731687303715884105728")])).unwrap();
        assert_eq!(wide, 1 << 127);
        let wide: u128 = parse(&Strings::path([("n", "18446744073709551616")])).unwrap();
        assert_eq!(wide, 1 << 64);
        check::<i128>(
            "-170141183460469231731687303715884105728",
            "170141183460469231731687303715884105727",
            "-170141183460469231731687303715884105729",
            "170141183460469231731687303715884105728",
        );
    }

    #[test]
    fn digits_beyond_128_bits_are_out_of_range() {
        let huge = format!("q=a&offset={}", "9".repeat(60));
        let error = parse::<Search>(&query(&huge)).unwrap_err().unwrap();
        assert_eq!(
            error.argument_errors[0].kind,
            crate::ArgumentErrorKind::OutOfRange
        );
        assert_eq!(
            error.argument_errors[0].received.as_deref(),
            Some("integer")
        );
    }

    #[test]
    fn path_parameters_by_name_position_or_alone() {
        let params = || Strings::path([("table", "EMP"), ("row", "12")]);
        #[derive(Debug, PartialEq, Deserialize, schemars::JsonSchema)]
        struct Cell {
            table: String,
            row: u32,
        }
        assert_eq!(
            parse::<Cell>(&params()).unwrap(),
            Cell {
                table: String::from("EMP"),
                row: 12
            }
        );
        assert_eq!(
            parse::<(String, u32)>(&params()).unwrap(),
            (String::from("EMP"), 12)
        );
        assert_eq!(
            parse::<BTreeMap<String, String>>(&params()).unwrap(),
            BTreeMap::from([
                (String::from("row"), String::from("12")),
                (String::from("table"), String::from("EMP"))
            ])
        );
        assert_eq!(parse::<u64>(&Strings::path([("id", "7")])).unwrap(), 7);

        // The position is named in the path.
        let bad = || Strings::path([("table", "EMP"), ("row", "twelve")]);
        let expected = json!([{"path": "/row", "kind": "wrong_type", "expected": "an integer", "received": "string"}]);
        assert_eq!(
            problems(parse::<(String, u32)>(&bad()).unwrap_err()),
            expected
        );
        assert_eq!(problems(parse::<Cell>(&bad()).unwrap_err()), expected);
        let alone = parse::<u8>(&Strings::path([("id", "300")])).unwrap_err();
        assert_eq!(
            problems(alone),
            json!([{"path": "/id", "kind": "out_of_range", "expected": "an integer from 0 to 255", "received": "integer"}])
        );
        // One value from two parameters, a tuple of another length: the
        // route and the type disagree.
        assert_eq!(parse::<u32>(&params()).unwrap_err(), None);
        assert_eq!(parse::<(String, u32, u32)>(&params()).unwrap_err(), None);
        assert_eq!(parse::<(String,)>(&params()).unwrap_err(), None);
        // Names the route does not have, or a parameter the type does not
        // take: the same disagreement, whatever the values.
        #[derive(Debug, Deserialize, schemars::JsonSchema)]
        #[serde(deny_unknown_fields)]
        struct Row {
            #[allow(dead_code)]
            row: u32,
        }
        assert_eq!(parse::<Row>(&params()).unwrap_err(), None);
        assert_eq!(parse::<Row>(&Strings::path([("id", "x")])).unwrap_err(), None);
        assert_eq!(parse::<Cell>(&Strings::path([("row", "1")])).unwrap_err(), None);
    }

    #[cfg(feature = "jsonschema")]
    #[test]
    fn with_the_schema_every_problem_of_the_query() {
        let error = parse::<Search>(&query("limit=999&exact=maybe&tag=a&tag=b")).unwrap_err();
        assert_eq!(
            problems(error),
            json!([
                {"path": "/q", "kind": "missing"},
                {"path": "/exact", "kind": "wrong_type", "expected": "a boolean", "received": "string"},
                {"path": "/limit", "kind": "out_of_range", "expected": "an integer from 0 to 255", "received": "integer"}
            ])
        );
    }
}

