//! `argument(...)` and the `argument_errors` field role: a derived
//! `INVALID_ARGUMENTS` envelope is the one `args::invalid_arguments` builds
//! (message, next step, ordering), with the variant's code; by exact JSON.

use envelope::{
    ArgumentError, ArgumentErrorKind, Envelope, ErrorClass, ErrorEnvelope, args, catalog_json,
};
use serde_json::json;

#[derive(Debug, thiserror::Error, Envelope)]
#[envelope(next_step = "check the server log")]
enum TagError {
    #[error("unknown tag {tag}")]
    #[envelope(
        class = InvalidArguments,
        argument(
            path = "/tag",
            kind = unknown_variant,
            expected = r#"one of "work", "home""#,
            suggestions = known
        )
    )]
    InvalidTag {
        tag: String,
        #[envelope(fuzzy_matches)]
        known: Vec<String>,
    },

    #[error("no title")]
    #[envelope(
        class = InvalidArguments,
        argument(path = "/title", kind = missing),
        argument(path = "", kind = other)
    )]
    NoTitle,

    #[error("bad fields")]
    #[envelope(class = InvalidArguments, suggested_tool = "describe_tool")]
    Fields {
        #[envelope(argument_errors)]
        problems: Vec<ArgumentError>,
        #[envelope(next_steps)]
        more: Vec<String>,
    },

    #[error("bad days")]
    #[envelope(
        class = InvalidArguments,
        message = "days must be from 1 to {max}",
        next_step = "ask for at most {max} days",
        argument(path = "/days", kind = out_of_range, expected = "an integer from 1 to 14")
    )]
    Days {
        #[envelope(detail)]
        max: u32,
    },

    #[error("one")]
    #[envelope(class = InvalidArguments, argument(path = "/a", kind = wrong_type))]
    One(#[envelope(argument_errors)] Option<ArgumentError>),

    #[error("read back {0:?}")]
    #[envelope(class = InvalidArguments, message = "{0:?}")]
    Echo(#[envelope(argument_errors)] Vec<ArgumentError>),

    #[error("counted")]
    #[envelope(class = InvalidArguments, message = "the arguments have problems")]
    Counted(#[envelope(argument_errors, detail = "problems")] Vec<ArgumentError>),
}

const STEP: &str = "fix each argument listed in argument_errors, then call the tool again with the fixed arguments; its inputSchema lists every argument";

#[test]
fn a_declared_problem_is_the_extractors_envelope() {
    let err = TagError::InvalidTag {
        tag: "wrk".into(),
        known: vec!["work".into()],
    };
    let expected = args::invalid_arguments(vec![
        ArgumentError::new(ArgumentErrorKind::UnknownVariant, "/tag")
            .with_expected(r#"one of "work", "home""#)
            .with_suggestions(vec!["work".into()]),
    ])
    .with_code("INVALID_TAG")
    .with_fuzzy_matches(vec!["work".into()]);
    assert_eq!(err.to_envelope(), expected);
    assert_eq!(
        err.to_json_string(),
        concat!(
            r#"{"isError":true,"error_class":"INVALID_ARGUMENTS","#,
            r#""message":"1 problem in the arguments: /tag must be one of \"work\", \"home\" (did you mean \"work\"?)","#,
            r#""fuzzy_matches":["work"],"#,
            r#""next_steps":["fix each argument listed in argument_errors, then call the tool again with the fixed arguments; its inputSchema lists every argument"],"#,
            r#""code":"INVALID_TAG","category":"Validation","#,
            r#""argument_errors":[{"path":"/tag","kind":"unknown_variant","expected":"one of \"work\", \"home\"","suggestions":["work"]}]}"#,
        )
    );
    // `into_envelope` borrows the suggestions before it moves the list.
    assert_eq!(err.into_envelope(), expected);
}

#[test]
fn several_problems_in_the_extractors_order() {
    // The container's `next_step` does not replace the argument step.
    assert_eq!(
        TagError::NoTitle.to_json_string(),
        concat!(
            r#"{"isError":true,"error_class":"INVALID_ARGUMENTS","#,
            r#""message":"2 problems in the arguments: /title is missing; the arguments value is invalid","#,
            r#""next_steps":["fix each argument listed in argument_errors, then call the tool again with the fixed arguments; its inputSchema lists every argument"],"#,
            r#""code":"NO_TITLE","category":"Validation","#,
            r#""argument_errors":[{"path":"/title","kind":"missing"},{"path":"","kind":"other"}]}"#,
        )
    );
}

#[test]
fn a_field_of_problems() {
    let err = TagError::Fields {
        problems: vec![
            ArgumentError::new(ArgumentErrorKind::WrongType, "/limit")
                .with_expected("an integer")
                .with_received(&json!("5")),
            ArgumentError::new(ArgumentErrorKind::Missing, "/table"),
        ],
        more: vec!["call describe_tool".into()],
    };
    let json = concat!(
        r#"{"isError":true,"error_class":"INVALID_ARGUMENTS","#,
        r#""message":"2 problems in the arguments: /table is missing; /limit must be an integer, got a string","#,
        r#""suggested_tool":"describe_tool","#,
        r#""next_steps":["fix each argument listed in argument_errors, then call the tool again with the fixed arguments; its inputSchema lists every argument","call describe_tool"],"#,
        r#""code":"FIELDS","category":"Validation","#,
        r#""argument_errors":[{"path":"/table","kind":"missing"},{"path":"/limit","kind":"wrong_type","expected":"an integer","received":"string"}]}"#,
    );
    assert_eq!(err.to_json_string(), json);
    assert_eq!(err.into_envelope().to_json_string(), json);
}

#[test]
fn own_message_and_steps_win() {
    assert_eq!(
        TagError::Days { max: 14 }.to_json_string(),
        concat!(
            r#"{"isError":true,"error_class":"INVALID_ARGUMENTS","message":"days must be from 1 to 14","#,
            r#""next_steps":["ask for at most 14 days"],"code":"DAYS","category":"Validation","#,
            r#""details":{"max":14},"#,
            r#""argument_errors":[{"path":"/days","kind":"out_of_range","expected":"an integer from 1 to 14"}]}"#,
        )
    );
}

#[test]
fn optional_and_read_fields() {
    let none = TagError::One(None).to_envelope();
    assert_eq!(
        none.message,
        "1 problem in the arguments: /a has the wrong type"
    );
    let some = TagError::One(Some(ArgumentError::new(ArgumentErrorKind::Missing, "/b")));
    assert_eq!(
        some.into_envelope().message,
        "2 problems in the arguments: /b is missing; /a has the wrong type"
    );
    // A field a template reads is copied, not moved.
    let echo = TagError::Echo(vec![ArgumentError::new(ArgumentErrorKind::Missing, "/c")]);
    let env = echo.into_envelope();
    assert_eq!(env.argument_errors.len(), 1);
    assert!(env.message.starts_with("[ArgumentError { path: \"/c\""));
    let empty: ErrorEnvelope = TagError::Echo(Vec::new()).into();
    assert_eq!(empty.argument_errors, []);
    // So is one a `detail` reads (and no template): the list is in both.
    let counted = TagError::Counted(vec![ArgumentError::new(ArgumentErrorKind::Missing, "/d")]);
    let json = concat!(
        r#"{"isError":true,"error_class":"INVALID_ARGUMENTS","message":"the arguments have problems","#,
        r#""next_steps":["fix each argument listed in argument_errors, then call the tool again with the fixed arguments; its inputSchema lists every argument"],"#,
        r#""code":"COUNTED","category":"Validation","#,
        // `details` is a JSON map: its objects' keys are sorted.
        r#""details":{"problems":[{"kind":"missing","path":"/d"}]},"#,
        r#""argument_errors":[{"path":"/d","kind":"missing"}]}"#,
    );
    assert_eq!(counted.to_json_string(), json);
    assert_eq!(counted.into_envelope().to_json_string(), json);
}

#[test]
fn accessors_and_catalog() {
    assert_eq!(
        TagError::NoTitle.error_class(),
        ErrorClass::InvalidArguments
    );
    assert_eq!(TagError::NoTitle.code(), Some("NO_TITLE"));
    let catalog = catalog_json(TagError::catalog());
    assert_eq!(
        catalog[1],
        json!({
            "name": "NoTitle", "code": "NO_TITLE", "class": "INVALID_ARGUMENTS", "owner": "caller",
            "category": "Validation", "effect": "nothing", "retryable": false, "suggested_tool": null,
            "message": "N problem(s) in the arguments, each listed in argument_errors",
            "next_steps": [STEP], "help_url": null, "ora_code": null, "retry_after_ms": null, "idempotent": false,
            "correlation_id": null, "transparent": false,
        })
    );
    assert_eq!(catalog[3]["message"], "days must be from 1 to {max}");
    assert_eq!(
        catalog[3]["next_steps"],
        json!(["ask for at most {max} days"])
    );
}
