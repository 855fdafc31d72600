//! Keyed writes through `envelope::rmcp::Router` with an idempotency store,
//! against a real SQLite database whose rows each test counts: a write
//! whose answer is lost is repeated by `host::call_tool` with the same key
//! and runs once; two calls with one key run once; a restart of the server
//! (a new store on the same file) still replays; a key reused with other
//! arguments, or a missing key, is refused; a failure that changed nothing
//! frees its key. The server runs in this process over an in-memory pipe,
//! with a paused clock.

use std::path::Path;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use envelope::NextMove;
use envelope::host::{self, Retries, RetryPolicy};
use envelope::idempotency::{MemoryStore, SqliteStore, Store};
use envelope::rmcp::Idempotency;
use envelope::{Envelope, ErrorClass, ErrorEnvelope};
use rmcp::handler::server::wrapper::Parameters;
use rmcp::model::CallToolResult;
use rmcp::service::{RoleClient, RunningService};
use rmcp::{ServerHandler, ServiceExt, tool, tool_handler, tool_router};
use schemars::JsonSchema;
use serde::Deserialize;
use serde_json::{Value, json};

#[path = "cases/keyed.rs"]
mod keyed;
#[path = "cases/notes_db.rs"]
mod notes_db;

use notes_db::{database, rows};

use keyed::{code, replayed, text};

#[derive(Debug, thiserror::Error, Envelope)]
enum NotesError {
    #[error("the notes database is locked")]
    #[envelope(class = Busy, message = "the notes database is busy", retry_after_ms = 100)]
    Locked,
}

#[derive(Deserialize, JsonSchema)]
struct NewNote {
    text: String,
    /// How long the write takes, in milliseconds, after it committed.
    #[serde(default)]
    answer_after_ms: u64,
    /// Refuse the first call as busy, before writing.
    #[serde(default)]
    busy_once: bool,
    /// Fail after the write: an internal error (effect unknown).
    #[serde(default)]
    fail_after_write: bool,
}

#[derive(Clone)]
struct Notes {
    tool_router: envelope::rmcp::Router<Self>,
    db: Arc<Mutex<rusqlite::Connection>>,
    refused: Arc<Mutex<bool>>,
}

#[tool_router]
impl Notes {
    /// Adds a note: one row per call that runs.
    #[tool]
    async fn add_note(
        &self,
        Parameters(note): Parameters<NewNote>,
    ) -> Result<String, ErrorEnvelope> {
        if note.busy_once && !std::mem::replace(&mut *self.refused.lock().unwrap(), true) {
            return Err(NotesError::Locked.into());
        }
        let id = {
            let db = self.db.lock().unwrap();
            db.execute("INSERT INTO notes (text) VALUES (?1)", [&note.text])
                .unwrap();
            db.last_insert_rowid()
        };
        // The write committed; the answer takes this long to leave.
        tokio::time::sleep(Duration::from_millis(note.answer_after_ms)).await;
        if note.fail_after_write {
            return Err(ErrorEnvelope::new(
                ErrorClass::Internal,
                "the index update failed",
            ));
        }
        Ok(format!("note {id}"))
    }

    /// Adds a note, then fails with a JSON-RPC error of its own.
    #[tool]
    async fn add_note_then_error(
        &self,
        Parameters(note): Parameters<NewNote>,
    ) -> Result<String, rmcp::ErrorData> {
        self.db
            .lock()
            .unwrap()
            .execute("INSERT INTO notes (text) VALUES (?1)", [&note.text])
            .unwrap();
        Err(rmcp::ErrorData::internal_error(
            "the notes index is broken",
            None,
        ))
    }
}

#[tool_handler(router = self.tool_router)]
impl ServerHandler for Notes {}

/// A client connected to a fresh server on `path`, its keys in `store`.
async fn connect(path: &Path, store: impl Store + 'static) -> RunningService<RoleClient, ()> {
    let idempotency = Idempotency::new(store)
        .require("add_note")
        .require("add_note_then_error");
    connect_with(path, idempotency).await
}

/// A client connected to a fresh server on `path` with `idempotency`.
async fn connect_with(path: &Path, idempotency: Idempotency) -> RunningService<RoleClient, ()> {
    let (client_io, server_io) = tokio::io::duplex(64 * 1024);
    let server = Notes {
        tool_router: envelope::rmcp::Router::new(Notes::tool_router())
            .with_tool_failure_meta(true)
            .with_idempotency(idempotency),
        db: Arc::new(Mutex::new(rusqlite::Connection::open(path).unwrap())),
        refused: Arc::default(),
    };
    tokio::spawn(async move {
        let running = server.serve(server_io).await.expect("the server starts");
        let _ = running.waiting().await;
    });
    ().serve(client_io).await.expect("the client connects")
}

fn add(arguments: Value, key: Option<&str>) -> rmcp::model::CallToolRequestParams {
    keyed::call("add_note", arguments, key)
}

#[tokio::test(start_paused = true)]
async fn a_lost_answer_is_repeated_with_its_key_and_written_once() {
    let path = database("lost");
    let client = connect(&path, SqliteStore::open(&path).unwrap()).await;
    let tools = client.list_all_tools().await.unwrap();
    assert_eq!(
        tools[0].meta.as_ref().unwrap().get("idempotency"),
        Some(&json!("required"))
    );
    let behaviour = host::behaviour_of(&tools[0]);
    assert!(behaviour.keyed);
    // The write commits at once, its answer would take 3 s: the host gives
    // up on it after 1 s (effect unknown), and repeats it with its key.
    let policy = RetryPolicy::default().with_call_timeout(Some(Duration::from_secs(1)));
    let mut retries = Retries::with_seed(policy, 1);
    let result = host::call_tool(
        &client,
        add(json!({"text": "milk", "answer_after_ms": 3000}), None),
        behaviour,
        &mut retries,
    )
    .await
    .expect("the stored answer");
    assert_eq!(text(&result), "note 1");
    assert!(replayed(&result));
    assert!(retries.repeats() >= 1);
    assert_eq!(rows(&path), 1);
}

#[tokio::test(start_paused = true)]
async fn two_calls_with_one_key_write_once() {
    let path = database("concurrent");
    let client = connect(&path, MemoryStore::new()).await;
    let arguments = json!({"text": "eggs", "answer_after_ms": 500});
    let (first, second) = tokio::join!(
        client.call_tool(add(arguments.clone(), Some("k-1"))),
        client.call_tool(add(arguments.clone(), Some("k-1"))),
    );
    let (first, second) = (first.unwrap(), second.unwrap());
    let (done, refused) = if first.is_error == Some(true) {
        (second, first)
    } else {
        (first, second)
    };
    assert_eq!(text(&done), "note 1");
    let envelope = host::read_call_tool_result(&refused).unwrap();
    assert_eq!(envelope.code.as_deref(), Some("IDEMPOTENCY_KEY_IN_USE"));
    assert_eq!(envelope.retry_after_ms, Some(1000));
    assert!(envelope.retryable);
    // Once the first is done, the key answers with its result.
    let again = client.call_tool(add(arguments, Some("k-1"))).await.unwrap();
    assert_eq!(text(&again), "note 1");
    assert!(replayed(&again));
    assert_eq!(rows(&path), 1);
}

#[tokio::test(start_paused = true)]
async fn a_restarted_server_still_replays() {
    let path = database("restart");
    let keys = database("restart-keys");
    let client = connect(&path, SqliteStore::open(&keys).unwrap()).await;
    let first = client
        .call_tool(add(json!({"text": "bread"}), Some("k-7")))
        .await
        .unwrap();
    assert_eq!(text(&first), "note 1");
    assert!(!replayed(&first));
    client.cancel().await.unwrap();
    // A new server process: a new store on the same file.
    let client = connect(&path, SqliteStore::open(&keys).unwrap()).await;
    let again = client
        .call_tool(add(json!({"text": "bread"}), Some("k-7")))
        .await
        .unwrap();
    assert_eq!(text(&again), "note 1");
    assert!(replayed(&again));
    assert_eq!(rows(&path), 1);
}

#[tokio::test(start_paused = true)]
async fn refusals_write_nothing() {
    let path = database("refusals");
    let client = connect(&path, MemoryStore::new()).await;
    // No key: refused, saying how to send one.
    let missing = client
        .call_tool(add(json!({"text": "x"}), None))
        .await
        .unwrap();
    let envelope = host::read_call_tool_result(&missing).unwrap();
    assert_eq!(envelope.code.as_deref(), Some("IDEMPOTENCY_KEY_REQUIRED"));
    assert_eq!(
        envelope.next_steps,
        vec![String::from(
            "send the call again with _meta.idempotencyKey set to a new UUID, and send that same key on every repeat of this call"
        )]
    );
    // A key that is not one.
    let bad = client
        .call_tool(add(json!({"text": "x"}), Some("has space")))
        .await
        .unwrap();
    assert_eq!(code(&bad).as_deref(), Some("IDEMPOTENCY_KEY_INVALID"));
    assert_eq!(rows(&path), 0);
    // A key reused with other arguments.
    client
        .call_tool(add(json!({"text": "one"}), Some("k-2")))
        .await
        .unwrap();
    let reused = client
        .call_tool(add(json!({"text": "two"}), Some("k-2")))
        .await
        .unwrap();
    assert_eq!(code(&reused).as_deref(), Some("IDEMPOTENCY_KEY_REUSED"));
    assert_eq!(
        host::next_move(
            &host::read_call_tool_result(&reused).unwrap(),
            host::behaviour_of(&client.list_all_tools().await.unwrap()[0]),
            1
        ),
        NextMove::ChangeCall
    );
    assert_eq!(rows(&path), 1);
}

#[tokio::test(start_paused = true)]
async fn a_failure_that_changed_nothing_frees_its_key() {
    let path = database("busy");
    let client = connect(&path, MemoryStore::new()).await;
    let behaviour = host::behaviour_of(&client.list_all_tools().await.unwrap()[0]);
    let mut retries = Retries::with_seed(RetryPolicy::default(), 1);
    // Busy before it writes: the loop repeats with the same key, which
    // runs the write this time.
    let result = host::call_tool(
        &client,
        add(json!({"text": "tea", "busy_once": true}), None),
        behaviour,
        &mut retries,
    )
    .await
    .expect("the repeat writes");
    assert_eq!(text(&result), "note 1");
    assert!(!replayed(&result));
    assert_eq!(retries.repeats(), 1);
    assert_eq!(rows(&path), 1);
}

#[tokio::test(start_paused = true)]
async fn what_a_first_call_left_is_what_its_repeats_get() {
    let path = database("left");
    let client = connect(&path, SqliteStore::open(&path).unwrap()).await;
    // A JSON-RPC error after the write: stored, not run again.
    for _ in 0..2 {
        let error = client
            .call_tool(keyed::call(
                "add_note_then_error",
                json!({"text": "a"}),
                Some("k-e"),
            ))
            .await
            .unwrap_err();
        assert!(
            error.to_string().contains("the notes index is broken"),
            "{error}"
        );
    }
    assert_eq!(rows(&path), 1);
    // A failure that may have run: the replay keeps the SEP-3313 object.
    let arguments = json!({"text": "b", "fail_after_write": true});
    let first = client
        .call_tool(add(arguments.clone(), Some("k-f")))
        .await
        .unwrap();
    let again = client.call_tool(add(arguments, Some("k-f"))).await.unwrap();
    assert!(replayed(&again));
    let failure = |result: &CallToolResult| {
        result
            .meta
            .as_ref()
            .unwrap()
            .get("io.modelcontextprotocol/toolFailure")
            .cloned()
            .unwrap()
    };
    assert_eq!(failure(&again)["code"], failure(&first)["code"]);
    assert_eq!(failure(&again)["class"], json!("reliability"));
    assert_eq!(rows(&path), 2);
    // A stored answer that cannot be read: not run again, effect unknown.
    rusqlite::Connection::open(&path)
        .unwrap()
        .execute("UPDATE envelope_idempotency SET answer = 'not json'", [])
        .unwrap();
    let unreadable = client
        .call_tool(add(
            json!({"text": "b", "fail_after_write": true}),
            Some("k-f"),
        ))
        .await
        .unwrap();
    let envelope = host::read_call_tool_result(&unreadable).unwrap();
    assert_eq!(
        envelope.code.as_deref(),
        Some("IDEMPOTENCY_ANSWER_UNREADABLE")
    );
    assert_eq!(envelope.effect, envelope::Effect::Unknown);
    assert!(!envelope.retryable);
    assert_eq!(rows(&path), 2);
}

/// A call whose lease runs out with no answer (its server hung or died
/// mid-call) may have taken effect: a write that does not commit with its
/// key's record is not run again. Its repeat is told the outcome is
/// unknown and which tool tells, then and on every later repeat; the
/// first call, finishing late, cannot record its answer over that.
#[tokio::test]
async fn a_lease_that_runs_out_is_an_unknown_outcome_not_a_second_run() {
    let path = database("lease");
    let store = MemoryStore::new().with_lease(Duration::from_millis(50));
    let idempotency = Idempotency::new(store)
        .require("add_note")
        .check_with("add_note", "list_notes");
    let client = connect_with(&path, idempotency).await;
    let arguments = json!({"text": "a", "answer_after_ms": 400});
    let first = tokio::spawn({
        let peer = client.peer().clone();
        let params = add(arguments.clone(), Some("k-lease"));
        async move { peer.call_tool(params).await }
    });
    tokio::time::sleep(Duration::from_millis(150)).await;
    let repeat = client
        .call_tool(add(arguments.clone(), Some("k-lease")))
        .await
        .unwrap();
    let envelope = envelope::host::read_call_tool_result(&repeat).unwrap();
    assert_eq!(envelope.error_class, ErrorClass::Internal);
    assert_eq!(
        envelope.code.as_deref(),
        Some("IDEMPOTENCY_OUTCOME_UNKNOWN")
    );
    assert_eq!(
        envelope.message,
        "the server stopped while it ran the call with this idempotency key; whether it took effect is unknown"
    );
    assert_eq!(envelope.effect, envelope::Effect::Unknown);
    assert!(!envelope.retryable);
    assert_eq!(envelope.suggested_tool.as_deref(), Some("list_notes"));
    assert_eq!(
        envelope.next_steps,
        [
            "the call may have taken effect: check its result before repeating it",
            "call \"list_notes\" to see whether it took effect"
        ]
    );
    assert!(!replayed(&repeat));
    assert_eq!(
        text(&repeat).lines().next(),
        Some(
            "Do not repeat this call: it may already have taken effect. Call list_notes now to check whether it did."
        )
    );
    // The first call still answers its own client, but records nothing.
    let first = first.await.unwrap().unwrap();
    assert_eq!(text(&first), "note 1");
    let again = client
        .call_tool(add(arguments, Some("k-lease")))
        .await
        .unwrap();
    assert!(replayed(&again));
    assert_eq!(code(&again).as_deref(), Some("IDEMPOTENCY_OUTCOME_UNKNOWN"));
    assert_eq!(rows(&path), 1);
}

/// A tool declared to run again after its lease does run again, and the
/// late first call is fenced off. The declaration is the tool's promise
/// that its write commits with its key's record (`record_in`) or that a
/// second run is harmless: this one keeps neither, and writes twice,
/// which is what the promise is for (`exactly_once_kill` shows the tool
/// that keeps it).
#[tokio::test]
async fn rerun_after_lease_runs_the_call_again() {
    let path = database("rerun");
    let store = MemoryStore::new().with_lease(Duration::from_millis(50));
    let idempotency = Idempotency::new(store)
        .require("add_note")
        .rerun_after_lease("add_note");
    let client = connect_with(&path, idempotency).await;
    let arguments = json!({"text": "a", "answer_after_ms": 300});
    let first = tokio::spawn({
        let peer = client.peer().clone();
        let params = add(arguments.clone(), Some("k-rerun"));
        async move { peer.call_tool(params).await }
    });
    tokio::time::sleep(Duration::from_millis(100)).await;
    let repeat = client
        .call_tool(add(
            json!({"text": "a", "answer_after_ms": 300}),
            Some("k-rerun"),
        ))
        .await
        .unwrap();
    assert_eq!(code(&repeat), None);
    assert_eq!(text(&repeat), "note 2");
    // The first answers late and is fenced off: the key's answer is the
    // second run's.
    assert_eq!(text(&first.await.unwrap().unwrap()), "note 1");
    let again = client
        .call_tool(add(arguments, Some("k-rerun")))
        .await
        .unwrap();
    assert!(replayed(&again));
    assert_eq!(text(&again), "note 2");
    assert_eq!(rows(&path), 2);
}
