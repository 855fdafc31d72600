//! The recovery benchmark's failures (`scripts/recovery/`): for every
//! scenario of `scripts/recovery/scenarios.json`, the failed tool call made
//! against a real rmcp server in this process, and the failure as each
//! kind of peer or host would show it to a model. Prints one JSON object
//! on stdout:
//!
//! ```text
//! {"commit": "<git HEAD>" | null,
//!  "scenarios": [{"id": "...", "renderings": {"json": "...", "text": "...", "mcp_text": "...",
//!                 "sep3313": "...", "model_text": "...", "whole": "...", "lead": "...",
//!                 "python_sdk": "..." | null, "ts_sdk": "..."}}]}
//! ```
//!
//! - `json`: the envelope as an MCP tool result carries it (read back from
//!   `structuredContent`, else from its text block), `to_json_string()`;
//! - `text`: the envelope's `Display` alone, the MCP result's last text
//!   block (the instruction without the JSON before it);
//! - `mcp_text`: every text block of the `CallToolResult` the client
//!   received, joined by newlines: what a host passes the model, and the
//!   same text as `to_tool_result`'s content (checked);
//! - `sep3313`: the draft SEP-3313 object
//!   (`_meta["io.modelcontextprotocol/toolFailure"]`) alone, compact JSON
//!   (empty when the result has none);
//! - `model_text`: the host side: `envelope::host::read_call_tool_result`,
//!   the argument paths fitted to the call, `envelope::host::next_move`
//!   with the tool's declared annotations (first failure), and
//!   `envelope::host::model_text`;
//! - `whole`, `lead`: the default's neighbours, for measuring it: the
//!   JSON and the envelope's whole text (its `Display`: the move, the facts
//!   as lines, the move again; the default before round 5), and the
//!   default's second block alone (the move and the argument fixes);
//! - `python_sdk`, `ts_sdk`: what a server of the official Python SDK
//!   (`mcp` 2.3) or TypeScript SDK (1.32, zod 4) sends for the same failure,
//!   in the formats captured in `test_suite/tests/e2e/fixtures/`. `null`
//!   where that server would not fail at all (pydantic's lax mode takes
//!   `"20"` for an integer and `"true"` for a boolean).
//!
//! The server has one `#[tool]` per entry of `scripts/recovery/tools.json`
//! (same name, description and behaviour, as MCP annotations), takes its
//! arguments as `Parameters<Args<T>>` (so argument problems are envelope's
//! schema checking) and answers every failure with a derived error, as a
//! server would; the server is told which scenario is being run, and each
//! tool fails as that scenario says. The client sends `_meta.correlationId`
//! (`req-<n>`, the scenario's number) so that the renderings are the same
//! on every run, but for the SEP-3313 `retryNotBefore` (a time).
//!
//! Run from the repository root: `cargo run -p envelope-test-suite
//! --example recovery --features host,jsonschema [-- SCENARIOS.json]`
//! (`scripts/recovery.sh` does, and runs the benchmark).

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};

use envelope::args::Args;
use envelope::host;
use envelope::idempotency::MemoryStore;
use envelope::rmcp::Idempotency;
use envelope::{ArgumentError, CallBehaviour, Envelope, ErrorClass, ErrorEnvelope};
use rmcp::handler::server::wrapper::Parameters;
use rmcp::model::{CallToolRequestParams, CallToolResult, MetaObject, RequestMetaObject, Tool};
use rmcp::service::{RoleClient, RunningService};
use rmcp::{ServerHandler, ServiceExt, tool, tool_handler, tool_router};
use schemars::JsonSchema;
use serde::Deserialize;
use serde_json::{Map, Value, json};

/// The `_meta` key of the SEP-3313 tool-failure object.
const TOOL_FAILURE_KEY: &str = "io.modelcontextprotocol/toolFailure";

/// The server's tables, folders and the note titled Groceries in home.
const TABLES: [&str; 5] = [
    "EMPLOYEES",
    "DEPARTMENTS",
    "ORDERS",
    "CUSTOMERS",
    "SALARIES",
];
const FOLDERS: [&str; 4] = ["home", "work", "projects", "archive"];
const GROCERIES_ID: &str = "n-5";

/// Every failure of the benchmark's tools, as the library behind them
/// would declare it.
#[derive(Debug, thiserror::Error, envelope::Envelope)]
enum BenchError {
    #[error("limit {limit} is out of range")]
    #[envelope(
        class = InvalidArguments,
        argument(path = "/limit", kind = out_of_range, expected = "an integer from 1 to 1000")
    )]
    LimitOutOfRange { limit: u32 },

    #[error("limit {limit} is out of range")]
    #[envelope(
        class = InvalidArguments,
        argument(path = "/limit", kind = out_of_range, expected = "an integer from 1 to 100")
    )]
    SearchLimitOutOfRange { limit: u32 },

    #[error("duration_minutes {minutes} is out of range")]
    #[envelope(
        class = InvalidArguments,
        argument(path = "/duration_minutes", kind = out_of_range, expected = "an integer from 5 to 480")
    )]
    DurationOutOfRange { minutes: u32 },

    #[error("syntax error at or near \"{near}\"")]
    #[envelope(class = SyntaxError)]
    SqlSyntax { near: String },

    #[error("line {line}: '(' was never closed")]
    #[envelope(class = SyntaxError)]
    ScriptSyntax { line: u32 },

    #[error("the script failed: no folder named {folder}")]
    #[envelope(class = RuntimeError)]
    ScriptRuntime {
        folder: String,
        #[envelope(fuzzy_matches)]
        near: Vec<String>,
    },

    #[error("table {table} does not exist")]
    #[envelope(class = ObjectNotFound, suggested_tool = "list_tables")]
    TableNotFound {
        #[envelope(detail)]
        table: String,
        #[envelope(fuzzy_matches)]
        near: Vec<String>,
    },

    #[error("no note has the id {id}")]
    #[envelope(class = ObjectNotFound, suggested_tool = "list_notes")]
    NoteNotFound { id: String },

    #[error("no folder named {name}")]
    #[envelope(class = ObjectNotFound)]
    FolderNotFound {
        name: String,
        #[envelope(fuzzy_matches)]
        near: Vec<String>,
    },

    #[error("a folder named {name} already exists")]
    #[envelope(class = AlreadyExists)]
    FolderExists { name: String },

    #[error("a note titled {title} already exists in {folder}")]
    #[envelope(class = AlreadyExists, suggested_tool = "update_note")]
    NoteExists {
        title: String,
        folder: String,
        #[envelope(detail)]
        id: String,
    },

    #[error("note {id} is not leased")]
    #[envelope(class = PreconditionFailed, code = "LEASE_REQUIRED", suggested_tool = "acquire_lease")]
    LeaseRequired { id: String },

    #[error("no database connected")]
    #[envelope(class = PreconditionFailed, suggested_tool = "connect")]
    NotConnected,

    #[error("note {id} changed since version {expected}; it is now at version {current}")]
    #[envelope(class = Conflict, suggested_tool = "get_note")]
    VersionConflict {
        id: String,
        expected: u32,
        #[envelope(detail)]
        current: u32,
    },

    #[error("the session has expired")]
    #[envelope(class = Unauthenticated)]
    SessionExpired,

    #[error("not signed in to the mail server")]
    #[envelope(class = Unauthenticated)]
    MailSignedOut,

    #[error("mail to {domain} needs approval")]
    #[envelope(class = InteractionRequired)]
    ApprovalRequired { domain: String },

    #[error("permission denied to delete note {id}")]
    #[envelope(class = InsufficientPrivilege)]
    DeleteForbidden { id: String },

    #[error("permission denied for table {table}")]
    #[envelope(class = InsufficientPrivilege)]
    TableForbidden { table: String },

    #[error("{statement} statements are not allowed")]
    #[envelope(class = PolicyDenied)]
    StatementDenied { statement: String },

    #[error("requests to {host} are not allowed")]
    #[envelope(class = PolicyDenied)]
    UrlDenied { host: String },

    #[error("format {format} is not supported; json and csv are")]
    #[envelope(class = Unsupported)]
    FormatUnsupported { format: String },

    #[error("rate limit exceeded")]
    #[envelope(class = RateLimited)]
    RateLimited {
        #[envelope(retry_after_ms)]
        retry_after_ms: u64,
    },

    #[error("the daily query quota is used up")]
    #[envelope(class = QuotaExceeded)]
    QuotaExceeded,

    #[error("database is locked")]
    #[envelope(class = Busy, message = "database is locked")]
    Locked {
        #[envelope(retry_after_ms)]
        retry_after_ms: u64,
    },

    #[error("the order service did not answer in time")]
    #[envelope(class = Timeout, suggested_tool = "list_orders")]
    OrderTimeout,

    #[error("the query ran past its deadline")]
    #[envelope(class = Timeout)]
    QueryTimeout,

    #[error("the notes store did not answer in time")]
    #[envelope(class = Timeout)]
    UpdateTimeout,

    #[error("upstream answered {status}")]
    #[envelope(class = Transient, message = "upstream answered {status}")]
    Upstream { status: u16 },

    #[error("the mail relay answered 421")]
    #[envelope(class = Transient, suggested_tool = "list_outbox")]
    MailRelay,

    #[error("could not connect to the database server")]
    #[envelope(class = ConnectionFailed)]
    DatabaseUnreachable,

    #[error("lost the connection to the notes store")]
    #[envelope(class = ConnectionFailed, suggested_tool = "list_notes")]
    NotesStoreUnreachable,

    #[error("the query was cancelled")]
    #[envelope(class = Cancelled)]
    QueryCancelled,

    #[error("reading note {id} failed: page checksum mismatch")]
    #[envelope(class = Internal)]
    NoteReadFailed { id: String },

    #[error("the order service failed: null customer record")]
    #[envelope(class = Internal, suggested_tool = "list_orders")]
    OrderFailed,
}

// The tools' arguments: what `tools.json` describes.

#[derive(Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
struct TableArgs {
    /// The table's name (`EMPLOYEES`).
    table: String,
}

#[derive(Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
struct ConnectArgs {
    /// The database's name.
    database: String,
}

#[derive(Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
struct QueryArgs {
    /// A read-only SQL query.
    sql: String,
    /// The most rows to return.
    #[schemars(range(min = 1, max = 1000))]
    limit: Option<u32>,
    /// `"json"` or `"csv"`; `"json"` by default.
    format: Option<String>,
}

#[derive(Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
struct NoteArgs {
    /// The note's id (`n-1`).
    id: String,
}

#[derive(Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
struct ListNotesArgs {
    /// Only the notes of this folder.
    folder: Option<String>,
    /// Archived notes instead of current ones.
    archived: Option<bool>,
}

#[derive(Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
struct NewNoteArgs {
    title: String,
    body: String,
    folder: String,
}

#[derive(Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
struct UpdateNoteArgs {
    /// The note's id (`n-1`).
    id: String,
    /// The new body.
    body: String,
    /// The version the new body is based on.
    version: Option<u32>,
}

#[derive(Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
struct FolderArgs {
    name: String,
}

#[derive(Deserialize, JsonSchema)]
#[serde(rename_all = "lowercase")]
enum Priority {
    Low,
    Normal,
    High,
}

#[derive(Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
struct PriorityArgs {
    /// The note's id (`n-1`).
    id: String,
    priority: Priority,
}

#[derive(Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
struct OrderArgs {
    customer_id: String,
    item: String,
    quantity: u32,
}

#[derive(Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
struct CustomerArgs {
    customer_id: String,
}

#[derive(Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
struct EmailArgs {
    to: String,
    subject: String,
    body: String,
}

#[derive(Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
struct UrlArgs {
    url: String,
}

#[derive(Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
struct ScriptArgs {
    /// Python source.
    code: String,
}

// The tools of the domains added in the benchmark's second set (files,
// payments, calendars, tickets, git, an HTTP API, messaging). Their
// failures are declared in `scenarios.json` (`failure`) and built with the
// envelope's builder, as a server maps a foreign error by hand; their
// argument problems are envelope's schema checking, as above. Their tools
// check the arguments and do not read them (`allow(dead_code)`).

#[derive(Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
#[allow(dead_code)]
struct PathArgs {
    /// An absolute path (`/docs/report.md`).
    path: String,
}

#[derive(Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
#[allow(dead_code)]
struct WriteFileArgs {
    path: String,
    content: String,
}

#[derive(Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
#[allow(dead_code)]
struct PaymentArgs {
    payment_id: String,
}

#[derive(Deserialize, JsonSchema)]
#[serde(rename_all = "lowercase")]
enum Currency {
    Usd,
    Eur,
    Gbp,
}

#[derive(Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
#[allow(dead_code)]
struct ChargeArgs {
    customer_id: String,
    amount_cents: u64,
    currency: Currency,
}

#[derive(Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
#[allow(dead_code)]
struct RefundArgs {
    payment_id: String,
    amount_cents: u64,
}

#[derive(Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
#[allow(dead_code)]
struct DayArgs {
    /// `YYYY-MM-DD`.
    date: String,
}

#[derive(Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
#[allow(dead_code)]
struct EventArgs {
    title: String,
    /// `YYYY-MM-DD`.
    date: String,
    /// `HH:MM`.
    start: String,
    #[schemars(range(min = 5, max = 480))]
    duration_minutes: u32,
}

#[derive(Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
#[allow(dead_code)]
struct EventIdArgs {
    event_id: String,
}

#[derive(Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
#[allow(dead_code)]
struct TicketIdArgs {
    /// `OPS-12`.
    ticket_id: String,
}

#[derive(Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
#[allow(dead_code)]
struct SearchArgs {
    query: String,
    #[schemars(range(min = 1, max = 100))]
    limit: Option<u32>,
}

#[derive(Deserialize, JsonSchema)]
#[serde(rename_all = "lowercase")]
enum TicketPriority {
    Low,
    Normal,
    High,
    Urgent,
}

#[derive(Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
#[allow(dead_code)]
struct NewTicketArgs {
    project: String,
    title: String,
    priority: TicketPriority,
}

#[derive(Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
enum TicketStatus {
    Open,
    InProgress,
    Closed,
}

#[derive(Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
#[allow(dead_code)]
struct TicketStatusArgs {
    ticket_id: String,
    status: TicketStatus,
}

#[derive(Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
#[allow(dead_code)]
struct BranchArgs {
    repo: String,
    branch: String,
}

#[derive(Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
#[allow(dead_code)]
struct NewBranchArgs {
    repo: String,
    name: String,
    from: String,
}

#[derive(Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
#[allow(dead_code)]
struct ApiGetArgs {
    /// `/v1/...`.
    path: String,
}

#[derive(Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
#[allow(dead_code)]
struct ApiPostArgs {
    path: String,
    /// A JSON document.
    body: String,
}

#[derive(Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
#[allow(dead_code)]
struct ChannelArgs {
    /// `#team`, or `@name` for a person.
    channel: String,
}

#[derive(Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
#[allow(dead_code)]
struct MessageArgs {
    channel: String,
    text: String,
}

#[derive(Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
#[allow(dead_code)]
struct UserArgs {
    username: String,
}

/// A failure a scenario declares (`failure` in `scenarios.json`): the
/// envelope's fields a server sets, by their wire names.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct Declared {
    class: ErrorClass,
    message: String,
    #[serde(default)]
    suggested_tool: Option<String>,
    #[serde(default)]
    fuzzy_matches: Vec<String>,
    #[serde(default)]
    retry_after_ms: Option<u64>,
    #[serde(default)]
    code: Option<String>,
    #[serde(default)]
    next_steps: Vec<String>,
    #[serde(default)]
    details: Map<String, Value>,
    #[serde(default)]
    argument_errors: Vec<ArgumentError>,
}

impl Declared {
    /// The envelope, through the builder.
    fn envelope(self) -> ErrorEnvelope {
        let mut envelope = ErrorEnvelope::new(self.class, self.message)
            .with_fuzzy_matches(self.fuzzy_matches)
            .with_argument_errors(self.argument_errors);
        if let Some(tool) = self.suggested_tool {
            envelope = envelope.with_suggested_tool(tool);
        }
        if let Some(ms) = self.retry_after_ms {
            envelope = envelope.with_retry_after_ms(ms);
        }
        if let Some(code) = self.code {
            envelope = envelope.with_code(code);
        }
        for step in self.next_steps {
            envelope = envelope.with_next_step(step);
        }
        for (key, value) in self.details {
            envelope = envelope.with_detail(key, value);
        }
        envelope
    }
}

/// The server: the tools of `tools.json`, failing as the current scenario
/// says.
#[derive(Clone)]
struct Bench {
    tool_router: envelope::rmcp::Router<Self>,
    scenario: Arc<Mutex<String>>,
    /// The current scenario's declared failure, taken by the first tool of
    /// the second set that runs.
    declared: Arc<Mutex<Option<ErrorEnvelope>>>,
}

/// A tool's answer: a success never happens in the benchmark.
type Answer = Result<String, ErrorEnvelope>;

/// What a tool answers when the scenario has no failure for it (`main`
/// reports it).
fn no_failure() -> Answer {
    Ok(String::from("done"))
}

/// The near misses of `name` among `known`.
fn near(name: &str, known: &[&str]) -> Vec<String> {
    envelope::fuzzy::suggest(name, known, 3)
}

/// The word after `FROM` in `sql`, if any.
fn table_of(sql: &str) -> String {
    let words: Vec<&str> = sql.split_whitespace().collect();
    words
        .iter()
        .position(|word| word.eq_ignore_ascii_case("FROM"))
        .and_then(|at| words.get(at + 1))
        .map_or_else(String::new, |table| table.trim_end_matches(';').to_owned())
}

#[tool_router]
impl Bench {
    /// The server, answering an unknown tool as `unknown_tool` says: the
    /// revision's `-32602` (the default) or, for the scenario measured
    /// that way since the first round, the draft SEP-2145's tool result.
    fn new(
        scenario: Arc<Mutex<String>>,
        declared: Arc<Mutex<Option<ErrorEnvelope>>>,
        unknown_tool: envelope::rmcp::UnknownTool,
    ) -> Self {
        Bench {
            tool_router: envelope::rmcp::Router::new(Self::tool_router())
                .with_unknown_tool(unknown_tool)
                .with_tool_failure_meta(true)
                .with_idempotency(
                    Idempotency::new(MemoryStore::new())
                        .require("charge_card")
                        .require("create_ticket"),
                ),
            scenario,
            declared,
        }
    }

    /// The current scenario's declared failure, or success.
    fn declared(&self) -> Answer {
        match self
            .declared
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .take()
        {
            Some(failure) => Err(failure),
            None => no_failure(),
        }
    }

    fn scenario(&self) -> String {
        self.scenario
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .clone()
    }

    /// List the tables of the connected database.
    #[tool(annotations(read_only_hint = true))]
    async fn list_tables(&self) -> Answer {
        let failure = match self.scenario().as_str() {
            "quota_exceeded" => BenchError::QuotaExceeded,
            _ => return no_failure(),
        };
        Err(failure.into())
    }

    /// Show the columns of one table.
    #[tool(annotations(read_only_hint = true))]
    async fn describe_table(&self, Parameters(Args(args)): Parameters<Args<TableArgs>>) -> Answer {
        let TableArgs { table } = args?;
        let failure = match self.scenario().as_str() {
            "table_near_miss" => BenchError::TableNotFound {
                near: near(&table, &TABLES),
                table,
            },
            "busy_read" => BenchError::Locked {
                retry_after_ms: 1000,
            },
            _ => return no_failure(),
        };
        Err(failure.into())
    }

    /// Connect to a database by name.
    #[tool(annotations(
        read_only_hint = false,
        idempotent_hint = true,
        destructive_hint = false
    ))]
    async fn connect(&self, Parameters(Args(args)): Parameters<Args<ConnectArgs>>) -> Answer {
        let ConnectArgs {
            database: _database,
        } = args?;
        let failure = match self.scenario().as_str() {
            "connection_idempotent" => BenchError::DatabaseUnreachable,
            _ => return no_failure(),
        };
        Err(failure.into())
    }

    /// Run a read-only SQL query.
    #[tool(annotations(read_only_hint = true))]
    async fn run_query(&self, Parameters(Args(args)): Parameters<Args<QueryArgs>>) -> Answer {
        let QueryArgs { sql, limit, format } = args?;
        // The schema says 1 to 1000; serde takes any u32.
        if let Some(limit) = limit.filter(|limit| !(1..=1000).contains(limit)) {
            return Err(BenchError::LimitOutOfRange { limit }.into());
        }
        let failure = match self.scenario().as_str() {
            "sql_syntax" => BenchError::SqlSyntax {
                near: sql.split_whitespace().next().unwrap_or_default().to_owned(),
            },
            "not_connected" => BenchError::NotConnected,
            "table_forbidden" => BenchError::TableForbidden {
                table: table_of(&sql),
            },
            "drop_denied" => BenchError::StatementDenied {
                statement: sql
                    .split_whitespace()
                    .take(2)
                    .collect::<Vec<_>>()
                    .join(" ")
                    .to_uppercase(),
            },
            "format_unsupported" => BenchError::FormatUnsupported {
                format: format.unwrap_or_default(),
            },
            "timeout_read" => BenchError::QueryTimeout,
            "cancelled" => BenchError::QueryCancelled,
            _ => return no_failure(),
        };
        Err(failure.into())
    }

    /// Read one note.
    #[tool(annotations(read_only_hint = true))]
    async fn get_note(&self, Parameters(Args(args)): Parameters<Args<NoteArgs>>) -> Answer {
        let NoteArgs { id } = args?;
        let failure = match self.scenario().as_str() {
            "note_missing_list" => BenchError::NoteNotFound { id },
            "internal_read" => BenchError::NoteReadFailed { id },
            _ => return no_failure(),
        };
        Err(failure.into())
    }

    /// List notes, optionally of one folder.
    #[tool(annotations(read_only_hint = true))]
    async fn list_notes(&self, Parameters(Args(args)): Parameters<Args<ListNotesArgs>>) -> Answer {
        let ListNotesArgs {
            folder: _folder,
            archived: _archived,
        } = args?;
        no_failure()
    }

    /// Create a note; each call creates one.
    #[tool(annotations(
        read_only_hint = false,
        idempotent_hint = false,
        destructive_hint = false
    ))]
    async fn create_note(&self, Parameters(Args(args)): Parameters<Args<NewNoteArgs>>) -> Answer {
        let NewNoteArgs {
            title,
            body: _body,
            folder,
        } = args?;
        let failure = match self.scenario().as_str() {
            "folder_near_miss_write" => BenchError::FolderNotFound {
                near: near(&folder, &FOLDERS),
                name: folder,
            },
            "note_exists_update" => BenchError::NoteExists {
                title,
                folder,
                id: GROCERIES_ID.to_owned(),
            },
            "connection_write_check" => BenchError::NotesStoreUnreachable,
            _ => return no_failure(),
        };
        Err(failure.into())
    }

    /// Replace a note's body.
    #[tool(annotations(
        read_only_hint = false,
        idempotent_hint = true,
        destructive_hint = false
    ))]
    async fn update_note(
        &self,
        Parameters(Args(args)): Parameters<Args<UpdateNoteArgs>>,
    ) -> Answer {
        let UpdateNoteArgs {
            id,
            body: _body,
            version,
        } = args?;
        let failure = match self.scenario().as_str() {
            "lease_required" => BenchError::LeaseRequired { id },
            "stale_version" => BenchError::VersionConflict {
                id,
                expected: version.unwrap_or_default(),
                current: version.unwrap_or_default() + 1,
            },
            "timeout_idempotent" => BenchError::UpdateTimeout,
            _ => return no_failure(),
        };
        Err(failure.into())
    }

    /// Lock a note for editing.
    #[tool(annotations(
        read_only_hint = false,
        idempotent_hint = true,
        destructive_hint = false
    ))]
    async fn acquire_lease(&self, Parameters(Args(args)): Parameters<Args<NoteArgs>>) -> Answer {
        let NoteArgs { id: _id } = args?;
        no_failure()
    }

    /// Delete a note.
    #[tool(annotations(
        read_only_hint = false,
        idempotent_hint = false,
        destructive_hint = true
    ))]
    async fn delete_note(&self, Parameters(Args(args)): Parameters<Args<NoteArgs>>) -> Answer {
        let NoteArgs { id } = args?;
        let failure = match self.scenario().as_str() {
            "delete_missing_list" => BenchError::NoteNotFound { id },
            "delete_forbidden" => BenchError::DeleteForbidden { id },
            _ => return no_failure(),
        };
        Err(failure.into())
    }

    /// Create a folder.
    #[tool(annotations(
        read_only_hint = false,
        idempotent_hint = false,
        destructive_hint = false
    ))]
    async fn create_folder(&self, Parameters(Args(args)): Parameters<Args<FolderArgs>>) -> Answer {
        let FolderArgs { name } = args?;
        let failure = match self.scenario().as_str() {
            "folder_exists" => BenchError::FolderExists { name },
            "busy_write" => BenchError::Locked {
                retry_after_ms: 1000,
            },
            _ => return no_failure(),
        };
        Err(failure.into())
    }

    /// Set a note's priority.
    #[tool(annotations(
        read_only_hint = false,
        idempotent_hint = true,
        destructive_hint = false
    ))]
    async fn set_priority(&self, Parameters(Args(args)): Parameters<Args<PriorityArgs>>) -> Answer {
        let PriorityArgs {
            id: _id,
            priority: _priority,
        } = args?;
        no_failure()
    }

    /// Place an order; each call places one.
    #[tool(annotations(
        read_only_hint = false,
        idempotent_hint = false,
        destructive_hint = false
    ))]
    async fn create_order(&self, Parameters(Args(args)): Parameters<Args<OrderArgs>>) -> Answer {
        let OrderArgs {
            customer_id: _customer_id,
            item: _item,
            quantity: _quantity,
        } = args?;
        let failure = match self.scenario().as_str() {
            "timeout_write_check" => BenchError::OrderTimeout,
            "internal_write_check" => BenchError::OrderFailed,
            _ => return no_failure(),
        };
        Err(failure.into())
    }

    /// List a customer's orders.
    #[tool(annotations(read_only_hint = true))]
    async fn list_orders(&self, Parameters(Args(args)): Parameters<Args<CustomerArgs>>) -> Answer {
        let CustomerArgs {
            customer_id: _customer_id,
        } = args?;
        no_failure()
    }

    /// Send an email; each call sends one.
    #[tool(annotations(
        read_only_hint = false,
        idempotent_hint = false,
        destructive_hint = false
    ))]
    async fn send_email(&self, Parameters(Args(args)): Parameters<Args<EmailArgs>>) -> Answer {
        let EmailArgs {
            to,
            subject: _subject,
            body: _body,
        } = args?;
        let failure = match self.scenario().as_str() {
            "mail_login" => BenchError::MailSignedOut,
            "approval_needed" => BenchError::ApprovalRequired {
                domain: to.rsplit('@').next().unwrap_or_default().to_owned(),
            },
            "rate_limited_write" => BenchError::RateLimited {
                retry_after_ms: 2000,
            },
            "transient_write_check" => BenchError::MailRelay,
            _ => return no_failure(),
        };
        Err(failure.into())
    }

    /// List the emails sent today.
    #[tool(annotations(read_only_hint = true))]
    async fn list_outbox(&self) -> Answer {
        no_failure()
    }

    /// Fetch a web page.
    #[tool(annotations(read_only_hint = true))]
    async fn fetch_url(&self, Parameters(Args(args)): Parameters<Args<UrlArgs>>) -> Answer {
        let UrlArgs { url } = args?;
        let failure = match self.scenario().as_str() {
            "session_expired" => BenchError::SessionExpired,
            "internal_url_denied" => BenchError::UrlDenied {
                host: url
                    .split("://")
                    .nth(1)
                    .and_then(|rest| rest.split('/').next())
                    .unwrap_or_default()
                    .to_owned(),
            },
            "rate_limited_read" => BenchError::RateLimited {
                retry_after_ms: 2000,
            },
            "transient_read" => BenchError::Upstream { status: 503 },
            _ => return no_failure(),
        };
        Err(failure.into())
    }

    /// Run a Python script in the sandbox.
    #[tool(annotations(
        read_only_hint = false,
        idempotent_hint = false,
        destructive_hint = false
    ))]
    async fn run_script(&self, Parameters(Args(args)): Parameters<Args<ScriptArgs>>) -> Answer {
        let ScriptArgs { code } = args?;
        let failure = match self.scenario().as_str() {
            "script_syntax" => BenchError::ScriptSyntax { line: 1 },
            // The script's first string literal named the folder.
            "script_runtime_near_miss" => {
                let folder = code.split('\'').nth(1).unwrap_or_default().to_owned();
                BenchError::ScriptRuntime {
                    near: near(&folder, &FOLDERS),
                    folder,
                }
            }
            // A sandbox status this server has no class for.
            "unknown_class" => {
                return Err(ErrorEnvelope::new(
                    ErrorClass::Unknown,
                    "the sandbox returned status 7",
                ));
            }
            _ => return no_failure(),
        };
        Err(failure.into())
    }

    /// Read a text file.
    #[tool(annotations(read_only_hint = true))]
    async fn read_file(&self, Parameters(Args(args)): Parameters<Args<PathArgs>>) -> Answer {
        args?;
        self.declared()
    }

    /// List the files of a directory.
    #[tool(annotations(read_only_hint = true))]
    async fn list_dir(&self, Parameters(Args(args)): Parameters<Args<PathArgs>>) -> Answer {
        args?;
        self.declared()
    }

    /// Write a file, replacing its content.
    #[tool(annotations(
        read_only_hint = false,
        idempotent_hint = true,
        destructive_hint = false
    ))]
    async fn write_file(&self, Parameters(Args(args)): Parameters<Args<WriteFileArgs>>) -> Answer {
        args?;
        self.declared()
    }

    /// Delete a file.
    #[tool(annotations(
        read_only_hint = false,
        idempotent_hint = false,
        destructive_hint = true
    ))]
    async fn delete_file(&self, Parameters(Args(args)): Parameters<Args<PathArgs>>) -> Answer {
        args?;
        self.declared()
    }

    /// Show a payment and what is left to refund.
    #[tool(annotations(read_only_hint = true))]
    async fn get_payment(&self, Parameters(Args(args)): Parameters<Args<PaymentArgs>>) -> Answer {
        args?;
        self.declared()
    }

    /// List a customer's card charges.
    #[tool(annotations(read_only_hint = true))]
    async fn list_charges(&self, Parameters(Args(args)): Parameters<Args<CustomerArgs>>) -> Answer {
        args?;
        self.declared()
    }

    /// Charge a customer's card; the host sends an idempotency key with each call, so a repeat with the same key charges once.
    #[tool(annotations(
        read_only_hint = false,
        idempotent_hint = false,
        destructive_hint = false
    ))]
    async fn charge_card(&self, Parameters(Args(args)): Parameters<Args<ChargeArgs>>) -> Answer {
        args?;
        self.declared()
    }

    /// Refund part or all of a payment; each call refunds once more.
    #[tool(annotations(
        read_only_hint = false,
        idempotent_hint = false,
        destructive_hint = false
    ))]
    async fn refund_payment(&self, Parameters(Args(args)): Parameters<Args<RefundArgs>>) -> Answer {
        args?;
        self.declared()
    }

    /// List the calendar's events of one day.
    #[tool(annotations(read_only_hint = true))]
    async fn list_events(&self, Parameters(Args(args)): Parameters<Args<DayArgs>>) -> Answer {
        args?;
        self.declared()
    }

    /// Add an event to the calendar; each call adds one.
    #[tool(annotations(
        read_only_hint = false,
        idempotent_hint = false,
        destructive_hint = false
    ))]
    async fn create_event(&self, Parameters(Args(args)): Parameters<Args<EventArgs>>) -> Answer {
        let EventArgs {
            duration_minutes, ..
        } = args?;
        // The schema says 5 to 480; serde takes any u32.
        if !(5..=480).contains(&duration_minutes) {
            return Err(BenchError::DurationOutOfRange {
                minutes: duration_minutes,
            }
            .into());
        }
        self.declared()
    }

    /// Cancel a calendar event.
    #[tool(annotations(
        read_only_hint = false,
        idempotent_hint = false,
        destructive_hint = true
    ))]
    async fn cancel_event(&self, Parameters(Args(args)): Parameters<Args<EventIdArgs>>) -> Answer {
        args?;
        self.declared()
    }

    /// Show one ticket.
    #[tool(annotations(read_only_hint = true))]
    async fn get_ticket(&self, Parameters(Args(args)): Parameters<Args<TicketIdArgs>>) -> Answer {
        args?;
        self.declared()
    }

    /// Search tickets by text.
    #[tool(annotations(read_only_hint = true))]
    async fn search_tickets(&self, Parameters(Args(args)): Parameters<Args<SearchArgs>>) -> Answer {
        let SearchArgs { limit, .. } = args?;
        // The schema says 1 to 100; serde takes any u32.
        if let Some(limit) = limit.filter(|limit| !(1..=100).contains(limit)) {
            return Err(BenchError::SearchLimitOutOfRange { limit }.into());
        }
        self.declared()
    }

    /// File a ticket; the host sends an idempotency key with each call, so a repeat with the same key files one.
    #[tool(annotations(
        read_only_hint = false,
        idempotent_hint = false,
        destructive_hint = false
    ))]
    async fn create_ticket(
        &self,
        Parameters(Args(args)): Parameters<Args<NewTicketArgs>>,
    ) -> Answer {
        args?;
        self.declared()
    }

    /// Set a ticket's status.
    #[tool(annotations(
        read_only_hint = false,
        idempotent_hint = true,
        destructive_hint = false
    ))]
    async fn update_ticket(
        &self,
        Parameters(Args(args)): Parameters<Args<TicketStatusArgs>>,
    ) -> Answer {
        args?;
        self.declared()
    }

    /// Show the recent commits of a branch.
    #[tool(annotations(read_only_hint = true))]
    async fn git_log(&self, Parameters(Args(args)): Parameters<Args<BranchArgs>>) -> Answer {
        args?;
        self.declared()
    }

    /// Create a branch from another.
    #[tool(annotations(
        read_only_hint = false,
        idempotent_hint = false,
        destructive_hint = false
    ))]
    async fn create_branch(
        &self,
        Parameters(Args(args)): Parameters<Args<NewBranchArgs>>,
    ) -> Answer {
        args?;
        self.declared()
    }

    /// Push a branch to its remote.
    #[tool(annotations(
        read_only_hint = false,
        idempotent_hint = true,
        destructive_hint = false
    ))]
    async fn git_push(&self, Parameters(Args(args)): Parameters<Args<BranchArgs>>) -> Answer {
        args?;
        self.declared()
    }

    /// GET a path of the company API.
    #[tool(annotations(read_only_hint = true))]
    async fn api_get(&self, Parameters(Args(args)): Parameters<Args<ApiGetArgs>>) -> Answer {
        args?;
        self.declared()
    }

    /// POST a JSON body to a path of the company API; each call posts once.
    #[tool(annotations(
        read_only_hint = false,
        idempotent_hint = false,
        destructive_hint = false
    ))]
    async fn api_post(&self, Parameters(Args(args)): Parameters<Args<ApiPostArgs>>) -> Answer {
        args?;
        self.declared()
    }

    /// List the chat channels.
    #[tool(annotations(read_only_hint = true))]
    async fn list_channels(&self) -> Answer {
        self.declared()
    }

    /// List the recent messages of a chat channel.
    #[tool(annotations(read_only_hint = true))]
    async fn list_messages(&self, Parameters(Args(args)): Parameters<Args<ChannelArgs>>) -> Answer {
        args?;
        self.declared()
    }

    /// Join a chat channel.
    #[tool(annotations(
        read_only_hint = false,
        idempotent_hint = true,
        destructive_hint = false
    ))]
    async fn join_channel(&self, Parameters(Args(args)): Parameters<Args<ChannelArgs>>) -> Answer {
        args?;
        self.declared()
    }

    /// Post a message to a chat channel or a person; each call posts one.
    #[tool(annotations(
        read_only_hint = false,
        idempotent_hint = false,
        destructive_hint = false
    ))]
    async fn send_message(&self, Parameters(Args(args)): Parameters<Args<MessageArgs>>) -> Answer {
        args?;
        self.declared()
    }

    /// Show a chat user.
    #[tool(annotations(read_only_hint = true))]
    async fn get_user(&self, Parameters(Args(args)): Parameters<Args<UserArgs>>) -> Answer {
        args?;
        self.declared()
    }
}

#[tool_handler(router = self.tool_router)]
impl ServerHandler for Bench {}

// What the official SDKs' servers send for the same failures. These are the
// formats of the fixtures in test_suite/tests/e2e/fixtures/ (Python SDK
// `mcp` 2.3 with pydantic, TypeScript SDK 1.32 with zod 4), filled with the
// scenario's message (the envelope's `message` as the exception's text)
// and, for rejected arguments, with the report pydantic and zod give for
// the scenario's call (checked against pydantic 2.13 and the TypeScript
// SDK 1.32.2, the tools declared as the Rust ones: `limit` as
// `Field(ge=1, le=1000)` / `z.number().int().min(1).max(1000)`, `priority`
// as `Literal[...]` / `z.enum([...])`, `format` as a plain string).

/// One validation problem as pydantic reports it: the location, the
/// message, the error type, and the value reported as `input_value`
/// (`None`: the whole arguments, as for a missing field).
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct Pydantic {
    at: String,
    message: String,
    kind: String,
    input: Option<String>,
}

/// The reports of pydantic and zod for a scenario's arguments, as the
/// second set writes them in `scenarios.json` (`peers`): `pydantic` is
/// `null` where the Python SDK would run the tool.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct Peers {
    pydantic: Option<Vec<Pydantic>>,
    zod: Vec<String>,
}

/// The problems pydantic and zod find in the call of an `arg_*` scenario.
/// pydantic ignores unknown keys and, in lax mode, takes `"20"` for an
/// integer and `"true"` for a boolean (`None`: the Python SDK runs the
/// tool); zod strips unknown keys.
fn argument_reports(id: &str, peers: Option<&Value>) -> (Option<Vec<Pydantic>>, Vec<String>) {
    if let Some(peers) = peers {
        let Peers { pydantic, zod } = Peers::deserialize(peers)
            .unwrap_or_else(|e| panic!("scenario {id}: `peers` is not readable: {e}"));
        return (pydantic, zod);
    }
    let missing = |at: &str| Pydantic {
        at: at.to_owned(),
        message: "Field required".to_owned(),
        kind: "missing".to_owned(),
        input: None,
    };
    let (pydantic, zod): (Option<Vec<Pydantic>>, Vec<&str>) = match id {
        "arg_key_misspelled" | "arg_key_case" => (
            Some(vec![missing("id")]),
            vec!["Invalid input: expected string, received undefined at id"],
        ),
        "arg_number_as_string" => (
            None,
            vec!["Invalid input: expected number, received string at limit"],
        ),
        "arg_bool_as_string" => (
            None,
            vec!["Invalid input: expected boolean, received string at archived"],
        ),
        "arg_missing_required" => (
            Some(vec![missing("folder")]),
            vec!["Invalid input: expected string, received undefined at folder"],
        ),
        "arg_enum_near_miss" => (
            Some(vec![Pydantic {
                at: "priority".to_owned(),
                message: "Input should be 'low', 'normal' or 'high'".to_owned(),
                kind: "literal_error".to_owned(),
                input: Some("priority".to_owned()),
            }]),
            vec![r#"Invalid option: expected one of "low"|"normal"|"high" at priority"#],
        ),
        "arg_out_of_range" => (
            Some(vec![Pydantic {
                at: "limit".to_owned(),
                message: "Input should be less than or equal to 1000".to_owned(),
                kind: "less_than_equal".to_owned(),
                input: Some("limit".to_owned()),
            }]),
            vec!["Too big: expected number to be <=1000 at limit"],
        ),
        "arg_key_and_type" => (
            Some(vec![missing("customer_id")]),
            vec![
                "Invalid input: expected string, received undefined at customer_id",
                "Invalid input: expected number, received string at quantity",
            ],
        ),
        "arg_wrong_type_object" => (
            Some(vec![Pydantic {
                at: "id".to_owned(),
                message: "Input should be a valid string".to_owned(),
                kind: "string_type".to_owned(),
                input: Some("id".to_owned()),
            }]),
            vec!["Invalid input: expected string, received number at id"],
        ),
        other => panic!("scenario {other}: no SDK argument report is written for it"),
    };
    (pydantic, zod.into_iter().map(str::to_owned).collect())
}

/// A JSON value as Python sees it after `json.loads`: its `repr` (keys in
/// the order written, as a `dict` keeps them), its type's name, and an
/// object's members.
struct Py {
    repr: String,
    type_name: &'static str,
    members: Vec<(String, Py)>,
}

impl Py {
    fn scalar(repr: String, type_name: &'static str) -> Self {
        Py {
            repr,
            type_name,
            members: Vec::new(),
        }
    }

    /// `repr` of a `str`.
    fn str_repr(text: &str) -> String {
        let quote = if text.contains('\'') && !text.contains('"') {
            '"'
        } else {
            '\''
        };
        let mut out = String::from(quote);
        for c in text.chars() {
            match c {
                '\\' => out.push_str("\\\\"),
                '\n' => out.push_str("\\n"),
                c if c == quote => {
                    out.push('\\');
                    out.push(c);
                }
                c => out.push(c),
            }
        }
        out.push(quote);
        out
    }
}

impl<'de> Deserialize<'de> for Py {
    fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        struct Visitor;

        impl<'de> serde::de::Visitor<'de> for Visitor {
            type Value = Py;

            fn expecting(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
                f.write_str("any JSON value")
            }

            fn visit_unit<E>(self) -> Result<Py, E> {
                Ok(Py::scalar("None".into(), "NoneType"))
            }

            fn visit_bool<E>(self, value: bool) -> Result<Py, E> {
                let repr = if value { "True" } else { "False" };
                Ok(Py::scalar(repr.into(), "bool"))
            }

            fn visit_i64<E>(self, value: i64) -> Result<Py, E> {
                Ok(Py::scalar(value.to_string(), "int"))
            }

            fn visit_u64<E>(self, value: u64) -> Result<Py, E> {
                Ok(Py::scalar(value.to_string(), "int"))
            }

            fn visit_f64<E>(self, value: f64) -> Result<Py, E> {
                Ok(Py::scalar(format!("{value:?}"), "float"))
            }

            fn visit_str<E>(self, value: &str) -> Result<Py, E> {
                Ok(Py::scalar(Py::str_repr(value), "str"))
            }

            fn visit_seq<A: serde::de::SeqAccess<'de>>(self, mut seq: A) -> Result<Py, A::Error> {
                let mut items = Vec::new();
                while let Some(item) = seq.next_element::<Py>()? {
                    items.push(item.repr);
                }
                Ok(Py::scalar(format!("[{}]", items.join(", ")), "list"))
            }

            fn visit_map<A: serde::de::MapAccess<'de>>(self, mut map: A) -> Result<Py, A::Error> {
                let mut members: Vec<(String, Py)> = Vec::new();
                while let Some((key, value)) = map.next_entry::<String, Py>()? {
                    members.push((key, value));
                }
                let repr = members
                    .iter()
                    .map(|(key, value)| format!("{}: {}", Py::str_repr(key), value.repr))
                    .collect::<Vec<_>>()
                    .join(", ");
                Ok(Py {
                    repr: format!("{{{repr}}}"),
                    type_name: "dict",
                    members,
                })
            }
        }

        deserializer.deserialize_any(Visitor)
    }
}

/// A scenario's call's arguments, as Python reads them.
#[derive(Deserialize)]
struct PyScenario {
    call: PyCall,
}

#[derive(Deserialize)]
struct PyCall {
    arguments: Py,
}

/// pydantic's report of `problems` for the arguments of `tool`, as the
/// Python SDK validates them (`<tool>Arguments`); an `input_value` longer
/// than 50 characters is cut as pydantic-core cuts it.
fn pydantic_report(tool: &str, arguments: &Py, problems: &[Pydantic]) -> String {
    let count = problems.len();
    let mut report = format!(
        "{count} validation error{} for {tool}Arguments",
        if count == 1 { "" } else { "s" }
    );
    for problem in problems {
        let input = problem.input.as_deref().map_or(arguments, |key| {
            arguments
                .members
                .iter()
                .find_map(|(name, value)| (name == key).then_some(value))
                .unwrap_or_else(|| panic!("{tool}: no argument {key}"))
        });
        let mut shown = input.repr.clone();
        if shown.len() > 50 {
            shown = format!("{}...{}", &shown[..25], &shown[shown.len() - 24..]);
        }
        report.push_str(&format!(
            "\n{}\n  {} [type={}, input_value={shown}, input_type={}]\n    For further information visit https://errors.pydantic.dev/2.14/v/{}",
            problem.at,
            problem.message,
            problem.kind,
            input.type_name,
            problem.kind,
        ));
    }
    report
}

/// The Python SDK's text (or, for a rate limit, the JSON-RPC error as a
/// host shows it); `None` when its server would not fail.
fn python_sdk(
    id: &str,
    peers: Option<&Value>,
    tool: &str,
    arguments: &Py,
    envelope: &ErrorEnvelope,
) -> Option<String> {
    if id.starts_with("arg_") {
        let (problems, _) = argument_reports(id, peers);
        return problems.map(|problems| {
            format!(
                "Error executing tool {tool}: {}",
                pydantic_report(tool, arguments, &problems)
            )
        });
    }
    Some(match envelope.code.as_deref() {
        Some("UNKNOWN_TOOL") => format!("Unknown tool: {tool}"),
        // python_mcp_error.json: the tool raises MCPError(-32023, ...).
        _ if envelope.error_class == ErrorClass::RateLimited => {
            format!("MCP error -32023: {}", envelope.message)
        }
        _ => format!("Error executing tool {tool}: {}", envelope.message),
    })
}

/// The TypeScript SDK's text.
fn ts_sdk(id: &str, peers: Option<&Value>, tool: &str, envelope: &ErrorEnvelope) -> String {
    if id.starts_with("arg_") {
        let (_, issues) = argument_reports(id, peers);
        return format!(
            "MCP error -32602: Input validation error: Invalid arguments for tool {tool}: {}",
            issues.join("\n")
        );
    }
    match envelope.code.as_deref() {
        Some("UNKNOWN_TOOL") => format!("MCP error -32602: Tool {tool} not found"),
        // A thrown Error: its message.
        _ => envelope.message.clone(),
    }
}

/// The repository's root.
fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("..")
}

fn read_json<T: serde::de::DeserializeOwned>(path: &Path) -> T {
    let text = std::fs::read_to_string(path)
        .unwrap_or_else(|e| panic!("cannot read {}: {e}", path.display()));
    serde_json::from_str(&text).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

/// `git rev-parse HEAD` at the root, if git answers.
fn commit() -> Value {
    std::process::Command::new("git")
        .args(["rev-parse", "HEAD"])
        .current_dir(root())
        .output()
        .ok()
        .filter(|output| output.status.success())
        .and_then(|output| String::from_utf8(output.stdout).ok())
        .map_or(Value::Null, |head| Value::from(head.trim()))
}

/// Checks that the server lists exactly the tools of `tools.json`, with
/// their descriptions and behaviours.
fn check_tools(listed: &[Tool], described: &Value) {
    let listed: BTreeMap<&str, &Tool> = listed
        .iter()
        .map(|tool| (tool.name.as_ref(), tool))
        .collect();
    let described = described.as_array().expect("tools.json is an array");
    assert_eq!(
        listed.len(),
        described.len(),
        "the server's tools are not those of tools.json: {:?}",
        listed.keys().collect::<Vec<_>>()
    );
    for entry in described {
        let name = entry["name"].as_str().expect("a tool's name");
        let tool = listed
            .get(name)
            .unwrap_or_else(|| panic!("tools.json lists {name}, the server does not"));
        assert_eq!(
            tool.description.as_deref(),
            entry["description"].as_str(),
            "{name}: the server's description differs from tools.json's"
        );
        let CallBehaviour {
            read_only,
            idempotent,
            destructive,
            keyed,
            ..
        } = host::behaviour_of(tool);
        let behaviour = match (read_only, idempotent, destructive) {
            (true, _, _) => "read_only",
            (false, true, false) => "idempotent",
            (false, false, false) => "write",
            (false, false, true) => "destructive",
            (false, true, true) => "idempotent and destructive",
        };
        let behaviour = if keyed {
            format!("{behaviour}, keyed")
        } else {
            behaviour.to_owned()
        };
        assert_eq!(
            Some(behaviour.as_str()),
            entry["behaviour"].as_str(),
            "{name}: the annotations differ from tools.json's behaviour"
        );
    }
}

/// The envelope the server answered with, as the result carries it.
fn served_envelope(id: &str, result: &CallToolResult) -> ErrorEnvelope {
    assert_eq!(
        result.is_error,
        Some(true),
        "scenario {id}: the call did not fail: {result:?}"
    );
    match &result.structured_content {
        Some(structured) => serde_json::from_value(structured.clone())
            .unwrap_or_else(|e| panic!("scenario {id}: structuredContent is no envelope: {e}")),
        None => result
            .content
            .iter()
            .filter_map(|block| block.as_text())
            .find_map(|text| serde_json::from_str(&text.text).ok())
            .unwrap_or_else(|| panic!("scenario {id}: no envelope in the result: {result:?}")),
    }
}

/// Calls `tool` as the benchmark's client: `_meta.correlationId`, and an
/// idempotency key for a tool that takes keys. A JSON-RPC error (the
/// revision's unknown tool) is returned as its code, message and data.
async fn call(
    client: &RunningService<RoleClient, ()>,
    tool: &str,
    arguments: &Value,
    number: usize,
    keyed: bool,
) -> Result<CallToolResult, rmcp::model::ErrorData> {
    let mut params = CallToolRequestParams::new(tool.to_owned());
    if let Value::Object(arguments) = arguments {
        params = params.with_arguments(arguments.clone());
    }
    let mut meta: Map<String, Value> = Map::new();
    meta.insert("correlationId".into(), format!("req-{number}").into());
    if keyed {
        meta.insert(
            envelope::idempotency::META_KEY.into(),
            format!("key-{number}").into(),
        );
    }
    params.meta = Some(RequestMetaObject(MetaObject::from(meta)));
    match client.peer().call_tool(params).await {
        Ok(result) => Ok(result),
        Err(rmcp::ServiceError::McpError(error)) => Err(error),
        Err(e) => panic!("{tool}: the call got no answer: {e}"),
    }
}

/// A server on an in-process duplex, and rmcp's client of it.
async fn connect(server: Bench) -> RunningService<RoleClient, ()> {
    let (client_io, server_io) = tokio::io::duplex(64 * 1024);
    tokio::spawn(async move {
        let running = server.serve(server_io).await.expect("the server starts");
        let _ = running.waiting().await;
    });
    ().serve(client_io).await.expect("the client connects")
}

/// The lines of `text` (the envelope's `Display`) before its facts line,
/// the one that starts with the class's wire name: the move and the
/// argument fixes under it.
fn lead_of(envelope: &ErrorEnvelope, text: &str) -> String {
    let class = envelope.error_class.as_str();
    text.lines()
        .take_while(|line| !line.starts_with(class))
        .collect::<Vec<_>>()
        .join("\n")
}

/// The renderings of a failure answered as a tool result.
fn tool_result_renderings(
    id: &str,
    result: &CallToolResult,
    arguments: &Value,
    behaviour: CallBehaviour,
) -> (ErrorEnvelope, Value) {
    let envelope = served_envelope(id, result);
    let mcp_text = result
        .content
        .iter()
        .filter_map(|block| block.as_text())
        .map(|text| text.text.as_str())
        .collect::<Vec<_>>()
        .join("\n");
    let sep3313 = result
        .meta
        .as_ref()
        .and_then(|meta| meta.get(TOOL_FAILURE_KEY))
        .map_or_else(String::new, Value::to_string);

    // The host: read, fit the paths to the call, decide (the first
    // failure of the call), and the text for the model.
    let mut read = host::read_call_tool_result(result)
        .unwrap_or_else(|| panic!("scenario {id}: the host read no failure"));
    host::fit_paths(&mut read, arguments);
    let next = host::next_move(&read, behaviour, 1);
    let model_text = host::model_text(&read, &next);

    assert_eq!(
        envelope.to_tool_result("call").content,
        mcp_text,
        "scenario {id}: a tool result's content is what an MCP host passes on"
    );
    let renderings = json!({
        "json": envelope.to_json_string(),
        "text": envelope.to_string(),
        "mcp_text": mcp_text,
        "sep3313": sep3313,
        "model_text": model_text,
    });
    (envelope, renderings)
}

/// The renderings of a failure answered as a JSON-RPC error (the
/// revision's unknown tool): a host shows the error's message as MCP
/// clients raise it (`MCP error CODE: MESSAGE`, the TypeScript SDK's
/// `McpError`); the envelope is the one in its `data`.
fn jsonrpc_renderings(
    id: &str,
    error: &rmcp::model::ErrorData,
    behaviour: CallBehaviour,
) -> (ErrorEnvelope, Value) {
    let code = i64::from(error.code.0);
    let envelope = host::read_jsonrpc_error(code, &error.message, error.data.as_ref());
    assert!(
        error.data.is_some(),
        "scenario {id}: the JSON-RPC error carries no envelope: {error:?}"
    );
    let next = host::next_move(&envelope, behaviour, 1);
    let renderings = json!({
        "json": envelope.to_json_string(),
        "text": envelope.to_string(),
        "mcp_text": format!("MCP error {code}: {}", error.message),
        "sep3313": "",
        "model_text": host::model_text(&envelope, &next),
    });
    (envelope, renderings)
}

#[tokio::main(flavor = "current_thread")]
async fn main() {
    let scenarios_path = std::env::args().nth(1).map_or_else(
        || root().join("scripts/recovery/scenarios.json"),
        PathBuf::from,
    );
    let scenarios: Vec<Value> = read_json(&scenarios_path);
    // The same calls' arguments as Python's `json.loads` reads them.
    let python: Vec<PyScenario> = read_json(&scenarios_path);
    let described: Value = read_json(&scenarios_path.with_file_name("tools.json"));

    let current = Arc::new(Mutex::new(String::new()));
    let declared = Arc::new(Mutex::new(None));
    let bench =
        |unknown_tool| Bench::new(Arc::clone(&current), Arc::clone(&declared), unknown_tool);
    // The revision's answers (the defaults), and the SEP-2145 unknown tool
    // of the scenarios that say `"unknown_tool": "sep2145"`.
    let conformant = connect(bench(envelope::rmcp::UnknownTool::ProtocolError)).await;
    let sep2145 = connect(bench(envelope::rmcp::UnknownTool::Sep2145ToolError)).await;
    let listed = conformant
        .peer()
        .list_all_tools()
        .await
        .expect("tools/list");
    check_tools(&listed, &described);
    let behaviours: BTreeMap<String, CallBehaviour> = listed
        .iter()
        .map(|tool| (tool.name.to_string(), host::behaviour_of(tool)))
        .collect();

    let mut out = Vec::new();
    for (number, (scenario, python)) in scenarios.iter().zip(&python).enumerate() {
        let id = scenario["id"].as_str().expect("a scenario's id");
        let tool = scenario["call"]["tool"].as_str().expect("a call's tool");
        let arguments = &scenario["call"]["arguments"];
        *current.lock().unwrap() = id.to_owned();
        *declared.lock().unwrap() = scenario.get("failure").map(|failure| {
            Declared::deserialize(failure)
                .unwrap_or_else(|e| panic!("scenario {id}: `failure` is not readable: {e}"))
                .envelope()
        });
        let client = match scenario["unknown_tool"].as_str() {
            Some("sep2145") => &sep2145,
            None => &conformant,
            Some(other) => panic!("scenario {id}: unknown_tool {other:?}"),
        };
        let behaviour = behaviours.get(tool).copied().unwrap_or_default();

        let answer = call(client, tool, arguments, number + 1, behaviour.keyed).await;
        let (envelope, mut renderings) = match &answer {
            Ok(result) => tool_result_renderings(id, result, arguments, behaviour),
            Err(error) => jsonrpc_renderings(id, error, behaviour),
        };
        assert!(
            declared.lock().unwrap().is_none(),
            "scenario {id}: the declared failure was not answered"
        );
        let class = envelope.error_class.to_string();
        assert_eq!(
            Some(class.as_str()),
            scenario["class"].as_str(),
            "scenario {id}: the server answered {class}, the scenario is of class {}: {}",
            scenario["class"],
            envelope.to_json_string(),
        );
        // The default's neighbours, measured against it: the JSON and the
        // whole text (`whole`), and the text's lead alone (`lead`).
        let text = envelope.to_string();
        let lead = lead_of(&envelope, &text);
        let json = envelope.to_json_string();
        renderings["whole"] = format!("{json}\n{text}").into();
        renderings["lead"] = lead.into();
        let peers = scenario.get("peers");
        renderings["python_sdk"] =
            python_sdk(id, peers, tool, &python.call.arguments, &envelope).into();
        renderings["ts_sdk"] = ts_sdk(id, peers, tool, &envelope).into();
        out.push(json!({"id": id, "renderings": renderings}));
    }
    conformant.cancel().await.expect("the client closes");
    sep2145.cancel().await.expect("the client closes");
    let document = json!({"commit": commit(), "scenarios": out});
    println!(
        "{}",
        serde_json::to_string_pretty(&document).expect("the renderings serialize")
    );
}
