//! The server the official MCP conformance suite
//! (`@modelcontextprotocol/conformance`, pinned in
//! `test_suite/conformance/package.json`) is run against in `.ci/run`: an
//! rmcp server whose tools are routed by `envelope::rmcp::Router` with its
//! defaults, served over rmcp's streamable HTTP transport on 127.0.0.1.
//!
//! It implements the suite's test tools that a tool router answers
//! (`test_simple_text`, `test_error_handling`, `test_image_content`,
//! `test_audio_content`, `test_embedded_resource`,
//! `test_multiple_content_types`); the scenarios it leaves out are listed,
//! each with its reason, in `test_suite/conformance/expected-failures.yml`.
//! `test_error_handling`'s error is a derived type's, through plain `?`.
//!
//! Run: `cargo run -p envelope-test-suite --example conformance_server
//! --features conformance -- 127.0.0.1:PORT` (port 0 picks one); it prints
//! the URL of its endpoint (`http://127.0.0.1:PORT/mcp`) on its first line
//! and serves until killed.

use std::sync::Arc;

use envelope::Envelope;
use rmcp::model::{CallToolResult, ContentBlock, ResourceContents};
use rmcp::transport::streamable_http_server::session::local::LocalSessionManager;
use rmcp::transport::streamable_http_server::{StreamableHttpServerConfig, StreamableHttpService};
use rmcp::{ServerHandler, tool, tool_handler, tool_router};

/// A 1x1 red PNG, base64.
const PNG: &str = "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8DwHwAFBQIAX8jx0gAAAABJRU5ErkJggg==";

/// A WAV header with no samples, base64.
const WAV: &str = "UklGRiQAAABXQVZFZm10IBAAAAABAAEAQB8AAIA+AAACABAAZGF0YQAAAAA=";

/// The failure of `test_error_handling`.
#[derive(Debug, thiserror::Error, Envelope)]
pub enum TestError {
    /// Always.
    #[error("This tool intentionally returns an error for testing")]
    #[envelope(class = Unsupported, next_step = "do not call this tool again: it always fails")]
    Intentional,
}

/// The suite's test tools.
#[derive(Clone)]
struct Conformance {
    tool_router: envelope::rmcp::Router<Self>,
}

#[tool_router]
impl Conformance {
    /// Returns a simple text.
    #[tool(annotations(read_only_hint = true))]
    async fn test_simple_text(&self) -> String {
        String::from("This is a simple text response for testing.")
    }

    /// Always fails, with an error of a derived type.
    #[tool(annotations(read_only_hint = true))]
    async fn test_error_handling(&self) -> Result<String, TestError> {
        Err(TestError::Intentional)
    }

    /// Returns an image.
    #[tool(annotations(read_only_hint = true))]
    async fn test_image_content(&self) -> CallToolResult {
        CallToolResult::success(vec![ContentBlock::image(PNG, "image/png")])
    }

    /// Returns an audio clip.
    #[tool(annotations(read_only_hint = true))]
    async fn test_audio_content(&self) -> CallToolResult {
        CallToolResult::success(vec![ContentBlock::audio(WAV, "audio/wav")])
    }

    /// Returns an embedded resource.
    #[tool(annotations(read_only_hint = true))]
    async fn test_embedded_resource(&self) -> CallToolResult {
        CallToolResult::success(vec![ContentBlock::resource(ResourceContents::text(
            "This is an embedded resource content.",
            "test://embedded-resource",
        ))])
    }

    /// Returns text, an image and a resource.
    #[tool(annotations(read_only_hint = true))]
    async fn test_multiple_content_types(&self) -> CallToolResult {
        CallToolResult::success(vec![
            ContentBlock::text("Multiple content types test:"),
            ContentBlock::image(PNG, "image/png"),
            ContentBlock::resource(ResourceContents::text(
                r#"{"test":"data","value":123}"#,
                "test://mixed-content-resource",
            )),
        ])
    }
}

#[tool_handler(router = self.tool_router)]
impl ServerHandler for Conformance {}

#[tokio::main(flavor = "current_thread")]
async fn main() -> std::io::Result<()> {
    let address = std::env::args()
        .nth(1)
        .unwrap_or_else(|| String::from("127.0.0.1:0"));
    let service = StreamableHttpService::new(
        || {
            Ok(Conformance {
                tool_router: Conformance::tool_router().into(),
            })
        },
        Arc::new(LocalSessionManager::default()),
        StreamableHttpServerConfig::default(),
    );
    let app = axum::Router::new().nest_service("/mcp", service);
    let listener = tokio::net::TcpListener::bind(&address).await?;
    println!("http://{}/mcp", listener.local_addr()?);
    axum::serve(listener, app).await
}
