//! The test suite's trybuild cases, checked again at the unit level: every
//! compile-fail case whose `.stderr` holds only the derive's own errors
//! gives exactly those messages, at exactly those lines and columns, when
//! its derive inputs are expanded here; every pass case expands. This takes
//! a second where trybuild takes minutes, so a mutation run of the derive
//! sees the diagnostics too. The `.stderr` files stay the one source of the
//! expected text.

use std::fs;
use std::path::{Path, PathBuf};

use quote::ToTokens;
use syn::punctuated::Punctuated;

use crate::expand;

/// `test_suite/ui/tests/ui`, beside this crate in the workspace.
fn ui_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../test_suite/ui/tests/ui")
}

/// The `.rs` files of `dir`, sorted by name.
fn cases(dir: &Path) -> Vec<PathBuf> {
    let mut cases: Vec<PathBuf> = fs::read_dir(dir)
        .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
        .map(|entry| entry.expect("a directory entry").path())
        .filter(|path| path.extension().is_some_and(|ext| ext == "rs"))
        .collect();
    cases.sort();
    cases
}

/// Whether `attr` is a `derive` listing `Envelope` (by any path).
fn derives_envelope(attr: &syn::Attribute) -> bool {
    attr.path().is_ident("derive")
        && attr
            .parse_args_with(Punctuated::<syn::Path, syn::Token![,]>::parse_terminated)
            .expect("a derive list")
            .iter()
            .any(|path| path.segments.last().is_some_and(|s| s.ident == "Envelope"))
}

/// Every item of `items` (and of the modules among them) that derives
/// `Envelope`, as the derive receives it.
fn derive_inputs(items: &[syn::Item], found: &mut Vec<syn::DeriveInput>) {
    for item in items {
        let attrs = match item {
            syn::Item::Enum(item) => &item.attrs,
            syn::Item::Struct(item) => &item.attrs,
            syn::Item::Union(item) => &item.attrs,
            syn::Item::Mod(module) => {
                if let Some((_, items)) = &module.content {
                    derive_inputs(items, found);
                }
                continue;
            }
            _ => continue,
        };
        if attrs.iter().any(derives_envelope) {
            found.push(syn::parse2(item.to_token_stream()).expect("a derive input"));
        }
    }
}

/// The derive's errors for every input of the case at `path`, each as
/// `line:column: message` (1-based, as rustc prints them).
fn expand_case(path: &Path) -> Vec<String> {
    let source = fs::read_to_string(path).expect("a readable case");
    let file = syn::parse_file(&source).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    let mut inputs = Vec::new();
    derive_inputs(&file.items, &mut inputs);
    assert!(!inputs.is_empty(), "{}: no derive", path.display());
    let mut errors = Vec::new();
    for input in &inputs {
        if let Err(error) = expand::derive(input) {
            for error in error {
                let start = error.span().start();
                errors.push(format!("{}:{}: {error}", start.line, start.column + 1));
            }
        }
    }
    errors
}

/// The errors of a `.stderr` as `line:column: message`; `None` when rustc
/// reports an error of its own (`error[E...]`), which the derive cannot.
fn expected_errors(stderr: &str, case: &str) -> Option<Vec<String>> {
    let mut errors = Vec::new();
    let mut lines = stderr.lines();
    while let Some(line) = lines.next() {
        if line.starts_with("error[") {
            return None;
        }
        let Some(message) = line.strip_prefix("error: ") else {
            continue;
        };
        let mut message = message.to_owned();
        let at = loop {
            let next = lines.next().expect("a location after the message");
            match next.trim_start().strip_prefix("--> ") {
                Some(at) => break at,
                None => {
                    message.push('\n');
                    message.push_str(next);
                }
            }
        };
        let position = at
            .strip_prefix(&format!("tests/ui/{case}:"))
            .unwrap_or_else(|| panic!("{case}: an error in another file: {at}"));
        errors.push(format!("{position}: {message}"));
    }
    Some(errors)
}

/// Cases whose error the compiler reports in the expanded code, not the
/// derive: the derive expands them, and `format_args!` points into the
/// template at the bad format spec.
const REPORTED_BY_THE_COMPILER: &[&str] = &["template-bad-format-spec.rs"];

#[test]
fn compile_fail_cases_give_their_errors() {
    let dir = ui_dir();
    let mut checked = 0;
    let mut failures = Vec::new();
    for path in cases(&dir) {
        let case = path.file_name().unwrap().to_string_lossy().into_owned();
        let stderr = fs::read_to_string(path.with_extension("stderr"))
            .unwrap_or_else(|e| panic!("{case}: its .stderr: {e}"));
        let Some(mut expected) = expected_errors(&stderr, &case) else {
            continue;
        };
        let mut found = expand_case(&path);
        if REPORTED_BY_THE_COMPILER.contains(&case.as_str()) {
            assert_eq!(found, Vec::<String>::new(), "{case}");
            continue;
        }
        // Compared sorted: the order (the attributes' errors, then
        // validation's) is pinned by the trybuild run, not here.
        expected.sort();
        found.sort();
        if found != expected {
            failures.push(format!(
                "{case}:\n  found    {found:?}\n  expected {expected:?}"
            ));
        }
        checked += 1;
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
    // Every case but those with rustc's own errors (trait bounds, types)
    // and those reported by the compiler in the expanded code.
    assert_eq!(checked, 83);
}

#[test]
fn pass_cases_expand() {
    for path in cases(&ui_dir().join("pass")) {
        assert_eq!(
            expand_case(&path),
            Vec::<String>::new(),
            "{}",
            path.display()
        );
    }
}
