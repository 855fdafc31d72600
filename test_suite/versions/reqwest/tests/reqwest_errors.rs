//! The reqwest cases of the test suite (`tests/cases/reqwest.rs`) on the
//! reqwest 0.13 line, through `envelope::reqwest`.

use envelope::reqwest as integration;

include!("../../../tests/cases/reqwest.rs");
