//! The Postgres idempotency store against a real Postgres server: two
//! replicas of one MCP server (each its own `PostgresStore` on its own
//! pool) write notes to one Postgres table, and each test counts the rows.
//! A repeat that reaches the other replica gets the first call's answer;
//! two calls with one key at once, one to each replica, write once; a
//! replica started after the first call replays it; a key reused with
//! other arguments is refused; over HTTP, a request's repeat that reaches
//! the other replica of an axum route gets the stored response.
//!
//! Needs a server, so it is `#[ignore]`d: `.ci/run` installs Postgres from
//! the distribution's packages, starts a throwaway cluster and runs it
//! with `--ignored`, `ENVELOPE_POSTGRES_URL` naming the database
//! (`postgres://postgres@127.0.0.1:54329/postgres` there).

use std::time::Duration;

use envelope::ErrorEnvelope;
use envelope::idempotency::{Claim, Claimed, Key, PostgresStore, Scope, Store};
use envelope::rmcp::Idempotency;
use rmcp::handler::server::wrapper::Parameters;
use rmcp::service::{RoleClient, RunningService};
use rmcp::{ServerHandler, ServiceExt, tool, tool_handler, tool_router};
use schemars::JsonSchema;
use serde::Deserialize;
use serde_json::json;
use sqlx::PgPool;

#[path = "cases/keyed.rs"]
mod keyed;

use keyed::{code, replayed, text};

#[derive(Deserialize, JsonSchema)]
struct NewNote {
    table: String,
    text: String,
    /// How long the answer takes after the write, in milliseconds.
    #[serde(default)]
    answer_after_ms: u64,
}

#[derive(Clone)]
struct Replica {
    tool_router: envelope::rmcp::Router<Self>,
    pool: PgPool,
}

#[tool_router]
impl Replica {
    /// Adds a note to `table`: one row per call that runs.
    #[tool]
    async fn add_note(
        &self,
        Parameters(note): Parameters<NewNote>,
    ) -> Result<String, ErrorEnvelope> {
        // The table names are the tests' own.
        let insert = format!("INSERT INTO {} (text) VALUES ($1) RETURNING id", note.table);
        let id: i64 = sqlx::query_scalar(sqlx::AssertSqlSafe(insert))
            .bind(&note.text)
            .fetch_one(&self.pool)
            .await
            .unwrap();
        tokio::time::sleep(Duration::from_millis(note.answer_after_ms)).await;
        Ok(format!("note {id}"))
    }
}

#[tool_handler(router = self.tool_router)]
impl ServerHandler for Replica {}

fn url() -> String {
    std::env::var("ENVELOPE_POSTGRES_URL")
        .expect("ENVELOPE_POSTGRES_URL names the test database (see .ci/run)")
}

/// A fresh notes table of the test's own.
async fn table(name: &str) -> String {
    let pool = PgPool::connect(&url()).await.unwrap();
    let table = format!("notes_{name}");
    sqlx::raw_sql(sqlx::AssertSqlSafe(format!(
        "DROP TABLE IF EXISTS {table}; CREATE TABLE {table} (id BIGSERIAL PRIMARY KEY, text TEXT NOT NULL)"
    )))
    .execute(&pool)
    .await
    .unwrap();
    table
}

async fn rows(table: &str) -> i64 {
    let pool = PgPool::connect(&url()).await.unwrap();
    sqlx::query_scalar(sqlx::AssertSqlSafe(format!("SELECT count(*) FROM {table}")))
        .fetch_one(&pool)
        .await
        .unwrap()
}

/// A client of a new replica: its own pool, its own store.
async fn replica() -> RunningService<RoleClient, ()> {
    let pool = PgPool::connect(&url()).await.unwrap();
    let store = PostgresStore::new(pool.clone()).await.unwrap();
    let server = Replica {
        tool_router: envelope::rmcp::Router::new(Replica::tool_router())
            .with_idempotency(Idempotency::new(store).require("add_note")),
        pool,
    };
    let (client_io, server_io) = tokio::io::duplex(64 * 1024);
    tokio::spawn(async move {
        let running = server.serve(server_io).await.expect("the replica starts");
        let _ = running.waiting().await;
    });
    ().serve(client_io).await.expect("the client connects")
}

fn add(
    table: &str,
    text: &str,
    key: &str,
    answer_after_ms: u64,
) -> rmcp::model::CallToolRequestParams {
    keyed::call(
        "add_note",
        json!({"table": table, "text": text, "answer_after_ms": answer_after_ms}),
        Some(key),
    )
}

/// A key no other run of the tests used.
fn key() -> String {
    uuid::Uuid::new_v4().to_string()
}

/// A store of its own, on its own pool.
async fn store() -> PostgresStore {
    let pool = PgPool::connect(&url()).await.unwrap();
    PostgresStore::new(pool).await.unwrap()
}

/// The claim of a new key by a call of `add_note`: the call's to run.
async fn new_claim(store: &PostgresStore) -> Claimed {
    let scope = Scope::new(None, "add_note");
    let key = Key::parse(&key()).unwrap();
    let claim = store.claim(&scope, &key, "fingerprint").await.unwrap();
    let Claim::Run(token) = claim else {
        panic!("a new key is the call's to run, not {claim:?}")
    };
    Claimed { scope, key, token }
}

/// The next claim of `claimed`'s key, by a call with the same arguments.
async fn claim_again(store: &PostgresStore, claimed: &Claimed) -> Claim {
    store
        .claim(&claimed.scope, &claimed.key, "fingerprint")
        .await
        .unwrap()
}

/// The store alone, through the `Store` trait: a claim records its answer
/// once; a second `finish` with the same claim is fenced (`false`) and
/// leaves the first answer, which the next claim of the key gets.
#[tokio::test]
#[ignore = "needs a Postgres server: see .ci/run"]
async fn a_claim_records_its_answer_once() {
    let store = store().await;
    let claimed = new_claim(&store).await;
    assert!(store.finish(&claimed, "first").await.unwrap());
    assert!(!store.finish(&claimed, "second").await.unwrap());
    assert_eq!(
        claim_again(&store, &claimed).await,
        Claim::Done("first".into())
    );
}

/// A claim released (its call changed nothing) frees the key: the next
/// claim runs; a key held by a running call is `Running` until then.
#[tokio::test]
#[ignore = "needs a Postgres server: see .ci/run"]
async fn a_released_claim_frees_its_key() {
    let store = store().await;
    let claimed = new_claim(&store).await;
    assert_eq!(claim_again(&store, &claimed).await, Claim::Running);
    store.release(&claimed).await.unwrap();
    let again = claim_again(&store, &claimed).await;
    assert!(matches!(again, Claim::Run(_)), "{again:?}");
}

/// A running call whose lease ran out (its server died) is taken over:
/// the next claim gets the key under a new token, and the first call's
/// claim is fenced: its answer is not recorded; the new holder's is.
#[tokio::test]
#[ignore = "needs a Postgres server: see .ci/run"]
async fn a_lapsed_lease_is_taken_over_and_fences_the_first_claim() {
    let store = store().await.with_lease(Duration::from_millis(100));
    let first = new_claim(&store).await;
    tokio::time::sleep(Duration::from_millis(250)).await;
    let claim = claim_again(&store, &first).await;
    let Claim::Expired(token) = claim else {
        panic!("a lapsed lease is taken over, not {claim:?}")
    };
    assert_ne!(first.token, token);
    let second = Claimed {
        token,
        ..first.clone()
    };
    assert!(!store.finish(&first, "first").await.unwrap());
    assert!(store.finish(&second, "second").await.unwrap());
    assert_eq!(
        claim_again(&store, &first).await,
        Claim::Done("second".into())
    );
}

#[tokio::test]
#[ignore = "needs a Postgres server: see .ci/run"]
async fn a_repeat_on_another_replica_replays() {
    let table = table("other_replica").await;
    let (a, b) = (replica().await, replica().await);
    let key = key();
    let first = a.call_tool(add(&table, "milk", &key, 0)).await.unwrap();
    assert_eq!(text(&first), "note 1");
    let again = b.call_tool(add(&table, "milk", &key, 0)).await.unwrap();
    assert_eq!(text(&again), "note 1");
    assert!(replayed(&again));
    // A key reused with other arguments, on either replica.
    let reused = b.call_tool(add(&table, "eggs", &key, 0)).await.unwrap();
    assert_eq!(code(&reused).as_deref(), Some("IDEMPOTENCY_KEY_REUSED"));
    assert_eq!(rows(&table).await, 1);
}

#[tokio::test]
#[ignore = "needs a Postgres server: see .ci/run"]
async fn one_key_at_two_replicas_at_once_writes_once() {
    let table = table("at_once").await;
    let (a, b) = (replica().await, replica().await);
    let key = key();
    let (first, second) = tokio::join!(
        a.call_tool(add(&table, "tea", &key, 300)),
        b.call_tool(add(&table, "tea", &key, 300)),
    );
    let (first, second) = (first.unwrap(), second.unwrap());
    let refused = [&first, &second]
        .into_iter()
        .filter(|result| result.is_error == Some(true))
        .count();
    assert_eq!(refused, 1, "{first:?} {second:?}");
    let busy = if first.is_error == Some(true) {
        &first
    } else {
        &second
    };
    assert_eq!(code(busy).as_deref(), Some("IDEMPOTENCY_KEY_IN_USE"));
    assert_eq!(rows(&table).await, 1);
}

#[tokio::test]
#[ignore = "needs a Postgres server: see .ci/run"]
async fn a_replica_started_later_replays() {
    let table = table("restart").await;
    let key = key();
    let a = replica().await;
    let first = a.call_tool(add(&table, "bread", &key, 0)).await.unwrap();
    a.cancel().await.unwrap();
    // Every replica of the first generation is gone.
    let later = replica().await;
    let again = later
        .call_tool(add(&table, "bread", &key, 0))
        .await
        .unwrap();
    assert_eq!(text(&again), text(&first));
    assert!(replayed(&again));
    assert_eq!(rows(&table).await, 1);
}

/// Over HTTP: two replicas of an axum route with their keys in Postgres; a
/// request's repeat that reaches the other replica gets the stored
/// response, and the handler ran once (its rows counted).
#[tokio::test]
#[ignore = "needs a Postgres server: see .ci/run"]
async fn an_http_repeat_on_another_replica_replays() {
    use axum::Router;
    use axum::extract::State;
    use axum::routing::post;
    use envelope::axum::{Keys, RouterExt, keyed};

    let table = table("http").await;
    async fn write(State((pool, table)): State<(PgPool, String)>) -> String {
        let insert = format!("INSERT INTO {table} (text) VALUES ('w') RETURNING id");
        let id: i64 = sqlx::query_scalar(sqlx::AssertSqlSafe(insert))
            .fetch_one(&pool)
            .await
            .unwrap();
        format!("write {id}")
    }
    let mut replicas = Vec::new();
    for _ in 0..2 {
        let pool = PgPool::connect(&url()).await.unwrap();
        let store = PostgresStore::new(pool.clone()).await.unwrap();
        let app = Router::new()
            .route(
                "/writes",
                post(write).route_layer(axum::middleware::from_fn_with_state(
                    Keys::required(store),
                    keyed,
                )),
            )
            .with_state((pool, table.clone()))
            .answer_failures();
        let listener = tokio::net::TcpListener::bind(("127.0.0.1", 0))
            .await
            .unwrap();
        replicas.push(listener.local_addr().unwrap());
        tokio::spawn(async move { axum::serve(listener, app).await.unwrap() });
    }
    let key = key();
    let post_to = |address: std::net::SocketAddr| {
        let key = key.clone();
        async move {
            use tokio::io::{AsyncReadExt, AsyncWriteExt};
            let mut stream = tokio::net::TcpStream::connect(address).await.unwrap();
            let request = format!(
                "POST /writes HTTP/1.1\r\nhost: {address}\r\nidempotency-key: {key}\r\ncontent-length: 0\r\nconnection: close\r\n\r\n"
            );
            stream.write_all(request.as_bytes()).await.unwrap();
            let mut answer = String::new();
            stream.read_to_string(&mut answer).await.unwrap();
            answer
        }
    };
    let first = post_to(replicas[0]).await;
    assert!(first.starts_with("HTTP/1.1 200"), "{first}");
    assert!(first.ends_with("write 1"), "{first}");
    let again = post_to(replicas[1]).await;
    assert!(again.contains("idempotent-replayed: true"), "{again}");
    assert!(again.ends_with("write 1"), "{again}");
    assert_eq!(rows(&table).await, 1);
}
