//! The reqwest cases of the test suite (`tests/cases/reqwest.rs`) on the
//! reqwest 0.12 line, through `envelope::reqwest012`.

use envelope::reqwest012 as integration;

include!("../../../tests/cases/reqwest.rs");
