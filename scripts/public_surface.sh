#!/usr/bin/env bash
# The facade's public docs list no plumbing: no foreign type re-exported
# for the derived impls, none of their bodies, no crate-internal refusal
# constructors, one path per type. Reads target/doc/envelope/all.html, as
# `cargo doc --no-deps -p agent-envelope --all-features` writes it.
set -euo pipefail
cd "$(dirname "$0")/.."
all="${CARGO_TARGET_DIR:-target}/doc/envelope/all.html"
[ -f "$all" ] || { echo "no $all: run cargo doc first" >&2; exit 2; }
plumbing='>(rmcp::(CallToolResult|ErrorData|CallToolResponse|ContentBlock|IntoCallToolResult|into_call_tool_result|call_tool_result|RateLimit)|axum::(IntoResponse|Response|into_response|RateLimit)|idempotency::(key_[a-z_]+|answer_[a-z_]+|handler_panicked|store_failed))<'
if grep -Eo "$plumbing" "$all"; then
    echo "the public docs list the plumbing above" >&2
    exit 1
fi
echo "public docs: $(grep -o '<li><a href=' "$all" | wc -l) items, no plumbing"
