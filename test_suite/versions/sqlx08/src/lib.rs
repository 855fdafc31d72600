//! Only its test: see Cargo.toml.
