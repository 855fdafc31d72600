//! Only its tests: `tests/ui.rs` and the cases of `tests/ui/`.
