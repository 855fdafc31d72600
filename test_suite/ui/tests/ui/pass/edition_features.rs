//! Doc comments, `#[non_exhaustive]`, `#[cfg]` on fields, unit structs.
#![deny(warnings, missing_docs)]

use envelope::Envelope;

/// Documented error.
#[derive(Debug, Envelope)]
#[non_exhaustive]
#[envelope(class = PolicyDenied, message = "denied")]
pub struct Denied {
    /// Present.
    pub reason: String,
    /// Configured in.
    #[cfg(all())]
    #[envelope(detail)]
    pub rule: u32,
    /// Configured out.
    #[cfg(any())]
    pub hidden: u32,
}

/// Unit struct.
#[derive(Debug, Envelope)]
#[envelope(class = Cancelled, message = "cancelled")]
pub struct Cancelled;

fn main() {
    let d = Denied { reason: "r".into(), rule: 4 };
    assert_eq!(
        d.to_envelope().to_json_string(),
        r#"{"isError":true,"error_class":"POLICY_DENIED","message":"denied","code":"DENIED","category":"Validation","details":{"rule":4}}"#
    );
    assert_eq!(Cancelled.code(), Some("CANCELLED"));
}
