//! The README shows what each example prints: the `text` block right after
//! a `cargo run ... --example NAME` block must be exactly that example's
//! output today, so the README cannot drift from the code. Rewrite the
//! blocks with `ENVELOPE_UPDATE_README=1 cargo test -p envelope-test-suite
//! --test readme_outputs`.

use std::path::{Path, PathBuf};
use std::process::Command;

/// The examples whose output the README shows: the `cargo run` line as the
/// README writes it, and the package that holds the example.
const EXAMPLES: &[(&str, &str, &str)] = &[
    (
        "cargo run --example quickstart",
        "agent-envelope",
        "quickstart",
    ),
    (
        "cargo run -p envelope-test-suite --example oracle_mcp",
        "envelope-test-suite",
        "oracle_mcp",
    ),
    (
        "cargo run -p envelope-test-suite --example code_mode",
        "envelope-test-suite",
        "code_mode",
    ),
    (
        "cargo run -p envelope-test-suite --example chat_tools",
        "envelope-test-suite",
        "chat_tools",
    ),
];

fn readme_path() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../README.md")
}

/// What the example prints, run as the README says (after `cargo test`
/// built it, this only runs it).
fn output(package: &str, example: &str) -> String {
    let output = Command::new(env!("CARGO"))
        .current_dir(Path::new(env!("CARGO_MANIFEST_DIR")).join(".."))
        .args(["run", "--quiet", "-p", package, "--example", example])
        .output()
        .expect("cargo starts");
    assert!(
        output.status.success(),
        "`cargo run --example {example}` failed:\n{}",
        String::from_utf8_lossy(&output.stderr)
    );
    String::from_utf8(output.stdout).expect("the example prints UTF-8")
}

/// The byte range of the `text` block that follows the `sh` block holding
/// `command` as its first line.
fn block_after(readme: &str, command: &str) -> std::ops::Range<usize> {
    let opening = format!("```sh\n{command}\n```\n\n```text\n");
    let start = readme
        .find(&opening)
        .unwrap_or_else(|| panic!("README.md has no block {opening:?}"))
        + opening.len();
    let end = start
        + readme[start..]
            .find("```\n")
            .unwrap_or_else(|| panic!("the block after {command:?} is not closed"));
    start..end
}

#[test]
fn readme_shows_what_the_examples_print() {
    let path = readme_path();
    let mut readme = std::fs::read_to_string(&path).expect("README.md is readable");
    let update = std::env::var("ENVELOPE_UPDATE_README").is_ok_and(|v| v == "1");
    let mut stale = Vec::new();
    for (command, package, example) in EXAMPLES {
        let printed = output(package, example);
        let range = block_after(&readme, command);
        if readme[range.clone()] != printed {
            stale.push(*example);
            readme.replace_range(range, &printed);
        }
    }
    if update {
        std::fs::write(&path, &readme).expect("README.md is writable");
        return;
    }
    assert!(
        stale.is_empty(),
        "the README's output of {stale:?} is stale; rewrite it with: \
         ENVELOPE_UPDATE_README=1 cargo test -p envelope-test-suite --test readme_outputs"
    );
}
