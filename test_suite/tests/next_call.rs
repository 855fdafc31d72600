//! The next call's arguments, through `envelope::rmcp::Router` and rmcp's
//! client in one process: the router gives every call's context the
//! call's arguments and its tools' input schemas, so a derived error that
//! names a near miss of a value sent, or a tool to call, reaches the model
//! with the whole next call, with no glue in the tool.

use envelope::args::Args;
use envelope::{Envelope, ErrorEnvelope};
use rmcp::handler::server::wrapper::Parameters;
use rmcp::model::CallToolRequestParams;
use rmcp::{ServerHandler, tool, tool_handler, tool_router};
use schemars::JsonSchema;
use serde::Deserialize;
use serde_json::{Value, json};

#[path = "support/in_process.rs"]
mod in_process;
use in_process::connect;

#[derive(Debug, thiserror::Error, Envelope)]
enum ShopError {
    #[error("no table {table}")]
    #[envelope(class = ObjectNotFound, code = "TABLE_NOT_FOUND", suggested_tool = "list_tables")]
    NoTable {
        #[envelope(detail)]
        table: String,
        #[envelope(fuzzy_matches)]
        near: Vec<String>,
    },
    #[error("the order service did not answer")]
    #[envelope(class = Timeout, code = "ORDER_TIMEOUT", suggested_tool = "list_orders")]
    OrderTimeout,
    #[error("a note titled {title} exists")]
    #[envelope(class = AlreadyExists, code = "NOTE_EXISTS", suggested_tool = "update_note")]
    NoteExists {
        title: String,
        #[envelope(detail)]
        id: String,
    },
    #[error("no database connected")]
    #[envelope(class = PreconditionFailed, code = "NOT_CONNECTED", suggested_tool = "connect")]
    NotConnected,
    #[error("limit {limit} is out of range")]
    #[envelope(
        class = InvalidArguments,
        code = "LIMIT_OUT_OF_RANGE",
        argument(path = "/limit", kind = out_of_range, expected = "an integer from 1 to 100")
    )]
    LimitOutOfRange { limit: u32 },
}

#[derive(Deserialize, JsonSchema)]
#[allow(dead_code)] // its input schema is what counts
struct Describe {
    table: String,
    schema: Option<String>,
}

#[derive(Deserialize, JsonSchema)]
#[allow(dead_code)] // its input schema is what counts
struct Order {
    customer_id: String,
    item: String,
}

#[derive(Deserialize, JsonSchema)]
struct Customer {
    customer_id: String,
}

#[derive(Deserialize, JsonSchema)]
#[allow(dead_code)] // its input schema is what counts
struct Note {
    title: String,
    body: String,
}

#[derive(Deserialize, JsonSchema)]
struct Update {
    id: String,
    body: String,
    version: Option<u64>,
}

#[derive(Deserialize, JsonSchema)]
struct Connect {
    database: String,
}

#[derive(Deserialize, JsonSchema)]
#[allow(dead_code)] // its input schema is what counts
struct Query {
    sql: String,
}

#[derive(Deserialize, JsonSchema)]
struct Search {
    query: String,
    #[schemars(range(min = 1, max = 100))]
    limit: Option<u32>,
}

#[derive(Clone)]
struct Shop {
    tool_router: envelope::rmcp::Router<Self>,
}

#[tool_router]
impl Shop {
    #[tool]
    async fn describe_table(
        &self,
        Parameters(Args(args)): Parameters<Args<Describe>>,
    ) -> Result<String, ErrorEnvelope> {
        let Describe { table, .. } = args?;
        Err(ShopError::NoTable {
            near: envelope::fuzzy::suggest(&table, ["EMPLOYEES", "ORDERS"], 3),
            table,
        }
        .into())
    }

    #[tool]
    async fn create_order(
        &self,
        Parameters(Args(args)): Parameters<Args<Order>>,
    ) -> Result<String, ErrorEnvelope> {
        args?;
        Err(ShopError::OrderTimeout.into())
    }

    #[tool]
    async fn list_orders(
        &self,
        Parameters(Args(args)): Parameters<Args<Customer>>,
    ) -> Result<String, ErrorEnvelope> {
        Ok(args?.customer_id)
    }

    #[tool]
    async fn create_note(
        &self,
        Parameters(Args(args)): Parameters<Args<Note>>,
    ) -> Result<String, ErrorEnvelope> {
        let Note { title, .. } = args?;
        Err(ShopError::NoteExists {
            title,
            id: "n-5".into(),
        }
        .into())
    }

    #[tool]
    async fn update_note(
        &self,
        Parameters(Args(args)): Parameters<Args<Update>>,
    ) -> Result<String, ErrorEnvelope> {
        let Update { id, body, version } = args?;
        Ok(format!("{id} {body} {version:?}"))
    }

    #[tool]
    async fn connect(
        &self,
        Parameters(Args(args)): Parameters<Args<Connect>>,
    ) -> Result<String, ErrorEnvelope> {
        Ok(args?.database)
    }

    #[tool]
    async fn run_query(
        &self,
        Parameters(Args(args)): Parameters<Args<Query>>,
    ) -> Result<String, ErrorEnvelope> {
        args?;
        Err(ShopError::NotConnected.into())
    }

    #[tool(annotations(read_only_hint = true))]
    async fn search_orders(
        &self,
        Parameters(Args(args)): Parameters<Args<Search>>,
    ) -> Result<String, ErrorEnvelope> {
        let Search { query, limit } = args?;
        // The schema says 1 to 100; serde takes any u32.
        if let Some(limit) = limit.filter(|limit| !(1..=100).contains(limit)) {
            return Err(ShopError::LimitOutOfRange { limit }.into());
        }
        Ok(query)
    }

    #[tool]
    async fn add_order(
        &self,
        Parameters(Args(args)): Parameters<Args<Search>>,
    ) -> Result<String, ErrorEnvelope> {
        let Search { limit, .. } = args?;
        Err(ShopError::LimitOutOfRange {
            limit: limit.unwrap_or_default(),
        }
        .into())
    }

    #[tool(annotations(read_only_hint = true))]
    async fn lock_rows(&self) -> Result<String, ErrorEnvelope> {
        Err(std::io::Error::from(std::io::ErrorKind::WouldBlock).to_envelope())
    }
}

#[tool_handler(router = self.tool_router)]
impl ServerHandler for Shop {}

/// The envelope (the JSON block) and the text a model reads (the last
/// block) of the call of `tool` with `arguments`.
async fn failure(tool: &'static str, arguments: Value) -> (Value, String) {
    failure_on(Shop::tool_router().into(), tool, arguments).await
}

/// [`failure`] through `tool_router`.
async fn failure_on(
    tool_router: envelope::rmcp::Router<Shop>,
    tool: &'static str,
    arguments: Value,
) -> (Value, String) {
    let client = connect(Shop { tool_router }).await;
    let result = client
        .peer()
        .call_tool(
            CallToolRequestParams::new(tool).with_arguments(arguments.as_object().unwrap().clone()),
        )
        .await
        .unwrap();
    assert_eq!(result.is_error, Some(true));
    let texts: Vec<&str> = result
        .content
        .iter()
        .map(|block| block.as_text().unwrap().text.as_str())
        .collect();
    let [json, text] = texts.as_slice() else {
        panic!("two text blocks: {texts:?}");
    };
    let mut envelope: Value = serde_json::from_str(json).unwrap();
    // The generated correlation id differs on every run.
    envelope.as_object_mut().unwrap().remove("correlation_id");
    let text = text
        .lines()
        .filter(|line| !line.starts_with("Correlation id: "))
        .collect::<Vec<_>>()
        .join("\n");
    (envelope, text)
}

#[tokio::test]
async fn a_near_miss_of_a_sent_value_is_the_corrected_call() {
    let (envelope, text) = failure(
        "describe_table",
        json!({"table": "EMPLOYES", "schema": "HR"}),
    )
    .await;
    assert_eq!(
        envelope,
        json!({
            "isError": true,
            "error_class": "OBJECT_NOT_FOUND",
            "message": "no table EMPLOYES",
            "suggested_tool": "list_tables",
            "fuzzy_matches": ["EMPLOYEES"],
            "code": "TABLE_NOT_FOUND",
            "category": "NotFound",
            "details": {
                "corrected_arguments": {"schema": "HR", "table": "EMPLOYEES"},
                "table": "EMPLOYES"
            }
        })
    );
    let lead = r#"Call this tool again with these arguments: {"schema":"HR","table":"EMPLOYEES"}"#;
    assert_eq!(text, lead);
}

#[tokio::test]
async fn the_check_of_a_write_names_its_call() {
    let (envelope, text) = failure(
        "create_order",
        json!({"customer_id": "c-4", "item": "chair"}),
    )
    .await;
    assert_eq!(
        envelope["details"],
        json!({"suggested_arguments": {"customer_id": "c-4"}})
    );
    assert_eq!(envelope["effect"], "unknown");
    let lead = r#"Do not repeat this call: it may already have taken effect. Call list_orders with {"customer_id":"c-4"} now to check whether it did."#;
    assert_eq!(text, lead);
}

#[tokio::test]
async fn a_detail_of_the_failure_fills_the_suggested_call() {
    let (envelope, text) =
        failure("create_note", json!({"title": "Groceries", "body": "milk"})).await;
    assert_eq!(
        envelope["details"],
        json!({"id": "n-5", "suggested_arguments": {"body": "milk", "id": "n-5"}})
    );
    let lead = r#"Call update_note with {"body":"milk","id":"n-5"} now."#;
    assert_eq!(text, lead);
}

#[tokio::test]
async fn no_call_is_offered_without_every_required_argument() {
    let (envelope, text) = failure("run_query", json!({"sql": "SELECT 1"})).await;
    assert_eq!(envelope.get("details"), None);
    let lead = "Call connect now.";
    assert_eq!(text, lead);
}

#[tokio::test]
async fn a_read_out_of_range_is_sent_again_at_the_bound() {
    let (envelope, text) = failure("search_orders", json!({"query": "chair", "limit": 500})).await;
    assert_eq!(
        envelope,
        json!({
            "isError": true,
            "error_class": "INVALID_ARGUMENTS",
            "message": "1 problem in the arguments: /limit must be an integer from 1 to 100",
            "next_steps": ["fix each argument listed in argument_errors, then call the tool again with the fixed arguments; its inputSchema lists every argument"],
            "code": "LIMIT_OUT_OF_RANGE",
            "category": "Validation",
            "details": {"corrected_arguments": {"limit": 100, "query": "chair"}},
            "argument_errors": [{"path": "/limit", "kind": "out_of_range", "expected": "an integer from 1 to 100"}]
        })
    );
    let lead = r#"Call this tool again with these arguments: {"limit":100,"query":"chair"}"#;
    assert_eq!(
        text,
        format!("{lead}\n- /limit must be an integer from 1 to 100: send 100")
    );
    // A write's number is the user's: the bounds, and no value to send.
    let (envelope, text) = failure("add_order", json!({"query": "chair", "limit": 500})).await;
    assert!(envelope.get("details").is_none(), "{envelope}");
    assert_eq!(
        text.lines().next(),
        Some("Fix these arguments, then call this tool again:")
    );
}

#[tokio::test]
async fn the_router_says_its_own_busy_wait() {
    let (envelope, _) = failure("lock_rows", json!({})).await;
    assert_eq!(envelope["retry_after_ms"], 1000);
    let router = envelope::rmcp::Router::from(Shop::tool_router())
        .with_busy_retry_after(std::time::Duration::from_millis(2500));
    let (envelope, text) = failure_on(router, "lock_rows", json!({})).await;
    assert_eq!(envelope["retry_after_ms"], 2500);
    assert_eq!(envelope["error_class"], "BUSY");
    assert_eq!(text, "Wait 2500 ms, then repeat the same call unchanged.");
}
