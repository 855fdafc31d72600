//! The README's MCP server: a notes store over stdio whose every failure
//! is answered with plain `?`. The README shows its errors, its server and
//! its tools (between the `readme:` markers); `tests/readme_mcp.rs` checks
//! that it shows exactly that and drives the whole server with rmcp's
//! client.
//!
//! Run from the repository root: `cargo run -p envelope-test-suite
//! --example notes_mcp --features rmcp`.

// readme:start
#[derive(Debug, thiserror::Error, Envelope)]
enum NotesError {
    #[error("no note {id}")]
    #[envelope(class = ObjectNotFound, message = "no note has the id {id}")]
    NotFound { id: String },
    #[error("the notes database is locked by a migration")]
    #[envelope(class = Transient, message = "the notes database is busy")]
    Locked,
}

#[derive(Clone)]
pub struct Notes {
    // rmcp's `ToolRouter`, plus the answer to every failure of its calls.
    tool_router: envelope::rmcp::Router<Self>,
    notes: Arc<Mutex<HashMap<String, String>>>,
    // While true, every call fails as a locked database does.
    migrating: bool,
}

#[tool_router]
impl Notes {
    pub fn new(migrating: bool) -> Self {
        Notes {
            tool_router: Self::tool_router().into(),
            notes: Arc::default(),
            migrating,
        }
    }

    fn open(&self) -> Result<std::sync::MutexGuard<'_, HashMap<String, String>>, NotesError> {
        if self.migrating {
            return Err(NotesError::Locked);
        }
        Ok(self.notes.lock().unwrap_or_else(|e| e.into_inner()))
    }

    /// Read one note.
    #[tool(annotations(read_only_hint = true))]
    async fn get_note(
        &self,
        Parameters(Args(args)): Parameters<Args<GetNote>>,
    ) -> Result<Json<Note>, ErrorEnvelope> {
        let GetNote { id } = args?;
        let notes = self.open()?;
        let text = notes
            .get(&id)
            .ok_or(NotesError::NotFound { id: id.clone() })?;
        Ok(Json(Note {
            id,
            text: text.clone(),
        }))
    }

    /// Add a note; each call adds one.
    #[tool(annotations(read_only_hint = false, idempotent_hint = false))]
    async fn create_note(
        &self,
        Parameters(Args(args)): Parameters<Args<NewNote>>,
    ) -> Result<Json<Note>, ErrorEnvelope> {
        let NewNote { text } = args?;
        let mut notes = self.open()?;
        let id = format!("n-{}", notes.len() + 1);
        notes.insert(id.clone(), text.clone());
        Ok(Json(Note { id, text }))
    }
}

#[tool_handler(router = self.tool_router)]
impl ServerHandler for Notes {}
// readme:end

use std::collections::HashMap;
use std::sync::{Arc, Mutex};

use envelope::args::Args;
use envelope::{Envelope, ErrorEnvelope};
use rmcp::handler::server::wrapper::Parameters;
use rmcp::{Json, ServerHandler, ServiceExt, tool, tool_handler, tool_router};
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

#[derive(Deserialize, JsonSchema)]
struct GetNote {
    /// The note's id (`n-1`).
    id: String,
}

#[derive(Deserialize, JsonSchema)]
struct NewNote {
    /// The note's text.
    text: String,
}

#[derive(Serialize, JsonSchema)]
struct Note {
    id: String,
    text: String,
}

#[tokio::main(flavor = "current_thread")]
async fn main() -> Result<(), Box<dyn std::error::Error>> {
    // The operator's log on stderr: stdout carries the protocol.
    tracing_subscriber::fmt()
        .with_writer(std::io::stderr)
        .init();
    let migrating = std::env::args().any(|arg| arg == "--migrating");
    let server = Notes::new(migrating)
        .serve(rmcp::transport::stdio())
        .await?;
    server.waiting().await?;
    Ok(())
}
