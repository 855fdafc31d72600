//! [`Args`], the checked-arguments extractor for rmcp tools.

use std::borrow::Cow;

use serde::de::DeserializeOwned;
use serde::{Deserialize, Deserializer};
use serde_json::Value;

use crate::model::envelope::ErrorEnvelope;

/// A tool's arguments, checked: `Ok(T)`, or the `INVALID_ARGUMENTS`
/// envelope naming every problem (feature `schemars`, which `rmcp` turns
/// on).
///
/// With rmcp, declare the parameter as `Parameters<Args<T>>` and return
/// the envelope with `?`:
///
/// ```ignore
/// use envelope::ErrorEnvelope;
/// use envelope::args::Args;
/// use rmcp::handler::server::wrapper::Parameters;
///
/// #[tool]
/// async fn describe_table(
///     &self,
///     Parameters(Args(args)): Parameters<Args<TableArgs>>,
/// ) -> Result<Json<TableInfo>, ErrorEnvelope> {
///     let TableArgs { table } = args?;
///     // ...
/// }
/// ```
///
/// - **Never fails to deserialize** from a JSON value: a failure is kept in
///   the `Err` and reaches the tool, so the model gets a tool result with
///   `isError: true` and the envelope (class, paths, kinds, suggestions),
///   instead of the plain text `failed to deserialize parameters: ...` that
///   rmcp (1.8 and later, 3.11 included) answers for a `Parameters<T>` that
///   does not deserialize.
/// - **Its JSON Schema is exactly `T`'s** (the same name, id and schema),
///   so the tool's published `inputSchema` does not change.
/// - Checking is `args::parse_with_schema` with the `jsonschema` feature
///   (every problem at once) and [`args::parse`](super::parse) without it
///   (serde's first problem). A failed check also names each top-level key
///   that `T`'s schema does not list as an unknown key, with its near
///   misses, even when `T` ignores unknown keys (no
///   `#[serde(deny_unknown_fields)]`): `titel` sent for `title` gives the
///   corrected call `{"title": ...}`, not only "`/title` is missing".
///
/// `Args` is plain serde and schemars, so any framework that deserializes
/// tool arguments with serde and publishes a schemars schema can use it
/// the same way.
#[derive(Debug, Clone, PartialEq)]
#[cfg_attr(docsrs, doc(cfg(feature = "schemars")))]
pub struct Args<T>(pub Result<T, ErrorEnvelope>);

impl<T> Args<T> {
    /// The arguments, or the envelope to return from the tool.
    ///
    /// # Errors
    ///
    /// The `INVALID_ARGUMENTS` envelope when the arguments did not
    /// deserialize into `T`.
    pub fn into_inner(self) -> Result<T, ErrorEnvelope> {
        self.0
    }
}

impl<'de, T> Deserialize<'de> for Args<T>
where
    T: DeserializeOwned + schemars::JsonSchema,
{
    /// Reads any JSON value and checks it as `T`; fails only when the
    /// input is not JSON at all (the deserializer's own error).
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        let arguments = Value::deserialize(deserializer)?;
        Ok(Args(super::check::<T>(arguments)))
    }
}

/// `T`'s schema, unchanged: `Parameters<Args<T>>` publishes the same
/// `inputSchema` as `Parameters<T>`.
impl<T: schemars::JsonSchema> schemars::JsonSchema for Args<T> {
    fn inline_schema() -> bool {
        T::inline_schema()
    }

    fn schema_name() -> Cow<'static, str> {
        T::schema_name()
    }

    fn schema_id() -> Cow<'static, str> {
        T::schema_id()
    }

    fn json_schema(generator: &mut schemars::SchemaGenerator) -> schemars::Schema {
        T::json_schema(generator)
    }
}
