#!/usr/bin/env bash
# The recovery benchmark (scripts/recovery/README.md): builds and runs the
# `recovery` example, which writes every scenario's failure in each
# rendering to target/recovery/renderings.json; installs the runner's
# dependencies (scripts/recovery/package-lock.json) when they are missing or
# stale; then lets the model answer every scenario in every rendering.
#
# Usage: scripts/recovery.sh MODEL.gguf [run.mjs options]
#   e.g. scripts/recovery.sh ~/models/qwen2.5-coder-1.5b-instruct-q4_k_m.gguf
#        scripts/recovery.sh model.gguf --scenarios busy_read,timeout_read --only json,model_text
# Writes target/recovery/results-<model file name>.json (unless --out is
# given) and prints the tables. Not part of .ci/run: it needs a model file
# and runs for minutes to hours on a CPU.
set -euo pipefail

if [ $# -lt 1 ] || [ ! -f "$1" ]; then
    echo "usage: scripts/recovery.sh MODEL.gguf [run.mjs options]" >&2
    [ $# -ge 1 ] && echo "no such file: $1" >&2
    exit 2
fi
model=$(cd "$(dirname "$1")" && pwd)/$(basename "$1")
shift
cd "$(dirname "$0")/.."

out_dir=target/recovery
mkdir -p "$out_dir"
cargo run --quiet -p envelope-test-suite --example recovery --features host,jsonschema \
    -- scripts/recovery/scenarios.json > "$out_dir/renderings.json.new"
mv "$out_dir/renderings.json.new" "$out_dir/renderings.json"

runner=scripts/recovery
if ! cmp -s "$runner/package-lock.json" "$runner/node_modules/.package-lock.json.installed"; then
    # The prebuilt llama.cpp binaries come with the package: never download
    # or build llama.cpp in its install script.
    (cd "$runner" && NODE_LLAMA_CPP_SKIP_DOWNLOAD=true npm ci --no-audit --no-fund --loglevel=error)
    cp "$runner/package-lock.json" "$runner/node_modules/.package-lock.json.installed"
fi

args=("$@")
has_out=false
for arg in "${args[@]}"; do
    case "$arg" in --out | --out=*) has_out=true ;; esac
done
if [ "$has_out" = false ]; then
    args+=(--out "$out_dir/results-$(basename "$model" .gguf).json")
fi
node "$runner/run.mjs" --model "$model" --renderings "$out_dir/renderings.json" "${args[@]}"
