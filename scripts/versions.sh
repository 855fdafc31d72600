#!/usr/bin/env bash
# Tests each library integration against the oldest and the newest release
# of every semver line it accepts, each in its own workspace under
# test_suite/versions/ (see their manifests): rusqlite 0.31 to 0.43 (one
# range), reqwest 0.12 and 0.13, sqlx 0.8 (sqlx 0.9 has one release, which
# the main workspace tests). "Newest" is the newest in the registry today.
#
#   scripts/versions.sh            # every line
#   scripts/versions.sh rusqlite   # the lines of one directory
#
# Called by .ci/run. Each directory's lockfile is made here and not kept.
set -euo pipefail
cd "$(dirname "$0")/.."
ROOT=$PWD
export CARGO_TARGET_DIR="${CARGO_TARGET_DIR:-$ROOT/target}/versions"

# directory, package, oldest release of the line
LINES=(
    "rusqlite rusqlite 0.31.0"
    "reqwest012 reqwest 0.12.0"
    "reqwest reqwest 0.13.1"
    "sqlx08 sqlx 0.8.0"
)

for line in "${LINES[@]}"; do
    read -r dir package oldest <<<"$line"
    if [ $# -gt 0 ] && [ "$1" != "$dir" ]; then
        continue
    fi
    cd "$ROOT/test_suite/versions/$dir"
    rm -f Cargo.lock
    cargo generate-lockfile --quiet
    newest=$(cargo tree --quiet --depth 0 -i "$package" | sed -n 's/^[^ ]* v\([0-9.]*\).*/\1/p' | head -n 1)
    for version in "$oldest" "$newest"; do
        cargo update --quiet -p "$package" --precise "$version"
        echo "== $dir: $package $version"
        cargo test --quiet
    done
    rm -f Cargo.lock
done
