//! tokio 1 (feature `tokio`): [`Envelope`](crate::Envelope) for
//! `tokio::task::JoinError` and `tokio::time::error::Elapsed`. It adds 2
//! crates (tokio with `rt` and `time`).
//!
//! | error | class | code | effect |
//! |---|---|---|---|
//! | `JoinError`, the task panicked (`is_panic`) | `INTERNAL` | `TASK_PANICKED` | unknown |
//! | `JoinError`, the task was aborted (`is_cancelled`) | `CANCELLED` | `TASK_CANCELLED` | unknown |
//! | `Elapsed` (`tokio::time::timeout`) | `TIMEOUT`, retryable when idempotent | `DEADLINE_ELAPSED` | unknown |
//!
//! The panic's payload never reaches the model (it may hold anything the
//! panicking code formatted); log the `JoinError` for the operator. Both
//! effects are `unknown`: the task may have done part of its work before
//! it stopped.

use crate::model::class::ErrorClass;
use crate::convert::std_errors::{GENERIC, Row, StdError, foreign_envelope, row};

foreign_envelope!(tokio::task::JoinError, tokio::time::error::Elapsed);

impl StdError for tokio::task::JoinError {
    fn row(&self) -> Row {
        if self.is_cancelled() {
            row(
                ErrorClass::Cancelled,
                "TASK_CANCELLED",
                "the operation was cancelled before it finished",
            )
        } else {
            row(ErrorClass::Internal, "TASK_PANICKED", GENERIC)
        }
    }
}

impl StdError for tokio::time::error::Elapsed {
    fn row(&self) -> Row {
        row(ErrorClass::Timeout, "DEADLINE_ELAPSED", GENERIC)
    }
}
