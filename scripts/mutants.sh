#!/usr/bin/env bash
# Mutation testing with cargo-mutants (see TESTING.md for today's scores,
# run times and every remaining survivor).
#
# Tool: cargo-mutants 27.1.0, pinned:
#     cargo install cargo-mutants --locked --version 27.1.0
#
# Usage:
#     scripts/mutants.sh [core|derive] [extra cargo-mutants options]
#
#   core (default)  mutates envelope-core in two passes, as the derive:
#                   first against its own tests (unit tests and tests/,
#                   all features), then, with `--iterate`, the survivors
#                   against the test suite's tests as well (the host's
#                   loop over rmcp, the routers, the spans end to end);
#                   then, when ENVELOPE_POSTGRES_URL names a server
#                   (`export ENVELOPE_POSTGRES_URL=$(scripts/postgres.sh)`),
#                   the survivors in the Postgres store against the
#                   Postgres tests (`#[ignore]`d, so no earlier pass runs
#                   them).
#   derive          mutates envelope-derive in two passes: first against its
#                   own tests (unit tests, the UI cases checked at the unit
#                   level, and the attribute reference's doctests: seconds
#                   per mutant), then, with `--iterate`, the mutants that
#                   survived against the test suite's behaviour tests as
#                   well (about a minute per mutant).
#
# The test suite runs without its trybuild UI cases (test `ui`, minutes per
# mutant), examples, benches and doctests (`--tests`).
# Extra options go to cargo mutants, e.g. `--file envelope-core/src/model/class.rs`,
# `--iterate` (skip mutants caught by the previous run), `-j 1`.
#
# cargo-mutants copies the tree into a scratch directory per job and builds
# there, with its own target directory, so it does not contend with
# `target/`. Results: target/mutants/<core|derive>/mutants.out/ (`missed.txt`,
# `caught.txt`, `unviable.txt`, `timeout.txt`, `outcomes.json`).
set -euo pipefail
cd "$(dirname "$0")/.."

version=27.1.0
if [ "$(cargo mutants --version 2>/dev/null)" != "cargo-mutants $version" ]; then
    echo "needs cargo-mutants $version: cargo install cargo-mutants --locked --version $version" >&2
    exit 1
fi

target=core
case "${1:-}" in
    core | derive)
        target=$1
        shift
        ;;
esac

# Variables that would rewrite expectations instead of checking them, and
# a shared target directory (each scratch copy builds in its own).
unset TRYBUILD ENVELOPE_UPDATE_README INSTA_UPDATE INSTA_FORCE_PASS CARGO_TARGET_DIR
# No debug info: links in about half the time; the tests do not need it.
export CARGO_PROFILE_DEV_DEBUG=0 CARGO_PROFILE_TEST_DEBUG=0
export CARGO_TERM_COLOR=never

mkdir -p "target/mutants/$target"
mutants() {
    cargo mutants \
        --package "envelope-$target" \
        --all-features \
        --minimum-test-timeout "${MUTANTS_TEST_TIMEOUT:-120}" \
        --jobs "${CARGO_MUTANTS_JOBS:-2}" \
        --output "${MUTANTS_OUTPUT:-target/mutants/$target}" \
        "$@" \
        -- -- "${TEST_ARGS[@]}"
}
# What each test binary is given: every test but the trybuild UI cases.
TEST_ARGS=(--skip ui --exact)

# cargo-mutants exits with 2 when some mutants were missed and 3 when some
# timed out: results, not failures of the run.
results() {
    "$@" || {
        status=$?
        [ "$status" -eq 2 ] || [ "$status" -eq 3 ]
    }
}

# MUTANTS_FIRST_PASS=0 skips it: the next passes read the survivors of
# the last run's (a second pass started apart from its first).
first_pass() {
    [ "${MUTANTS_FIRST_PASS:-1}" = 1 ] || return 0
    results mutants --test-package "envelope-$target" "$@"
}

# `--re` options naming each mutant listed in the file $1 whose line
# matches the regex $2, exactly (its name's regex metacharacters escaped).
named() {
    local name
    names=()
    while IFS= read -r name; do
        names+=(--re "^$(printf '%s' "$name" | sed 's/[][\\.+*?(){}|^$#&~-]/\\&/g')\$")
    done < <(grep -e "$2" "$1" || true)
}

# The first pass's survivors, each named exactly (`named`), against the
# test suite's tests as well.
# By name, not with `--iterate`: a sharded list can change between the
# passes. MUTANTS_SECOND_PASS=0 stops after the first pass.
second_pass() {
    local missed="target/mutants/$target/mutants.out/missed.txt"
    [ "${MUTANTS_SECOND_PASS:-1}" = 1 ] && [ -s "$missed" ] || return 0
    named "$missed" .
    results mutants --test-package "envelope-$target" --test-package envelope-test-suite \
        --cargo-arg=--tests "${names[@]}"
}

# The survivors in the Postgres store against the Postgres tests, which
# need a server and are `#[ignore]`d: run only when ENVELOPE_POSTGRES_URL
# names one (`export ENVELOPE_POSTGRES_URL=$(scripts/postgres.sh)`).
# Results: target/mutants/core/postgres/mutants.out/.
postgres_pass() {
    local missed="target/mutants/$target/mutants.out/missed.txt"
    [ -n "${ENVELOPE_POSTGRES_URL:-}" ] && [ -s "$missed" ] || return 0
    named "$missed" '/idempotency/postgres\.rs:'
    [ "${#names[@]}" -gt 0 ] || return 0
    # Its tests by exact name: `--test` would also ask the mutated
    # package for that target, and `--ignored` alone would run the other
    # suites' ignored tests (Python and Node servers).
    local tests
    mapfile -t tests < <(grep -A3 '^#\[ignore' test_suite/tests/exactly_once_postgres.rs |
        sed -n 's/^async fn \([a-z_]*\)().*/\1/p')
    local TEST_ARGS=(--ignored --exact "${tests[@]}")
    local MUTANTS_OUTPUT="target/mutants/$target/postgres"
    results mutants --test-package envelope-test-suite --cargo-arg=--tests "${names[@]}"
}

case "$target" in
    core)
        # Its unit tests and tests/ (seconds per mutant).
        first_pass --cargo-arg=--tests "$@"
        second_pass
        postgres_pass
        ;;
    derive)
        # Its unit tests and doctests (the attribute reference's examples).
        first_pass "$@"
        second_pass
        ;;
esac
