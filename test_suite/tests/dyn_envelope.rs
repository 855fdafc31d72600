//! Errors behind pointers: trait objects of mixed types render envelopes,
//! tool results and MCP results; `Box`, `Arc`, `Rc` and `&T` forward every
//! method, `catalog()` included; `transparent` delegates through them; and
//! a template's `Display` impl runs once per conversion.

use std::cell::Cell;
use std::fmt;
use std::rc::Rc;
use std::sync::Arc;

use envelope::{Envelope, ErrorClass, ErrorEnvelope, UserErrorCategory, VariantSpec};
use serde_json::json;

#[derive(Debug, Clone, Envelope)]
enum LoadError {
    #[envelope(class = ObjectNotFound, message = "no file {path}")]
    Missing {
        path: String,
        #[envelope(fuzzy_matches)]
        near: Vec<String>,
    },
    #[envelope(class = Busy, category = MissingContext, retry_after_ms = 250)]
    Busy,
}

#[derive(Debug, Envelope)]
#[envelope(class = PolicyDenied, message = "writes are disabled", code = "READ_ONLY")]
struct ReadOnly;

/// A cloneable error that shares its inner error, as a cache hands it back.
#[derive(Debug, Clone, Envelope)]
enum ToolError {
    #[envelope(transparent)]
    Shared(Arc<LoadError>),
    #[envelope(transparent)]
    Boxed(Box<LoadError>),
    #[envelope(transparent)]
    Counted(Rc<LoadError>),
}

fn missing() -> LoadError {
    LoadError::Missing {
        path: "a.txt".into(),
        near: vec!["b.txt".into()],
    }
}

const MISSING_JSON: &str = r#"{"isError":true,"error_class":"OBJECT_NOT_FOUND","message":"no file a.txt","fuzzy_matches":["b.txt"],"code":"MISSING","category":"NotFound"}"#;
const BUSY_JSON: &str = r#"{"isError":true,"error_class":"BUSY","message":"the server is busy","retry_after_ms":250,"code":"BUSY","category":"MissingContext","retryable":true}"#;
const READ_ONLY_JSON: &str = r#"{"isError":true,"error_class":"POLICY_DENIED","message":"writes are disabled","code":"READ_ONLY","category":"Validation"}"#;

#[test]
fn a_vec_of_boxed_trait_objects_renders_tool_results() {
    let errors: Vec<Box<dyn Envelope + Send + Sync>> = vec![
        Box::new(missing()),
        Box::new(ReadOnly),
        Box::new(ErrorEnvelope::new(ErrorClass::Timeout, "slow")),
        Box::new(LoadError::Busy),
    ];
    let contents: Vec<String> = errors
        .iter()
        .map(|error| error.to_tool_result_json("call_1").content)
        .collect();
    assert_eq!(
        contents,
        [
            MISSING_JSON,
            READ_ONLY_JSON,
            r#"{"isError":true,"error_class":"TIMEOUT","message":"slow","next_steps":["the call may have taken effect: check its result before repeating it"],"category":"Technical","effect":"unknown"}"#,
            BUSY_JSON,
        ]
    );
    let categories: Vec<UserErrorCategory> = errors.iter().map(|e| e.user_category()).collect();
    assert_eq!(
        categories,
        [
            UserErrorCategory::NotFound,
            UserErrorCategory::Validation,
            UserErrorCategory::Technical,
            UserErrorCategory::MissingContext,
        ]
    );
    let codes: Vec<Option<&str>> = errors.iter().map(|e| e.code()).collect();
    assert_eq!(
        codes,
        [Some("MISSING"), Some("READ_ONLY"), None, Some("BUSY")]
    );
    assert_eq!(
        errors[1].to_mcp_result(),
        json!({
            "content": [
                {"type": "text", "text": READ_ONLY_JSON},
                {"type": "text", "text": "Do not repeat this call: a policy forbids it. Tell the user."}
            ],
            "structuredContent": {
                "isError": true,
                "error_class": "POLICY_DENIED",
                "message": "writes are disabled",
                "code": "READ_ONLY",
                "category": "Validation"
            },
            "isError": true,
            "resultType": "complete"
        })
    );
    assert_eq!(errors[3].to_json_string(), BUSY_JSON);
}

#[test]
fn references_and_shared_trait_objects_render() {
    let error = missing();
    let by_ref: &dyn Envelope = &error;
    assert_eq!(by_ref.to_json_string(), MISSING_JSON);
    assert_eq!(by_ref.error_class(), ErrorClass::ObjectNotFound);
    let shared: Arc<dyn Envelope + Send + Sync> = Arc::new(ReadOnly);
    assert_eq!(shared.to_tool_result_json("call_2").content, READ_ONLY_JSON);
    assert_eq!(shared.to_envelope().message, "writes are disabled");
    let local: Rc<dyn Envelope> = Rc::new(LoadError::Busy);
    assert_eq!(local.to_json_string(), BUSY_JSON);
    let boxed: Box<dyn Envelope> = Box::new(LoadError::Busy);
    assert_eq!(boxed.into_envelope().retry_after_ms, Some(250));
}

#[test]
fn pointers_forward_every_method_and_the_catalog() {
    let names = |catalog: &[VariantSpec]| catalog.iter().map(|s| s.name).collect::<Vec<_>>();
    assert_eq!(names(LoadError::catalog()), ["Missing", "Busy"]);
    assert_eq!(names(<Box<LoadError>>::catalog()), ["Missing", "Busy"]);
    assert_eq!(names(<Arc<LoadError>>::catalog()), ["Missing", "Busy"]);
    assert_eq!(names(<Rc<LoadError>>::catalog()), ["Missing", "Busy"]);
    assert_eq!(names(<&LoadError>::catalog()), ["Missing", "Busy"]);
    assert_eq!(names(<Box<dyn Envelope>>::catalog()), Vec::<&str>::new());

    // An overridden `user_category` comes through each pointer.
    let busy = LoadError::Busy;
    assert_eq!(
        Box::new(busy.clone()).user_category(),
        UserErrorCategory::MissingContext
    );
    assert_eq!(
        Arc::new(busy.clone()).user_category(),
        UserErrorCategory::MissingContext
    );
    assert_eq!(
        Rc::new(busy.clone()).user_category(),
        UserErrorCategory::MissingContext
    );
    assert_eq!(
        <&LoadError as Envelope>::user_category(&&busy),
        UserErrorCategory::MissingContext
    );
    assert_eq!(Box::new(ReadOnly).code(), Some("READ_ONLY"));
    assert_eq!(Box::new(ReadOnly).to_json_string(), READ_ONLY_JSON);
}

#[test]
fn box_and_unique_arc_move_the_error_into_the_envelope() {
    let error = missing();
    let LoadError::Missing { near, .. } = &error else {
        unreachable!()
    };
    let buffer = near.as_ptr();
    assert_eq!(
        Box::new(error).into_envelope().fuzzy_matches.as_ptr(),
        buffer
    );

    let error = missing();
    let LoadError::Missing { near, .. } = &error else {
        unreachable!()
    };
    let buffer = near.as_ptr();
    assert_eq!(
        Arc::new(error).into_envelope().fuzzy_matches.as_ptr(),
        buffer
    );

    // A shared `Arc` copies and leaves the error in place.
    let shared = Arc::new(missing());
    let other = Arc::clone(&shared);
    assert_eq!(shared.into_envelope().to_json_string(), MISSING_JSON);
    assert_eq!(other.to_json_string(), MISSING_JSON);
}

#[test]
fn transparent_delegates_through_arc_box_and_rc() {
    let shared = ToolError::Shared(Arc::new(missing()));
    assert_eq!(shared.error_class(), ErrorClass::ObjectNotFound);
    assert_eq!(shared.code(), Some("MISSING"));
    assert_eq!(shared.to_json_string(), MISSING_JSON);
    assert_eq!(
        shared.clone().into_envelope().to_json_string(),
        MISSING_JSON
    );
    let boxed = ToolError::Boxed(Box::new(LoadError::Busy));
    assert_eq!(boxed.user_category(), UserErrorCategory::MissingContext);
    assert_eq!(ErrorEnvelope::from(boxed).to_json_string(), BUSY_JSON);
    let counted = ToolError::Counted(Rc::new(LoadError::Busy));
    assert_eq!(counted.to_tool_result_json("call_3").content, BUSY_JSON);
}

thread_local! {
    static DISPLAYED: Cell<usize> = const { Cell::new(0) };
}

/// A value whose `Display` impl counts its runs.
#[derive(Debug)]
struct Counted(&'static str);

impl fmt::Display for Counted {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        DISPLAYED.with(|n| n.set(n.get() + 1));
        f.write_str(self.0)
    }
}

#[derive(Debug, Envelope)]
enum Templated {
    /// A long template: longer than any buffer a renderer might try first.
    #[envelope(
        class = InvalidArguments,
        message = "the argument {value} is not valid here, and this message goes on for well over one hundred and twenty-eight bytes so that no short path applies"
    )]
    Long { value: Counted },
    /// No `message`: the error's own `Display`, which counts too.
    #[envelope(class = Conflict)]
    Shown,
}

impl fmt::Display for Templated {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        DISPLAYED.with(|n| n.set(n.get() + 1));
        f.write_str("the row changed under the caller")
    }
}

fn runs(f: impl FnOnce()) -> usize {
    DISPLAYED.with(|n| n.set(0));
    f();
    DISPLAYED.with(Cell::get)
}

#[test]
fn a_display_impl_runs_once_per_conversion() {
    let long = || Templated::Long {
        value: Counted("x"),
    };
    assert_eq!(runs(|| drop(long().to_envelope())), 1);
    assert_eq!(runs(|| drop(long().into_envelope())), 1);
    assert_eq!(runs(|| drop(long().to_tool_result_json("call_1"))), 1);
    assert_eq!(runs(|| drop(long().to_json_string())), 1);
    // The MCP result carries the envelope twice (text and structured) but
    // formats it once.
    assert_eq!(runs(|| drop(long().to_mcp_result())), 1);
    assert_eq!(runs(|| drop(Templated::Shown.to_envelope())), 1);
    assert_eq!(
        runs(|| drop(Templated::Shown.to_tool_result_json("call_2"))),
        1
    );
    assert_eq!(
        Templated::Shown.to_envelope().message,
        "the row changed under the caller"
    );
    assert!(
        long()
            .to_envelope()
            .message
            .starts_with("the argument x is not valid here")
    );
}

/// The inner error of [`Outer`]: no tool, no help page, no steps of its own.
#[derive(Debug, Envelope)]
#[envelope(class = ObjectNotFound, message = "no such report")]
struct NoReport;

/// An inner error that names its own tool.
#[derive(Debug, Envelope)]
#[envelope(class = ObjectNotFound, message = "no such chart", suggested_tool = "list_charts")]
struct NoChart;

/// Container defaults fill in what a delegated envelope lacks.
#[derive(Debug, Envelope)]
#[envelope(
    suggested_tools(ObjectNotFound = "list_reports"),
    suggested_tool = "help",
    help_url = "https://example.com/errors",
    next_step = "read the error catalog"
)]
enum Outer {
    #[envelope(transparent)]
    Report(NoReport),
    #[envelope(transparent)]
    Chart(NoChart),
    #[envelope(transparent)]
    Any(ErrorEnvelope),
}

#[test]
fn container_defaults_fill_what_a_delegated_envelope_lacks() {
    assert_eq!(
        Outer::Report(NoReport).to_json_string(),
        r#"{"isError":true,"error_class":"OBJECT_NOT_FOUND","message":"no such report","suggested_tool":"list_reports","next_steps":["read the error catalog"],"code":"NO_REPORT","category":"NotFound","help_url":"https://example.com/errors"}"#
    );
    assert_eq!(
        ErrorEnvelope::from(Outer::Chart(NoChart)).to_json_string(),
        r#"{"isError":true,"error_class":"OBJECT_NOT_FOUND","message":"no such chart","suggested_tool":"list_charts","next_steps":["read the error catalog"],"code":"NO_CHART","category":"NotFound","help_url":"https://example.com/errors"}"#
    );
    // Another class takes the plain `suggested_tool`; the check step of an
    // unknown effect stays first.
    let timeout =
        Outer::Any(ErrorEnvelope::new(ErrorClass::Timeout, "slow").with_help_url("https://x"));
    assert_eq!(
        timeout.into_envelope().to_json_string(),
        r#"{"isError":true,"error_class":"TIMEOUT","message":"slow","suggested_tool":"help","next_steps":["the call may have taken effect: check its result before repeating it","read the error catalog"],"category":"Technical","effect":"unknown","help_url":"https://x"}"#
    );
}
