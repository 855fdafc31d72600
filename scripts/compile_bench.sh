#!/usr/bin/env bash
# Compile-time scaling of #[derive(Envelope)]: generates crates with 10, 100
# and 1000 variants and times a full, non-incremental build of each, in four
# versions of the same error type:
#
#   derive     #[derive(Envelope)] alone
#   thiserror  #[derive(thiserror::Error)] alone
#   both       #[derive(thiserror::Error, Envelope)]
#   hand       the hand-written `impl Envelope` (+ `From`) a user would
#              otherwise write: same envelopes, no derive
#
# Dependencies are built once first; each timed build then recompiles only
# the generated crate (its source is touched), so the figures are the cost of
# that crate alone. Every build is repeated REPS times, the kinds taking
# turns within each round; the median is kept.
# Also times clean builds of envelope-derive and thiserror-impl themselves.
#
# Usage: scripts/compile_bench.sh [SIZES...]      (default: 10 100 1000)
# Environment:
#   REPS=5                          repetitions per build
#   ENVELOPE_DIR=<repo root>        the envelope checkout to measure
#   WORK=/tmp/envelope-compile-bench, TARGET=$WORK/target
#   KINDS="derive thiserror both hand"
# Output: a Markdown table on stdout (progress on stderr), raw timings in
# $WORK/timings.tsv.
set -euo pipefail

ROOT="$(cd "$(dirname "$0")/.." && pwd)"
ENVELOPE_DIR="${ENVELOPE_DIR:-$ROOT}"
WORK="${WORK:-/tmp/envelope-compile-bench}"
TARGET="${TARGET:-$WORK/target}"
REPS="${REPS:-5}"
KINDS="${KINDS:-derive thiserror both hand}"
SIZES=("$@")
[ ${#SIZES[@]} -eq 0 ] && SIZES=(10 100 1000)
export CARGO_INCREMENTAL=0 CARGO_TARGET_DIR="$TARGET"

mkdir -p "$WORK"
members=()
for n in "${SIZES[@]}"; do
  for kind in $KINDS; do members+=("\"gen_${kind}_${n}\""); done
done
cat > "$WORK/Cargo.toml" <<EOF
[workspace]
resolver = "3"
members = [$(IFS=,; echo "${members[*]}")]

[workspace.dependencies]
envelope = { package = "agent-envelope", path = "$ENVELOPE_DIR" }
thiserror = "2.0.12"
EOF
# Share the measured checkout's lockfile, so dependency versions match.
cp "$ENVELOPE_DIR/Cargo.lock" "$WORK/Cargo.lock" 2>/dev/null || true

python3 - "$WORK" "$KINDS" "${SIZES[@]}" <<'PY'
import os, sys

work, kinds, sizes = sys.argv[1], sys.argv[2].split(), [int(n) for n in sys.argv[3:]]

# Four shapes, cycled: a templated message with near-misses and a next
# step; a busy error with a retry hint; two templated fields; a unit
# variant with a fixed message and a help URL.
def shape(i):
    return i % 4

def fields(i):
    return [
        "{ name: String, candidates: Vec<String> }",
        "{ retry_after_ms: u64 }",
        "{ argument: String, reason: String }",
        "",
    ][shape(i)]

def error_attr(i):
    return [
        f'#[error("object {{name}} not found ({i})")]',
        f'#[error("busy ({i})")]',
        f'#[error("invalid {{argument}}: {{reason}} ({i})")]',
        f'#[error("step {i} missing")]',
    ][shape(i)]

def envelope_attr(i):
    return [
        f'#[envelope(class = ObjectNotFound, message = "object {{name}} does not exist ({i})", next_step = "check the spelling of {{name}}")]',
        f'#[envelope(class = Busy, next_step = "wait, then retry call {i}")]',
        f'#[envelope(class = InvalidArguments, message = "argument {{argument}} is invalid: {{reason}} ({i})")]',
        f'#[envelope(class = PreconditionFailed, message = "step {i} is missing", help_url = "https://example.test/steps/{i}")]',
    ][shape(i)]

def field_attrs(i, derive):
    body = fields(i)
    if not derive:
        return body
    if shape(i) == 0:
        return "{ name: String, #[envelope(fuzzy_matches)] candidates: Vec<String> }"
    if shape(i) == 1:
        return "{ #[envelope(retry_after_ms)] retry_after_ms: u64 }"
    return body

def code(i):
    return f"V{i}".upper()

CLASS = ["ObjectNotFound", "Busy", "InvalidArguments", "PreconditionFailed"]

def hand_arm(i, owned):
    v = f"E::V{i}"
    s = shape(i)
    if s == 0:
        fuzzy = "candidates" if owned else "candidates.clone()"
        return (f'{v} {{ name, candidates }} => ErrorEnvelope::new(ErrorClass::ObjectNotFound, '
                f'format!("object {{name}} does not exist ({i})")).with_code("{code(i)}")'
                f'.with_fuzzy_matches({fuzzy}).with_next_step(format!("check the spelling of {{name}}")),')
    if s == 1:
        return (f'{v} {{ retry_after_ms }} => ErrorEnvelope::new(ErrorClass::Busy, '
                f'"the server is busy").with_code("{code(i)}")'
                f'.with_next_step("wait, then retry call {i}").with_retry_after_ms(*retry_after_ms),'
                if not owned else
                f'{v} {{ retry_after_ms }} => ErrorEnvelope::new(ErrorClass::Busy, '
                f'"the server is busy").with_code("{code(i)}")'
                f'.with_next_step("wait, then retry call {i}").with_retry_after_ms(retry_after_ms),')
    if s == 2:
        return (f'{v} {{ argument, reason }} => ErrorEnvelope::new(ErrorClass::InvalidArguments, '
                f'format!("argument {{argument}} is invalid: {{reason}} ({i})")).with_code("{code(i)}"),')
    return (f'{v} => ErrorEnvelope::new(ErrorClass::PreconditionFailed, "step {i} is missing")'
            f'.with_code("{code(i)}").with_help_url("https://example.test/steps/{i}"),')

def crate(kind, n):
    derive = kind in ("derive", "both")
    error = kind in ("thiserror", "both")
    out = ["//! Generated by scripts/compile_bench.sh; do not edit.", ""]
    if kind == "hand":
        out.append("use envelope::{Envelope, ErrorClass, ErrorEnvelope};")
    elif derive:
        out.append("use envelope::Envelope;")
    out.append("")
    derives = ["Debug"] + (["thiserror::Error"] if error else []) + (["Envelope"] if derive else [])
    out.append(f"#[derive({', '.join(derives)})]")
    out.append("pub enum E {")
    for i in range(n):
        if error:
            out.append(f"    {error_attr(i)}")
        if derive:
            out.append(f"    {envelope_attr(i)}")
        out.append(f"    V{i} {field_attrs(i, derive)},")
    out.append("}")
    if kind == "hand":
        out.append("")
        out.append("impl Envelope for E {")
        out.append("    fn error_class(&self) -> ErrorClass {")
        out.append("        match self {")
        for i in range(n):
            out.append(f"            E::V{i} {{ .. }} => ErrorClass::{CLASS[shape(i)]},")
        out.append("        }\n    }\n")
        out.append("    fn code(&self) -> Option<&'static str> {")
        out.append("        Some(match self {")
        for i in range(n):
            out.append(f'            E::V{i} {{ .. }} => "{code(i)}",')
        out.append("        })\n    }\n")
        out.append("    fn to_envelope(&self) -> ErrorEnvelope {")
        out.append("        match self {")
        for i in range(n):
            out.append("            " + hand_arm(i, False))
        out.append("        }\n    }\n")
        out.append("    fn into_envelope(self) -> ErrorEnvelope {")
        out.append("        match self {")
        for i in range(n):
            out.append("            " + hand_arm(i, True))
        out.append("        }\n    }")
        out.append("}")
        out.append("")
        out.append("impl From<E> for ErrorEnvelope {")
        out.append("    fn from(error: E) -> Self {")
        out.append("        error.into_envelope()")
        out.append("    }")
        out.append("}")
    return "\n".join(out) + "\n"

for n in sizes:
    for kind in kinds:
        name = f"gen_{kind}_{n}"
        os.makedirs(os.path.join(work, name, "src"), exist_ok=True)
        deps = ["envelope.workspace = true"] if kind != "thiserror" else []
        if kind in ("thiserror", "both"):
            deps.append("thiserror.workspace = true")
        manifest = (f'[package]\nname = "{name}"\nversion = "0.0.0"\nedition = "2024"\npublish = false\n\n'
                    "[dependencies]\n" + "\n".join(deps) + "\n")
        with open(os.path.join(work, name, "Cargo.toml"), "w") as f:
            f.write(manifest)
        with open(os.path.join(work, name, "src", "lib.rs"), "w") as f:
            f.write(crate(kind, n))
PY

cd "$WORK"
echo "warming dependencies in $TARGET ..." >&2
cargo build --workspace --quiet 2>&1 | tail -n 20 >&2
# `-p` may resolve features differently from `--workspace`: build each crate
# once more, untimed, so the timed builds find every dependency fresh.
for n in "${SIZES[@]}"; do
  for kind in $KINDS; do cargo build --quiet -p "gen_${kind}_${n}"; done
done

now() { date +%s.%N; }
median() { sort -n | awk '{a[NR]=$1} END {print (NR % 2) ? a[(NR+1)/2] : (a[NR/2] + a[NR/2+1]) / 2}'; }

: > "$WORK/timings.tsv"
declare -A MEDIAN TIMES
# Repetitions outermost, kinds inside: each round builds every kind once,
# so a slow spell of the machine falls on all kinds alike.
for n in "${SIZES[@]}"; do
  for ((rep = 1; rep <= REPS; rep++)); do
    for kind in $KINDS; do
      crate="gen_${kind}_${n}"
      touch "$crate/src/lib.rs"
      start=$(now)
      cargo build --quiet -p "$crate"
      end=$(now)
      t=$(echo "$end - $start" | bc -l)
      TIMES[$kind,$n]+="$t "
      printf '%s\t%s\t%s\t%.3f\n' "$kind" "$n" "$rep" "$t" >> "$WORK/timings.tsv"
    done
  done
  for kind in $KINDS; do
    MEDIAN[$kind,$n]=$(printf '%s\n' ${TIMES[$kind,$n]} | median)
    printf '%-9s %5s variants: median %.2f s of %s\n' "$kind" "$n" "${MEDIAN[$kind,$n]}" "${TIMES[$kind,$n]}" >&2
  done
done

ratio() { echo "scale=2; $1 / $2" | bc -l | sed 's/^\./0./'; }
echo
echo "| variants | derive (s) | thiserror (s) | both (s) | hand-written (s) | derive / thiserror | both / thiserror | derive / hand-written |"
echo "|---:|---:|---:|---:|---:|---:|---:|---:|"
for n in "${SIZES[@]}"; do
  d=${MEDIAN[derive,$n]:-0}; t=${MEDIAN[thiserror,$n]:-0}; b=${MEDIAN[both,$n]:-0}; h=${MEDIAN[hand,$n]:-0}
  printf '| %s | %.2f | %.2f | %.2f | %.2f | %s | %s | %s |\n' "$n" "$d" "$t" "$b" "$h" \
    "$(ratio "$d" "$t")" "$(ratio "$b" "$t")" "$(ratio "$d" "$h")"
done

# The proc-macro crates themselves: a clean build including their own
# dependencies (syn, quote, proc-macro2), then the crate alone.
if [ "${MACROS:-1}" = 1 ]; then
  echo >&2
  echo "| crate | clean build with its dependencies (s) | the crate alone (s) |"
  echo "|---|---:|---:|"
  for macro in envelope-derive thiserror-impl; do
    with=(); alone=()
    for ((rep = 1; rep <= REPS; rep++)); do
      rm -rf "$WORK/target-macro"
      start=$(now)
      CARGO_TARGET_DIR="$WORK/target-macro" cargo build --quiet -p "$macro"
      end=$(now)
      with+=("$(echo "$end - $start" | bc -l)")
      CARGO_TARGET_DIR="$WORK/target-macro" cargo clean --quiet -p "$macro"
      start=$(now)
      CARGO_TARGET_DIR="$WORK/target-macro" cargo build --quiet -p "$macro"
      end=$(now)
      alone+=("$(echo "$end - $start" | bc -l)")
    done
    printf '| %s | %.2f | %.2f |\n' "$macro" \
      "$(printf '%s\n' "${with[@]}" | median)" "$(printf '%s\n' "${alone[@]}" | median)"
    printf '%s: with deps %s; alone %s\n' "$macro" "${with[*]}" "${alone[*]}" >&2
  done
fi
