//! Exactly once across a crash: a keyed write whose write commits with its
//! key's record (`SqliteStore::record_in`, `PostgresStore::record_in`),
//! served by a child process, as an MCP tool over stdio and as an axum
//! route over HTTP on 127.0.0.1, that is killed with SIGKILL at a random
//! instant of the call (before the write, inside its transaction, between
//! the commit and the answer, while the answer leaves), then started
//! again; the call is repeated with its key until it has an answer.
//!
//! Every iteration checks that its key's note is written exactly once,
//! and that a repeat of a call whose answer arrived before the kill gets
//! that answer again (a replay). The repeat's answer is one of: the
//! stored answer (the first call finished), a run of its own (the first
//! left no committed write), or `IDEMPOTENCY_ANSWER_LOST` (the first
//! committed, and died before its answer was stored); a call still
//! within its lease gets `IDEMPOTENCY_KEY_IN_USE` and is repeated later.
//!
//! 200 iterations per transport with the keys and the notes in one SQLite
//! file, and as many more in Postgres when `ENVELOPE_POSTGRES_URL` names a database
//! (`.ci/run` sets it). `ENVELOPE_KILL_ITERATIONS` and
//! `ENVELOPE_KILL_SEED` change the count and the random instants (the
//! seed is printed).
//!
//! A test target without libtest's harness (its output would corrupt the
//! protocol on stdout): the binary is also the server, when
//! `ENVELOPE_KILL_SERVER_DB` names its database (over HTTP when
//! `ENVELOPE_KILL_SERVER_HTTP` is set: it prints its port first).

use std::path::{Path, PathBuf};
use std::process::Stdio;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use axum::extract::State;
use axum::routing::post;
use axum::{Extension, Json};
use envelope::CallContext;
use envelope::ErrorEnvelope;
use envelope::axum::{Keys, RouterExt, keyed};
use envelope::idempotency::{Claimed, PostgresStore, SqliteStore};
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

use keyed::{code, replayed};

const DB_VAR: &str = "ENVELOPE_KILL_SERVER_DB";
/// Set (to the URL) for a server whose notes and keys are in Postgres.
const PG_VAR: &str = "ENVELOPE_KILL_SERVER_POSTGRES";
const POSTGRES_VAR: &str = "ENVELOPE_POSTGRES_URL";
/// Set for a server over HTTP.
const HTTP_VAR: &str = "ENVELOPE_KILL_SERVER_HTTP";
/// The store's lease in these servers: a killed call's key is held this
/// long.
const LEASE: Duration = Duration::from_millis(150);

#[derive(Deserialize, JsonSchema)]
struct NewNote {
    text: String,
    /// Pauses in milliseconds: before the write, inside the transaction
    /// (after the write, before the commit), after the commit.
    pauses_ms: [u64; 3],
}

#[derive(Clone)]
enum Db {
    Sqlite(Arc<Mutex<rusqlite::Connection>>),
    Postgres(sqlx::PgPool),
}

#[derive(Clone)]
struct Notes {
    tool_router: envelope::rmcp::Router<Self>,
    db: Db,
}

#[tool_router]
impl Notes {
    /// Adds a note: its write and its key's record in one transaction.
    #[tool]
    async fn add_note(
        &self,
        call: CallContext,
        Parameters(note): Parameters<NewNote>,
    ) -> Result<String, ErrorEnvelope> {
        add(&self.db, &note, call.claim()).await
    }
}

/// The write of both transports, in `db`'s database.
async fn add(db: &Db, note: &NewNote, claimed: Option<&Claimed>) -> Result<String, ErrorEnvelope> {
    let id = match db {
        Db::Sqlite(db) => {
            pause(note, 0).await;
            let id = add_sqlite(db, note, claimed)?;
            pause(note, 2).await;
            id
        }
        Db::Postgres(pool) => add_postgres(pool, note, claimed).await?,
    };
    Ok(format!("note {id}"))
}

/// Writes `note`, and marks the key of `claimed` (`None`: no key) as
/// written, in one transaction: both commit, or neither.
fn add_sqlite(
    db: &Mutex<rusqlite::Connection>,
    note: &NewNote,
    claimed: Option<&Claimed>,
) -> Result<i64, ErrorEnvelope> {
    let mut db = db.lock().unwrap();
    let transaction = db.transaction()?;
    transaction.execute("INSERT INTO notes (text) VALUES (?1)", [&note.text])?;
    // The pause inside the transaction, holding its lock as a slow
    // write would.
    std::thread::sleep(Duration::from_millis(note.pauses_ms[1]));
    SqliteStore::record_in(&transaction, claimed)?;
    let id = transaction.last_insert_rowid();
    transaction.commit()?;
    Ok(id)
}

/// The same in Postgres, through sqlx.
async fn add_postgres(
    pool: &sqlx::PgPool,
    note: &NewNote,
    claimed: Option<&Claimed>,
) -> Result<i64, ErrorEnvelope> {
    pause(note, 0).await;
    let mut transaction = pool.begin().await?;
    let (id,): (i64,) =
        sqlx::query_as("INSERT INTO envelope_kill_notes (text) VALUES ($1) RETURNING id")
            .bind(&note.text)
            .fetch_one(&mut *transaction)
            .await?;
    pause(note, 1).await;
    PostgresStore::record_in(&mut transaction, claimed).await?;
    transaction.commit().await?;
    pause(note, 2).await;
    Ok(id)
}

/// The pause `note` asks for at `phase` (0: before the write, 1: inside
/// the transaction, 2: after the commit).
async fn pause(note: &NewNote, phase: usize) {
    tokio::time::sleep(Duration::from_millis(note.pauses_ms[phase])).await;
}

/// `POST /notes`: the same write, its claim from the keyed middleware.
async fn add_note_http(
    State(db): State<Db>,
    claimed: Option<Extension<Claimed>>,
    Json(note): Json<NewNote>,
) -> Result<String, ErrorEnvelope> {
    add(&db, &note, claimed.as_deref()).await
}

#[tool_handler(router = self.tool_router)]
impl ServerHandler for Notes {}

/// The server: stdio or HTTP, its notes and keys in `path` or in
/// Postgres.
async fn serve(path: &Path) {
    let (db, store): (Db, std::sync::Arc<dyn envelope::idempotency::Store>) =
        match std::env::var(PG_VAR) {
            Ok(url) => {
                let pool = sqlx::PgPool::connect(&url).await.unwrap();
                let store = PostgresStore::new(pool.clone())
                    .await
                    .unwrap()
                    .with_lease(LEASE);
                (Db::Postgres(pool), Arc::new(store))
            }
            Err(_) => {
                let db = rusqlite::Connection::open(path).unwrap();
                db.busy_timeout(Duration::from_secs(5)).unwrap();
                let store = SqliteStore::open(path).unwrap().with_lease(LEASE);
                (Db::Sqlite(Arc::new(Mutex::new(db))), Arc::new(store))
            }
        };
    if std::env::var_os(HTTP_VAR).is_some() {
        let keys = Keys::required(store).rerun_after_lease();
        let app = axum::Router::new()
            .route(
                "/notes",
                post(add_note_http).route_layer(axum::middleware::from_fn_with_state(keys, keyed)),
            )
            .with_state(db)
            .answer_failures();
        let listener = tokio::net::TcpListener::bind((std::net::Ipv4Addr::LOCALHOST, 0))
            .await
            .unwrap();
        println!("{}", listener.local_addr().unwrap().port());
        axum::serve(listener, app).await.unwrap();
        return;
    }
    let idempotency = Idempotency::new(store)
        .require("add_note")
        .rerun_after_lease("add_note");
    let server = Notes {
        tool_router: envelope::rmcp::Router::new(Notes::tool_router())
            .with_idempotency(idempotency),
        db,
    };
    let running = server
        .serve((tokio::io::stdin(), tokio::io::stdout()))
        .await
        .unwrap();
    let _ = running.waiting().await;
}

/// How the test reaches a server.
enum Client {
    Mcp(RunningService<RoleClient, ()>),
    Http(u16),
}

/// An answer, either transport's: its failure code (`None` for a
/// success), whether it is a replay, and its text (the MCP result's text,
/// the HTTP body).
#[derive(Debug, Clone, PartialEq)]
struct Answer {
    code: Option<String>,
    replayed: bool,
    text: String,
}

/// A server process on `path` (or Postgres), over HTTP or stdio, and a
/// client of it.
async fn start(path: &Path, postgres: Option<&str>, http: bool) -> (Client, Child) {
    let mut command = Command::new(std::env::current_exe().unwrap());
    if let Some(url) = postgres {
        command.env(PG_VAR, url);
    }
    if http {
        command.env(HTTP_VAR, "1");
    }
    let mut child = command
        .env(DB_VAR, path)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::inherit())
        .kill_on_drop(true)
        .spawn()
        .unwrap();
    let stdout = child.stdout.take().unwrap();
    if http {
        use tokio::io::AsyncBufReadExt as _;
        let mut port = String::new();
        tokio::io::BufReader::new(stdout)
            .read_line(&mut port)
            .await
            .unwrap();
        return (Client::Http(port.trim().parse().unwrap()), child);
    }
    let transport = (stdout, child.stdin.take().unwrap());
    let client = ().serve(transport).await.expect("the server answers");
    (Client::Mcp(client), child)
}

impl Client {
    /// The keyed call adding the note `text` (its key), or `None` when no
    /// answer came (the server died).
    fn add(
        &self,
        text: &str,
        pauses_ms: [u64; 3],
    ) -> impl Future<Output = Option<Answer>> + 'static {
        let arguments = json!({"text": text, "pauses_ms": pauses_ms});
        let text = text.to_owned();
        let peer = match self {
            Client::Mcp(client) => Ok(client.peer().clone()),
            Client::Http(port) => Err(*port),
        };
        async move {
            match peer {
                Ok(peer) => {
                    let result = peer
                        .call_tool(keyed::call("add_note", arguments, Some(&text)))
                        .await
                        .ok()?;
                    Some(Answer {
                        code: code(&result),
                        replayed: replayed(&result),
                        text: keyed::text(&result),
                    })
                }
                Err(port) => post_note(port, &text, &arguments.to_string()).await,
            }
        }
    }
}

/// `POST /notes` with the `Idempotency-Key` `key` and `body`, over one
/// HTTP/1.1 connection closed after the response.
async fn post_note(port: u16, key: &str, body: &str) -> Option<Answer> {
    use tokio::io::{AsyncReadExt as _, AsyncWriteExt as _};
    let mut stream = tokio::net::TcpStream::connect((std::net::Ipv4Addr::LOCALHOST, port))
        .await
        .ok()?;
    let request = format!(
        "POST /notes HTTP/1.1\r\nhost: 127.0.0.1\r\nconnection: close\r\ncontent-type: application/json\r\nidempotency-key: {key}\r\ncontent-length: {}\r\n\r\n{body}",
        body.len()
    );
    stream.write_all(request.as_bytes()).await.ok()?;
    let mut response = String::new();
    stream.read_to_string(&mut response).await.ok()?;
    let (head, body) = response.split_once("\r\n\r\n")?;
    let status: u16 = head.split(' ').nth(1)?.parse().ok()?;
    let header = |name: &str| {
        head.lines().find_map(|line| {
            let (key, value) = line.split_once(':')?;
            key.eq_ignore_ascii_case(name)
                .then(|| value.trim().to_owned())
        })
    };
    let code = (status >= 400).then(|| {
        serde_json::from_str::<serde_json::Value>(body).ok()?["code"]
            .as_str()
            .map(str::to_owned)
    });
    Some(Answer {
        code: code.map(|code| code.unwrap_or_else(|| format!("HTTP {status}"))),
        replayed: header("idempotent-replayed").as_deref() == Some("true"),
        text: body.to_owned(),
    })
}

/// xorshift64*: the random instants, reproducible from the printed seed.
struct Random(u64);

impl Random {
    fn below(&mut self, bound: u64) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_F491_4F6C_DD1D) % bound.max(1)
    }
}

/// Where the notes are, to count them.
enum Notebook {
    Sqlite(PathBuf),
    Postgres(sqlx::PgPool),
}

impl Notebook {
    async fn rows(&self, text: &str) -> i64 {
        match self {
            Notebook::Sqlite(path) => rusqlite::Connection::open(path)
                .unwrap()
                .query_row(
                    "SELECT count(*) FROM notes WHERE text LIKE ?1",
                    [text],
                    |row| row.get(0),
                )
                .unwrap(),
            Notebook::Postgres(pool) => {
                let (count,): (i64,) =
                    sqlx::query_as("SELECT count(*) FROM envelope_kill_notes WHERE text LIKE $1")
                        .bind(text)
                        .fetch_one(pool)
                        .await
                        .unwrap();
                count
            }
        }
    }
}

async fn kill_and_repeat(postgres: Option<&str>, http: bool, iterations: u64, seed: u64) {
    let path = std::env::temp_dir().join(format!(
        "envelope-kill-{}-{}.db",
        std::process::id(),
        u8::from(http)
    ));
    let _ = std::fs::remove_file(&path);
    let notebook = match postgres {
        Some(url) => {
            let pool = sqlx::PgPool::connect(url).await.unwrap();
            sqlx::query(
                "CREATE TABLE IF NOT EXISTS envelope_kill_notes (id BIGSERIAL PRIMARY KEY, text TEXT NOT NULL)",
            )
            .execute(&pool)
            .await
            .unwrap();
            Notebook::Postgres(pool)
        }
        None => {
            rusqlite::Connection::open(&path)
                .unwrap()
                .execute_batch("CREATE TABLE notes (id INTEGER PRIMARY KEY, text TEXT NOT NULL)")
                .unwrap();
            Notebook::Sqlite(path.clone())
        }
    };
    // Postgres keeps notes and keys between runs: this run's are its own.
    let run = uuid::Uuid::new_v4().simple().to_string();
    let mut random = Random(seed | 1);
    let (mut outcomes, mut answered_first) = (std::collections::BTreeMap::new(), 0);
    let (mut client, mut server) = start(&path, postgres, http).await;
    for iteration in 0..iterations {
        let key = format!("kill-{run}-{iteration}");
        let pauses = [random.below(15), random.below(15), random.below(15)];
        // From the call's start to a little past its answer.
        let kill_after = random.below(pauses.iter().sum::<u64>() + 20);
        let call = tokio::spawn(client.add(&key, pauses));
        tokio::time::sleep(Duration::from_millis(kill_after)).await;
        server.start_kill().unwrap();
        server.wait().await.unwrap();
        let first = call.await.unwrap().filter(|answer| answer.code.is_none());
        answered_first += u64::from(first.is_some());
        drop(client);
        (client, server) = start(&path, postgres, http).await;
        let outcome = loop {
            let again = client.add(&key, pauses).await.expect("an answer");
            match again.code.as_deref() {
                Some("IDEMPOTENCY_KEY_IN_USE") => tokio::time::sleep(LEASE / 2).await,
                Some("IDEMPOTENCY_ANSWER_LOST") => {
                    assert!(first.is_none(), "{key}: a lost answer had arrived");
                    break "answer lost (committed before the kill)";
                }
                None if again.replayed => {
                    if let Some(first) = &first {
                        assert_eq!(again.text, first.text, "{key}");
                    }
                    break "replayed (finished before the kill)";
                }
                None => {
                    assert!(first.is_none(), "{key}: ran again after its answer arrived");
                    break "ran again (nothing committed before the kill)";
                }
                Some(other) => panic!("{key}: {other}: {}", again.text),
            }
        };
        *outcomes.entry(outcome).or_insert(0_u64) += 1;
        assert_eq!(notebook.rows(&key).await, 1, "{key}: {outcome}");
    }
    let rows = notebook.rows(&format!("kill-{run}-%")).await;
    assert_eq!(rows, i64::try_from(iterations).unwrap());
    let store = if postgres.is_some() {
        "Postgres"
    } else {
        "SQLite"
    };
    let transport = if http { "HTTP" } else { "MCP over stdio" };
    println!(
        "ok ({transport}, {store}, seed {seed}): {iterations} calls killed with SIGKILL at random instants, \
         {rows} notes for {iterations} keys; {answered_first} answers arrived before the kill; repeats: {outcomes:?}"
    );
    drop(client);
    let _ = std::fs::remove_file(&path);
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
    let iterations = std::env::var("ENVELOPE_KILL_ITERATIONS")
        .ok()
        .and_then(|count| count.parse().ok())
        .unwrap_or(200);
    let seed = std::env::var("ENVELOPE_KILL_SEED")
        .ok()
        .and_then(|seed| seed.parse().ok())
        .unwrap_or_else(|| {
            std::time::SystemTime::now()
                .duration_since(std::time::UNIX_EPOCH)
                .map_or(1, |now| now.as_secs())
        });
    let postgres = std::env::var(POSTGRES_VAR).ok();
    runtime.block_on(async {
        // `.ci/run` runs the SQLite iterations with the README's test
        // command, and this target again with Postgres.
        for http in [false, true] {
            kill_and_repeat(postgres.as_deref(), http, iterations, seed).await;
        }
    });
}
