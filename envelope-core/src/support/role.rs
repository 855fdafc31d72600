//! The field roles of the derive (`#[envelope(fuzzy_matches)]`,
//! `suggested_tool`, `retry_after_ms`, ...): which field types each accepts
//! and how a value of one becomes the envelope's field.
//!
//! Every trait is implemented for the owned type and for a reference to it:
//! `to_envelope` passes the field by reference and copies, `into_envelope`
//! passes it by value and moves. Each carries an `on_unimplemented`
//! message, so a role on a field of the wrong type is reported at that
//! field in the role's terms.

use std::borrow::Cow;
use std::collections::{BTreeSet, VecDeque};
use std::fmt;
use std::time::Duration;

use crate::model::argument_error::ArgumentError;
use crate::model::envelope::duration_ms;

/// A field usable with the `correlation_id` role: any `Display` value, or
/// an `Option` of one (the derive picks this trait for a field whose type
/// is spelled `Option<...>`).
#[diagnostic::on_unimplemented(
    message = "`{Self}` cannot be a `correlation_id` field",
    label = "expected a `Display` value or an `Option` of one",
    note = "a `#[envelope(correlation_id)]` field holds an id such as a `String`, a `u64` or a UUID"
)]
pub trait OptionalId {
    /// The id as text, if any.
    fn id_text(self) -> Option<String>;
}

impl<T: fmt::Display> OptionalId for Option<T> {
    fn id_text(self) -> Option<String> {
        self.map(|id| id.to_string())
    }
}

impl<T: fmt::Display> OptionalId for &Option<T> {
    fn id_text(self) -> Option<String> {
        self.as_ref().map(ToString::to_string)
    }
}

/// A list of strings: what a `fuzzy_matches` or `next_steps` field holds.
#[diagnostic::on_unimplemented(
    message = "`{Self}` cannot be a `fuzzy_matches` / `next_steps` field",
    label = "expected a list of strings",
    note = "use `Vec<String>`, `Vec<&str>`, `&[&str]`, `[&str; N]`, `Option<Vec<String>>`, `BTreeSet<String>` or `VecDeque<String>`"
)]
pub trait StrList {
    /// Appends a copy of each string to `out`.
    fn copy_into(&self, out: &mut Vec<String>);
    /// How many strings there are.
    fn count(&self) -> usize;
    /// The strings as owned values. Copies each one; a `Vec<String>` moves
    /// instead, keeping its heap buffer.
    fn into_strings(self) -> Vec<String>
    where
        Self: Sized,
    {
        let mut out = Vec::with_capacity(self.count());
        self.copy_into(&mut out);
        out
    }
}

impl<T: AsRef<str> + Into<String>> StrList for Vec<T> {
    fn copy_into(&self, out: &mut Vec<String>) {
        out.extend(self.iter().map(|s| String::from(s.as_ref())));
    }

    fn count(&self) -> usize {
        self.len()
    }

    /// The identity map over a `Vec<String>` is collected in place: the
    /// strings and the buffer move, nothing is copied.
    fn into_strings(self) -> Vec<String> {
        self.into_iter().map(Into::into).collect()
    }
}

macro_rules! str_list_by_iter {
    ($($ty:ty => [$($generics:tt)*];)*) => {
        $(
            impl<$($generics)*> StrList for $ty {
                fn copy_into(&self, out: &mut Vec<String>) {
                    out.extend(self.iter().map(|s| String::from(s.as_ref())));
                }

                fn count(&self) -> usize {
                    self.len()
                }
            }
        )*
    };
}

str_list_by_iter! {
    [T] => [T: AsRef<str>];
    BTreeSet<T> => [T: AsRef<str>];
    VecDeque<T> => [T: AsRef<str>];
}

impl<T: AsRef<str> + Into<String>, const N: usize> StrList for [T; N] {
    fn copy_into(&self, out: &mut Vec<String>) {
        out.extend(self.iter().map(|s| String::from(s.as_ref())));
    }

    fn count(&self) -> usize {
        N
    }

    /// The strings move: an array of rendered templates becomes the list
    /// in one allocation.
    fn into_strings(self) -> Vec<String> {
        self.into_iter().map(Into::into).collect()
    }
}

impl<L: StrList + ?Sized> StrList for &L {
    fn copy_into(&self, out: &mut Vec<String>) {
        (**self).copy_into(out);
    }

    fn count(&self) -> usize {
        (**self).count()
    }
}

impl<L: StrList> StrList for Option<L> {
    fn copy_into(&self, out: &mut Vec<String>) {
        if let Some(list) = self {
            list.copy_into(out);
        }
    }

    fn count(&self) -> usize {
        self.as_ref().map_or(0, StrList::count)
    }

    fn into_strings(self) -> Vec<String> {
        self.map(StrList::into_strings).unwrap_or_default()
    }
}

/// A field usable with the `argument_errors` role: the problems found in
/// a tool's arguments.
#[diagnostic::on_unimplemented(
    message = "`{Self}` cannot be an `argument_errors` field",
    label = "expected `Vec<ArgumentError>`, `Option<Vec<ArgumentError>>`, `ArgumentError` or `Option<ArgumentError>`",
    note = "an `#[envelope(argument_errors)]` field holds `envelope::ArgumentError`s, such as `ArgumentError::new(ArgumentErrorKind::Missing, \"/table\")`"
)]
pub trait ArgumentList {
    /// Appends a copy of each problem to `out`.
    fn copy_into(&self, out: &mut Vec<ArgumentError>);
    /// Appends each problem to `out`, moved when owned.
    fn move_into(self, out: &mut Vec<ArgumentError>)
    where
        Self: Sized,
    {
        self.copy_into(out);
    }
}

impl ArgumentList for ArgumentError {
    fn copy_into(&self, out: &mut Vec<ArgumentError>) {
        out.push(self.clone());
    }

    fn move_into(self, out: &mut Vec<ArgumentError>) {
        out.push(self);
    }
}

impl ArgumentList for Vec<ArgumentError> {
    fn copy_into(&self, out: &mut Vec<ArgumentError>) {
        out.extend_from_slice(self);
    }

    fn move_into(self, out: &mut Vec<ArgumentError>) {
        out.extend(self);
    }
}

impl ArgumentList for [ArgumentError] {
    fn copy_into(&self, out: &mut Vec<ArgumentError>) {
        out.extend_from_slice(self);
    }
}

impl<L: ArgumentList> ArgumentList for Option<L> {
    fn copy_into(&self, out: &mut Vec<ArgumentError>) {
        if let Some(list) = self {
            list.copy_into(out);
        }
    }

    fn move_into(self, out: &mut Vec<ArgumentError>) {
        if let Some(list) = self {
            list.move_into(out);
        }
    }
}

impl<L: ArgumentList + ?Sized> ArgumentList for &L {
    fn copy_into(&self, out: &mut Vec<ArgumentError>) {
        (**self).copy_into(out);
    }
}

/// A field usable with the `suggested_tool` role.
#[diagnostic::on_unimplemented(
    message = "`{Self}` cannot be a `suggested_tool` field",
    label = "expected `String`, `&str` or `Option<String>`",
    note = "a `#[envelope(suggested_tool)]` field must hold the tool name as a string or an optional string"
)]
pub trait ToolField {
    /// The tool name, if any; an empty name is no tool.
    fn into_tool(self) -> Option<String>;
}

/// A field usable with the `retry_after_ms` role (milliseconds) or the
/// `retry_after` role (a `Duration`).
#[diagnostic::on_unimplemented(
    message = "`{Self}` cannot be a `retry_after_ms` / `retry_after` field",
    label = "expected `u64`, `u32`, `u16`, `usize`, `Option<u64>`, `Option<u32>`, `Duration` or `Option<Duration>`",
    note = "use `retry_after_ms` on a `u64` / `Option<u64>` count of milliseconds and `retry_after` on a `Duration` / `Option<Duration>`"
)]
pub trait RetryField {
    /// The wait in milliseconds, if any.
    fn into_retry_ms(self) -> Option<u64>;
}

/// A field usable with the `ora_code` role.
#[diagnostic::on_unimplemented(
    message = "`{Self}` cannot be an `ora_code` field",
    label = "expected `i32` or `Option<i32>`",
    note = "an `#[envelope(ora_code)]` field holds the backend's numeric code (`942` for ORA-00942)"
)]
pub trait OraField {
    /// The code, if any.
    fn into_ora_code(self) -> Option<i32>;
}

/// Implements a role trait for owned types and references to them.
macro_rules! impl_role {
    ($trait:ident :: $method:ident -> $out:ty { $($ty:ty => |$v:ident| $body:expr;)* }) => {
        $(
            impl $trait for $ty {
                #[inline]
                fn $method(self) -> Option<$out> {
                    let $v = self;
                    $body
                }
            }
        )*
    };
}

impl_role!(ToolField::into_tool -> String {
    String => |v| Some(v).filter(|t| !t.is_empty());
    &String => |v| (!v.is_empty()).then(|| v.clone());
    &str => |v| (!v.is_empty()).then(|| String::from(v));
    &&str => |v| (!v.is_empty()).then(|| String::from(*v));
    Cow<'_, str> => |v| (!v.is_empty()).then(|| v.into_owned());
    &Cow<'_, str> => |v| (!v.is_empty()).then(|| String::from(v.as_ref()));
    Box<str> => |v| (!v.is_empty()).then(|| String::from(v));
    &Box<str> => |v| (!v.is_empty()).then(|| String::from(&**v));
    Option<String> => |v| v.filter(|t| !t.is_empty());
    &Option<String> => |v| v.as_deref().and_then(ToolField::into_tool);
    Option<&str> => |v| v.and_then(ToolField::into_tool);
    &Option<&str> => |v| v.and_then(ToolField::into_tool);
});

impl_role!(RetryField::into_retry_ms -> u64 {
    u64 => |v| Some(v);
    &u64 => |v| Some(*v);
    u32 => |v| Some(u64::from(v));
    &u32 => |v| Some(u64::from(*v));
    u16 => |v| Some(u64::from(v));
    &u16 => |v| Some(u64::from(*v));
    usize => |v| Some(u64::try_from(v).unwrap_or(u64::MAX));
    &usize => |v| Some(u64::try_from(*v).unwrap_or(u64::MAX));
    Option<u64> => |v| v;
    &Option<u64> => |v| *v;
    Option<u32> => |v| v.map(u64::from);
    &Option<u32> => |v| v.map(u64::from);
    Duration => |v| Some(duration_ms(v));
    &Duration => |v| Some(duration_ms(*v));
    Option<Duration> => |v| v.map(duration_ms);
    &Option<Duration> => |v| v.map(duration_ms);
});

impl_role!(OraField::into_ora_code -> i32 {
    i32 => |v| Some(v);
    &i32 => |v| Some(*v);
    Option<i32> => |v| v;
    &Option<i32> => |v| *v;
});

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::argument_error::ArgumentErrorKind;

    /// Every form of an `argument_errors` field copies and moves its
    /// problems, in order.
    #[test]
    fn each_argument_list_copies_and_moves_its_problems() {
        let one = ArgumentError::new(ArgumentErrorKind::Missing, "/title");
        let two = ArgumentError::new(ArgumentErrorKind::UnknownField, "/titel");
        let both = vec![one.clone(), two.clone()];
        let copied = |list: &dyn Fn(&mut Vec<ArgumentError>)| {
            let mut out = vec![two.clone()];
            list(&mut out);
            out
        };
        assert_eq!(
            copied(&|out| one.copy_into(out)),
            [two.clone(), one.clone()]
        );
        assert_eq!(
            copied(&|out| both.copy_into(out)),
            [two.clone(), one.clone(), two.clone()]
        );
        assert_eq!(
            copied(&|out| both.as_slice().copy_into(out)),
            [two.clone(), one.clone(), two.clone()]
        );
        assert_eq!(
            copied(&|out| Some(one.clone()).copy_into(out)),
            [two.clone(), one.clone()]
        );
        assert_eq!(
            copied(&|out| None::<ArgumentError>.copy_into(out)),
            std::slice::from_ref(&two)
        );
        let mut moved = Vec::new();
        one.clone().move_into(&mut moved);
        both.clone().move_into(&mut moved);
        Some(both).move_into(&mut moved);
        assert_eq!(moved, [one.clone(), one.clone(), two.clone(), one, two]);
    }
}
