//! `resource = server | caller` on a `transparent` variant: whose resource
//! the wrapped error is about, by exact envelope JSON, with the accessors
//! and the catalog agreeing with the envelope.

use std::io;

use envelope::{
    Effect, Envelope, ErrorClass, ErrorEnvelope, UserErrorCategory, catalog_json, catalog_markdown,
};

#[derive(Debug, thiserror::Error, Envelope)]
enum Inner {
    #[error("note {id} not found")]
    #[envelope(
        class = ObjectNotFound,
        message = "note {id} does not exist",
        next_step = "call list_notes",
        suggested_tool = "list_notes",
        help_url = "https://example.com/notes"
    )]
    Missing {
        #[envelope(detail)]
        id: u32,
        #[envelope(fuzzy_matches)]
        near: Vec<String>,
    },
    #[error("upstream limit")]
    #[envelope(class = RateLimited, message = "slow down", ora_code = 429)]
    Limited {
        #[envelope(retry_after_ms)]
        wait_ms: u64,
    },
    #[error("half written")]
    #[envelope(class = Conflict, effect = partial, message = "half written")]
    Half,
    #[error("pool busy")]
    #[envelope(class = Busy, message = "the pool is busy", retry_after_ms = 50)]
    Busy,
}

#[derive(Debug, thiserror::Error, Envelope)]
#[envelope(suggested_tools(Internal = "server_status"))]
enum ServerError {
    /// The server's own database file.
    #[error(transparent)]
    #[envelope(transparent, resource = server)]
    Store(io::Error),
    /// A path the caller sent.
    #[error(transparent)]
    #[envelope(transparent, resource = caller)]
    Upload(io::Error),
    /// Not written: as the wrapped error says.
    #[error(transparent)]
    #[envelope(transparent)]
    Plain(io::Error),
    #[error(transparent)]
    #[envelope(transparent, resource = server)]
    Notes(Inner),
    #[error(transparent)]
    #[envelope(transparent, resource = server)]
    Boxed(Box<ErrorEnvelope>),
}

#[derive(Debug, thiserror::Error, Envelope)]
#[error(transparent)]
#[envelope(transparent, resource = server)]
struct Config(io::Error);

fn not_found() -> io::Error {
    io::Error::new(io::ErrorKind::NotFound, "/var/lib/notes/notes.db")
}

#[test]
fn server_resource_is_internal_with_the_code_kept() {
    let err = ServerError::Store(not_found());
    assert_eq!(err.error_class(), ErrorClass::Internal);
    assert_eq!(err.user_category(), UserErrorCategory::Technical);
    assert_eq!(err.code(), Some("IO_NOT_FOUND"));
    let json = concat!(
        r#"{"isError":true,"error_class":"INTERNAL","#,
        r#""message":"an internal error occurred; changing the call will not help","#,
        r#""suggested_tool":"server_status","#,
        r#""next_steps":["the call may have taken effect: check its result before repeating it"],"#,
        r#""code":"IO_NOT_FOUND","category":"Technical","effect":"unknown"}"#,
    );
    assert_eq!(err.to_json_string(), json);
    assert_eq!(err.into_envelope().to_json_string(), json);
    let denied = ServerError::Store(io::Error::from(io::ErrorKind::PermissionDenied));
    assert_eq!(denied.code(), Some("IO_PERMISSION_DENIED"));
    assert_eq!(denied.to_envelope().error_class, ErrorClass::Internal);
}

#[test]
fn caller_resource_and_the_default_keep_the_wrapped_envelope() {
    let json = concat!(
        r#"{"isError":true,"error_class":"OBJECT_NOT_FOUND","#,
        r#""message":"the file or resource does not exist","#,
        r#""code":"IO_NOT_FOUND","category":"NotFound"}"#,
    );
    for err in [
        ServerError::Upload(not_found()),
        ServerError::Plain(not_found()),
    ] {
        assert_eq!(err.error_class(), ErrorClass::ObjectNotFound);
        assert_eq!(err.user_category(), UserErrorCategory::NotFound);
        assert_eq!(err.to_json_string(), json);
        assert_eq!(err.into_envelope().to_json_string(), json);
    }
}

#[test]
fn server_owned_classes_pass_unchanged() {
    let timed_out = io::Error::from(io::ErrorKind::TimedOut);
    let expected = timed_out.to_envelope();
    let err = ServerError::Store(timed_out);
    assert_eq!(err.error_class(), ErrorClass::Timeout);
    assert_eq!(err.to_envelope(), expected);

    let busy = ServerError::Notes(Inner::Busy);
    assert_eq!(busy.error_class(), ErrorClass::Busy);
    assert_eq!(
        busy.to_json_string(),
        r#"{"isError":true,"error_class":"BUSY","message":"the pool is busy","retry_after_ms":50,"code":"BUSY","category":"Technical","retryable":true}"#,
    );
}

#[test]
fn nothing_caller_facing_survives() {
    let err = ServerError::Notes(Inner::Missing {
        id: 7,
        near: vec!["8".into()],
    });
    assert_eq!(err.error_class(), ErrorClass::Internal);
    assert_eq!(err.code(), Some("MISSING"));
    let env = err.into_envelope();
    assert_eq!(
        env.to_json_string(),
        concat!(
            r#"{"isError":true,"error_class":"INTERNAL","#,
            r#""message":"an internal error occurred; changing the call will not help","#,
            r#""suggested_tool":"server_status","#,
            r#""next_steps":["the call may have taken effect: check its result before repeating it"],"#,
            r#""code":"MISSING","category":"Technical","effect":"unknown"}"#,
        )
    );
}

#[test]
fn an_upstream_rate_limit_is_busy_with_its_hint() {
    let err = ServerError::Notes(Inner::Limited { wait_ms: 1500 });
    assert_eq!(err.error_class(), ErrorClass::Busy);
    assert_eq!(err.user_category(), UserErrorCategory::Technical);
    assert_eq!(
        err.to_json_string(),
        concat!(
            r#"{"isError":true,"error_class":"BUSY","#,
            r#""message":"the server is busy","#,
            r#""ora_code":429,"retry_after_ms":1500,"code":"LIMITED","category":"Technical","retryable":true}"#,
        )
    );
}

#[test]
fn a_partial_effect_is_kept() {
    let env = ServerError::Notes(Inner::Half).to_envelope();
    assert_eq!(env.error_class, ErrorClass::Internal);
    assert_eq!(env.effect, Effect::Partial);
    assert!(!env.retryable);
    assert_eq!(
        env.next_steps,
        ["part of the call took effect: check what was applied and repeat only the rest"]
    );
}

#[test]
fn an_envelope_and_a_struct() {
    let inner = ErrorEnvelope::new(ErrorClass::InvalidArguments, "bad path /etc/x")
        .with_detail("path", "/etc/x");
    let err = ServerError::Boxed(Box::new(inner.clone()));
    assert_eq!(err.error_class(), ErrorClass::Internal);
    assert_eq!(err.to_envelope().details.len(), 0);
    assert_eq!(
        err.to_envelope(),
        inner
            .for_server_resource()
            .with_suggested_tool("server_status")
    );

    let config = Config(io::Error::from(io::ErrorKind::InvalidData));
    assert_eq!(config.error_class(), ErrorClass::Internal);
    assert_eq!(config.code(), Some("IO_INVALID_DATA"));
    assert_eq!(
        config.to_json_string(),
        concat!(
            r#"{"isError":true,"error_class":"INTERNAL","#,
            r#""message":"an internal error occurred; changing the call will not help","#,
            r#""next_steps":["the call may have taken effect: check its result before repeating it"],"#,
            r#""code":"IO_INVALID_DATA","category":"Technical","effect":"unknown"}"#,
        )
    );
}

/// The catalog cannot know the wrapped error's class, server resource or
/// not: the row says the variant delegates, as for any `transparent` one.
#[test]
fn the_catalog_lists_them_as_delegating() {
    let catalog = ServerError::catalog();
    assert!(
        catalog
            .iter()
            .all(|spec| spec.transparent && spec.class.is_none())
    );
    assert_eq!(catalog_json(catalog)[0]["class"], serde_json::Value::Null);
    assert!(catalog_markdown(catalog).contains(
        "| — | *delegated* | — | — | — | — | — | variant `Store` delegates its envelope |"
    ));
}
