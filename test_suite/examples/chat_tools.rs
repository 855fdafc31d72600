//! A tool-calling loop where failed tool calls go back to the model as
//! `ToolResult`s, in the wire form of the `multi-llm` crate:
//!
//! ```json
//! {"tool_call_id":"call_1","content":"<envelope JSON>","is_error":true,"error_category":"NotFound"}
//! ```
//!
//! No network: a scripted model stands in for the LLM. A real model gets
//! `to_tool_result`, whose content is the text written for it to act on;
//! the script parses, so it gets `to_tool_result_json`, the envelope's
//! JSON, and reads each result the way a model would, taking a near-miss
//! name from
//! `fuzzy_matches` and the next tool from `suggested_tool`, so the run shows
//! the envelope doing its job: every failure is followed by a call that
//! fixes it. The `error_category` of each failure comes from the derive
//! (the class's default category, or the variant's `category`).
//!
//! At the end it prints the first failure in the shapes of the OpenAI
//! (Chat Completions, Responses), Anthropic and Gemini APIs.
//!
//! Run it with `cargo run -p envelope-test-suite --example chat_tools`.

use std::collections::BTreeSet;

use envelope::{Envelope, ToolResult, UserErrorCategory};
use serde_json::{Value, json};

/// The cities the weather tools know.
pub const CITIES: &[&str] = &["Berlin", "Paris", "Parma", "Porto", "Prague"];

/// Why a weather tool call failed. One variant per conversation-flow
/// category of `multi-llm`, so the loop can show each.
#[derive(Debug, thiserror::Error, Envelope)]
#[envelope(suggested_tools(ObjectNotFound = "list_cities", PreconditionFailed = "login"))]
pub enum ToolError {
    /// No city has that name; `candidates` are the near misses.
    /// Category `NotFound`.
    #[error("unknown city {city:?}")]
    #[envelope(class = ObjectNotFound, message = "no city is called {city}")]
    CityNotFound {
        /// The name the model sent.
        city: String,
        /// Known cities with a similar name, best first.
        #[envelope(fuzzy_matches)]
        candidates: Vec<String>,
    },

    /// A required argument is absent: the model has to ask the user.
    /// Category `MissingContext`.
    #[error("missing argument {argument}")]
    #[envelope(
        class = InvalidArguments,
        category = MissingContext,
        message = "the argument `{argument}` is required",
        next_step = "ask the user which {argument} they mean"
    )]
    MissingArgument {
        /// The argument's name.
        argument: &'static str,
    },

    /// Alerts need a logged-in user. Category `WorkflowDependency`.
    #[error("alert subscription without a login")]
    #[envelope(class = PreconditionFailed, message = "log in before subscribing to alerts")]
    LoginRequired,

    /// The user already gets alerts for this city. Category `Duplicate`.
    #[error("second subscription to {city}")]
    #[envelope(class = AlreadyExists, message = "alerts for {city} are already on")]
    AlreadySubscribed {
        /// The city of the existing subscription.
        city: String,
    },

    /// The forecast length is out of range. Category `Validation`.
    #[error("forecast of {days} days requested")]
    #[envelope(class = InvalidArguments, message = "days must be between 1 and 14, not {days}")]
    DaysOutOfRange {
        /// The number of days the model asked for.
        #[envelope(detail)]
        days: u64,
    },

    /// The weather provider's rate limit was hit. Category `Technical`.
    #[error("weather provider rate limit, retry in {retry_after_ms} ms")]
    #[envelope(class = Busy)]
    RateLimited {
        /// How long to wait.
        #[envelope(retry_after_ms)]
        retry_after_ms: u64,
    },

    /// The model called a tool that does not exist. Category `Validation`.
    #[error("no tool {name}")]
    #[envelope(class = Unsupported, message = "there is no tool called {name}")]
    UnknownTool {
        /// The name the model used.
        name: String,
    },
}

/// One tool call as a model emits it.
#[derive(Debug, Clone, PartialEq)]
pub struct ToolCall {
    /// The id the result must echo.
    pub id: String,
    /// The tool's name.
    pub name: String,
    /// The JSON arguments.
    pub arguments: Value,
}

/// What the model does on its turn.
#[derive(Debug, Clone, PartialEq)]
pub enum Turn {
    /// Call a tool and wait for its result.
    Call(ToolCall),
    /// Answer the user; the loop ends.
    Answer(String),
}

/// The tools and the little state they keep.
#[derive(Debug, Default)]
pub struct Tools {
    logged_in: bool,
    subscriptions: BTreeSet<String>,
}

impl Tools {
    /// Runs one call and wraps the outcome as a `ToolResult`: the output on
    /// success, the error's envelope (and its category) on failure.
    pub fn call(&mut self, call: &ToolCall) -> ToolResult {
        match self.dispatch(&call.name, &call.arguments) {
            Ok(output) => ToolResult::success(&call.id, output),
            Err(error) => error.to_tool_result_json(&call.id),
        }
    }

    fn dispatch(&mut self, name: &str, arguments: &Value) -> Result<String, ToolError> {
        match name {
            "get_weather" => {
                let city = city(arguments)?;
                Ok(format!("{city}: 18 °C, light rain"))
            }
            "get_forecast" => {
                let city = city(arguments)?;
                let days = arguments["days"].as_u64().unwrap_or(1);
                if !(1..=14).contains(&days) {
                    return Err(ToolError::DaysOutOfRange { days });
                }
                Ok(format!("{city}: {days} days of sun"))
            }
            "login" => {
                self.logged_in = true;
                Ok("logged in".to_owned())
            }
            "subscribe_alerts" => {
                let city = city(arguments)?;
                if !self.logged_in {
                    return Err(ToolError::LoginRequired);
                }
                if !self.subscriptions.insert(city.to_owned()) {
                    return Err(ToolError::AlreadySubscribed { city: city.into() });
                }
                Ok(format!("alerts on for {city}"))
            }
            "list_cities" => Ok(CITIES.join(", ")),
            other => Err(ToolError::UnknownTool { name: other.into() }),
        }
    }
}

/// The `city` argument, checked against the known cities.
fn city(arguments: &Value) -> Result<&'static str, ToolError> {
    let Some(name) = arguments["city"].as_str() else {
        return Err(ToolError::MissingArgument { argument: "city" });
    };
    CITIES
        .iter()
        .copied()
        .find(|known| *known == name)
        .ok_or_else(|| ToolError::CityNotFound {
            city: name.into(),
            candidates: envelope::fuzzy::suggest(name, CITIES, 2),
        })
}

/// A stand-in for the LLM: a fixed plan of calls, adjusted by what each
/// failed result says, the way a model reads an envelope.
#[derive(Debug)]
pub struct ScriptedModel {
    plan: Vec<(&'static str, Value)>,
    next: usize,
    last_call: Option<(String, Value)>,
    retry: Option<(String, Value)>,
    calls: usize,
}

impl Default for ScriptedModel {
    fn default() -> Self {
        ScriptedModel {
            plan: vec![
                ("get_weather", json!({ "city": "Pariss" })),
                ("subscribe_alerts", json!({ "city": "Paris" })),
                ("get_forecast", json!({ "city": "Paris", "days": 30 })),
            ],
            next: 0,
            last_call: None,
            retry: None,
            calls: 0,
        }
    }
}

impl ScriptedModel {
    /// The next turn, given the result of the previous call.
    pub fn next_turn(&mut self, last: Option<&ToolResult>) -> Turn {
        if let (Some(result), Some((name, arguments))) = (last, self.last_call.clone())
            && result.is_error
            && let Some(turn) = self.recover(result, name, arguments)
        {
            return turn;
        }
        if let Some((name, arguments)) = self.retry.take() {
            return self.call(&name, arguments);
        }
        match self.plan.get(self.next).cloned() {
            Some((name, arguments)) => {
                self.next += 1;
                self.call(name, arguments)
            }
            None => Turn::Answer(
                "Paris: 18 °C and light rain; sun for the next 14 days. Rain alerts are on."
                    .to_owned(),
            ),
        }
    }

    /// The call that fixes a failed one, read from its envelope: a near
    /// miss replaces the city; a suggested tool runs first and the failed
    /// call is retried after it; a `Validation` failure about `days` is
    /// retried with the largest allowed value.
    fn recover(&mut self, result: &ToolResult, name: String, mut arguments: Value) -> Option<Turn> {
        let envelope: Value = serde_json::from_str(&result.content).ok()?;
        if let Some(best) = envelope["fuzzy_matches"][0].as_str() {
            arguments["city"] = json!(best);
            return Some(self.call(&name, arguments));
        }
        if let Some(tool) = envelope["suggested_tool"].as_str() {
            self.retry = Some((name, arguments));
            return Some(self.call(tool, json!({})));
        }
        if result.error_category == Some(UserErrorCategory::Validation)
            && envelope["details"]["days"].is_u64()
        {
            arguments["days"] = json!(14);
            return Some(self.call(&name, arguments));
        }
        None
    }

    fn call(&mut self, name: &str, arguments: Value) -> Turn {
        self.calls += 1;
        self.last_call = Some((name.to_owned(), arguments.clone()));
        Turn::Call(ToolCall {
            id: format!("call_{}", self.calls),
            name: name.to_owned(),
            arguments,
        })
    }
}

/// The most tool calls one conversation may make; a guard against a model
/// that keeps retrying.
pub const MAX_CALLS: usize = 16;

/// Runs the loop to the model's answer; returns every call with its result,
/// and the answer.
#[must_use]
pub fn run() -> (Vec<(ToolCall, ToolResult)>, String) {
    let mut model = ScriptedModel::default();
    let mut tools = Tools::default();
    let mut transcript: Vec<(ToolCall, ToolResult)> = Vec::new();
    while transcript.len() < MAX_CALLS {
        match model.next_turn(transcript.last().map(|(_, result)| result)) {
            Turn::Call(call) => {
                let result = tools.call(&call);
                transcript.push((call, result));
            }
            Turn::Answer(answer) => return (transcript, answer),
        }
    }
    (
        transcript,
        "I could not finish: too many tool calls.".to_owned(),
    )
}

fn main() {
    let (transcript, answer) = run();
    for (call, result) in &transcript {
        println!("model: {}({})", call.name, call.arguments);
        let wire = serde_json::to_string(result).unwrap_or_default();
        println!("tool:  {wire}");
        println!();
    }
    println!("model: {answer}");

    // The same failure in the shape each provider's chat API takes back.
    if let Some((call, failure)) = transcript.iter().find(|(_, result)| result.is_error) {
        println!();
        println!("the first failure as each provider's API takes it back:");
        println!("openai chat:      {}", failure.to_openai_message());
        println!("openai responses: {}", failure.to_openai_responses_item());
        println!("anthropic:        {}", failure.to_anthropic_block());
        println!("gemini:           {}", failure.to_gemini_part(&call.name));
    }
}
