//! Derived code against the hand-written `match` it replaces, and the
//! derived tool result (serde straight from the envelope) against the
//! seed's `Value` path. Run with
//! `cargo bench`; `scripts/bench_ratios.py` turns one run's output into the
//! ratio table of BENCHMARKS.md.
//!
//! Every group has a `derived` entry and the entries it is compared with;
//! each entry converts the same errors (`common::samples()`, one of each of
//! the twelve variants, or `common::object_not_found()`), and
//! `test_suite/tests/bench_parity.rs` checks that the compared paths produce the same
//! envelope and the same bytes.

use divan::{Bencher, black_box};
use envelope::Envelope;

mod common;

use common::{DbError, object_not_found, samples};

fn main() {
    divan::main();
}

// Every benchmark runs 400 samples of 64 iterations: enough iterations per
// sample that the timer's resolution (about 20 ns here) is below 1% of the
// batch conversions.

/// `into_envelope` of all twelve variants (owned fields move).
mod into_envelope {
    use super::*;

    #[divan::bench(sample_count = 400, sample_size = 64)]
    fn derived(bencher: Bencher) {
        bencher
            .with_inputs(samples)
            .bench_values(|errors| errors.map(Envelope::into_envelope));
    }

    #[divan::bench(sample_count = 400, sample_size = 64)]
    fn hand_written(bencher: Bencher) {
        bencher
            .with_inputs(samples)
            .bench_values(|errors| errors.map(DbError::hand_into_envelope));
    }
}

/// `to_envelope` of all twelve variants (by reference: strings are copied).
mod to_envelope {
    use super::*;

    #[divan::bench(sample_count = 400, sample_size = 64)]
    fn derived(bencher: Bencher) {
        bencher
            .with_inputs(samples)
            .bench_refs(|errors| errors.each_ref().map(Envelope::to_envelope));
    }

    #[divan::bench(sample_count = 400, sample_size = 64)]
    fn hand_written(bencher: Bencher) {
        bencher
            .with_inputs(samples)
            .bench_refs(|errors| errors.each_ref().map(DbError::hand_to_envelope));
    }
}

/// `to_tool_result_json` (the seed's JSON content) of the object-not-found
/// error with two near-misses. Every entry starts from an owned error and
/// drops it, as a tool would.
mod to_tool_result {
    use super::*;

    /// The derive's path: `to_envelope`, then serde's `to_string`.
    #[divan::bench(sample_count = 400, sample_size = 64)]
    fn derived(bencher: Bencher) {
        bencher
            .with_inputs(object_not_found)
            .bench_values(|error| error.to_tool_result_json("call_42"));
    }

    /// The seed's path: hand-written `into_envelope`, `to_json()` into a
    /// `Value`, `to_string()`.
    #[divan::bench(sample_count = 400, sample_size = 64)]
    fn seed(bencher: Bencher) {
        bencher
            .with_inputs(object_not_found)
            .bench_values(|error| common::seed_tool_result(error, "call_42"));
    }

    /// Plain direct serde: owned envelope, `serde_json::to_string`.
    #[divan::bench(sample_count = 400, sample_size = 64)]
    fn serde_direct(bencher: Bencher) {
        bencher.with_inputs(object_not_found).bench_values(|error| {
            let envelope = error.into_envelope();
            envelope::ToolResult {
                tool_call_id: "call_42".to_owned(),
                content: serde_json::to_string(&envelope).unwrap(),
                is_error: true,
                error_category: Some(envelope.user_category()),
            }
        });
    }

    /// All twelve variants through the derive's path.
    #[divan::bench(sample_count = 400, sample_size = 64)]
    fn derived_all(bencher: Bencher) {
        bencher
            .with_inputs(samples)
            .bench_values(|errors| errors.map(|error| error.to_tool_result_json("call_42")));
    }

    /// All twelve variants through the seed's path.
    #[divan::bench(sample_count = 400, sample_size = 64)]
    fn seed_all(bencher: Bencher) {
        bencher
            .with_inputs(samples)
            .bench_values(|errors| errors.map(|error| common::seed_tool_result(error, "call_42")));
    }
}

/// The envelope's JSON text of the object-not-found error.
mod to_json_string {
    use super::*;

    /// `Envelope::to_json_string`: `to_envelope`, then serde's `to_string`.
    #[divan::bench(sample_count = 400, sample_size = 64)]
    fn derived(bencher: Bencher) {
        bencher
            .with_inputs(object_not_found)
            .bench_values(|error| Envelope::to_json_string(&error));
    }

    /// The seed's path: `into_envelope`, `to_json()`, `to_string()`.
    #[divan::bench(sample_count = 400, sample_size = 64)]
    fn seed(bencher: Bencher) {
        bencher
            .with_inputs(object_not_found)
            .bench_values(common::seed_json_string);
    }

    /// Plain direct serde: owned envelope, `serde_json::to_string`.
    #[divan::bench(sample_count = 400, sample_size = 64)]
    fn serde_direct(bencher: Bencher) {
        bencher
            .with_inputs(object_not_found)
            .bench_values(|error| common::serde_json_string(&error));
    }
}

/// `error_class()` over all twelve variants, one call each.
mod error_class {
    use super::*;

    #[divan::bench(sample_count = 400, sample_size = 64)]
    fn derived(bencher: Bencher) {
        let errors = samples();
        bencher.bench_local(|| {
            for error in black_box(&errors) {
                black_box(error.error_class());
            }
        });
    }

    #[divan::bench(sample_count = 400, sample_size = 64)]
    fn hand_written(bencher: Bencher) {
        let errors = samples();
        bencher.bench_local(|| {
            for error in black_box(&errors) {
                black_box(error.hand_error_class());
            }
        });
    }
}

/// `code()` over all twelve variants, one call each.
mod code {
    use super::*;

    #[divan::bench(sample_count = 400, sample_size = 64)]
    fn derived(bencher: Bencher) {
        let errors = samples();
        bencher.bench_local(|| {
            for error in black_box(&errors) {
                black_box(error.code());
            }
        });
    }

    #[divan::bench(sample_count = 400, sample_size = 64)]
    fn hand_written(bencher: Bencher) {
        let errors = samples();
        bencher.bench_local(|| {
            for error in black_box(&errors) {
                black_box(error.hand_code());
            }
        });
    }
}
