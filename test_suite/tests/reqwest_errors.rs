//! `reqwest::Error` and `envelope::reqwest::error_for_status` against a
//! real HTTP server on 127.0.0.1 (a few lines of tokio: each connection
//! reads one request and writes a canned answer): a 404, a 429 with
//! `Retry-After`, a 503, a slow answer that times out, and a port where
//! nothing listens. The cases are `cases/reqwest.rs`, shared with the
//! reqwest 0.12 line's test (`versions/reqwest012`).

use envelope::reqwest as integration;

include!("cases/reqwest.rs");
