//! reqwest 0.12 (feature `reqwest012`): the mapping of
//! [`envelope::reqwest`](crate::reqwest), table and all, for the reqwest
//! 0.12 line: [`Envelope`](crate::Envelope) for its `reqwest::Error`, and
//! [`error_for_status`] for its `Response`.
//!
//! One feature per semver line, because cargo builds a second reqwest for
//! a version range rather than pick the user's (nothing like rusqlite's
//! `links` makes it unify); both features may be on together.

use ::reqwest012 as lib;

include!("reqwest/body.rs");
