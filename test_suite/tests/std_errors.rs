//! One server, many error types: std and `serde_json` errors know their
//! class, any `&dyn Error` (anyhow, `Box<dyn Error>`) becomes an envelope by
//! its source chain, and the rate-limit and quota classes on the wire.

use std::error::Error;
use std::fmt;
use std::io::{self, ErrorKind};
use std::sync::Arc;

use anyhow::Context as _;
use envelope::{
    Envelope, ErrorClass, ErrorEnvelope, MAX_SOURCE_LINKS, Recognizer, UNCLASSIFIED, from_error,
};

/// The newcomer's domain error: a document store.
#[derive(Debug, thiserror::Error, Envelope)]
#[envelope(suggested_tools(ObjectNotFound = "list_documents"))]
enum DocError {
    #[error("document {name} not found in /srv/docs")]
    #[envelope(class = ObjectNotFound, message = "document {name} does not exist")]
    NotFound {
        #[envelope(detail)]
        name: String,
    },
    #[error("tenant {tenant} sent too many writes")]
    #[envelope(class = RateLimited, message = "too many writes; wait, then retry")]
    WriteRate {
        tenant: String,
        #[envelope(retry_after_ms)]
        wait_ms: u64,
    },
    #[error("tenant {tenant} used its storage")]
    #[envelope(
        class = QuotaExceeded,
        message = "the storage quota is used up",
        next_step = "ask the user to delete documents or raise the quota"
    )]
    Storage { tenant: String },
}

/// The newcomer's outer error: every field that used to fail to compile.
#[derive(Debug, thiserror::Error, Envelope)]
enum ServerError {
    #[error(transparent)]
    #[envelope(transparent)]
    Io(#[from] io::Error),
    #[error(transparent)]
    #[envelope(transparent)]
    Doc(#[from] Arc<DocError>),
    #[error(transparent)]
    #[envelope(transparent)]
    Other(#[from] Box<dyn Error + Send + Sync>),
    #[error(transparent)]
    #[envelope(transparent)]
    Json(#[from] serde_json::Error),
    #[error(transparent)]
    #[envelope(transparent)]
    Any(#[from] ErrorEnvelope),
}

/// An error nobody names: its text must never reach the wire.
#[derive(Debug, thiserror::Error)]
#[error("token sk-secret rejected by db.internal:5432")]
struct Opaque;

fn missing() -> DocError {
    DocError::NotFound {
        name: "q3.md".into(),
    }
}

const MISSING_JSON: &str = r#"{"isError":true,"error_class":"OBJECT_NOT_FOUND","message":"document q3.md does not exist","suggested_tool":"list_documents","code":"NOT_FOUND","category":"NotFound","details":{"name":"q3.md"}}"#;
const FALLBACK_JSON: &str = r#"{"isError":true,"error_class":"INTERNAL","message":"an internal error occurred; changing the call will not help","next_steps":["the call may have taken effect: check its result before repeating it"],"code":"UNCLASSIFIED","category":"Technical","effect":"unknown"}"#;

/// Every `ErrorKind` stable at the MSRV (1.88), with its class, code and
/// message.
const KINDS: &[(ErrorKind, ErrorClass, &str, &str)] = {
    use ErrorClass as C;
    use ErrorKind as K;
    const INTERNAL: &str = "an internal error occurred; changing the call will not help";
    const CONNECTION: &str = "the server could not reach a service it depends on";
    const BUSY: &str = "the server is busy";
    const TRANSIENT: &str = "a temporary failure occurred";
    &[
        (
            K::NotFound,
            C::ObjectNotFound,
            "IO_NOT_FOUND",
            "the file or resource does not exist",
        ),
        (
            K::PermissionDenied,
            C::InsufficientPrivilege,
            "IO_PERMISSION_DENIED",
            "permission to access the file or resource is denied",
        ),
        (
            K::ConnectionRefused,
            C::ConnectionFailed,
            "IO_CONNECTION_REFUSED",
            CONNECTION,
        ),
        (
            K::ConnectionReset,
            C::ConnectionFailed,
            "IO_CONNECTION_RESET",
            CONNECTION,
        ),
        (
            K::HostUnreachable,
            C::ConnectionFailed,
            "IO_HOST_UNREACHABLE",
            CONNECTION,
        ),
        (
            K::NetworkUnreachable,
            C::ConnectionFailed,
            "IO_NETWORK_UNREACHABLE",
            CONNECTION,
        ),
        (
            K::ConnectionAborted,
            C::ConnectionFailed,
            "IO_CONNECTION_ABORTED",
            CONNECTION,
        ),
        (
            K::NotConnected,
            C::ConnectionFailed,
            "IO_NOT_CONNECTED",
            CONNECTION,
        ),
        (K::AddrInUse, C::Internal, "IO_ADDR_IN_USE", INTERNAL),
        (
            K::AddrNotAvailable,
            C::Internal,
            "IO_ADDR_NOT_AVAILABLE",
            INTERNAL,
        ),
        (
            K::NetworkDown,
            C::ConnectionFailed,
            "IO_NETWORK_DOWN",
            CONNECTION,
        ),
        (
            K::BrokenPipe,
            C::ConnectionFailed,
            "IO_BROKEN_PIPE",
            CONNECTION,
        ),
        (
            K::AlreadyExists,
            C::AlreadyExists,
            "IO_ALREADY_EXISTS",
            "the file or resource already exists",
        ),
        (K::WouldBlock, C::Busy, "IO_WOULD_BLOCK", BUSY),
        (
            K::NotADirectory,
            C::InvalidArguments,
            "IO_NOT_A_DIRECTORY",
            "a part of the path is not a directory",
        ),
        (
            K::IsADirectory,
            C::InvalidArguments,
            "IO_IS_A_DIRECTORY",
            "the path names a directory where a file is expected",
        ),
        (
            K::DirectoryNotEmpty,
            C::PreconditionFailed,
            "IO_DIRECTORY_NOT_EMPTY",
            "the directory is not empty; remove its contents first",
        ),
        (
            K::ReadOnlyFilesystem,
            C::Internal,
            "IO_READ_ONLY_FILESYSTEM",
            INTERNAL,
        ),
        (
            K::StaleNetworkFileHandle,
            C::Transient,
            "IO_STALE_NETWORK_FILE_HANDLE",
            TRANSIENT,
        ),
        (
            K::InvalidInput,
            C::InvalidArguments,
            "IO_INVALID_INPUT",
            "an argument is not valid for this operation",
        ),
        (
            K::InvalidData,
            C::InvalidArguments,
            "IO_INVALID_DATA",
            "the data is not valid for this operation",
        ),
        (
            K::TimedOut,
            C::Timeout,
            "IO_TIMED_OUT",
            "the operation timed out",
        ),
        (K::WriteZero, C::Internal, "IO_WRITE_ZERO", INTERNAL),
        (K::StorageFull, C::Internal, "IO_STORAGE_FULL", INTERNAL),
        (
            K::NotSeekable,
            C::Unsupported,
            "IO_NOT_SEEKABLE",
            "the stream does not support seeking",
        ),
        (
            K::QuotaExceeded,
            C::QuotaExceeded,
            "IO_QUOTA_EXCEEDED",
            "a storage quota is used up; retrying will not help until it is raised",
        ),
        (
            K::FileTooLarge,
            C::InvalidArguments,
            "IO_FILE_TOO_LARGE",
            "the file is larger than allowed",
        ),
        (K::ResourceBusy, C::Busy, "IO_RESOURCE_BUSY", BUSY),
        (
            K::ExecutableFileBusy,
            C::Busy,
            "IO_EXECUTABLE_FILE_BUSY",
            BUSY,
        ),
        (K::Deadlock, C::Transient, "IO_DEADLOCK", TRANSIENT),
        (
            K::CrossesDevices,
            C::Unsupported,
            "IO_CROSSES_DEVICES",
            "the operation cannot move or link across filesystems",
        ),
        (
            K::TooManyLinks,
            C::InvalidArguments,
            "IO_TOO_MANY_LINKS",
            "the object has too many links",
        ),
        (
            K::InvalidFilename,
            C::InvalidArguments,
            "IO_INVALID_FILENAME",
            "the file name is invalid or too long",
        ),
        (
            K::ArgumentListTooLong,
            C::InvalidArguments,
            "IO_ARGUMENT_LIST_TOO_LONG",
            "the argument list is too long",
        ),
        (K::Interrupted, C::Transient, "IO_INTERRUPTED", TRANSIENT),
        (
            K::Unsupported,
            C::Unsupported,
            "IO_UNSUPPORTED",
            "the operation is not supported on this platform",
        ),
        (
            K::UnexpectedEof,
            C::InvalidArguments,
            "IO_UNEXPECTED_EOF",
            "the input ended before it was complete",
        ),
        (K::OutOfMemory, C::Internal, "IO_OUT_OF_MEMORY", INTERNAL),
        (K::Other, C::Internal, "IO_OTHER", INTERNAL),
    ]
};

#[test]
fn every_io_error_kind() {
    assert_eq!(KINDS.len(), 39);
    for &(kind, class, code, message) in KINDS {
        let mut expected = ErrorEnvelope::new(class, message).with_code(code);
        // A busy resource says how long to wait, and to wait.
        if class == ErrorClass::Busy {
            expected = expected
                .with_retry_after(envelope::DEFAULT_BUSY_RETRY_AFTER)
                .with_next_step("wait retry_after_ms milliseconds, then repeat the same call");
        }
        // A bare kind, an OS error's kind and a custom error with a path in
        // its text all give the same envelope: the text is never used.
        let bare = io::Error::from(kind);
        let with_path = io::Error::new(kind, "open /etc/secret/key.pem failed for 10.0.0.7");
        for error in [&bare, &with_path] {
            assert_eq!(error.error_class(), class, "{kind:?}");
            assert_eq!(error.code(), Some(code), "{kind:?}");
            assert_eq!(error.user_category(), class.default_category(), "{kind:?}");
            assert_eq!(error.to_envelope(), expected, "{kind:?}");
            assert_eq!(from_error(error), expected, "{kind:?}");
        }
        assert_eq!(ErrorEnvelope::from(with_path), expected, "{kind:?}");
    }
    // An OS error: its kind decides.
    let os = io::Error::from_raw_os_error(2); // ENOENT
    assert_eq!(os.code(), Some("IO_NOT_FOUND"));
}

#[test]
fn io_error_text_never_reaches_the_wire() {
    let server = io::Error::new(ErrorKind::TimedOut, "secret /etc/path on db.internal");
    assert_eq!(
        server.to_json_string(),
        r#"{"isError":true,"error_class":"TIMEOUT","message":"the operation timed out","next_steps":["the call may have taken effect: check its result before repeating it"],"code":"IO_TIMED_OUT","category":"Technical","effect":"unknown"}"#
    );
    let other = io::Error::other("secret /etc/path");
    assert_eq!(
        other.to_json_string(),
        r#"{"isError":true,"error_class":"INTERNAL","message":"an internal error occurred; changing the call will not help","next_steps":["the call may have taken effect: check its result before repeating it"],"code":"IO_OTHER","category":"Technical","effect":"unknown"}"#
    );
    let caller = io::Error::new(ErrorKind::NotFound, "secret /etc/path");
    assert_eq!(
        caller.to_json_string(),
        r#"{"isError":true,"error_class":"OBJECT_NOT_FOUND","message":"the file or resource does not exist","code":"IO_NOT_FOUND","category":"NotFound"}"#
    );
}

#[test]
fn serde_json_errors_by_category() {
    let syntax = serde_json::from_str::<serde_json::Value>("{\"a\" 1}").unwrap_err();
    assert_eq!(
        syntax.to_json_string(),
        r#"{"isError":true,"error_class":"SYNTAX_ERROR","message":"the JSON is not well-formed","code":"JSON_SYNTAX","category":"Validation","details":{"column":6,"line":1}}"#
    );
    let eof = serde_json::from_str::<serde_json::Value>("[1,\n 2").unwrap_err();
    assert_eq!(
        eof.to_json_string(),
        r#"{"isError":true,"error_class":"SYNTAX_ERROR","message":"the JSON ends before its last value is complete","code":"JSON_EOF","category":"Validation","details":{"column":2,"line":2}}"#
    );
    // A data error's text quotes the rejected value; the envelope does not.
    let data = serde_json::from_str::<u32>("\"hunter2\"").unwrap_err();
    assert!(data.to_string().contains("hunter2"));
    assert_eq!(
        data.to_json_string(),
        r#"{"isError":true,"error_class":"INVALID_ARGUMENTS","message":"the JSON does not have the expected shape: a field is missing or has the wrong type or value","code":"JSON_DATA","category":"Validation","details":{"column":9,"line":1}}"#
    );
    // No position: `from_value`.
    let shape = serde_json::from_value::<u32>(serde_json::json!("x")).unwrap_err();
    assert_eq!(
        shape.to_json_string(),
        r#"{"isError":true,"error_class":"INVALID_ARGUMENTS","message":"the JSON does not have the expected shape: a field is missing or has the wrong type or value","code":"JSON_DATA","category":"Validation"}"#
    );
    let io = serde_json::from_reader::<_, serde_json::Value>(Failing).unwrap_err();
    assert_eq!(
        io.to_json_string(),
        r#"{"isError":true,"error_class":"INTERNAL","message":"an internal error occurred; changing the call will not help","next_steps":["the call may have taken effect: check its result before repeating it"],"code":"JSON_IO","category":"Technical","effect":"unknown"}"#
    );
}

/// A reader that fails with a path in its error.
struct Failing;

impl io::Read for Failing {
    fn read(&mut self, _: &mut [u8]) -> io::Result<usize> {
        Err(io::Error::new(ErrorKind::PermissionDenied, "/etc/shadow"))
    }
}

#[test]
fn std_parse_and_conversion_errors() {
    fn row(error: &dyn Envelope) -> (ErrorClass, Option<&'static str>, String) {
        let envelope = error.to_envelope();
        assert_eq!(envelope.error_class, error.error_class());
        assert_eq!(envelope.code.as_deref(), error.code());
        (envelope.error_class, error.code(), envelope.message.clone())
    }
    let invalid = ErrorClass::InvalidArguments;
    let cases: Vec<(Box<dyn Envelope>, &str, &str)> = vec![
        (
            Box::new("".parse::<i32>().unwrap_err()),
            "PARSE_INT",
            "the integer is empty",
        ),
        (
            Box::new("12a".parse::<i32>().unwrap_err()),
            "PARSE_INT",
            "the integer contains an invalid digit",
        ),
        (
            Box::new("300".parse::<u8>().unwrap_err()),
            "PARSE_INT",
            "the integer is too large for its type",
        ),
        (
            Box::new("-300".parse::<i8>().unwrap_err()),
            "PARSE_INT",
            "the integer is too small for its type",
        ),
        (
            Box::new("0".parse::<std::num::NonZeroU8>().unwrap_err()),
            "PARSE_INT",
            "the integer must not be zero",
        ),
        (
            Box::new("1.2.3".parse::<f64>().unwrap_err()),
            "PARSE_FLOAT",
            "the text is not a valid floating-point number",
        ),
        (
            Box::new("yes".parse::<bool>().unwrap_err()),
            "PARSE_BOOL",
            "the text is not `true` or `false`",
        ),
        (
            Box::new("ab".parse::<char>().unwrap_err()),
            "PARSE_CHAR",
            "the text is not exactly one character",
        ),
        (
            Box::new("10.0.0.300".parse::<std::net::IpAddr>().unwrap_err()),
            "PARSE_ADDR",
            "the text is not a valid IP or socket address",
        ),
        (
            Box::new(String::from_utf16(&[0xD800]).unwrap_err()),
            "INVALID_UTF16",
            "the text is not valid UTF-16",
        ),
        (
            Box::new(u8::try_from(300_i32).unwrap_err()),
            "INT_OUT_OF_RANGE",
            "the number is out of range for its type",
        ),
        (
            Box::new(char::try_from(0xD800_u32).unwrap_err()),
            "CHAR_OUT_OF_RANGE",
            "the number is not a valid Unicode scalar value",
        ),
        (
            Box::new(<[u8; 4]>::try_from(&[1_u8, 2][..]).unwrap_err()),
            "WRONG_LENGTH",
            "the sequence does not have the expected length",
        ),
    ];
    for (error, code, message) in &cases {
        assert_eq!(row(&**error), (invalid, Some(*code), (*message).to_owned()));
    }

    // UTF-8: where the valid prefix ends, and nothing of the bytes.
    let bytes = b"ok\xffsecret".to_vec();
    let utf8 = std::str::from_utf8(&bytes).unwrap_err();
    let from = String::from_utf8(bytes).unwrap_err();
    assert_eq!(
        utf8.to_json_string(),
        r#"{"isError":true,"error_class":"INVALID_ARGUMENTS","message":"the bytes are not valid UTF-8","code":"INVALID_UTF8","category":"Validation","details":{"valid_up_to":2}}"#
    );
    assert_eq!(from.to_envelope(), utf8.to_envelope());

    // A missing environment variable is the server's setup.
    let var = std::env::var("ENVELOPE_TEST_SURELY_UNSET").unwrap_err();
    assert_eq!(
        var.to_json_string(),
        r#"{"isError":true,"error_class":"INTERNAL","message":"an internal error occurred; changing the call will not help","next_steps":["the call may have taken effect: check its result before repeating it"],"code":"ENV_VAR","category":"Technical","effect":"unknown"}"#
    );
}

#[test]
fn anyhow_three_layers_deep_finds_the_derived_root() {
    let err = anyhow::Error::new(missing())
        .context("loading q3.md")
        .context("rendering the quarterly report")
        .context("tool call read_document");
    let errors = Recognizer::new().with::<DocError>();
    let found = errors.envelope(err.as_ref());
    assert_eq!(found.to_json_string(), MISSING_JSON);
    assert_eq!(found, missing().into_envelope());
    let described = errors.find(&*err).expect("the root is a DocError");
    assert_eq!(described.error_class(), ErrorClass::ObjectNotFound);
    assert_eq!(described.code(), Some("NOT_FOUND"));

    // `Result::context` wraps the typed error directly.
    let result: Result<(), DocError> = Err(missing());
    let err = result
        .context("loading")
        .context("rendering")
        .context("calling")
        .unwrap_err();
    assert_eq!(errors.envelope(err.as_ref()).to_json_string(), MISSING_JSON);

    // Unnamed, the same chain is the fallback, with none of its text.
    let json = from_error(err.as_ref()).to_json_string();
    assert_eq!(json, FALLBACK_JSON);
}

#[test]
fn unrecognised_errors_fall_back_without_text() {
    assert_eq!(from_error(&Opaque).to_json_string(), FALLBACK_JSON);
    let boxed: Box<dyn Error + Send + Sync> = Box::new(Opaque);
    assert_eq!(boxed.error_class(), ErrorClass::Internal);
    assert_eq!(boxed.code(), Some(UNCLASSIFIED));
    assert_eq!(boxed.to_json_string(), FALLBACK_JSON);
    let anyhow = anyhow::Error::new(Opaque).context("while talking to db.internal");
    assert_eq!(from_error(anyhow.as_ref()).to_json_string(), FALLBACK_JSON);
    let text = from_error(anyhow.as_ref()).to_string();
    assert_eq!(
        text,
        "Do not repeat this call: it may already have taken effect. Tell the user it failed and may have taken effect.\nINTERNAL (UNCLASSIFIED): an internal error occurred; changing the call will not help\nDo not repeat this call: it may already have taken effect. Tell the user it failed and may have taken effect."
    );
    assert!(
        !text.contains("secret") && !text.contains("internal:"),
        "{text}"
    );
}

#[test]
fn an_envelope_travels_through_question_mark_box_and_anyhow() {
    fn limited() -> Result<(), ErrorEnvelope> {
        Err(
            ErrorEnvelope::new(ErrorClass::RateLimited, "too many searches")
                .with_retry_after_ms(1500),
        )
    }
    fn boxed() -> Result<(), Box<dyn Error + Send + Sync>> {
        limited()?;
        Ok(())
    }
    fn handler() -> anyhow::Result<()> {
        limited().context("searching")?;
        Ok(())
    }
    fn plain() -> Result<(), Box<dyn Error>> {
        limited()?;
        Ok(())
    }
    let original = limited().unwrap_err();
    let err = boxed().unwrap_err();
    assert_eq!(from_error(&*err), original);
    assert_eq!(err.error_class(), ErrorClass::RateLimited);
    assert_eq!(ErrorEnvelope::from(err), original);
    assert_eq!(from_error(handler().unwrap_err().as_ref()), original);
    assert_eq!(plain().unwrap_err().to_envelope(), original);
    // Inside an `io::Error` (a `Read` impl's only way out), still found.
    let io = io::Error::other(original.clone());
    assert_eq!(from_error(&io), original);
}

#[test]
fn the_outermost_recognised_error_wins() {
    #[derive(Debug, thiserror::Error, Envelope)]
    #[error("loading failed")]
    #[envelope(class = PreconditionFailed, message = "open the store first")]
    struct Load(#[source] io::Error);

    let errors = Recognizer::new().with::<Load>().with::<DocError>();
    let load = Load(io::Error::from(ErrorKind::NotFound));
    assert_eq!(errors.envelope(&load), load.to_envelope());
    // Unnamed, the walk passes over it to its recognised source.
    assert_eq!(from_error(&load).code.as_deref(), Some("IO_NOT_FOUND"));

    // An `io::Error` carrying an error: what it carries wins when recognised.
    let carried = io::Error::new(ErrorKind::InvalidData, missing());
    assert_eq!(errors.envelope(&carried), missing().into_envelope());
    assert_eq!(
        from_error(&carried).code.as_deref(),
        Some("IO_INVALID_DATA")
    );
    let json = serde_json::from_str::<serde_json::Value>("{").unwrap_err();
    let converted = io::Error::from(json);
    assert_eq!(converted.kind(), ErrorKind::UnexpectedEof);
    assert_eq!(from_error(&converted).code.as_deref(), Some("JSON_EOF"));
}

/// An error whose source is itself: a chain that never ends.
#[derive(Debug)]
struct Ouroboros;

impl fmt::Display for Ouroboros {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("secret loop")
    }
}

impl Error for Ouroboros {
    fn source(&self) -> Option<&(dyn Error + 'static)> {
        Some(self)
    }
}

/// A chain of `Link`s ending in an `io::Error` of kind `NotFound`.
#[derive(Debug)]
enum Link {
    Next(Box<Link>),
    Root(io::Error),
}

impl fmt::Display for Link {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("link")
    }
}

impl Error for Link {
    fn source(&self) -> Option<&(dyn Error + 'static)> {
        match self {
            Link::Next(next) => Some(&**next),
            Link::Root(root) => Some(root),
        }
    }
}

/// A chain of `links` errors in all: `links - 1` `Link`s, then the root.
fn chain(links: usize) -> Link {
    let mut link = Link::Root(io::Error::from(ErrorKind::NotFound));
    for _ in 2..links {
        link = Link::Next(Box::new(link));
    }
    link
}

#[test]
fn cycles_and_long_chains_stop_at_the_bound() {
    assert_eq!(MAX_SOURCE_LINKS, 64);
    assert_eq!(from_error(&Ouroboros).to_json_string(), FALLBACK_JSON);
    let boxed: Box<dyn Error + Send + Sync> = Box::new(Ouroboros);
    assert_eq!(boxed.code(), Some(UNCLASSIFIED));

    // The root is the 64th error: examined. The 65th: not.
    let found = chain(MAX_SOURCE_LINKS);
    assert_eq!(from_error(&found).code.as_deref(), Some("IO_NOT_FOUND"));
    let cut = chain(MAX_SOURCE_LINKS + 1);
    assert_eq!(from_error(&cut).to_json_string(), FALLBACK_JSON);
    let long = chain(5_000);
    assert_eq!(from_error(&long).to_json_string(), FALLBACK_JSON);
}

#[test]
fn http_statuses() {
    let classes: Vec<ErrorClass> = [0, 99, 100, 404, 429, 599, 600, 65535]
        .into_iter()
        .map(ErrorClass::from_http_status)
        .collect();
    assert_eq!(
        classes,
        [
            ErrorClass::Internal,
            ErrorClass::Internal,
            ErrorClass::Internal,
            ErrorClass::ObjectNotFound,
            ErrorClass::RateLimited,
            ErrorClass::Internal,
            ErrorClass::Internal,
            ErrorClass::Internal,
        ]
    );
}

#[test]
fn rate_limit_and_quota_classes_on_the_wire() {
    let rate = DocError::WriteRate {
        tenant: "acme".into(),
        wait_ms: 1500,
    };
    assert_eq!(
        rate.to_json_string(),
        r#"{"isError":true,"error_class":"RATE_LIMITED","message":"too many writes; wait, then retry","retry_after_ms":1500,"code":"WRITE_RATE","category":"Technical","retryable":true}"#
    );
    let quota = DocError::Storage {
        tenant: "acme".into(),
    };
    assert_eq!(
        quota.to_json_string(),
        r#"{"isError":true,"error_class":"QUOTA_EXCEEDED","message":"the storage quota is used up","next_steps":["ask the user to delete documents or raise the quota"],"code":"STORAGE","category":"Technical"}"#
    );

    for (class, wire) in [
        (ErrorClass::RateLimited, "RATE_LIMITED"),
        (ErrorClass::QuotaExceeded, "QUOTA_EXCEEDED"),
    ] {
        assert_eq!(class.as_str(), wire);
        assert_eq!(wire.parse::<ErrorClass>(), Ok(class));
        assert_eq!(class.name().parse::<ErrorClass>(), Ok(class));
        assert_eq!(class.http_status(), 429);
        assert_eq!(
            serde_json::from_str::<ErrorClass>(&format!("\"{wire}\"")).unwrap(),
            class
        );
    }
    let read: ErrorEnvelope = serde_json::from_str(&rate.to_json_string()).unwrap();
    assert_eq!(read, rate.into_envelope());
}

#[test]
fn the_newcomers_transparent_fields() {
    let io = ServerError::from(io::Error::new(ErrorKind::NotFound, "/srv/docs/q3.md"));
    assert_eq!(
        io.to_json_string(),
        r#"{"isError":true,"error_class":"OBJECT_NOT_FOUND","message":"the file or resource does not exist","code":"IO_NOT_FOUND","category":"NotFound"}"#
    );
    let doc = ServerError::from(Arc::new(missing()));
    assert_eq!(doc.to_json_string(), MISSING_JSON);
    let boxed = ServerError::from(Box::<dyn Error + Send + Sync>::from(ErrorEnvelope::new(
        ErrorClass::QuotaExceeded,
        "the monthly budget is spent",
    )));
    assert_eq!(
        boxed.to_json_string(),
        r#"{"isError":true,"error_class":"QUOTA_EXCEEDED","message":"the monthly budget is spent","category":"Technical"}"#
    );
    let opaque = ServerError::from(Box::<dyn Error + Send + Sync>::from(Opaque));
    assert_eq!(opaque.to_json_string(), FALLBACK_JSON);
    assert_eq!(opaque.code(), Some(UNCLASSIFIED));
    let json = ServerError::from(serde_json::from_str::<Vec<u8>>("[").unwrap_err());
    assert_eq!(json.code(), Some("JSON_EOF"));
    let any = ServerError::from(missing().into_envelope());
    assert_eq!(any.to_json_string(), MISSING_JSON);
}

#[test]
fn rate_limit_and_quota_classes_in_the_catalog() {
    assert_eq!(
        envelope::catalog_markdown(DocError::catalog()),
        concat!(
            "| code | class | owner | category | effect | retryable | suggested tool | message template |\n",
            "|---|---|---|---|---|---|---|---|\n",
            "| `NOT_FOUND` | `OBJECT_NOT_FOUND` | caller | `NotFound` | nothing | no | `list_documents` | document {name} does not exist |\n",
            "| `WRITE_RATE` | `RATE_LIMITED` | caller | `Technical` | nothing | yes | — | too many writes; wait, then retry |\n",
            "| `STORAGE` | `QUOTA_EXCEEDED` | caller | `Technical` | nothing | no | — | the storage quota is used up |\n",
        )
    );
}
