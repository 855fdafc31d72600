//! The README and the guide (`src/guide/*.md`, the chapters of
//! `envelope::guide`) show what each example prints: the `text` block right
//! after a `cargo run ... --example NAME` block must be exactly that
//! example's output today, so the docs cannot drift from the code. Rewrite
//! the blocks with `ENVELOPE_UPDATE_README=1 cargo test -p
//! envelope-test-suite --test readme_outputs`.

use std::path::{Path, PathBuf};
use std::process::Command;

/// The examples whose output the docs show: the `cargo run` line as the
/// docs write it, and the package that holds the example.
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

/// The files that may show an example's output: the README and the
/// guide's chapters, in a stable order.
fn doc_paths() -> Vec<PathBuf> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    let mut chapters: Vec<PathBuf> = std::fs::read_dir(root.join("src/guide"))
        .expect("src/guide is readable")
        .map(|entry| entry.expect("a directory entry").path())
        .filter(|path| path.extension().is_some_and(|ext| ext == "md"))
        .collect();
    chapters.sort();
    let mut paths = vec![root.join("README.md")];
    paths.extend(chapters);
    paths
}

fn opening(command: &str) -> String {
    format!("```sh\n{command}\n```\n\n```text\n")
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
/// `command` as its only line, in `doc`, if `doc` has that block.
fn block_after(doc: &str, command: &str) -> Option<std::ops::Range<usize>> {
    let opening = opening(command);
    let start = doc.find(&opening)? + opening.len();
    let end = start
        + doc[start..]
            .find("```\n")
            .unwrap_or_else(|| panic!("the block after {command:?} is not closed"));
    Some(start..end)
}

#[test]
fn docs_show_what_the_examples_print() {
    let paths = doc_paths();
    let mut docs: Vec<String> = paths
        .iter()
        .map(|path| std::fs::read_to_string(path).expect("a doc file is readable"))
        .collect();
    let mut changed = vec![false; docs.len()];
    let update = std::env::var("ENVELOPE_UPDATE_README").is_ok_and(|v| v == "1");
    let mut stale = Vec::new();
    for (command, package, example) in EXAMPLES {
        let printed = output(package, example);
        let mut shown = 0;
        for (doc, changed) in docs.iter_mut().zip(&mut changed) {
            let Some(range) = block_after(doc, command) else {
                continue;
            };
            shown += 1;
            if doc[range.clone()] != printed {
                stale.push(*example);
                doc.replace_range(range, &printed);
                *changed = true;
            }
        }
        assert!(
            shown > 0,
            "neither README.md nor src/guide/*.md has the block {:?}",
            opening(command)
        );
    }
    if update {
        for ((path, doc), changed) in paths.iter().zip(&docs).zip(&changed) {
            if *changed {
                std::fs::write(path, doc).expect("a doc file is writable");
            }
        }
        return;
    }
    assert!(
        stale.is_empty(),
        "the docs' output of {stale:?} is stale; rewrite it with: \
         ENVELOPE_UPDATE_README=1 cargo test -p envelope-test-suite --test readme_outputs"
    );
}
