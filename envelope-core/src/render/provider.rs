//! A [`ToolResult`] in the wire shapes of the chat APIs a tool loop talks
//! to: OpenAI Chat Completions and Responses, Anthropic Messages, Gemini.
//! Each method gives the JSON the provider expects back for one tool call,
//! for a success and a failure alike.

use serde_json::{Value, json};

use crate::model::tool_result::ToolResult;

impl ToolResult {
    /// An OpenAI Chat Completions message of role `tool`, the answer to
    /// one entry of the assistant's `tool_calls`:
    ///
    /// ```json
    /// {"role":"tool","tool_call_id":"call_xyz","content":"..."}
    /// ```
    ///
    /// The shape has no error flag, so a failure travels in `content` (the
    /// envelope's JSON says `isError`).
    #[must_use]
    pub fn to_openai_message(&self) -> Value {
        json!({
            "role": "tool",
            "tool_call_id": self.tool_call_id,
            "content": self.content,
        })
    }

    /// An OpenAI Responses API input item of type `function_call_output`,
    /// the answer to a `function_call` output item (its `call_id`):
    ///
    /// ```json
    /// {"type":"function_call_output","call_id":"call_xyz","output":"..."}
    /// ```
    ///
    /// As in Chat Completions there is no error flag; the envelope's JSON
    /// in `output` carries `isError`.
    #[must_use]
    pub fn to_openai_responses_item(&self) -> Value {
        json!({
            "type": "function_call_output",
            "call_id": self.tool_call_id,
            "output": self.content,
        })
    }

    /// An Anthropic Messages API `tool_result` content block, sent inside
    /// a `user` message in answer to a `tool_use` block (its `id`):
    ///
    /// ```json
    /// {"type":"tool_result","tool_use_id":"toolu_01","content":"...","is_error":true}
    /// ```
    ///
    /// `is_error: true` only for a failure: the API reads a missing flag as
    /// false.
    #[must_use]
    pub fn to_anthropic_block(&self) -> Value {
        let mut block = json!({
            "type": "tool_result",
            "tool_use_id": self.tool_call_id,
            "content": self.content,
        });
        if self.is_error {
            block["is_error"] = Value::Bool(true);
        }
        block
    }

    /// A Gemini API content part holding a `functionResponse`, the answer
    /// to a `functionCall` part; `name` is the function's declared name,
    /// which Gemini requires and a `ToolResult` does not hold:
    ///
    /// ```json
    /// {"functionResponse":{"id":"call_xyz","name":"get_weather","response":{"output":"..."}}}
    /// {"functionResponse":{"id":"call_xyz","name":"get_weather","response":{"error":{"isError":true,...}}}}
    /// ```
    ///
    /// `response` must be a JSON object; Gemini reads its `output` key as
    /// the function's output and its `error` key as the failure's details.
    /// A failure whose `content` is JSON (the envelope alone, as
    /// [`Envelope::to_tool_result_json`](crate::Envelope::to_tool_result_json)
    /// writes it) goes under `error` as that JSON value, any other content
    /// (what [`Envelope::to_tool_result`](crate::Envelope::to_tool_result)
    /// writes: the JSON, then the text) as a string. `id` is the tool call id, which Gemini uses to match a
    /// response to its call; it is left out when empty.
    #[must_use]
    pub fn to_gemini_part(&self, name: &str) -> Value {
        let response = if self.is_error {
            let details = serde_json::from_str::<Value>(&self.content)
                .unwrap_or_else(|_| Value::String(self.content.clone()));
            json!({ "error": details })
        } else {
            json!({ "output": self.content })
        };
        let mut call = json!({ "name": name, "response": response });
        if !self.tool_call_id.is_empty() {
            call["id"] = Value::String(self.tool_call_id.clone());
        }
        json!({ "functionResponse": call })
    }
}
