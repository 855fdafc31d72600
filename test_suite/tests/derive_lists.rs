//! The list roles (`fuzzy_matches`, `next_steps`) take every common shape of
//! a list of strings, borrowed or owned.

use std::collections::BTreeSet;

use envelope::Envelope;

#[derive(Debug, Envelope)]
#[envelope(class = ObjectNotFound)]
enum Lists<'a> {
    Slice(#[envelope(fuzzy_matches)] &'a [&'a str]),
    Array(#[envelope(fuzzy_matches)] [&'static str; 2]),
    Optional(#[envelope(fuzzy_matches)] Option<Vec<String>>),
    Set(#[envelope(fuzzy_matches)] BTreeSet<String>),
    #[envelope(next_step = "look again")]
    Steps(#[envelope(next_steps)] Vec<&'static str>),
    BorrowedVec(#[envelope(next_steps)] &'a Vec<String>),
}

impl std::fmt::Display for Lists<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("missing")
    }
}

fn both(err: Lists<'_>) -> (Vec<String>, Vec<String>) {
    let by_ref = err.to_envelope();
    let json = err.to_json_string();
    let owned = err.into_envelope();
    assert_eq!(by_ref, owned);
    assert_eq!(json, owned.to_json_string());
    let owned = owned.into_fields();
    (owned.fuzzy_matches, owned.next_steps)
}

#[test]
fn every_list_shape() {
    let names = ["EMP", "DEPT"];
    assert_eq!(both(Lists::Slice(&names)).0, ["EMP", "DEPT"]);
    assert_eq!(both(Lists::Array(["A", "B"])).0, ["A", "B"]);
    assert_eq!(both(Lists::Optional(Some(vec!["X".into()]))).0, ["X"]);
    assert!(both(Lists::Optional(None)).0.is_empty());
    let set: BTreeSet<String> = ["b".to_owned(), "a".to_owned()].into();
    assert_eq!(both(Lists::Set(set)).0, ["a", "b"]);
    assert_eq!(
        both(Lists::Steps(vec!["then this"])).1,
        ["look again", "then this"]
    );
    let steps = vec!["first".to_owned()];
    assert_eq!(both(Lists::BorrowedVec(&steps)).1, ["first"]);
}
