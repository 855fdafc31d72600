//! [`model_text`]: what a host shows the model of a failure and its move.

use super::bound::{MAX_MODEL_TEXT_CHARS, cut_to};
use crate::model::envelope::ErrorEnvelope;
use crate::model::next_move::NextMove;
use crate::render::text;

/// The text to show the model for `envelope` and the host's `next` move,
/// in the form a server of this crate sends (`Envelope::to_mcp_result`'s
/// text blocks): the envelope's compact JSON on the first line (the
/// facts), then the lead of its text for `next` (the move's sentence, and
/// each argument problem as its fix). For the move of
/// the one decision ([`NextMove::of`]; [`next_move`](super::next_move) on
/// a first attempt, within the policy's waits) it is, byte for byte, what
/// the server's result shows a model; a move of the host's policy
/// ([`NextMove::Postpone`], [`NextMove::Exhausted`]) changes the sentences
/// only. A [`NextMove::Repeat`] says the failure's own wait: the host's
/// backoff is a wait the host makes, not the model. For example:
///
/// ```text
/// {"isError":true,"error_class":"OBJECT_NOT_FOUND","message":"table EMPLOYES does not exist","fuzzy_matches":["EMPLOYEES","EMPLOYERS"],"category":"NotFound"}
/// Call again with the one meant of "EMPLOYEES" or "EMPLOYERS" in place of the name you sent.
/// ```
///
/// ```text
/// {"isError":true,"error_class":"TIMEOUT","message":"the operation timed out","retry_after_ms":2000,"category":"Technical","retryable":true,"effect":"unknown"}
/// Wait 2000 ms, then repeat the same call unchanged.
/// ```
///
/// The envelope's parts are bounded as the host reads them (see
/// [`read_tool_result`](crate::host::read_tool_result); arguments of a
/// next call only up to 1 KiB of JSON). When the JSON and the lead
/// together would be longer than [`MAX_MODEL_TEXT_CHARS`] characters, the
/// JSON is left out and the whole text (the facts as lines, the move
/// first and last) is shown instead, cut to that length, its `…`
/// included.
#[must_use]
pub fn model_text(envelope: &ErrorEnvelope, next: &NextMove) -> String {
    let lead = text::lead_string(envelope, next);
    let json = envelope.json_string();
    if json.chars().count() + 1 + lead.chars().count() <= MAX_MODEL_TEXT_CHARS {
        text::join(&json, &lead)
    } else {
        // Without the JSON, the facts are said in the text.
        cut_to(&text::to_string(envelope, next), MAX_MODEL_TEXT_CHARS)
    }
}
