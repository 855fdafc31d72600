//! Keyed writes over a real transport: MCP servers as child processes,
//! over stdio, with their notes and their keys in one SQLite file whose
//! rows each scenario counts.
//!
//! - the client hangs up while a keyed write's answer is on its way (the
//!   note is written, the answer takes 1.5 s): the server finishes and
//!   stores the answer; a new server process on the same file answers the
//!   client's repeat with it;
//! - two server processes get one key at once: one writes, the other
//!   answers `IDEMPOTENCY_KEY_IN_USE`;
//! - the key reused with another note is refused.
//!
//! The keys are in the same SQLite file, and again, when
//! `ENVELOPE_POSTGRES_URL` names a Postgres database (`.ci/run` sets it),
//! in Postgres (`PostgresStore`).
//!
//! A test target without libtest's harness (its output would corrupt the
//! protocol on stdout): the binary is also the server, when
//! `ENVELOPE_KEYED_SERVER_DB` names its database.

use std::path::Path;
use std::process::Stdio;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use envelope::ErrorEnvelope;
use envelope::idempotency::{PostgresStore, SqliteStore};
use envelope::rmcp::Idempotency;
use rmcp::handler::server::wrapper::Parameters;
use rmcp::service::{RoleClient, RunningService};
use rmcp::{ServerHandler, ServiceExt, tool, tool_handler, tool_router};
use schemars::JsonSchema;
use serde::Deserialize;
use serde_json::json;
use tokio::process::{Child, Command};

#[path = "cases/keyed.rs"]
mod keyed;
#[path = "cases/notes_db.rs"]
mod notes_db;

use notes_db::{database, rows};

use keyed::{code, replayed, text};

const DB_VAR: &str = "ENVELOPE_KEYED_SERVER_DB";
/// Set (to the URL) for a server whose keys are in Postgres.
const KEYS_VAR: &str = "ENVELOPE_KEYED_SERVER_POSTGRES";
const POSTGRES_VAR: &str = "ENVELOPE_POSTGRES_URL";

#[derive(Deserialize, JsonSchema)]
struct NewNote {
    text: String,
    /// How long the answer takes after the write, in milliseconds.
    #[serde(default)]
    answer_after_ms: u64,
}

#[derive(Clone)]
struct Notes {
    tool_router: envelope::rmcp::Router<Self>,
    db: Arc<Mutex<rusqlite::Connection>>,
}

#[tool_router]
impl Notes {
    /// Adds a note: one row per call that runs.
    #[tool]
    async fn add_note(
        &self,
        Parameters(note): Parameters<NewNote>,
    ) -> Result<String, ErrorEnvelope> {
        let id = {
            let db = self.db.lock().unwrap();
            db.execute("INSERT INTO notes (text) VALUES (?1)", [&note.text])
                .unwrap();
            db.last_insert_rowid()
        };
        tokio::time::sleep(Duration::from_millis(note.answer_after_ms)).await;
        Ok(format!("note {id}"))
    }
}

#[tool_handler(router = self.tool_router)]
impl ServerHandler for Notes {}

/// The server: stdio, its notes and keys in `path`.
async fn serve(path: &Path) {
    let db = rusqlite::Connection::open(path).unwrap();
    db.busy_timeout(Duration::from_secs(5)).unwrap();
    let idempotency = match std::env::var(KEYS_VAR) {
        Ok(url) => {
            let pool = sqlx::PgPool::connect(&url).await.unwrap();
            Idempotency::new(PostgresStore::new(pool).await.unwrap())
        }
        Err(_) => Idempotency::new(SqliteStore::open(path).unwrap()),
    };
    let server = Notes {
        tool_router: envelope::rmcp::Router::new(Notes::tool_router())
            .with_idempotency(idempotency.require("add_note")),
        db: Arc::new(Mutex::new(db)),
    };
    let running = server
        .serve((tokio::io::stdin(), tokio::io::stdout()))
        .await
        .unwrap();
    let _ = running.waiting().await;
}

/// A server process on `path` (its keys in Postgres when `postgres` names
/// a database), and a client on its stdio.
async fn start(path: &Path, postgres: Option<&str>) -> (RunningService<RoleClient, ()>, Child) {
    let mut command = Command::new(std::env::current_exe().unwrap());
    if let Some(url) = postgres {
        command.env(KEYS_VAR, url);
    }
    let mut child = command
        .env(DB_VAR, path)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::inherit())
        .kill_on_drop(true)
        .spawn()
        .unwrap();
    let transport = (child.stdout.take().unwrap(), child.stdin.take().unwrap());
    let client = ().serve(transport).await.expect("the server answers");
    (client, child)
}

fn add(text: &str, key: &str, answer_after_ms: u64) -> rmcp::model::CallToolRequestParams {
    keyed::call(
        "add_note",
        json!({"text": text, "answer_after_ms": answer_after_ms}),
        Some(key),
    )
}

/// A key of this run's own (Postgres keeps keys between runs).
fn key(name: &str) -> String {
    format!("{name}-{}", uuid::Uuid::new_v4())
}

async fn the_client_hangs_up_mid_answer(postgres: Option<&str>) {
    let path = database("hangup");
    let k1 = key("k-1");
    let (client, mut server) = start(&path, postgres).await;
    // The call goes out; the client hangs up before its answer.
    let call = tokio::spawn({
        let peer = client.peer().clone();
        let params = add("milk", &k1, 1500);
        async move { peer.call_tool(params).await }
    });
    tokio::time::sleep(Duration::from_millis(500)).await;
    call.abort();
    drop(client);
    // The server finishes the call, stores its answer, and exits on the
    // closed stdin.
    let status = tokio::time::timeout(Duration::from_secs(10), server.wait())
        .await
        .expect("the server exits once its stdin is closed")
        .unwrap();
    assert!(status.success(), "{status}");
    assert_eq!(rows(&path), 1);
    // A new server process: the repeat gets the stored answer.
    let (client, _server) = start(&path, postgres).await;
    let again = client.call_tool(add("milk", &k1, 1500)).await.unwrap();
    assert_eq!(text(&again), "note 1");
    assert!(replayed(&again));
    let reused = client.call_tool(add("eggs", &k1, 0)).await.unwrap();
    assert_eq!(code(&reused).as_deref(), Some("IDEMPOTENCY_KEY_REUSED"));
    assert_eq!(rows(&path), 1);
    println!(
        "ok ({}): the client hangs up mid-answer; a restarted server replays",
        store(postgres)
    );
}

async fn two_servers_get_one_key_at_once(postgres: Option<&str>) {
    let path = database("at_once");
    let k2 = key("k-2");
    let ((a, _a), (b, _b)) = (start(&path, postgres).await, start(&path, postgres).await);
    let (first, second) = tokio::join!(
        a.call_tool(add("tea", &k2, 500)),
        b.call_tool(add("tea", &k2, 500)),
    );
    let codes = [code(&first.unwrap()), code(&second.unwrap())];
    assert!(
        codes.contains(&None) && codes.contains(&Some(String::from("IDEMPOTENCY_KEY_IN_USE"))),
        "{codes:?}"
    );
    assert_eq!(rows(&path), 1);
    println!(
        "ok ({}): two server processes, one key at once: one write",
        store(postgres)
    );
}

fn store(postgres: Option<&str>) -> &'static str {
    if postgres.is_some() {
        "Postgres keys"
    } else {
        "SQLite keys"
    }
}

fn main() {
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .unwrap();
    if let Some(path) = std::env::var_os(DB_VAR) {
        runtime.block_on(serve(Path::new(&path)));
        return;
    }
    let postgres = std::env::var(POSTGRES_VAR).ok();
    runtime.block_on(async {
        for postgres in [None, postgres.as_deref()]
            .into_iter()
            .collect::<std::collections::BTreeSet<_>>()
        {
            the_client_hangs_up_mid_answer(postgres).await;
            two_servers_get_one_key_at_once(postgres).await;
        }
    });
}
