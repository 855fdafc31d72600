//! A failing MCP tool call, exported through the real OpenTelemetry SDK
//! (`tracing-opentelemetry` into the SDK's in-memory exporter): the
//! call's span has the MCP semantic conventions' name, kind, attributes
//! and error status, and the crate's own `envelope.` attributes.
#![cfg(feature = "otel")]

use std::collections::BTreeMap;

use opentelemetry::trace::{SpanKind, Status, TracerProvider as _};
use opentelemetry_sdk::trace::{InMemorySpanExporter, SdkTracerProvider};
use rmcp::model::{CallToolRequestParams, MetaObject, RequestMetaObject};
use serde_json::json;
use tracing_subscriber::layer::SubscriberExt;

#[path = "../examples/notes_mcp.rs"]
#[allow(dead_code)] // its `main`
mod notes_mcp;

#[path = "support/in_process.rs"]
mod in_process;
use in_process::connect;

#[tokio::test]
async fn a_failed_tool_call_is_a_failed_span_with_the_conventional_names() {
    let exporter = InMemorySpanExporter::default();
    let provider = SdkTracerProvider::builder()
        .with_simple_exporter(exporter.clone())
        .build();
    let layer = tracing_opentelemetry::layer()
        .with_tracer(provider.tracer("otel-test"))
        // Only the span's own fields, not where or on which thread it ran.
        .with_location(false)
        .with_threads(false)
        .with_tracked_inactivity(false);
    let subscriber = tracing_subscriber::registry().with(layer);
    tracing::subscriber::set_global_default(subscriber).unwrap();

    let client = connect(notes_mcp::Notes::new(false)).await;
    let mut params = CallToolRequestParams::new("get_note")
        .with_arguments(json!({"id": "n-9"}).as_object().cloned().unwrap());
    let meta = json!({"correlationId": "corr-7"})
        .as_object()
        .cloned()
        .unwrap();
    params.meta = Some(RequestMetaObject(MetaObject::from(meta)));
    let result = client.peer().call_tool(params).await.unwrap();
    assert_eq!(result.is_error, Some(true));
    client.cancel().await.unwrap();
    provider.force_flush().unwrap();

    // rmcp's own spans (`serve_inner`, client and server) aside, one span:
    // the call's.
    let spans = exporter.get_finished_spans().unwrap();
    let ours: Vec<_> = spans
        .iter()
        .filter(|span| span.name != "serve_inner")
        .collect();
    let names: Vec<&str> = ours.iter().map(|span| span.name.as_ref()).collect();
    assert_eq!(names, ["tools/call get_note"]);
    let span = ours[0];
    assert_eq!(span.span_kind, SpanKind::Server);
    assert_eq!(
        span.status,
        Status::Error {
            description: "no note has the id n-9".into()
        }
    );
    let attributes: BTreeMap<String, String> = span
        .attributes
        .iter()
        .map(|kv| (kv.key.to_string(), kv.value.to_string()))
        .collect();
    let expected: BTreeMap<String, String> = [
        ("tool", "\"get_note\""),
        ("correlation_id", "\"corr-7\""),
        ("mcp.method.name", "tools/call"),
        ("gen_ai.operation.name", "execute_tool"),
        ("gen_ai.tool.name", "get_note"),
        ("error.type", "tool_error"),
        ("envelope.error_class", "OBJECT_NOT_FOUND"),
        ("envelope.code", "NOT_FOUND"),
        ("envelope.owner", "caller"),
        ("envelope.retryable", "false"),
        ("envelope.effect", "nothing"),
        // tracing-opentelemetry's: the span's `tracing` target.
        ("target", "envelope_core::call::span"),
    ]
    .into_iter()
    .map(|(key, value)| (key.to_owned(), value.to_owned()))
    .collect();
    assert_eq!(attributes, expected);

    // The operator's log line is an event of the span.
    let events: Vec<(&str, BTreeMap<String, String>)> = span
        .events
        .iter()
        .map(|event| {
            let fields = event
                .attributes
                .iter()
                .map(|kv| (kv.key.to_string(), kv.value.to_string()))
                .collect();
            (event.name.as_ref(), fields)
        })
        .collect();
    assert_eq!(events.len(), 1, "{events:#?}");
    assert_eq!(events[0].0, "tool call failed");
    let fields = &events[0].1;
    let value = |key: &str| fields.get(key).map(String::as_str);
    assert_eq!(value("envelope.error_class"), Some("\"OBJECT_NOT_FOUND\""));
    assert_eq!(value("envelope.correlation_id"), Some("\"corr-7\""));
    // The operator's text is the error's own `Display` (the tool's `?`
    // into `ErrorEnvelope` kept it), not the model's message.
    assert_eq!(value("exception.message"), Some("\"no note n-9\""));
}
