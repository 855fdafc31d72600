//! Allocation counts of the derived code, with a counting global allocator:
//! the accessors never allocate, and the conversions make exactly as many
//! allocations as the hand-written `match` of `bench/benches/common/mod.rs`
//! (the style of `oraclemcp-error`'s conversion), keeping a moved `Vec`'s
//! buffer.
//!
//! Counting is per thread, so tests running in parallel do not see each
//! other's allocations.

#[path = "../bench/benches/common/mod.rs"]
mod common;

use std::alloc::{GlobalAlloc, Layout, System};
use std::cell::Cell;

use common::{DbError, object_not_found, samples};
use envelope::Envelope;

struct Counting;

thread_local! {
    static COUNTING: Cell<bool> = const { Cell::new(false) };
    static COUNT: Cell<usize> = const { Cell::new(0) };
}

fn note() {
    // `try_with`: the thread-locals may already be gone while a thread exits.
    let _ = COUNTING.try_with(|on| {
        if on.get() {
            let _ = COUNT.try_with(|count| count.set(count.get() + 1));
        }
    });
}

// SAFETY: every call is forwarded unchanged to the system allocator; the
// counter only touches const-initialized thread-locals, which never allocate.
unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        note();
        unsafe { System.alloc(layout) }
    }

    unsafe fn alloc_zeroed(&self, layout: Layout) -> *mut u8 {
        note();
        unsafe { System.alloc_zeroed(layout) }
    }

    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        // A reallocation is an allocation too: growing a string counts.
        note();
        unsafe { System.realloc(ptr, layout, new_size) }
    }

    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        unsafe { System.dealloc(ptr, layout) }
    }
}

#[global_allocator]
static ALLOCATOR: Counting = Counting;

/// Runs `f` and returns its result with the allocations it made; the result
/// is dropped by the caller, outside the count.
fn allocations<R>(f: impl FnOnce() -> R) -> (R, usize) {
    COUNT.with(|count| count.set(0));
    COUNTING.with(|on| on.set(true));
    let result = f();
    COUNTING.with(|on| on.set(false));
    (result, COUNT.with(Cell::get))
}

#[test]
fn the_counter_counts() {
    let (s, n) = allocations(|| String::from("x"));
    assert_eq!((s.as_str(), n), ("x", 1));
    let (_, n) = allocations(|| ());
    assert_eq!(n, 0);
}

#[test]
fn accessors_never_allocate() {
    let errors = samples();
    let ((), n) = allocations(|| {
        for error in &errors {
            std::hint::black_box(error.error_class());
            std::hint::black_box(error.user_category());
            std::hint::black_box(error.code());
            std::hint::black_box(DbError::catalog());
        }
    });
    assert_eq!(n, 0);
}

/// Allocations of `into_envelope` per variant, in `samples()` order: one
/// for the envelope's box, one per rendered string (message, static tool,
/// help URL, each next step)
/// plus one for a non-empty `next_steps` vector (which holds the check step
/// of a class whose call may have taken effect), plus one where `format!`'s
/// capacity guess falls short and the string grows; moved fuzzy matches
/// cost nothing. The hand-written `match` makes the same number.
const INTO_ENVELOPE: [usize; 12] = [
    5, // ObjectNotFound: box, message, tool, step, steps vector; fuzzy moved
    3, // ColumnNotFound: box, message, tool; fuzzy moved
    4, // Syntax: box, message, step, steps vector
    6, // InvalidArgument: box, message (grows once), two steps, steps vector
    2, // AlreadyExists: box, message from Display
    4, // LeaseRequired: box, message, step, steps vector
    3, // Login: box, message, tool
    2, // Privilege: box, message
    4, // Busy: box, generic message, step, steps vector
    5, // Timeout: box, message, check step, step, steps vector
    4, // Connection: box, generic message, check step, steps vector
    5, // Internal: box, generic message, help URL, check step, steps vector
];

#[test]
fn into_envelope_allocates_as_the_hand_written_match() {
    for (error, expected) in samples().into_iter().zip(INTO_ENVELOPE) {
        let name = format!("{error:?}");
        let copy = error.clone();
        let (hand, by_hand) = allocations(|| copy.hand_into_envelope());
        let (envelope, n) = allocations(|| error.into_envelope());
        assert_eq!((n, by_hand), (expected, expected), "{name}");
        assert_eq!(envelope, hand, "{name}");
    }
}

#[test]
fn to_envelope_allocates_as_the_hand_written_match() {
    for error in samples() {
        let name = format!("{error:?}");
        let (hand, by_hand) = allocations(|| error.hand_to_envelope());
        let (envelope, n) = allocations(|| error.to_envelope());
        assert_eq!(n, by_hand, "{name}");
        assert_eq!(envelope, hand, "{name}");
    }
}

#[test]
fn into_envelope_reuses_the_moved_vec() {
    let error = object_not_found();
    let DbError::ObjectNotFound { candidates, .. } = &error else {
        unreachable!()
    };
    let buffer = candidates.as_ptr();
    let first = candidates[0].as_ptr();
    let (envelope, n) = allocations(|| error.into_envelope());
    assert_eq!(n, 5);
    assert_eq!(envelope.fuzzy_matches, ["EMPLOYEES", "EMPLOYEE"]);
    assert_eq!(envelope.fuzzy_matches.as_ptr(), buffer);
    assert_eq!(envelope.fuzzy_matches[0].as_ptr(), first);
}

#[test]
fn to_envelope_copies_each_string_once() {
    let error = object_not_found();
    // box, message, tool, fuzzy vector and its two strings, step, steps
    // vector
    let (envelope, n) = allocations(|| error.to_envelope());
    assert_eq!(n, 8);
    assert_eq!(envelope.fuzzy_matches.capacity(), 2);
    assert_eq!(envelope, error.hand_to_envelope());
}

/// A tool result is the envelope plus its JSON: no more allocations than
/// the hand-written conversion followed by its `to_tool_result`.
#[test]
fn tool_results_allocate_as_the_hand_written_path() {
    for error in samples() {
        let name = format!("{error:?}");
        let (hand, by_hand) = allocations(|| error.hand_to_envelope().to_tool_result("call_42"));
        let (result, n) = allocations(|| error.to_tool_result("call_42"));
        assert_eq!(n, by_hand, "{name}");
        assert_eq!(result, hand, "{name}");
    }
}

/// The accessors of std errors and of a boxed `dyn Error` (whose chain is
/// walked on every call) do not allocate either.
#[test]
fn std_and_boxed_accessors_never_allocate() {
    use envelope::ErrorEnvelope;
    use std::error::Error;
    use std::io;

    let boxed: Vec<Box<dyn Error + Send + Sync>> = vec![
        Box::new(io::Error::other("custom text")),
        Box::new(ErrorEnvelope::new(
            envelope::ErrorClass::RateLimited,
            "slow down",
        )),
        Box::new(std::fmt::Error),
    ];
    let io = io::Error::from(io::ErrorKind::NotFound);
    let json = serde_json::from_str::<u8>("x").unwrap_err();
    let ((), n) = allocations(|| {
        for error in &boxed {
            std::hint::black_box(error.error_class());
            std::hint::black_box(error.user_category());
            std::hint::black_box(error.code());
        }
        std::hint::black_box((io.error_class(), io.code(), json.error_class(), json.code()));
    });
    assert_eq!(n, 0);
}

/// Next steps from a template and from a list field of each shape, for a
/// class whose call may have taken effect (so the rule puts a check step
/// first): the vector is sized once for all of them.
#[derive(Debug, envelope::Envelope)]
enum Stepped {
    #[envelope(class = Timeout, message = "slow", next_step = "narrow the query")]
    Array {
        #[envelope(next_steps)]
        more: [&'static str; 2],
    },
    #[envelope(class = Timeout, message = "slow", next_step = "narrow the query")]
    Optional {
        #[envelope(next_steps)]
        more: Option<Vec<String>>,
    },
}

#[test]
fn next_steps_are_sized_once() {
    let steps = [
        "the call may have taken effect: check its result before repeating it",
        "narrow the query",
        "add a filter",
        "retry later",
    ];
    let errors = [
        Stepped::Array {
            more: ["add a filter", "retry later"],
        },
        Stepped::Optional {
            more: Some(vec!["add a filter".into(), "retry later".into()]),
        },
    ];
    for error in errors {
        let name = format!("{error:?}");
        // box, message, steps vector, template, two copied steps, check
        // step
        let (envelope, n) = allocations(|| error.to_envelope());
        assert_eq!(n, 7, "{name}");
        assert_eq!(envelope.next_steps, steps, "{name}");
        assert_eq!(envelope.next_steps.capacity(), 4, "{name}");
        let (envelope, n) = allocations(|| error.into_envelope());
        assert_eq!(n, 7, "{name}");
        assert_eq!(envelope.next_steps, steps, "{name}");
    }
}

/// A class whose failed call changed nothing gets no check step, so its
/// steps vector has no spare room for one.
#[derive(Debug, envelope::Envelope)]
#[envelope(
    class = ObjectNotFound,
    message = "missing",
    next_step = "list the tables",
    next_step = "check the name"
)]
struct NoCheckStep;

#[test]
fn next_steps_without_a_check_step_have_no_spare_room() {
    let envelope = NoCheckStep.to_envelope();
    assert_eq!(envelope.next_steps, ["list the tables", "check the name"]);
    assert_eq!(envelope.next_steps.capacity(), 2);
}

/// A variant whose only moved field is `next_steps`, and one whose only
/// moved field is `suggested_tool`: `into_envelope` moves each buffer.
#[derive(Debug, envelope::Envelope)]
enum OneMovedField {
    #[envelope(class = ObjectNotFound, message = "missing")]
    Steps {
        #[envelope(next_steps)]
        steps: Vec<String>,
    },
    #[envelope(class = ObjectNotFound, message = "missing")]
    Tool {
        #[envelope(suggested_tool)]
        tool: String,
    },
}

#[test]
fn into_envelope_moves_a_lone_steps_or_tool_field() {
    let steps = vec![String::from("list the tables")];
    let (buffer, first) = (steps.as_ptr(), steps[0].as_ptr());
    let (envelope, n) = allocations(|| OneMovedField::Steps { steps }.into_envelope());
    // the box and the message only
    assert_eq!(n, 2);
    assert_eq!(envelope.next_steps.as_ptr(), buffer);
    assert_eq!(envelope.next_steps[0].as_ptr(), first);

    let tool = String::from("list_tables");
    let text = tool.as_ptr();
    let (envelope, n) = allocations(|| OneMovedField::Tool { tool }.into_envelope());
    assert_eq!(n, 2);
    assert_eq!(
        envelope.suggested_tool.as_deref().map(str::as_ptr),
        Some(text)
    );
}
