//! A `tracing` subscriber for the tests of the log line and the span: it
//! keeps each event's level and fields, and each span's fields (those it
//! opened with and those recorded later), as `name=value` text (`Debug`
//! text for the `?` fields, as written for `str` ones).

use std::fmt;
use std::sync::{Arc, Mutex};

use tracing::field::{Field, Visit};
use tracing::span::{Attributes, Id, Record};
use tracing::{Event, Level, Metadata, Subscriber};

/// One event: its level and its fields.
pub(crate) type Line = (Level, Vec<String>);

/// What was seen: the events, and the fields of each span by its id.
#[derive(Clone, Default)]
struct Seen {
    lines: Arc<Mutex<Vec<Line>>>,
    spans: Arc<Mutex<Vec<Vec<String>>>>,
}

struct Fields<'a>(&'a mut Vec<String>);

impl Visit for Fields<'_> {
    fn record_str(&mut self, field: &Field, value: &str) {
        self.0.push(format!("{}={value}", field.name()));
    }

    fn record_debug(&mut self, field: &Field, value: &dyn fmt::Debug) {
        self.0.push(format!("{}={value:?}", field.name()));
    }

    fn record_bool(&mut self, field: &Field, value: bool) {
        self.0.push(format!("{}={value}", field.name()));
    }
}

impl Subscriber for Seen {
    fn enabled(&self, _: &Metadata<'_>) -> bool {
        true
    }
    fn new_span(&self, attributes: &Attributes<'_>) -> Id {
        let mut fields = Vec::new();
        attributes.record(&mut Fields(&mut fields));
        let mut spans = self.spans.lock().unwrap();
        spans.push(fields);
        Id::from_u64(spans.len() as u64)
    }
    fn record(&self, id: &Id, values: &Record<'_>) {
        let mut spans = self.spans.lock().unwrap();
        let index = usize::try_from(id.into_u64()).unwrap() - 1;
        values.record(&mut Fields(&mut spans[index]));
    }
    fn record_follows_from(&self, _: &Id, _: &Id) {}
    fn event(&self, event: &Event<'_>) {
        let mut fields = Vec::new();
        event.record(&mut Fields(&mut fields));
        self.lines
            .lock()
            .unwrap()
            .push((*event.metadata().level(), fields));
    }
    fn enter(&self, _: &Id) {}
    fn exit(&self, _: &Id) {}
}

/// The events logged while `f` runs.
pub(crate) fn lines(f: impl FnOnce()) -> Vec<Line> {
    let seen = Seen::default();
    tracing::subscriber::with_default(seen.clone(), f);
    seen.lines.lock().unwrap().clone()
}

/// The fields of the spans opened while `f` runs, in the order they were
/// opened.
pub(crate) fn spans(f: impl FnOnce()) -> Vec<Vec<String>> {
    let seen = Seen::default();
    tracing::subscriber::with_default(seen.clone(), f);
    seen.spans.lock().unwrap().clone()
}
