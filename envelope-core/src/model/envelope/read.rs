//! Lenient reading of envelopes written by other implementations.
//!
//! Writing is serde's derive on [`EnvelopeFields`] and stays strict.
//! Reading goes through [`Read`], a private mirror of the envelope's keys
//! that accepts what other writers produce (see "Reading" on
//! [`ErrorEnvelope`]). The mirror exists only because `retryable: null`
//! must read as the class's default, which a per-field `deserialize_with`
//! cannot see; everything else is plain serde attributes. Adding a field
//! to [`EnvelopeFields`] without adding it here is a compile error in
//! [`ErrorEnvelope::deserialize`] (both struct patterns are exhaustive).

use std::borrow::Cow;

use serde::{Deserialize, Deserializer};

use serde_json::{Map, Value};

use super::{EnvelopeFields, ErrorEnvelope, Unwired, always_true};
use crate::model::argument_error::ArgumentError;
use crate::model::category::UserErrorCategory;
use crate::model::class::ErrorClass;
use crate::model::effect::Effect;
use crate::model::lenient::{ora_code, retry_after_ms};
use crate::model::retry::RetryInputs;

/// The reading side of [`ErrorEnvelope`]: the same keys, each optional one
/// also accepting `null`. Named `ErrorEnvelope` for serde, so its error
/// messages (``invalid type: integer `5`, expected struct ErrorEnvelope``,
/// ``missing field `message` ``) are those of the derive it replaces.
#[derive(Deserialize)]
#[serde(rename = "ErrorEnvelope", expecting = "struct ErrorEnvelope")]
struct Read {
    #[serde(rename = "isError", default)]
    is_error: Option<bool>,
    error_class: ErrorClass,
    message: String,
    #[serde(default, deserialize_with = "ora_code")]
    ora_code: Option<i32>,
    #[serde(default)]
    suggested_tool: Option<String>,
    #[serde(default)]
    fuzzy_matches: Option<Vec<String>>,
    #[serde(default)]
    next_steps: Option<Vec<String>>,
    #[serde(default, deserialize_with = "retry_after_ms")]
    retry_after_ms: Option<u64>,
    #[serde(default)]
    code: Option<Cow<'static, str>>,
    #[serde(default)]
    category: Option<UserErrorCategory>,
    #[serde(default)]
    retryable: Retryable,
    #[serde(default)]
    effect: Option<Effect>,
    #[serde(default)]
    correlation_id: Option<String>,
    #[serde(default)]
    help_url: Option<String>,
    #[serde(default)]
    details: Option<Map<String, Value>>,
    #[serde(default)]
    argument_errors: Option<Vec<ArgumentError>>,
}

impl<'de> Deserialize<'de> for ErrorEnvelope {
    /// Reads an envelope leniently; see "Reading" on [`ErrorEnvelope`] for
    /// exactly what is accepted.
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        let Read {
            is_error,
            error_class,
            message,
            ora_code,
            suggested_tool,
            fuzzy_matches,
            next_steps,
            retry_after_ms,
            code,
            category,
            retryable,
            effect,
            correlation_id,
            help_url,
            details,
            argument_errors,
        } = Read::deserialize(deserializer)?;
        let effect = effect.unwrap_or_default();
        let retryable = match retryable {
            // How the writer leaves out `false`.
            Retryable::Missing => false,
            // Not stated: what `ErrorEnvelope::new` would set.
            Retryable::Null => RetryInputs::of_class(error_class).retryable(effect),
            Retryable::Given(retryable) => retryable,
        };
        let rule = Unwired {
            retry: RetryInputs::read(error_class, effect, retryable),
            answered: false,
            log_text: None,
            stand_in_wait: false,
        };
        Ok(ErrorEnvelope(Box::new(EnvelopeFields {
            is_error: is_error.unwrap_or_else(always_true),
            error_class,
            message,
            ora_code,
            suggested_tool,
            fuzzy_matches: fuzzy_matches.unwrap_or_default(),
            next_steps: next_steps.unwrap_or_default(),
            retry_after_ms,
            code,
            category,
            retryable,
            effect,
            correlation_id,
            help_url,
            details: details.unwrap_or_default(),
            argument_errors: argument_errors.unwrap_or_default(),
            rule,
        })))
    }
}

/// `retryable` as written: left out, `null`, or a boolean.
#[derive(Default)]
enum Retryable {
    #[default]
    Missing,
    Null,
    Given(bool),
}

impl<'de> Deserialize<'de> for Retryable {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        Option::<bool>::deserialize(deserializer)
            .map(|retryable| retryable.map_or(Retryable::Null, Retryable::Given))
    }
}
