//! Only its benchmark: `benches/envelope.rs` (`cargo bench -p envelope-bench`).
