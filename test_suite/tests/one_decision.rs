//! The one decision, said once: over every class, every declared
//! behaviour, keyed or not, with and without a suggested tool, near misses,
//! argument problems and a retry hint, the server's MCP result (what a
//! model reads of it) and the host's `model_text` on the first attempt are
//! the same bytes, and the host's move is the move the server's text leads
//! with. The moves each class can give are tabled in the guide
//! (`src/guide/integrations.md`), written from this run:
//! `ENVELOPE_UPDATE_README=1 cargo test -p envelope-test-suite
//! --all-features --test one_decision` rewrites the table.

use std::collections::BTreeSet;

use envelope::host;
use envelope::{
    ArgumentError, ArgumentErrorKind, Attempt, CallBehaviour, CallContext, Envelope, ErrorClass,
    ErrorEnvelope, NextMove,
};

/// The behaviours a tool can declare, as the host reads them from its
/// annotations, each keyed and not.
fn behaviours() -> Vec<(&'static str, CallBehaviour)> {
    let write = CallBehaviour::from_hints(Some(false), Some(false), Some(true));
    let idempotent = CallBehaviour::from_hints(Some(false), Some(true), Some(false));
    let mut all = Vec::new();
    for (name, behaviour) in [
        ("nothing declared", CallBehaviour::default()),
        ("read-only", CallBehaviour::READ),
        ("idempotent", idempotent),
        ("plain write", write),
    ] {
        all.push((name, behaviour));
        all.push((name, behaviour.keyed_if(true)));
    }
    all
}

/// Every failure of `class` the grid makes: with and without a suggested
/// tool, near misses, argument problems and a retry hint.
fn failures(class: ErrorClass) -> Vec<ErrorEnvelope> {
    let mut all = Vec::new();
    for tool in [false, true] {
        for near in [false, true] {
            for problems in [false, true] {
                for hint in [None, Some(1500)] {
                    let mut envelope = ErrorEnvelope::new(class, "the failure");
                    if tool {
                        envelope = envelope.with_suggested_tool("list_items");
                    }
                    if near {
                        envelope = envelope.with_fuzzy_matches(vec!["orders".into()]);
                    }
                    if problems {
                        envelope = envelope.with_argument_errors(vec![
                            ArgumentError::new(ArgumentErrorKind::UnknownField, "/titel")
                                .with_suggestions(vec!["title".into()]),
                        ]);
                    }
                    if let Some(ms) = hint {
                        envelope = envelope.with_retry_after_ms(ms);
                    }
                    all.push(envelope);
                }
            }
        }
    }
    all
}

/// The move's name, for the table.
fn name(next: &NextMove) -> &'static str {
    match next {
        NextMove::AskUser => "AskUser",
        NextMove::FixArguments {
            arguments: Some(_), ..
        } => "FixArguments (corrected call)",
        NextMove::FixArguments { .. } => "FixArguments",
        NextMove::PickNearMiss { .. } => "PickNearMiss",
        NextMove::ChangeCall => "ChangeCall",
        NextMove::Repeat { .. } => "Repeat",
        NextMove::Postpone { .. } => "Postpone",
        NextMove::Check { .. } => "Check",
        NextMove::CallTool { .. } => "CallTool",
        NextMove::Replayed { .. } => "Replayed",
        NextMove::Exhausted { .. } => "Exhausted",
        NextMove::Stop => "Stop",
        _ => "(new move)",
    }
}

/// What a model reads of an MCP result: its text blocks, joined by a
/// newline (as a host shows them).
fn shown(result: &serde_json::Value) -> String {
    result["content"]
        .as_array()
        .unwrap()
        .iter()
        .map(|block| block["text"].as_str().unwrap())
        .collect::<Vec<_>>()
        .join("\n")
}

#[test]
fn the_server_and_the_host_say_the_same() {
    let mut rows = Vec::new();
    let mut checked = 0;
    for &class in ErrorClass::ALL {
        let mut moves = BTreeSet::new();
        for (_, behaviour) in behaviours() {
            for failure in failures(class) {
                // The server: the call context applies the behaviour.
                let call = CallContext::new("add_item")
                    .with_behaviour(behaviour)
                    .with_correlation_id("req-1");
                let sent = call.fail(failure.clone());
                let result = sent.to_mcp_result();
                let server_move = NextMove::of(&sent, &Attempt::default());
                // The host: reads it back and decides on the first attempt.
                let read = host::read_tool_result(&result).expect("a failure");
                assert_eq!(read, sent, "{class:?} {behaviour:?}");
                let next = host::next_move(&read, behaviour, 1);
                match (&next, &server_move) {
                    (NextMove::Repeat { .. }, NextMove::Repeat { .. }) => {}
                    _ => assert_eq!(next, server_move, "{class:?} {behaviour:?} {failure:?}"),
                }
                assert_eq!(
                    host::model_text(&read, &next),
                    shown(&result),
                    "{class:?} {behaviour:?} {failure:?}"
                );
                // A failure of the server's own type, through the `Envelope`
                // trait, says the same: the JSON, then the move's lead.
                assert_eq!(
                    shown(&sent.to_mcp_result()),
                    host::model_text(&sent, &server_move)
                );
                moves.insert(name(&server_move));
                checked += 1;
            }
        }
        rows.push((class, moves));
    }
    assert_eq!(checked, ErrorClass::ALL.len() * 8 * 16);
    check_table(&rows);
}

/// Each class's moves (with and without every optional field, for every
/// declared behaviour) as the guide's table; rewritten with
/// `ENVELOPE_UPDATE_README=1`.
fn check_table(rows: &[(ErrorClass, BTreeSet<&'static str>)]) {
    let mut table = String::from(
        "| class | a person acts | moves (first attempt, any behaviour and fields) |\n|---|---|---|\n",
    );
    for (class, moves) in rows {
        let person = match (class.person_acts(true), class.person_acts(false)) {
            (true, _) => "yes",
            (false, true) => "unless a tool is named",
            (false, false) => "no",
        };
        let moves: Vec<String> = moves.iter().map(|name| format!("`{name}`")).collect();
        table.push_str(&format!(
            "| `{}` | {person} | {} |\n",
            class.as_str(),
            moves.join(", ")
        ));
    }
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/../src/guide/integrations.md");
    let guide = std::fs::read_to_string(path).unwrap();
    let (start, end) = ("<!-- moves: start -->\n", "<!-- moves: end -->");
    let from = guide.find(start).expect("the table's start mark") + start.len();
    let to = guide.find(end).expect("the table's end mark");
    if std::env::var("ENVELOPE_UPDATE_README").is_ok_and(|value| value == "1") {
        let written = format!("{}{table}{}", &guide[..from], &guide[to..]);
        std::fs::write(path, written).unwrap();
        return;
    }
    assert_eq!(
        &guide[from..to],
        table,
        "the guide's table of moves is stale; rewrite it with ENVELOPE_UPDATE_README=1 cargo test -p envelope-test-suite --all-features --test one_decision"
    );
}

/// A keyed call's stored failure sent again: the decision does not ask
/// for the same call again, whatever the failure says of a repeat.
#[test]
fn a_replay_never_asks_for_the_same_key_again() {
    let keyed = CallBehaviour::default().keyed_if(true);
    for &class in ErrorClass::ALL {
        for failure in failures(class) {
            let sent = CallContext::new("add_item")
                .with_behaviour(keyed)
                .fail(failure);
            let replay = Attempt::of(keyed).replayed_if(true);
            let next = NextMove::of(&sent, &replay);
            assert!(!next.is_repeat(), "{class:?}: {next:?}");
            if NextMove::of(&sent, &Attempt::of(keyed)).is_repeat() {
                assert!(matches!(next, NextMove::Replayed { .. }), "{class:?}");
            }
        }
    }
}
