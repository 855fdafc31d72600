//! Code the guide shows from an example rather than as a doctest (a host
//! that spawns a child process) is the example's own, word for word: the
//! region between its `// guide: NAME start` and `// guide: NAME end`
//! lines is a `rust,ignore` block of the guide's chapter. The example is
//! compiled by `cargo test`. The chapters whose code needs the suite's
//! dependencies are doctests of the suite's library (`src/lib.rs`).

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
