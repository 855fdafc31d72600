//! What the keyed-call tests share: a tool call carrying an idempotency
//! key, and what its result says.

use rmcp::model::{CallToolRequestParams, CallToolResult, MetaObject, RequestMetaObject};
use serde_json::Value;

/// A call of `tool` with `arguments`, and `_meta.idempotencyKey` when
/// `key` is given.
pub fn call(tool: &'static str, arguments: Value, key: Option<&str>) -> CallToolRequestParams {
    let mut params = CallToolRequestParams::new(tool)
        .with_arguments(arguments.as_object().cloned().unwrap_or_default());
    if let Some(key) = key {
        let mut meta = serde_json::Map::new();
        meta.insert("idempotencyKey".into(), Value::from(key));
        params.meta = Some(RequestMetaObject(MetaObject(meta)));
    }
    params
}

/// The result's last text block: a success's only one, an error's text
/// a model reads (after the envelope's JSON).
pub fn text(result: &CallToolResult) -> String {
    result
        .content
        .last()
        .unwrap()
        .as_text()
        .unwrap()
        .text
        .clone()
}

/// Whether the result is a stored answer sent again.
pub fn replayed(result: &CallToolResult) -> bool {
    result
        .meta
        .as_ref()
        .and_then(|meta| meta.get("idempotentReplay"))
        == Some(&Value::Bool(true))
}

/// The code of the failure the result reports, if it reports one.
pub fn code(result: &CallToolResult) -> Option<String> {
    envelope::host::read_call_tool_result(result)
        .and_then(|envelope| envelope.code.clone())
        .map(|code| code.into_owned())
}
