//! The correlation id a request carries: the client's own id, else the
//! trace id of its W3C Trace Context `traceparent`.

use crate::model::envelope::correlation_id;

/// The correlation id a request carries: the id the client chose (an
/// HTTP `x-request-id`, an MCP `_meta.correlationId`), cleaned as
/// [`ErrorEnvelope::with_correlation_id`] cleans it; else the trace id of
/// a W3C Trace Context `traceparent` it sent; else `None`. One rule for
/// every transport.
// Read by the transports' integrations only.
#[allow(dead_code)]
pub(crate) fn sent_correlation_id(id: Option<&str>, traceparent: Option<&str>) -> Option<String> {
    id.and_then(|id| correlation_id(id.to_owned())).or_else(|| {
        traceparent
            .and_then(|value| trace_id(value.trim()))
            .map(str::to_owned)
    })
}

/// The trace id of a W3C Trace Context `traceparent` value, if it is a
/// valid one (Trace Context level 1, section 3.2):
/// `<version>-<trace id>-<parent id>-<flags>`, each lower-case hex, of 2,
/// 32, 16 and 2 digits; the version not `ff`; neither id all zeros; for
/// version `00` exactly these four fields, for a later version more may
/// follow.
fn trace_id(traceparent: &str) -> Option<&str> {
    let hex = |s: &str, len: usize| {
        s.len() == len
            && s.bytes()
                .all(|b| b.is_ascii_digit() || (b'a'..=b'f').contains(&b))
    };
    let nonzero = |s: &str| s.bytes().any(|b| b != b'0');
    let mut parts = traceparent.split('-');
    let (version, trace, parent, flags) =
        (parts.next()?, parts.next()?, parts.next()?, parts.next()?);
    let more = parts.next().is_some();
    let valid = hex(version, 2)
        && version != "ff"
        && !(version == "00" && more)
        && hex(trace, 32)
        && nonzero(trace)
        && hex(parent, 16)
        && nonzero(parent)
        && hex(flags, 2);
    valid.then_some(trace)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn trace_ids_of_valid_traceparents_only() {
        let trace = "4bf92f3577b34da6a3ce929d0e0e4736";
        let valid = [
            format!("00-{trace}-00f067aa0ba902b7-01"),
            format!("01-{trace}-00f067aa0ba902b7-00-later-fields"),
        ];
        for value in &valid {
            assert_eq!(trace_id(value), Some(trace), "{value}");
        }
        let invalid = [
            format!("ff-{trace}-00f067aa0ba902b7-01"),
            format!("00-{trace}"),
            format!("00-{trace}-0000000000000000-01"),
            format!("00-{trace}-00f067aa0ba902b7-01-extra"),
            format!("00-{}-00f067aa0ba902b7-01", "0".repeat(32)),
            format!("00-{}-00f067aa0ba902b7-01", trace.to_uppercase()),
            format!("00-{trace}-00f067aa0ba902b7-1"),
            String::from("junk"),
        ];
        for value in &invalid {
            assert_eq!(trace_id(value), None, "{value}");
        }
    }
}
