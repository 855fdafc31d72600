//! The expansion as a plain function, outside the compiler: generated enums
//! and random attribute token soup must never make it panic.

use proptest::prelude::*;
use quote::ToTokens;

use crate::{expand, fallback};

/// Tokens an attribute list is made of, valid and not.
const SOUP: &[&str] = &[
    "class",
    "category",
    "message",
    "next_step",
    "suggested_tool",
    "suggested_tools",
    "code",
    "code_prefix",
    "ora_code",
    "retry_after_ms",
    "retry_after",
    "help_url",
    "transparent",
    "with",
    "crate",
    "fuzzy_matches",
    "next_steps",
    "detail",
    "secret",
    "resource",
    "server",
    "caller",
    "argument",
    "argument_errors",
    "path",
    "kind",
    "missing",
    "suggestions",
    "\"/tag\"",
    "none",
    "=",
    ",",
    "(",
    ")",
    "::",
    "-",
    "ObjectNotFound",
    "Busy",
    "Internal",
    "NotFound",
    "Unknown",
    "Validation",
    "\"{name}\"",
    "\"{0}\"",
    "\"{1:>5}\"",
    "\"{\"",
    "\"}\"",
    "\"{{x}}\"",
    "\"{name:?}\"",
    "\"X_\"",
    "\"lower\"",
    "\"LEASE\"",
    "942",
    "-1",
    "99999999999999999999",
    "1.5",
    "true",
    "r#type",
    "self",
    "\"\"",
    "\"{r#type}\"",
    "\"{}\"",
];

fn soup() -> impl Strategy<Value = String> {
    prop::collection::vec(prop::sample::select(SOUP), 0..10).prop_map(|tokens| tokens.join(" "))
}

fn attribute() -> impl Strategy<Value = String> {
    prop_oneof![
        soup().prop_map(|s| format!("#[envelope({s})]")),
        Just("#[envelope(class = Internal)]".to_owned()),
        Just("#[envelope(class = ObjectNotFound, message = \"no {name}\")]".to_owned()),
        Just("#[envelope(transparent)]".to_owned()),
        Just("#[envelope]".to_owned()),
        Just(String::new()),
    ]
}

fn field(named: bool) -> impl Strategy<Value = String> {
    let ty = prop::sample::select(
        &[
            "String",
            "Vec<String>",
            "u64",
            "Option<u64>",
            "T",
            "&'a str",
            "i32",
        ][..],
    );
    (
        attribute(),
        ty,
        prop::sample::select(&["name", "r#type", "a", "b", "candidates"][..]),
    )
        .prop_map(move |(attr, ty, name)| {
            let attr = attr.replace("#[envelope(class = Internal)]", "#[envelope(detail)]");
            if named {
                format!("{attr} {name}: {ty}")
            } else {
                format!("{attr} {ty}")
            }
        })
}

fn variant() -> impl Strategy<Value = String> {
    let name = prop::sample::select(&["A", "B", "HttpError", "Http_Error", "r#Type"][..]);
    let body = prop_oneof![
        Just(String::new()),
        prop::collection::vec(field(false), 0..3).prop_map(|f| format!("({})", f.join(", "))),
        prop::collection::vec(field(true), 0..3).prop_map(|f| format!("{{ {} }}", f.join(", "))),
    ];
    (attribute(), attribute(), name, body)
        .prop_map(|(a1, a2, name, body)| format!("{a1} {a2} {name} {body}"))
}

fn input() -> impl Strategy<Value = String> {
    let kind = prop::sample::select(&["enum", "struct", "union"][..]);
    (
        attribute(),
        kind,
        prop::collection::vec(variant(), 0..4),
        prop::collection::vec(field(true), 0..3),
    )
        .prop_map(|(attr, kind, variants, fields)| match kind {
            "enum" => format!("{attr} enum E<'a, T> {{ {} }}", variants.join(", ")),
            _ => format!("{attr} {kind} E<'a, T> {{ {} }}", fields.join(", ")),
        })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(2000))]

    #[test]
    fn expand_never_panics(source in input()) {
        // About nine in ten generated sources parse as a derive input.
        if let Ok(input) = syn::parse_str::<syn::DeriveInput>(&source) {
            match expand::derive(&input) {
                Ok(tokens) => prop_assert!(!tokens.is_empty()),
                Err(error) => prop_assert!(!error.to_compile_error().to_token_stream().is_empty()),
            }
        }
    }
}

#[test]
fn expands_outside_the_compiler() {
    let input: syn::DeriveInput = syn::parse_quote! {
        enum E {
            #[envelope(class = ObjectNotFound, message = "no {name}")]
            Missing { name: String },
        }
    };
    let tokens = expand::derive(&input).unwrap().to_string();
    assert!(
        tokens.contains("impl :: envelope :: __private :: Envelope for E"),
        "{tokens}"
    );
    // Named placeholders keep the template's text (and span) as written.
    assert!(
        tokens.contains("__envelope :: format ! (\"no {name}\" , name = field_0)"),
        "{tokens}"
    );

    // Positional and raw-identifier placeholders are rewritten to positions.
    let input: syn::DeriveInput = syn::parse_quote! {
        enum E {
            #[envelope(class = InvalidArguments, message = "{1} and {r#type} and {1:?}")]
            Bad(u8, String, #[envelope(detail = "t")] u8),
        }
    };
    let tokens = expand::derive(&input)
        .map(|t| t.to_string())
        .unwrap_or_else(|e| e.to_string());
    assert!(
        tokens.contains("`Bad` has no field named `type`"),
        "{tokens}"
    );
    let input: syn::DeriveInput = syn::parse_quote! {
        enum E {
            #[envelope(class = InvalidArguments, message = "{1} then {0:?} then {1}")]
            Bad(u8, String),
        }
    };
    let tokens = expand::derive(&input).unwrap().to_string();
    assert!(
        tokens.contains("__envelope :: format ! (\"{0} then {1:?} then {0}\" , field_1 , field_0)"),
        "{tokens}"
    );

    // A keyword field written without `r#` in the template is rewritten
    // to a position too (it cannot be a named `format!` argument).
    let input: syn::DeriveInput = syn::parse_quote! {
        enum E {
            #[envelope(class = InvalidArguments, message = "bad {type} in {name}")]
            Bad { r#type: String, name: String },
        }
    };
    let tokens = expand::derive(&input).unwrap().to_string();
    assert!(
        tokens.contains("__envelope :: format ! (\"bad {0} in {1}\" , field_0 , field_1)"),
        "{tokens}"
    );

    let union: syn::DeriveInput = syn::parse_quote!(union U { a: u32 });
    let error = expand::derive(&union).unwrap_err();
    assert_eq!(
        error.to_string(),
        "`Envelope` cannot be derived for a union: use an enum or a struct"
    );
}

/// After an error: the errors, then stub impls of the trait and both
/// `From`s under the user's `crate` path, so uses of the type report
/// nothing more.
#[test]
fn fallback_stubs_every_impl() {
    let input: syn::DeriveInput = syn::parse_quote! {
        #[envelope(crate = "my::envelope", clas = Busy)]
        enum E<T> {
            A(T),
        }
    };
    let error = expand::derive(&input).unwrap_err();
    assert_eq!(
        error.to_string(),
        "unknown envelope attribute `clas`; did you mean `class`?"
    );
    let tokens = fallback::expand(&input, &error).to_string();
    let stubs = [
        "impl < T > my :: envelope :: __private :: Envelope for E < T >",
        "fn error_class (& self) -> my :: envelope :: __private :: ErrorClass { :: core :: unreachable ! () }",
        "fn to_envelope (& self) -> my :: envelope :: __private :: ErrorEnvelope { :: core :: unreachable ! () }",
        "impl < T > :: core :: convert :: From < E < T > > for my :: envelope :: __private :: ErrorEnvelope",
        "impl < T > :: core :: convert :: From < & E < T > > for my :: envelope :: __private :: ErrorEnvelope",
        "my :: envelope :: __private :: integrations ! { impl [< T >] for [E < T >] [] }",
    ];
    assert!(
        tokens.starts_with(":: core :: compile_error ! {"),
        "{tokens}"
    );
    for stub in stubs {
        assert!(tokens.contains(stub), "{stub}\nin\n{tokens}");
    }
}

/// rustc removes configured-out variants before a derive runs; for tools
/// that expand without doing so, each arm and catalog entry of a variant
/// keeps its `#[cfg]`, and such an arm is never merged with another.
#[test]
fn cfg_attributes_stay_on_their_arms() {
    let input: syn::DeriveInput = syn::parse_quote! {
        enum E {
            #[envelope(class = Busy)]
            A,
            #[cfg(any())]
            #[envelope(class = Busy)]
            B,
        }
    };
    let tokens = expand::derive(&input).unwrap().to_string();
    let kept = [
        // Same class, but not merged into `Self :: A { .. } | Self :: B { .. }`.
        "match self { # [cfg (any ())] Self :: B { .. } => __envelope :: ErrorClass :: Busy , Self :: A { .. } => __envelope :: ErrorClass :: Busy , }",
        "# [cfg (any ())] Self :: B { .. } => \"B\"",
        "# [cfg (any ())] Self :: B { .. } => __envelope :: base_generic (__envelope :: ErrorClass :: Busy , \"B\")",
        "# [cfg (any ())] __envelope :: spec_generic (\"B\"",
    ];
    for fragment in kept {
        assert!(tokens.contains(fragment), "{fragment}\nin\n{tokens}");
    }
    assert_eq!(tokens.matches("# [cfg (any ())]").count(), 4, "{tokens}");
}

/// The classes of the class table review: `InteractionRequired` is owned
/// by the user, not the server, so without `message` it shows `Display`;
/// `RuntimeError` may have taken effect, so its conversion applies the
/// retry rule and `retryable = true` needs `idempotent`; a variant that
/// keeps its class's category leaves it to the runtime (`base_default`),
/// and one without steps or a rule to apply is the call alone.
#[test]
fn reviewed_classes_expand() {
    let input: syn::DeriveInput = syn::parse_quote! {
        enum E {
            #[envelope(class = RuntimeError)]
            Failed,
            #[envelope(class = InteractionRequired)]
            SignIn,
            #[envelope(class = InsufficientPrivilege)]
            Denied,
        }
    };
    let tokens = expand::derive(&input).unwrap().to_string();
    let expected = [
        "Self :: Failed { .. } => { let mut envelope = __envelope :: base_default (__envelope :: ErrorClass :: RuntimeError , \"FAILED\" , __envelope :: display (self)) ; __envelope :: settle (& mut envelope , __envelope :: ErrorClass :: RuntimeError . is_retryable () , false) ; envelope }",
        "Self :: SignIn { .. } => __envelope :: base_default (__envelope :: ErrorClass :: InteractionRequired , \"SIGN_IN\" , __envelope :: display (self)) ,",
        "Self :: Denied { .. } => __envelope :: base_default (__envelope :: ErrorClass :: InsufficientPrivilege , \"DENIED\" , __envelope :: display (self)) ,",
    ];
    for fragment in expected {
        assert!(tokens.contains(fragment), "{fragment}\nin\n{tokens}");
    }

    let input: syn::DeriveInput = syn::parse_quote! {
        enum E {
            #[envelope(class = RuntimeError, retryable = true)]
            Failed,
        }
    };
    let error = expand::derive(&input).unwrap_err();
    assert_eq!(
        error.to_string(),
        "`retryable = true` on `Failed`: a `RuntimeError` failure may have taken effect (its default effect is `unknown`), so repeating the call blindly is not safe; add `idempotent` if repeating the operation is harmless, or `effect = nothing` if the call never changes state"
    );
}

#[test]
fn a_missing_class_is_guessed_from_the_name() {
    for (name, class) in [
        ("TableNotFound", "ObjectNotFound"),
        ("NOT_FOUND", "ObjectNotFound"),
        ("DuplicateTitle", "AlreadyExists"),
        ("QueryTimedOut", "Timeout"),
        ("TooManyRequests", "RateLimited"),
        ("DatabaseLocked", "Busy"),
        ("LoginFailed", "Unauthenticated"),
        ("Forbidden", "InsufficientPrivilege"),
        ("ParseError", "SyntaxError"),
        ("ConnectionRefused", "ConnectionFailed"),
        ("Io", "InvalidArguments"),
        ("BadInput", "InvalidArguments"),
    ] {
        assert_eq!(crate::valid::likely_class(name), class, "{name}");
    }
}
