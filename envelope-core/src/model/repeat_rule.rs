// The safety half of the retry rule, read by both crates: `envelope-core`
// includes it in `model/effect.rs` (`Effect::allows_repeat`), and
// `envelope-derive` (through a symbolic link, `envelope-derive/src/
// repeat_rule.rs`) in its `effect.rs`, to refuse `retryable = true` where a
// blind repeat is not safe at compile time.

/// Whether repeating a failed call is safe: it changed nothing, or the
/// operation is idempotent (repeating it has the same effect as doing it
/// once).
const fn repeat_is_safe(changed_nothing: bool, idempotent: bool) -> bool {
    idempotent || changed_nothing
}
