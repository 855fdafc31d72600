//! Errors known only as `&dyn Error`: the std and `serde_json` errors'
//! envelopes (every `io::ErrorKind` row, the position details) and the
//! walk of a `source()` chain with `from_error` and `Recognizer`.

use std::error::Error;
use std::fmt;
use std::io::{self, ErrorKind};

use envelope_core::{Envelope, ErrorClass, ErrorEnvelope, Recognizer, UNCLASSIFIED, from_error};
use serde_json::json;

#[test]
fn every_io_kind_has_its_row() {
    let rows = [
        (
            ErrorKind::NotFound,
            ErrorClass::ObjectNotFound,
            "IO_NOT_FOUND",
        ),
        (
            ErrorKind::PermissionDenied,
            ErrorClass::InsufficientPrivilege,
            "IO_PERMISSION_DENIED",
        ),
        (
            ErrorKind::AlreadyExists,
            ErrorClass::AlreadyExists,
            "IO_ALREADY_EXISTS",
        ),
        (
            ErrorKind::InvalidInput,
            ErrorClass::InvalidArguments,
            "IO_INVALID_INPUT",
        ),
        (
            ErrorKind::InvalidData,
            ErrorClass::InvalidArguments,
            "IO_INVALID_DATA",
        ),
        (
            ErrorKind::UnexpectedEof,
            ErrorClass::InvalidArguments,
            "IO_UNEXPECTED_EOF",
        ),
        (
            ErrorKind::NotADirectory,
            ErrorClass::InvalidArguments,
            "IO_NOT_A_DIRECTORY",
        ),
        (
            ErrorKind::IsADirectory,
            ErrorClass::InvalidArguments,
            "IO_IS_A_DIRECTORY",
        ),
        (
            ErrorKind::FileTooLarge,
            ErrorClass::InvalidArguments,
            "IO_FILE_TOO_LARGE",
        ),
        (
            ErrorKind::TooManyLinks,
            ErrorClass::InvalidArguments,
            "IO_TOO_MANY_LINKS",
        ),
        (
            ErrorKind::InvalidFilename,
            ErrorClass::InvalidArguments,
            "IO_INVALID_FILENAME",
        ),
        (
            ErrorKind::ArgumentListTooLong,
            ErrorClass::InvalidArguments,
            "IO_ARGUMENT_LIST_TOO_LONG",
        ),
        (
            ErrorKind::DirectoryNotEmpty,
            ErrorClass::PreconditionFailed,
            "IO_DIRECTORY_NOT_EMPTY",
        ),
        (
            ErrorKind::Unsupported,
            ErrorClass::Unsupported,
            "IO_UNSUPPORTED",
        ),
        (
            ErrorKind::NotSeekable,
            ErrorClass::Unsupported,
            "IO_NOT_SEEKABLE",
        ),
        (
            ErrorKind::CrossesDevices,
            ErrorClass::Unsupported,
            "IO_CROSSES_DEVICES",
        ),
        (
            ErrorKind::QuotaExceeded,
            ErrorClass::QuotaExceeded,
            "IO_QUOTA_EXCEEDED",
        ),
        (ErrorKind::TimedOut, ErrorClass::Timeout, "IO_TIMED_OUT"),
        (
            ErrorKind::ConnectionRefused,
            ErrorClass::ConnectionFailed,
            "IO_CONNECTION_REFUSED",
        ),
        (
            ErrorKind::ConnectionReset,
            ErrorClass::ConnectionFailed,
            "IO_CONNECTION_RESET",
        ),
        (
            ErrorKind::ConnectionAborted,
            ErrorClass::ConnectionFailed,
            "IO_CONNECTION_ABORTED",
        ),
        (
            ErrorKind::NotConnected,
            ErrorClass::ConnectionFailed,
            "IO_NOT_CONNECTED",
        ),
        (
            ErrorKind::HostUnreachable,
            ErrorClass::ConnectionFailed,
            "IO_HOST_UNREACHABLE",
        ),
        (
            ErrorKind::NetworkUnreachable,
            ErrorClass::ConnectionFailed,
            "IO_NETWORK_UNREACHABLE",
        ),
        (
            ErrorKind::NetworkDown,
            ErrorClass::ConnectionFailed,
            "IO_NETWORK_DOWN",
        ),
        (
            ErrorKind::BrokenPipe,
            ErrorClass::ConnectionFailed,
            "IO_BROKEN_PIPE",
        ),
        (ErrorKind::WouldBlock, ErrorClass::Busy, "IO_WOULD_BLOCK"),
        (
            ErrorKind::ResourceBusy,
            ErrorClass::Busy,
            "IO_RESOURCE_BUSY",
        ),
        (
            ErrorKind::ExecutableFileBusy,
            ErrorClass::Busy,
            "IO_EXECUTABLE_FILE_BUSY",
        ),
        (
            ErrorKind::Interrupted,
            ErrorClass::Transient,
            "IO_INTERRUPTED",
        ),
        (ErrorKind::Deadlock, ErrorClass::Transient, "IO_DEADLOCK"),
        (
            ErrorKind::StaleNetworkFileHandle,
            ErrorClass::Transient,
            "IO_STALE_NETWORK_FILE_HANDLE",
        ),
        (ErrorKind::AddrInUse, ErrorClass::Internal, "IO_ADDR_IN_USE"),
        (
            ErrorKind::AddrNotAvailable,
            ErrorClass::Internal,
            "IO_ADDR_NOT_AVAILABLE",
        ),
        (
            ErrorKind::ReadOnlyFilesystem,
            ErrorClass::Internal,
            "IO_READ_ONLY_FILESYSTEM",
        ),
        (
            ErrorKind::StorageFull,
            ErrorClass::Internal,
            "IO_STORAGE_FULL",
        ),
        (ErrorKind::WriteZero, ErrorClass::Internal, "IO_WRITE_ZERO"),
        (
            ErrorKind::OutOfMemory,
            ErrorClass::Internal,
            "IO_OUT_OF_MEMORY",
        ),
        (ErrorKind::Other, ErrorClass::Internal, "IO_OTHER"),
    ];
    for (kind, class, code) in rows {
        let envelope = io::Error::from(kind).to_envelope();
        assert_eq!(
            (envelope.error_class, envelope.code.as_deref()),
            (class, Some(code)),
            "{kind:?}"
        );
    }
    // A kind without a row of its own.
    let other = io::Error::from(ErrorKind::Other).to_envelope();
    assert_eq!(other.code.as_deref(), Some("IO_OTHER"));
}

#[test]
fn serde_json_errors_say_where() {
    let syntax = serde_json::from_str::<serde_json::Value>("{\n  \"a\": tru }").unwrap_err();
    assert_eq!(
        syntax.to_envelope().to_json()["details"],
        json!({"line": 2, "column": 11})
    );
    // No position: `from_value`.
    let shape = serde_json::from_value::<u8>(json!("x")).unwrap_err();
    let envelope = shape.to_envelope();
    assert_eq!(envelope.code.as_deref(), Some("JSON_DATA"));
    assert!(envelope.details.is_empty());
}

#[test]
fn utf8_errors_say_where_the_valid_bytes_end() {
    // Built at run time: a literal would be a lint's error (`invalid_from_utf8`).
    let bytes: Vec<u8> = "ok".bytes().chain([0xff]).collect();
    let error = std::str::from_utf8(&bytes).unwrap_err();
    let envelope = error.to_envelope();
    assert_eq!(envelope.code.as_deref(), Some("INVALID_UTF8"));
    assert_eq!(envelope.to_json()["details"], json!({"valid_up_to": 2}));
    let error = String::from_utf8(bytes).unwrap_err();
    assert_eq!(
        error.to_envelope().to_json()["details"],
        json!({"valid_up_to": 2})
    );
}

/// An error type of the caller's, recognised only when named.
#[derive(Debug)]
struct QuotaError;

impl fmt::Display for QuotaError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("quota")
    }
}

impl Error for QuotaError {}

impl Envelope for QuotaError {
    fn error_class(&self) -> ErrorClass {
        ErrorClass::QuotaExceeded
    }

    fn to_envelope(&self) -> ErrorEnvelope {
        ErrorEnvelope::new(ErrorClass::QuotaExceeded, "the daily quota is used up")
    }
}

/// A context around another error, as `anyhow`'s: not recognised, passed
/// over to its source.
#[derive(Debug)]
struct Context(Box<dyn Error + Send + Sync>);

impl fmt::Display for Context {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("while saving")
    }
}

impl Error for Context {
    fn source(&self) -> Option<&(dyn Error + 'static)> {
        Some(&*self.0)
    }
}

#[test]
fn the_chain_is_walked_to_the_first_recognised_error() {
    let quota = Context(Box::new(QuotaError));
    assert_eq!(
        Recognizer::new()
            .with::<QuotaError>()
            .envelope(&quota)
            .error_class,
        ErrorClass::QuotaExceeded
    );
    // Unnamed, the same chain is not recognised, and says nothing of it.
    let unnamed = from_error(&quota);
    assert_eq!(
        (unnamed.error_class, unnamed.code.as_deref()),
        (ErrorClass::Internal, Some(UNCLASSIFIED))
    );
    assert!(Recognizer::new().find(&quota).is_none());
    // The built-in types, behind a context.
    let missing = Context(Box::new(io::Error::from(ErrorKind::NotFound)));
    assert_eq!(from_error(&missing).code.as_deref(), Some("IO_NOT_FOUND"));
    let ours = Context(Box::new(
        ErrorEnvelope::new(ErrorClass::Busy, "the pool is full").with_code("POOL_FULL"),
    ));
    assert_eq!(from_error(&ours).code.as_deref(), Some("POOL_FULL"));
    // An `io::Error` carrying a recognised error: the carried one wins.
    let carried = io::Error::other(QuotaError);
    assert_eq!(
        Recognizer::new()
            .with::<QuotaError>()
            .envelope(&carried)
            .error_class,
        ErrorClass::QuotaExceeded
    );
    assert_eq!(from_error(&carried).code.as_deref(), Some("IO_OTHER"));
}

#[test]
fn each_kind_of_parse_int_error_says_its_own_text() {
    let text = |error: std::num::ParseIntError| {
        let envelope = from_error(&error);
        assert_eq!(envelope.error_class, ErrorClass::InvalidArguments);
        assert_eq!(envelope.code.as_deref(), Some("PARSE_INT"));
        envelope.message.clone()
    };
    assert_eq!(text("".parse::<u8>().unwrap_err()), "the integer is empty");
    assert_eq!(
        text("12a".parse::<u8>().unwrap_err()),
        "the integer contains an invalid digit"
    );
    assert_eq!(
        text("300".parse::<u8>().unwrap_err()),
        "the integer is too large for its type"
    );
    assert_eq!(
        text("-200".parse::<i8>().unwrap_err()),
        "the integer is too small for its type"
    );
    assert_eq!(
        text("0".parse::<std::num::NonZeroU8>().unwrap_err()),
        "the integer must not be zero"
    );
}

#[test]
fn a_boxed_errors_accessors_read_what_its_envelope_says() {
    let unknown: Box<dyn Error + Send + Sync> = Box::new(QuotaError);
    assert_eq!(Envelope::error_class(&unknown), ErrorClass::Internal);
    assert_eq!(Envelope::code(&unknown), Some(UNCLASSIFIED));
    assert_eq!(unknown.to_envelope().code.as_deref(), Some(UNCLASSIFIED));
    let parse: Box<dyn Error + Send + Sync> = Box::new("12a".parse::<u8>().unwrap_err());
    assert_eq!(Envelope::error_class(&parse), ErrorClass::InvalidArguments);
    assert_eq!(Envelope::code(&parse), Some("PARSE_INT"));
}
