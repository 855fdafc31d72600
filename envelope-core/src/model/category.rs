//! [`UserErrorCategory`]: how a failed tool call should steer the conversation.

use core::fmt;

use serde::{Deserialize, Serialize};

/// The conversation-flow category of a tool failure: what the model should do
/// next with the user, as opposed to [`ErrorClass`](crate::ErrorClass), which
/// says what went wrong.
///
/// Wire form: the variant name as written (`"NotFound"`,
/// `"WorkflowDependency"`), the form the `multi-llm` crate writes in its
/// `ToolResult::error_category`, so its JSON reads and writes unchanged. A
/// category this version does not know deserializes to
/// [`UserErrorCategory::Unknown`].
///
/// With the `schemars` feature: implements `schemars::JsonSchema` (schemars
/// 1.x), for a tool's `outputSchema`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[cfg_attr(feature = "schemars", derive(schemars::JsonSchema))]
#[non_exhaustive]
pub enum UserErrorCategory {
    /// A prerequisite action is missing: "log in before opening your profile".
    WorkflowDependency,
    /// The request lacks context or a parameter: "which city do you mean?".
    MissingContext,
    /// The requested item does not exist: "no user has that email address".
    NotFound,
    /// The item to create already exists: "that email already has an account".
    Duplicate,
    /// The input failed validation: "that is not a valid email address".
    Validation,
    /// A system fault; do not show its details to the user.
    Technical,
    /// A category sent by a newer peer that this version does not know.
    #[serde(other)]
    Unknown,
}

impl UserErrorCategory {
    /// Every category, in declaration order (`Unknown` last).
    pub const ALL: &'static [UserErrorCategory] = &[
        UserErrorCategory::WorkflowDependency,
        UserErrorCategory::MissingContext,
        UserErrorCategory::NotFound,
        UserErrorCategory::Duplicate,
        UserErrorCategory::Validation,
        UserErrorCategory::Technical,
        UserErrorCategory::Unknown,
    ];

    /// The wire name, identical to the variant name: `"NotFound"`.
    #[must_use]
    pub const fn as_str(self) -> &'static str {
        match self {
            UserErrorCategory::WorkflowDependency => "WorkflowDependency",
            UserErrorCategory::MissingContext => "MissingContext",
            UserErrorCategory::NotFound => "NotFound",
            UserErrorCategory::Duplicate => "Duplicate",
            UserErrorCategory::Validation => "Validation",
            UserErrorCategory::Technical => "Technical",
            UserErrorCategory::Unknown => "Unknown",
        }
    }
}

impl fmt::Display for UserErrorCategory {
    /// Writes the wire name (`NotFound`).
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn wire_names_are_the_variant_names() {
        for category in UserErrorCategory::ALL {
            let json = serde_json::to_string(category).unwrap();
            assert_eq!(json, format!("\"{}\"", category.as_str()));
            let back: UserErrorCategory = serde_json::from_str(&json).unwrap();
            assert_eq!(back, *category);
        }
        assert_eq!(
            serde_json::to_string(&UserErrorCategory::WorkflowDependency).unwrap(),
            "\"WorkflowDependency\""
        );
    }

    #[test]
    fn unknown_category_lands_on_unknown() {
        let category: UserErrorCategory = serde_json::from_str("\"RateLimited\"").unwrap();
        assert_eq!(category, UserErrorCategory::Unknown);
    }
}
