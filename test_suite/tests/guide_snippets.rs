//! Code the guide shows from an example or a test rather than as a
//! doctest (it needs a child process, or dependencies the facade's
//! doctests do not have) is that file's own, word for word: the region
//! between its `// guide: NAME start` and `// guide: NAME end` lines
//! (moved left by its indentation) is a `rust,ignore` block of the
//! guide's chapter. The file is compiled, and run, by `cargo test`.

/// The lines of `source` between the markers of `name`.
fn region<'a>(source: &'a str, name: &str) -> &'a str {
    let start = format!("// guide: {name} start\n");
    let end = format!("// guide: {name} end");
    let from = source.find(&start).expect("the start marker") + start.len();
    let to = source.find(&end).expect("the end marker");
    &source[from..to]
}

#[test]
fn the_child_process_host_is_the_examples() {
    let root = concat!(env!("CARGO_MANIFEST_DIR"), "/..");
    let example =
        std::fs::read_to_string(format!("{root}/test_suite/examples/child_host.rs")).unwrap();
    let guide = std::fs::read_to_string(format!("{root}/src/guide/integrations.md")).unwrap();
    let block = format!("```rust,ignore\n{}```", region(&example, "child host"));
    assert!(
        guide.contains(&block),
        "src/guide/integrations.md's child-process host differs from test_suite/examples/child_host.rs; copy the example's region into the guide"
    );
}

/// `region`, its lines moved left by the indentation they share, without
/// the blank line before the end marker's indentation.
fn dedented(region: &str) -> String {
    let lines: Vec<&str> = region.trim_end().lines().collect();
    let indent = lines
        .iter()
        .filter(|line| !line.trim().is_empty())
        .map(|line| line.len() - line.trim_start().len())
        .min()
        .unwrap_or(0);
    lines
        .iter()
        .map(|line| line.get(indent..).unwrap_or("").to_owned() + "\n")
        .collect()
}

#[test]
fn the_exactly_once_snippets_are_the_kill_tests() {
    let root = concat!(env!("CARGO_MANIFEST_DIR"), "/..");
    let test =
        std::fs::read_to_string(format!("{root}/test_suite/tests/exactly_once_kill.rs")).unwrap();
    let guide = std::fs::read_to_string(format!("{root}/src/guide/exactly_once.md")).unwrap();
    for name in [
        "record_in sqlite",
        "record_in postgres",
        "record_in idempotency",
        "record_in keys",
    ] {
        let block = format!("```rust,ignore\n{}```", dedented(region(&test, name)));
        assert!(
            guide.contains(&block),
            "src/guide/exactly_once.md's {name:?} differs from test_suite/tests/exactly_once_kill.rs; copy the test's region into the guide"
        );
    }
    let client =
        std::fs::read_to_string(format!("{root}/test_suite/tests/cases/keyed.rs")).unwrap();
    let block = format!(
        "```rust,ignore\n{}```",
        dedented(region(&client, "client key"))
    );
    assert!(
        guide.contains(&block),
        "src/guide/exactly_once.md's client key differs from test_suite/tests/cases/keyed.rs; copy its region into the guide"
    );
}
