#!/usr/bin/env python3
"""Turn one `cargo bench --bench envelope` run into the ratio table of
BENCHMARKS.md.

Usage: cargo bench --bench envelope | tee bench.txt; python3 scripts/bench_ratios.py bench.txt

Reads divan's tree output, takes every entry's median and prints, for each
comparison, the two medians and their ratio with the target it is checked
against. Exits 1 when a target is missed.
"""

import re
import sys

UNITS = {"ps": 1e-3, "ns": 1.0, "µs": 1e3, "us": 1e3, "ms": 1e6, "s": 1e9}

# (group, numerator, denominator, what the ratio means, target, kind)
# kind "max": ratio must be <= target; "min": ratio must be >= target.
COMPARISONS = [
    ("into_envelope", "derived", "hand_written", "derived / hand-written", 1.05, "max"),
    ("to_envelope", "derived", "hand_written", "derived / hand-written", 1.05, "max"),
    ("to_tool_result", "seed", "derived", "seed / derived (speed-up)", 3.0, "min"),
    ("to_tool_result", "seed_all", "derived_all", "seed / derived, all 12 variants", None, None),
    ("to_tool_result", "seed", "serde_direct", "seed / plain direct serde", None, None),
    ("to_json_string", "seed", "derived", "seed / derived (speed-up)", None, None),
    ("to_json_string", "seed", "serde_direct", "seed / plain direct serde", None, None),
    ("error_class", "derived", "hand_written", "derived / hand-written", 1.1, "max"),
    ("code", "derived", "hand_written", "derived / hand-written", 1.1, "max"),
]


def parse(text):
    medians = {}
    group = None
    for line in text.splitlines():
        line = re.sub(r"\x1b\[[0-9;]*m", "", line)
        m = re.match(r"^([│├╰─ ]*)(\S+)(.*)$", line)
        if not m or "│" not in m.group(3):
            continue
        prefix, name, rest = m.groups()
        # rest: "  fastest │ slowest │ median │ mean │ samples │ iters"
        cells = [c.strip() for c in rest.split("│")]
        if not cells[0]:
            # a group row such as "├─ into_envelope", with empty columns
            if len(prefix) <= 3:
                group = name
            continue
        median = cells[2].split()
        if len(median) != 2 or median[1] not in UNITS:
            continue  # the header row
        medians[(group, name)] = float(median[0]) * UNITS[median[1]]
    return medians


def main():
    text = open(sys.argv[1], encoding="utf-8").read() if len(sys.argv) > 1 else sys.stdin.read()
    medians = parse(text)
    missed = False
    print("| comparison | medians (ns) | ratio | target | met |")
    print("|---|---|---|---|---|")
    for group, num, den, meaning, target, kind in COMPARISONS:
        if (group, num) not in medians or (group, den) not in medians:
            print(f"| `{group}` {meaning} | missing | | | |")
            missed = True
            continue
        a, b = medians[(group, num)], medians[(group, den)]
        ratio = a / b
        if target is None:
            goal, met = "-", "-"
        else:
            ok = ratio <= target if kind == "max" else ratio >= target
            missed |= not ok
            goal = f"{'<=' if kind == 'max' else '>='} {target}"
            met = "yes" if ok else "**no**"
        print(f"| `{group}` {meaning} | {a:.1f} / {b:.1f} | {ratio:.2f} | {goal} | {met} |")
    sys.exit(1 if missed else 0)


if __name__ == "__main__":
    main()
