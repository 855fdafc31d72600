//! Compile-fail cases: every attribute mistake is a precise compile error
//! with a fix in its message. Pass cases: hygiene in hostile crates.

#[test]
fn ui() {
    let t = trybuild::TestCases::new();
    t.compile_fail("tests/ui/*.rs");
    t.pass("tests/ui/pass/*.rs");
}
