//! [`DeclaredFailure`]: one failure a tool declares it can return, the
//! items of a tool's failure contract.

use serde::{Deserialize, Serialize};

use crate::model::class::{ErrorClass, Owner};
use crate::model::effect::Effect;
use crate::model::variant_spec::VariantSpec;

/// The `_meta` key of a tool's failure contract in `tools/list`: an array
/// of [`DeclaredFailure`]s (unprefixed, as the idempotency rule's
/// `idempotency` beside it).
pub const FAILURES_META_KEY: &str = "failures";

/// One failure a tool can return, known before it is called: its class,
/// code, owner, retryability and effect, as an envelope of that failure
/// would carry them.
///
/// A tool's contract is the failures of its error type (one per variant,
/// from [`Envelope::catalog`](crate::Envelope::catalog), through
/// [`DeclaredFailure::of`]) and the ones any call can get
/// ([`DeclaredFailure::COMMON`]: arguments that do not parse, a cancelled
/// call). The rmcp router publishes it in the tool's `_meta.failures`
/// (`envelope::rmcp::Router::with_failures`); a host reads it with
/// `host::read_failures`.
///
/// Wire form, in this key order, unknown values left out:
///
/// | key | type | present |
/// |---|---|---|
/// | `class` | [`ErrorClass`] wire name | always |
/// | `code` | string, the envelope's `code` | the failure has a constant one |
/// | `owner` | `"caller"`, `"server"` or `"user"` | always |
/// | `retryable` | boolean | known without the call (a class or variant that says so); else the call's declared behaviour decides |
/// | `effect` | `"nothing"`, `"unknown"` or `"partial"` | the variant declares one; else its class's default applies |
///
/// ```json
/// {"class":"OBJECT_NOT_FOUND","code":"NOT_FOUND","owner":"caller","retryable":false}
/// ```
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[non_exhaustive]
pub struct DeclaredFailure {
    /// The failure's class.
    pub class: ErrorClass,
    /// Its domain code, when constant.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub code: Option<String>,
    /// Who has to act on it: the class's owner.
    pub owner: Owner,
    /// Whether a repeat of the same call may succeed, when that is known
    /// before the call.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub retryable: Option<bool>,
    /// What the failed call did, when the variant declares it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub effect: Option<Effect>,
}

impl DeclaredFailure {
    /// The failures every routed call can get, whatever its tool, as
    /// variants: its arguments do not parse (`INVALID_ARGUMENTS`, from
    /// `args`), and the client cancelled it (`CANCELLED`, code
    /// `CANCELLED`).
    pub const COMMON: &'static [VariantSpec] = &[
        VariantSpec::new("InvalidArguments").with_class(ErrorClass::InvalidArguments),
        VariantSpec::new("Cancelled")
            .with_class(ErrorClass::Cancelled)
            .with_code("CANCELLED"),
    ];

    /// The failure a variant produces, or `None` for a variant that
    /// delegates (`transparent`, `with`): declare the inner type's
    /// catalog as well.
    #[must_use]
    pub fn of(spec: &VariantSpec) -> Option<Self> {
        let class = spec.class?;
        Some(DeclaredFailure {
            class,
            code: spec.code.map(str::to_owned),
            owner: class.owner(),
            retryable: spec.retryable,
            effect: spec.effect,
        })
    }

    /// Whether an envelope with `class` and `code` is this failure.
    #[must_use]
    pub fn matches(&self, class: ErrorClass, code: Option<&str>) -> bool {
        self.class == class && self.code.as_deref() == code
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_variant_declares_its_class_code_owner_retryability_and_effect() {
        const SPECS: &[VariantSpec] = &[
            VariantSpec::new("Missing")
                .with_class(ErrorClass::ObjectNotFound)
                .with_code("NOT_FOUND"),
            VariantSpec::new("Slow")
                .with_class(ErrorClass::Timeout)
                .with_code("SLOW"),
            VariantSpec::new("Inner").transparent(),
        ];
        let declared = |specs: &[VariantSpec]| -> Vec<String> {
            specs
                .iter()
                .filter_map(DeclaredFailure::of)
                .map(|failure| serde_json::to_string(&failure).unwrap())
                .collect()
        };
        assert_eq!(
            declared(SPECS),
            [
                r#"{"class":"OBJECT_NOT_FOUND","code":"NOT_FOUND","owner":"caller","retryable":false,"effect":"nothing"}"#,
                r#"{"class":"TIMEOUT","code":"SLOW","owner":"server","retryable":false,"effect":"unknown"}"#,
            ]
        );
        assert_eq!(
            declared(DeclaredFailure::COMMON),
            [
                r#"{"class":"INVALID_ARGUMENTS","owner":"caller","retryable":false,"effect":"nothing"}"#,
                r#"{"class":"CANCELLED","code":"CANCELLED","owner":"caller","retryable":false,"effect":"unknown"}"#,
            ]
        );
        let missing = DeclaredFailure::of(&SPECS[0]).unwrap();
        assert!(missing.matches(ErrorClass::ObjectNotFound, Some("NOT_FOUND")));
        assert!(!missing.matches(ErrorClass::ObjectNotFound, None));
        assert!(!missing.matches(ErrorClass::Timeout, Some("NOT_FOUND")));
    }
}
