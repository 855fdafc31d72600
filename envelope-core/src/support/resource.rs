//! The helpers of a `resource = server` variant: the wrapped error's
//! envelope, class and category, made server-owned.

use crate::model::category::UserErrorCategory;
use crate::model::class::ErrorClass;
use crate::model::envelope::ErrorEnvelope;

/// `resource = server` on a `transparent` variant: the wrapped error's
/// envelope, server-owned (see [`ErrorEnvelope::for_server_resource`]).
#[inline]
#[must_use]
pub fn server_resource(envelope: ErrorEnvelope) -> ErrorEnvelope {
    envelope.for_server_resource()
}

/// The class of a `resource = server` variant, from the wrapped error's,
/// without building its envelope: the rule of
/// [`ErrorEnvelope::for_server_resource`].
#[inline]
#[must_use]
pub const fn server_class(class: ErrorClass) -> ErrorClass {
    crate::model::envelope::server_resource_class(class)
}

/// The category of a `resource = server` variant: the wrapped error's,
/// unless its class changes, then the new class's default.
#[inline]
#[must_use]
pub const fn server_category(class: ErrorClass, category: UserErrorCategory) -> UserErrorCategory {
    match class.owner() {
        crate::model::class::Owner::Server => category,
        _ => server_class(class).default_category(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The derive's class and category of a `resource = server` variant
    /// are those of the envelope rule, for every class, with a category
    /// that is no class's default (so keeping it and replacing it differ).
    #[test]
    fn the_class_and_category_agree_with_the_envelope_rule() {
        let category = UserErrorCategory::MissingContext;
        assert!(
            ErrorClass::ALL
                .iter()
                .all(|class| class.default_category() != category)
        );
        for &class in ErrorClass::ALL {
            let envelope = ErrorEnvelope::new(class, "m")
                .with_category(category)
                .for_server_resource();
            assert_eq!(server_class(class), envelope.error_class, "{class}");
            assert_eq!(
                Some(server_category(class, category)),
                envelope.category,
                "{class}"
            );
        }
    }
}
