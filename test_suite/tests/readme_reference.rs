//! The README's copy of the derive's reference: the block between the
//! `reference` markers in `README.md` must be exactly the text of
//! `envelope-derive/REFERENCE.md`, which is also the rustdoc of
//! `#[derive(Envelope)]` (through `include_str!`), so docs.rs and the README
//! say the same and neither can go stale. Its examples run as doctests of
//! both crates (`cargo test -p envelope-derive --doc`, and `ReadmeDoctests`
//! in `cargo test -p agent-envelope --doc`). After editing `REFERENCE.md`,
//! refresh the README with
//! `ENVELOPE_UPDATE_README=1 cargo test -p envelope-test-suite --test readme_reference`.

use std::path::Path;

const START: &str = "<!-- reference:start (generated from envelope-derive/REFERENCE.md by test_suite/tests/readme_reference.rs) -->\n";
const END: &str = "<!-- reference:end -->";

#[test]
fn readme_reference_is_current() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    let readme_path = root.join("README.md");
    let reference_path = root.join("envelope-derive").join("REFERENCE.md");
    let readme = std::fs::read_to_string(&readme_path).expect("README.md is readable");
    let reference =
        std::fs::read_to_string(&reference_path).expect("envelope-derive/REFERENCE.md is readable");
    assert!(
        reference.ends_with('\n'),
        "REFERENCE.md must end with a newline, so the end marker starts a line"
    );

    let start = readme
        .find(START)
        .unwrap_or_else(|| panic!("README.md lacks the line {START:?}"))
        + START.len();
    let end = start
        + readme[start..]
            .find(END)
            .unwrap_or_else(|| panic!("README.md lacks {END:?} after the start marker"));
    if readme[start..end] == reference {
        return;
    }
    if std::env::var("ENVELOPE_UPDATE_README").is_ok_and(|v| v == "1") {
        let updated = format!("{}{reference}{}", &readme[..start], &readme[end..]);
        std::fs::write(&readme_path, updated).expect("README.md is writable");
        return;
    }
    panic!(
        "the README's reference block differs from envelope-derive/REFERENCE.md; \
         rewrite it with: ENVELOPE_UPDATE_README=1 cargo test -p envelope-test-suite --test readme_reference"
    );
}
