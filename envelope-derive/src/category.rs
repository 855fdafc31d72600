//! The categories a variant may name: a mirror of the runtime's
//! `UserErrorCategory`, checked against it by the test below.

use crate::names::Named;

/// Every `UserErrorCategory` but `Unknown`, which only deserialization
/// produces.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub(crate) enum Category {
    WorkflowDependency,
    MissingContext,
    NotFound,
    Duplicate,
    Validation,
    Technical,
}

impl Named for Category {
    const KEY: &'static str = "category";
    const ENUM: &'static str = "UserErrorCategory";
    const ALL: &'static [Category] = &[
        Category::WorkflowDependency,
        Category::MissingContext,
        Category::NotFound,
        Category::Duplicate,
        Category::Validation,
        Category::Technical,
    ];

    fn name(self) -> &'static str {
        match self {
            Category::WorkflowDependency => "WorkflowDependency",
            Category::MissingContext => "MissingContext",
            Category::NotFound => "NotFound",
            Category::Duplicate => "Duplicate",
            Category::Validation => "Validation",
            Category::Technical => "Technical",
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The derive's categories are exactly the runtime's, in its order.
    #[test]
    fn categories_mirror_the_runtime() {
        use envelope::UserErrorCategory;
        let theirs: Vec<&str> = UserErrorCategory::ALL
            .iter()
            .filter(|category| **category != UserErrorCategory::Unknown)
            .map(|category| category.as_str())
            .collect();
        assert_eq!(Category::names(), theirs);
    }
}
