//! The classes a variant may name, as the derive knows them: a mirror of
//! the runtime's `ErrorClass` tables (a proc-macro crate cannot depend on
//! the runtime), checked against it by the tests below.

use syn::Ident;

use crate::category::Category;
use crate::effect::Effect;
use crate::names::{self, Named};

/// Who has to act on a class, as `ErrorClass::owner` says.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub(crate) enum Owner {
    /// The caller must change the call.
    Caller,
    /// The server, or something behind it, failed.
    Server,
    /// A human must act outside the conversation.
    User,
}

/// Every `ErrorClass` but `Unknown`, which only deserialization produces.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub(crate) enum Class {
    InvalidArguments,
    SyntaxError,
    RuntimeError,
    ObjectNotFound,
    AlreadyExists,
    PreconditionFailed,
    Conflict,
    Unauthenticated,
    InteractionRequired,
    InsufficientPrivilege,
    PolicyDenied,
    Unsupported,
    RateLimited,
    QuotaExceeded,
    Busy,
    Timeout,
    Transient,
    ConnectionFailed,
    Cancelled,
    Internal,
}

impl Named for Class {
    const KEY: &'static str = "class";
    const ENUM: &'static str = "ErrorClass";
    const ALL: &'static [Class] = &[
        Class::InvalidArguments,
        Class::SyntaxError,
        Class::RuntimeError,
        Class::ObjectNotFound,
        Class::AlreadyExists,
        Class::PreconditionFailed,
        Class::Conflict,
        Class::Unauthenticated,
        Class::InteractionRequired,
        Class::InsufficientPrivilege,
        Class::PolicyDenied,
        Class::Unsupported,
        Class::RateLimited,
        Class::QuotaExceeded,
        Class::Busy,
        Class::Timeout,
        Class::Transient,
        Class::ConnectionFailed,
        Class::Cancelled,
        Class::Internal,
    ];

    fn name(self) -> &'static str {
        match self {
            Class::InvalidArguments => "InvalidArguments",
            Class::SyntaxError => "SyntaxError",
            Class::RuntimeError => "RuntimeError",
            Class::ObjectNotFound => "ObjectNotFound",
            Class::AlreadyExists => "AlreadyExists",
            Class::PreconditionFailed => "PreconditionFailed",
            Class::Conflict => "Conflict",
            Class::Unauthenticated => "Unauthenticated",
            Class::InteractionRequired => "InteractionRequired",
            Class::InsufficientPrivilege => "InsufficientPrivilege",
            Class::PolicyDenied => "PolicyDenied",
            Class::Unsupported => "Unsupported",
            Class::RateLimited => "RateLimited",
            Class::QuotaExceeded => "QuotaExceeded",
            Class::Busy => "Busy",
            Class::Timeout => "Timeout",
            Class::Transient => "Transient",
            Class::ConnectionFailed => "ConnectionFailed",
            Class::Cancelled => "Cancelled",
            Class::Internal => "Internal",
        }
    }

    /// A category name written as a class points at the class whose
    /// default category it is.
    fn unknown(ident: &Ident) -> syn::Error {
        let text = ident.to_string();
        let Some(category) = Category::from_name(&text) else {
            return names::unknown_name(ident, Self::KEY, &Self::names());
        };
        let hint = match Class::for_category(category) {
            Some(class) => format!(
                "write `class = {}` (whose default category it is), or keep another class and add `category = {text}`",
                class.name()
            ),
            None => format!(
                "pick a class such as `class = InvalidArguments` and add `category = {text}`"
            ),
        };
        syn::Error::new(
            ident.span(),
            format!("unknown class `{text}`; `{text}` is a category, not a class: {hint}"),
        )
    }
}

impl Class {
    /// Who has to act, as `ErrorClass::owner` returns it. Without a
    /// `message`, a server-owned class gets its generic text, not `Display`.
    pub fn owner(self) -> Owner {
        match self {
            Class::Busy
            | Class::Timeout
            | Class::Transient
            | Class::ConnectionFailed
            | Class::Internal => Owner::Server,
            Class::InteractionRequired => Owner::User,
            Class::InvalidArguments
            | Class::SyntaxError
            | Class::RuntimeError
            | Class::ObjectNotFound
            | Class::AlreadyExists
            | Class::PreconditionFailed
            | Class::Conflict
            | Class::Unauthenticated
            | Class::InsufficientPrivilege
            | Class::PolicyDenied
            | Class::Unsupported
            | Class::RateLimited
            | Class::QuotaExceeded
            | Class::Cancelled => Owner::Caller,
        }
    }

    /// The category used when a variant names none, as
    /// `ErrorClass::default_category` returns it; the derive writes it
    /// into the code instead of a call per variant.
    pub fn default_category(self) -> Category {
        match self {
            Class::InvalidArguments
            | Class::SyntaxError
            | Class::RuntimeError
            | Class::PolicyDenied
            | Class::Unsupported => Category::Validation,
            Class::ObjectNotFound => Category::NotFound,
            Class::AlreadyExists => Category::Duplicate,
            Class::PreconditionFailed
            | Class::Conflict
            | Class::Unauthenticated
            | Class::InteractionRequired
            | Class::InsufficientPrivilege => Category::WorkflowDependency,
            Class::RateLimited
            | Class::QuotaExceeded
            | Class::Busy
            | Class::Timeout
            | Class::Transient
            | Class::ConnectionFailed
            | Class::Cancelled
            | Class::Internal => Category::Technical,
        }
    }

    /// The effect a failure of this class has when a variant names none,
    /// as `ErrorClass::default_effect` returns it; the derive needs it to
    /// check `retryable = true` at compile time.
    pub fn default_effect(self) -> Effect {
        match self {
            Class::RuntimeError
            | Class::Timeout
            | Class::Transient
            | Class::ConnectionFailed
            | Class::Cancelled
            | Class::Internal => Effect::Unknown,
            Class::InvalidArguments
            | Class::SyntaxError
            | Class::ObjectNotFound
            | Class::AlreadyExists
            | Class::PreconditionFailed
            | Class::Conflict
            | Class::Unauthenticated
            | Class::InteractionRequired
            | Class::InsufficientPrivilege
            | Class::PolicyDenied
            | Class::Unsupported
            | Class::RateLimited
            | Class::QuotaExceeded
            | Class::Busy => Effect::Nothing,
        }
    }

    /// The first class (in `ALL` order) whose default category is
    /// `category`, for hints; `None` for one no class defaults to
    /// (`MissingContext`).
    pub fn for_category(category: Category) -> Option<Class> {
        Class::ALL
            .iter()
            .copied()
            .find(|class| class.default_category() == category)
    }

    /// The class a key of `suggested_tools(Class = "tool")` names, where
    /// only a class can go: a category name points at the class it is the
    /// default of.
    pub fn from_tools_key(ident: &Ident) -> syn::Result<Class> {
        let text = ident.to_string();
        if let Some(class) = Class::from_name(&text) {
            return Ok(class);
        }
        let hint = if let Some(category) = Category::from_name(&text) {
            match Class::for_category(category) {
                Some(class) => format!(
                    "`{text}` is a category, and `suggested_tools` takes classes: write `{} = \"...\"` (the class whose default category is `{text}`)",
                    class.name()
                ),
                None => format!(
                    "`{text}` is a category, and `suggested_tools` takes classes, such as `InvalidArguments = \"...\"`"
                ),
            }
        } else if let Some(best) = names::closest(&text, &Class::names()) {
            format!("did you mean `{best}`?")
        } else {
            format!("expected one of: {}", Class::names().join(", "))
        };
        Err(syn::Error::new(
            ident.span(),
            format!("unknown class `{text}` in `suggested_tools`; {hint}"),
        ))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The runtime's nameable classes, in its order.
    fn runtime() -> Vec<envelope::ErrorClass> {
        envelope::ErrorClass::ALL
            .iter()
            .copied()
            .filter(|class| *class != envelope::ErrorClass::Unknown)
            .collect()
    }

    /// The derive's classes are exactly the runtime's, in its order, and
    /// each has the runtime's owner, default category and default effect.
    #[test]
    fn classes_mirror_the_runtime() {
        let runtime = runtime();
        let ours: Vec<&str> = Class::names();
        let theirs: Vec<&str> = runtime.iter().map(|class| class.name()).collect();
        assert_eq!(ours, theirs);
        for (class, theirs) in Class::ALL.iter().zip(&runtime) {
            assert_eq!(
                format!("{:?}", class.owner()),
                format!("{:?}", theirs.owner()),
                "{class:?}"
            );
            assert_eq!(
                class.default_category().name(),
                theirs.default_category().as_str(),
                "{class:?}"
            );
            assert_eq!(
                class.default_effect().name(),
                format!("{:?}", theirs.default_effect()),
                "{class:?}"
            );
        }
    }

    #[test]
    fn names_parse_back() {
        for class in Class::ALL {
            assert_eq!(Class::from_name(class.name()), Some(*class));
            let ident = class.ident();
            assert_eq!(Class::from_ident(&ident).ok(), Some(*class));
            assert_eq!(Class::from_tools_key(&ident).ok(), Some(*class));
        }
        assert_eq!(
            names::closest("ObjectNotFund", &Class::names()),
            Some("ObjectNotFound")
        );
        assert_eq!(names::closest("zzzzzz", &Class::names()), None);
        assert_eq!(
            Class::for_category(Category::WorkflowDependency),
            Some(Class::PreconditionFailed)
        );
        assert_eq!(Class::for_category(Category::MissingContext), None);
    }

    /// The two classes of the class table review, where they belong.
    #[test]
    fn reviewed_classes() {
        let runtime_error = Class::RuntimeError;
        assert_eq!(runtime_error.owner(), Owner::Caller);
        assert_eq!(runtime_error.default_category(), Category::Validation);
        assert_eq!(runtime_error.default_effect(), Effect::Unknown);
        let interaction = Class::InteractionRequired;
        assert_eq!(interaction.owner(), Owner::User);
        assert_eq!(interaction.default_category(), Category::WorkflowDependency);
        assert_eq!(interaction.default_effect(), Effect::Nothing);
        assert_eq!(
            Class::InsufficientPrivilege.default_category(),
            Category::WorkflowDependency
        );
        assert_eq!(Class::Busy.owner(), Owner::Server);
        let names = Class::names();
        let after = |a: &str, b: &str| {
            let at = |n: &str| names.iter().position(|x| *x == n);
            assert_eq!(at(a).map(|i| i + 1), at(b), "{b} right after {a}");
        };
        after("SyntaxError", "RuntimeError");
        after("Unauthenticated", "InteractionRequired");
    }
}
