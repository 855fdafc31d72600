//! The `agent_host` example's transcript, whole: a read repeated by the
//! retry loop after the hinted delay, a misspelled argument fixed from
//! `argument_errors`, a near miss picked, a write whose effect is unknown
//! not repeated. The clock is paused, so the waits take no time.

#[path = "../examples/agent_host.rs"]
#[allow(dead_code)] // its `main`
mod agent_host;

#[tokio::test(start_paused = true)]
async fn transcript() {
    let mut out = Vec::new();
    agent_host::run(&mut out).await.unwrap();
    let transcript = String::from_utf8(out).unwrap();
    // With `jsonschema` (as `--all-features` builds it) the server lists
    // every problem of the misspelled call; without it, serde's first, so
    // that failure's JSON differs too: the JSON lines are not compared.
    let expected = include_str!("agent_host.txt");
    #[cfg(not(feature = "jsonschema"))]
    let (transcript, expected) = {
        let texts = |text: &str| {
            text.lines()
                .map(|line| match line.split_once(r#"{"isError""#) {
                    Some((before, _)) => before.to_owned(),
                    None => line.to_owned(),
                })
                .filter(|line| line != "- /table is missing: add it")
                .collect::<Vec<_>>()
                .join("\n")
        };
        (texts(&transcript), texts(expected))
    };
    assert_eq!(transcript, expected, "\n{transcript}");
}
