//! The classes a variant may name, as the derive knows them: the rows of
//! the runtime's own class table (`classes.rs`, a symbolic link to
//! `envelope-core/src/model/classes.rs`, included below), read by a
//! `classes!` of the derive's that keeps the facts it checks at compile
//! time (a proc-macro crate cannot depend on the runtime).

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

/// The derive's reading of the class table: the enum (every row, `Unknown`
/// last), its rows in order and the facts the derive checks. The table's
/// other columns (wire names, texts, statuses) are the runtime's alone.
macro_rules! classes {
    (
        $(#[$enum_attr:meta])*
        pub enum $name:ident;
        $(
            $(#[$attr:meta])*
            $variant:ident = $wire:literal {
                owner: $owner:ident, person: $person:ident, retryable: $retryable:ident, category: $category:ident,
                http: $http:literal, effect: $effect:ident,
                tool_failure: $tool_failure:literal, log: $log:ident, title: $title:literal,
                act: $act:literal, message: $message:literal, $(step: $step:literal,)?
            }
        )*
    ) => {
        /// Every `ErrorClass`, as the derive names it.
        #[derive(Clone, Copy, PartialEq, Eq, Debug)]
        pub(crate) enum Class {
            $($variant,)*
        }

        impl Class {
            /// Every row of the table, in its order.
            const ROWS: &'static [Class] = &[$(Class::$variant),*];

            /// The Rust variant name: `ObjectNotFound`.
            const fn variant_name(self) -> &'static str {
                match self { $(Class::$variant => stringify!($variant),)* }
            }

            /// Who has to act, as `ErrorClass::owner` returns it. Without a
            /// `message`, a server-owned class gets its generic text, not
            /// `Display`.
            pub fn owner(self) -> Owner {
                match self { $(Class::$variant => Owner::$owner,)* }
            }

            /// The category used when a variant names none, as
            /// `ErrorClass::default_category` returns it; the derive writes
            /// it into the code instead of a call per variant.
            pub fn default_category(self) -> Category {
                match self { $(Class::$variant => Category::$category,)* }
            }

            /// The effect a failure of this class has when a variant names
            /// none, as `ErrorClass::default_effect` returns it; the derive
            /// needs it to check `retryable = true` at compile time.
            pub fn default_effect(self) -> Effect {
                match self { $(Class::$variant => Effect::$effect,)* }
            }
        }
    };
}

include!("classes.rs");

/// The classes an attribute may name: every row but the last, `Unknown`,
/// which only deserialization produces.
const NAMEABLE: &[Class] = match Class::ROWS.split_last() {
    Some((Class::Unknown, nameable)) => nameable,
    _ => panic!("the class table's last row must be `Unknown`"),
};

impl Named for Class {
    const KEY: &'static str = "class";
    const ENUM: &'static str = "ErrorClass";
    const ALL: &'static [Class] = NAMEABLE;

    fn name(self) -> &'static str {
        self.variant_name()
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

    /// The table's rows are the runtime's classes, in its order, and the
    /// derive reads the same facts from them (one file, so this holds by
    /// construction; the test guards the include).
    #[test]
    fn the_table_is_the_runtimes() {
        let theirs: Vec<&str> = envelope::ErrorClass::ALL
            .iter()
            .map(|class| class.name())
            .collect();
        let rows: Vec<&str> = Class::ROWS.iter().map(|class| class.name()).collect();
        assert_eq!(rows, theirs);
        assert_eq!(Class::names(), theirs[..theirs.len() - 1]);
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
