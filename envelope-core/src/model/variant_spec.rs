//! [`VariantSpec`]: the static description of one error variant.

use serde::Serialize;

use crate::model::category::UserErrorCategory;
use crate::model::class::{ErrorClass, Owner};
use crate::model::effect::Effect;
use crate::model::envelope::ErrorEnvelope;
use crate::model::retry::RetryInputs;

/// What one variant of an [`Envelope`](crate::Envelope) type produces, known
/// at compile time. `Envelope::catalog()` returns one per variant, so a
/// server can list in a tool description the errors the tool may return, and
/// a test can snapshot the wire contract.
///
/// A `transparent` variant delegates to the error it wraps, and a `with`
/// variant to a function, so their class, code and category are `None`
/// here and `transparent` is true; read the inner type's catalog.
///
/// Serializes as a JSON object with these keys, in this order: `name`,
/// `code`, `class`, `owner`, `category`, `suggested_tool`, `next_steps`,
/// `message`, `help_url`, `ora_code`, `retry_after_ms`, `effect`,
/// `idempotent`, `retryable`,
/// `correlation_id`, `transparent` (missing values as `null`). This is
/// the one serialization of a spec: [`catalog_json`](crate::catalog_json)
/// is an array of them.
///
/// Equality compares every field, the `retryable` attribute too.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[non_exhaustive]
pub struct VariantSpec {
    /// The variant's name as written in Rust (`"ObjectNotFound"`); for a
    /// struct, the struct's name.
    pub name: &'static str,
    /// The domain code the variant produces (`"LEASE_REQUIRED"`).
    pub code: Option<&'static str>,
    /// The class the variant produces.
    pub class: Option<ErrorClass>,
    /// Who has to act on the variant's failures: its class's
    /// [`ErrorClass::owner`], set with the class.
    pub owner: Option<Owner>,
    /// The category the variant produces.
    pub category: Option<UserErrorCategory>,
    /// The static suggested tool, if one is known at compile time (a
    /// `suggested_tool` field can still set one at run time).
    pub suggested_tool: Option<&'static str>,
    /// The `next_step` templates, in order, as written (`{field}` kept).
    pub next_steps: &'static [&'static str],
    /// The `message` template as written (`{field}` kept), the class's
    /// generic text for a server-owned variant without one, or `None` when
    /// the message is the error's `Display` text.
    pub message: Option<&'static str>,
    /// The help URL, if the variant sets one.
    pub help_url: Option<&'static str>,
    /// The backend's numeric error code, if the variant sets a constant
    /// one (`ora_code = 942`; an `ora_code` field can still set one at run
    /// time).
    pub ora_code: Option<i32>,
    /// The wait before a repeat in milliseconds, if the variant sets a
    /// constant one (`retry_after_ms = 250`; a `retry_after_ms` field can
    /// still set one at run time).
    pub retry_after_ms: Option<u64>,
    /// What a failure of the variant changed: its `effect` attribute, else
    /// its class's default ([`ErrorClass::default_effect`]).
    pub effect: Option<Effect>,
    /// Whether the variant declares its operation idempotent.
    pub idempotent: bool,
    /// Whether the variant's envelopes are `retryable`: its class's
    /// retryability (or its `retryable` attribute) under the retry rule of
    /// [`Effect::allows_repeat`], computed by the same function as an
    /// envelope's.
    pub retryable: Option<bool>,
    /// The variant's `retryable` attribute (whether a later attempt may
    /// succeed), when it overrides the class's judgement.
    #[serde(skip)]
    may_succeed: Option<bool>,
    /// The name of the field that carries the correlation id, if any.
    pub correlation_id: Option<&'static str>,
    /// Whether the variant delegates its envelope (`transparent` or `with`).
    pub transparent: bool,
}

/// For each class, by its position in [`ErrorClass::ALL`] (its
/// discriminant), the spec of a variant with nothing but that class: the
/// class's category and effect, and its retryability under the rule.
const CLASS_DEFAULTS: [VariantSpec; ErrorClass::ALL.len()] = {
    let mut all = [VariantSpec::new(""); ErrorClass::ALL.len()];
    let mut i = 0;
    while i < all.len() {
        all[i] = VariantSpec::new("").with_class(ErrorClass::ALL[i]);
        i += 1;
    }
    all
};

impl VariantSpec {
    /// A spec for the variant `name` with nothing else set; fill it with the
    /// `with_*` methods, all usable in `const` items.
    #[must_use]
    pub const fn new(name: &'static str) -> Self {
        VariantSpec {
            name,
            code: None,
            class: None,
            owner: None,
            category: None,
            suggested_tool: None,
            next_steps: &[],
            message: None,
            help_url: None,
            ora_code: None,
            retry_after_ms: None,
            effect: None,
            idempotent: false,
            retryable: None,
            may_succeed: None,
            correlation_id: None,
            transparent: false,
        }
    }

    /// The spec of a plain variant of `class` with its class's defaults
    /// (category, effect, retryability), its code and message template:
    /// what each entry of a derived catalog starts from. The defaults are
    /// copied from [`CLASS_DEFAULTS`], computed once, so the user's
    /// compiler evaluates one short call per variant, not the rule again.
    pub(crate) const fn of_class(
        name: &'static str,
        class: ErrorClass,
        code: &'static str,
        message: Option<&'static str>,
    ) -> Self {
        let mut spec = CLASS_DEFAULTS[class as usize];
        spec.name = name;
        spec.code = Some(code);
        spec.message = message;
        spec
    }

    /// Recomputes `retryable` from the class, the effect, idempotence and
    /// the `retryable` attribute, with the envelope's retry rule; a spec
    /// without a class (a delegating variant) has none.
    const fn settle(mut self) -> Self {
        self.retryable = match (self.class, self.effect) {
            (Some(class), Some(effect)) => {
                let inputs = match self.may_succeed {
                    Some(may_succeed) => RetryInputs::may_succeed(may_succeed),
                    None => RetryInputs::of_class(class),
                };
                Some(inputs.idempotent_if(self.idempotent).retryable(effect))
            }
            _ => None,
        };
        self
    }

    /// Sets the class and, from it, the default category and effect; the
    /// retryability follows under the retry rule.
    #[must_use]
    pub const fn with_class(mut self, class: ErrorClass) -> Self {
        self.class = Some(class);
        self.owner = Some(class.owner());
        self.category = Some(class.default_category());
        self.effect = Some(class.default_effect());
        self.settle()
    }

    /// Sets the effect; the retryability follows under the retry rule.
    #[must_use]
    pub const fn with_effect(mut self, effect: Effect) -> Self {
        self.effect = Some(effect);
        self.settle()
    }

    /// Declares the operation idempotent; the retryability follows under
    /// the retry rule (see [`Effect::allows_repeat`]).
    #[must_use]
    pub const fn idempotent(mut self) -> Self {
        self.idempotent = true;
        self.settle()
    }

    /// Sets whether a later attempt may succeed, against the class's
    /// judgement; the retryability follows under the retry rule, so it
    /// cannot make an unsafe repeat retryable. The builders can be called
    /// in any order.
    #[must_use]
    pub const fn with_retryable(mut self, may_succeed: bool) -> Self {
        self.may_succeed = Some(may_succeed);
        self.settle()
    }

    /// Names the field that carries the correlation id.
    #[must_use]
    pub const fn with_correlation_id(mut self, field: &'static str) -> Self {
        self.correlation_id = Some(field);
        self
    }

    /// Sets the domain code.
    #[must_use]
    pub const fn with_code(mut self, code: &'static str) -> Self {
        self.code = Some(code);
        self
    }

    /// Sets the category.
    #[must_use]
    pub const fn with_category(mut self, category: UserErrorCategory) -> Self {
        self.category = Some(category);
        self
    }

    /// Sets the static suggested tool.
    #[must_use]
    pub const fn with_suggested_tool(mut self, tool: &'static str) -> Self {
        self.suggested_tool = Some(tool);
        self
    }

    /// Sets the `next_step` templates.
    #[must_use]
    pub const fn with_next_steps(mut self, steps: &'static [&'static str]) -> Self {
        self.next_steps = steps;
        self
    }

    /// Sets the message template.
    #[must_use]
    pub const fn with_message(mut self, template: &'static str) -> Self {
        self.message = Some(template);
        self
    }

    /// Sets the help URL.
    #[must_use]
    pub const fn with_help_url(mut self, url: &'static str) -> Self {
        self.help_url = Some(url);
        self
    }

    /// Sets the backend's numeric error code.
    #[must_use]
    pub const fn with_ora_code(mut self, code: i32) -> Self {
        self.ora_code = Some(code);
        self
    }

    /// Sets the wait before a repeat, in milliseconds.
    #[must_use]
    pub const fn with_retry_after_ms(mut self, ms: u64) -> Self {
        self.retry_after_ms = Some(ms);
        self
    }

    /// Marks the variant as delegating to the error it wraps.
    #[must_use]
    pub const fn transparent(mut self) -> Self {
        self.transparent = true;
        self
    }

    /// Who has to act, from the class; `None` for a transparent variant.
    #[must_use]
    pub const fn owner(&self) -> Option<Owner> {
        self.owner
    }

    /// Whether the variant's envelopes are retryable; `None` for a
    /// transparent variant.
    #[must_use]
    pub const fn retryable(&self) -> Option<bool> {
        self.retryable
    }

    /// Fills what `envelope` leaves empty from this spec, the container
    /// defaults of a delegating variant: the tool of `tools` for the
    /// envelope's class, else the spec's; the constant fields; the steps,
    /// after a check step the envelope may carry.
    pub(crate) fn fill(&self, envelope: &mut ErrorEnvelope, tools: &[(ErrorClass, &str)]) {
        let class = envelope.error_class;
        let fields = envelope.fields_mut();
        if fields.suggested_tool.is_none() {
            let by_class = tools.iter().find(|(c, _)| *c == class).map(|(_, t)| *t);
            fields.suggested_tool = by_class.or(self.suggested_tool).map(String::from);
        }
        fields.help_url = fields.help_url.take().or(self.help_url.map(String::from));
        fields.ora_code = fields.ora_code.or(self.ora_code);
        fields.retry_after_ms = fields.retry_after_ms.or(self.retry_after_ms);
        if fields
            .next_steps
            .iter()
            .all(|step| Effect::is_check_step(step))
        {
            let steps = self.next_steps.iter().copied().map(String::from);
            fields.next_steps.extend(steps);
        }
    }
}
