#!/usr/bin/env python3
"""The recovery benchmark's tables for BENCHMARKS.md, in Markdown, from the
results files run.mjs writes (one per model, or per setting).

Usage: python3 scripts/recovery/report.py results.json [more.json ...]

Prints, for all files together, the correct answers per rendering (one row
per file), then for each file the scenarios with a mark per rendering: ✓
correct, ✗ wrong, – not run (the peer would not fail); with several samples,
correct/samples.

A second table scores the same answers with the timing relaxed: an answer
that waits, then makes the right call (`wait_then_call`, right tool and
arguments) also counts where the gold answer calls at once. Strict scoring
(the first table) is the benchmark's measure; the second shows how much of
a rendering's loss is the model choosing to wait first.

Then, per results file, the statistics table: per rendering, strict with
its 95 % Wilson interval, the right move (right tool and arguments whatever
the action's label, or asking or giving up where the gold does either),
unsafe repeats (an answer that calls the failed tool again in a scenario
marked `no_repeat`: a write whose effect is unknown), the mean tokens of the
rendering (the failure's text alone, in the model's tokenizer), right
answers per 1,000 such tokens, and the exact McNemar test of the default
(`mcp_text`) against the rendering, paired by scenario and sample. With
several samples per scenario the answers to one scenario are not
independent, so the Wilson interval and McNemar's p are too narrow; the
table then adds intervals from a bootstrap over scenarios (10,000
resamples of the scenarios, the samples of each kept together, seed 1):
of the strict share, and of the default's lead over the rendering in
points. The same
table for the second set alone (the scenarios added with `domain` outside
the first set's, which no rendering was written against) follows.
"""

import json
import math
import os
import random
import sys

SCENARIOS = {
    scenario["id"]: scenario
    for scenario in json.load(
        open(os.path.join(os.path.dirname(os.path.abspath(__file__)), "scenarios.json"), encoding="utf-8")
    )
}
GOLD = {id: scenario["gold"] for id, scenario in SCENARIOS.items()}
# The first set's 46 scenarios: the renderings were written while these
# were scored. The others are the second set.
FIRST_SET_DOMAINS = {"notes", "database", "orders", "email", "web", "scripts"}
DEFAULT = "mcp_text"


def load(path):
    with open(path, encoding="utf-8") as file:
        document = json.load(file)
    document["path"] = path
    return document


def label(document):
    """The model file, and the sampling when it is not greedy."""
    name = document["model"]
    if document.get("temperature", 0) > 0 or document.get("samples", 1) > 1:
        name += f" (temperature {document['temperature']}, {document['samples']} samples, seed {document['seed']})"
    return name


def tally(rows):
    return sum(1 for row in rows if row["correct"]), len(rows)


def waits_then_right(row):
    """A `wait_then_call` that a gold `call` answer has the tool and
    arguments of."""
    parsed = row.get("parsed") or {}
    if parsed.get("action") != "wait_then_call":
        return False
    return any(
        gold["action"] == "call"
        and parsed.get("tool") == gold.get("tool")
        and json.dumps(parsed.get("arguments"), sort_keys=True) == json.dumps(gold.get("arguments"), sort_keys=True)
        for gold in GOLD.get(row["scenario"], [])
    )


def tally_lenient(rows):
    return sum(1 for row in rows if row["correct"] or waits_then_right(row)), len(rows)


def same_call(parsed, gold):
    return (
        parsed.get("tool") == gold.get("tool")
        and json.dumps(parsed.get("arguments"), sort_keys=True) == json.dumps(gold.get("arguments"), sort_keys=True)
    )


def right_move(row):
    """Strict, or the right call under the other call label, or asking or
    giving up where the gold does either."""
    if row["correct"]:
        return True
    parsed = row.get("parsed") or {}
    action = parsed.get("action")
    for gold in GOLD.get(row["scenario"], []):
        if gold["action"] in ("call", "wait_then_call") and action in ("call", "wait_then_call"):
            if same_call(parsed, gold):
                return True
        if gold["action"] in ("ask_user", "give_up") and action in ("ask_user", "give_up"):
            return True
    return False


def unsafe_repeat(row):
    """A call of the failed tool again where the scenario forbids it."""
    scenario = SCENARIOS.get(row["scenario"], {})
    if not scenario.get("no_repeat"):
        return False
    parsed = row.get("parsed") or {}
    return parsed.get("action") in ("call", "wait_then_call") and parsed.get("tool") == scenario["call"]["tool"]


def wilson(correct, total, z=1.959964):
    """The 95 % Wilson score interval of a proportion, in percent."""
    if total == 0:
        return (0.0, 0.0)
    p = correct / total
    denominator = 1 + z * z / total
    centre = (p + z * z / (2 * total)) / denominator
    half = z * math.sqrt(p * (1 - p) / total + z * z / (4 * total * total)) / denominator
    return (100 * max(0.0, centre - half), 100 * min(1.0, centre + half))


def by_scenario(rows):
    """Per scenario, (correct, total) of `rows`."""
    counts = {}
    for row in rows:
        correct, total = counts.get(row["scenario"], (0, 0))
        counts[row["scenario"]] = (correct + (1 if row["correct"] else 0), total + 1)
    return counts


def bootstrap(scenarios, statistic, resamples=10_000, seed=1):
    """The 95 % percentile interval of `statistic` over resamples of
    `scenarios` (a list, drawn with replacement, as many as there are)."""
    draw = random.Random(seed)
    values = sorted(
        statistic([draw.choice(scenarios) for _ in scenarios]) for _ in range(resamples)
    )
    return values[int(0.025 * resamples)], values[int(0.975 * resamples) - 1]


def clustered_share(rows):
    """The strict share of `rows` in percent, its interval resampling
    scenarios."""
    counts = list(by_scenario(rows).values())

    def share(sample):
        return 100 * sum(c for c, _ in sample) / sum(t for _, t in sample)

    return bootstrap(counts, share)


def clustered_lead(default_rows, rows):
    """The default's strict share minus the rendering's, in points, over
    the scenarios both have; its interval resampling scenarios."""
    mine, theirs = by_scenario(default_rows), by_scenario(rows)
    both = [(mine[s], theirs[s]) for s in mine if s in theirs]

    def lead(sample):
        return 100 * (
            sum(a[0] for a, _ in sample) / sum(a[1] for a, _ in sample)
            - sum(b[0] for _, b in sample) / sum(b[1] for _, b in sample)
        )

    return lead(both), bootstrap(both, lead)


def mcnemar(pairs):
    """The exact (binomial) two-sided McNemar test of paired booleans
    (a, b): the discordant counts (a right, b wrong) and (a wrong, b right),
    and the p-value."""
    b = sum(1 for first, second in pairs if first and not second)
    c = sum(1 for first, second in pairs if second and not first)
    n = b + c
    if n == 0:
        return b, c, 1.0
    tail = sum(math.comb(n, k) for k in range(0, min(b, c) + 1)) / 2**n
    return b, c, min(1.0, 2 * tail)


def first_set(row):
    return SCENARIOS.get(row["scenario"], {}).get("domain") in FIRST_SET_DOMAINS


def statistics(document, renderings, keep, title):
    rows = [row for row in document["rows"] if keep(row)]
    if not rows:
        return
    by_key = {(row["rendering"], row["scenario"], row.get("sample", 0)): row for row in rows}
    sampled = document.get("samples", 1) > 1
    print(f"\n{label(document)}, {title}:\n")
    print("| rendering | strict (95 % CI) | right move | unsafe repeats | tokens per failure | right per 1,000 tokens | vs `mcp_text` (McNemar: default only right / only this right, p) |")
    print("|---|---:|---:|---:|---:|---:|---|")
    for name in renderings:
        mine = [row for row in rows if row["rendering"] == name]
        if not mine:
            continue
        correct, total = tally(mine)
        low, high = wilson(correct, total)
        moves = sum(1 for row in mine if right_move(row))
        guarded = [row for row in mine if SCENARIOS.get(row["scenario"], {}).get("no_repeat")]
        unsafe = sum(1 for row in guarded if unsafe_repeat(row))
        tokens = [row["rendering_tokens"] for row in mine if "rendering_tokens" in row]
        mean_tokens = f"{sum(tokens) / len(tokens):.0f}" if tokens else "–"
        per_thousand = f"{1000 * correct / sum(tokens):.1f}" if tokens and sum(tokens) else "–"
        if name == DEFAULT:
            paired = "–"
        else:
            pairs = [
                (by_key[(DEFAULT, row["scenario"], row.get("sample", 0))]["correct"], row["correct"])
                for row in mine
                if (DEFAULT, row["scenario"], row.get("sample", 0)) in by_key
            ]
            b, c, p = mcnemar(pairs)
            paired = f"{b} / {c}, p = {p:.2g} (n = {len(pairs)})"
            if sampled and pairs:
                lead, (lead_low, lead_high) = clustered_lead(
                    [row for row in rows if row["rendering"] == DEFAULT], mine
                )
                paired += f"; lead {lead:+.0f} points ({lead_low:+.0f} to {lead_high:+.0f} by scenario)"
        strict = f"{correct}/{total} = {100 * correct / total:.0f}% ({low:.0f}–{high:.0f})"
        if sampled:
            share_low, share_high = clustered_share(mine)
            strict += f"; by scenario {share_low:.0f}–{share_high:.0f}"
        print(
            f"| `{name}` | {strict} | "
            f"{moves}/{total} | {unsafe}/{len(guarded)} | {mean_tokens} | {per_thousand} | {paired} |"
        )


def cell(correct, total):
    if total == 0:
        return "–"
    return f"{correct}/{total} ({100 * correct / total:.0f}%)"


def renderings_of(documents):
    order = []
    for document in documents:
        for name in document["renderings"]:
            if name not in order:
                order.append(name)
    return order


def totals(documents, renderings, count):
    """One row per results file: `count`'s score per rendering and in all."""
    print("| model | " + " | ".join(f"`{name}`" for name in renderings) + " | all |")
    print("|---|" + "---:|" * (len(renderings) + 1))
    for document in documents:
        rows = document["rows"]
        cells = [cell(*count([row for row in rows if row["rendering"] == name])) for name in renderings]
        print(f"| {label(document)} | " + " | ".join(cells) + f" | {cell(*count(rows))} |")


def main(paths):
    if not paths:
        sys.exit(__doc__.strip())
    documents = [load(path) for path in paths]
    renderings = renderings_of(documents)

    print("Correct next actions per rendering of the failure:\n")
    totals(documents, renderings, tally)
    print("\nThe same answers with the timing relaxed (a wait before the right call counts):\n")
    totals(documents, renderings, tally_lenient)
    commits = sorted({str(document.get("commit")) for document in documents})
    print(f"\nRenderings of commit {', '.join(commits)}; node-llama-cpp "
          f"{', '.join(sorted({str(document.get('node_llama_cpp')) for document in documents}))}, "
          f"CPU, {documents[0].get('threads', 1)} thread, context {documents[0].get('context_size')}.")

    for document in documents:
        statistics(document, renderings, lambda row: True, "every scenario")
        statistics(document, renderings, lambda row: not first_set(row), "the second set alone (no rendering was written against it)")

    for document in documents:
        rows = document["rows"]
        scenarios = []
        for row in rows:
            if (row["scenario"], row["class"]) not in scenarios:
                scenarios.append((row["scenario"], row["class"]))
        print(f"\n{label(document)}, per scenario:\n")
        print("| scenario | class | " + " | ".join(f"`{name}`" for name in renderings) + " |")
        print("|---|---|" + ":---:|" * len(renderings))
        for scenario, error_class in scenarios:
            marks = []
            for name in renderings:
                correct, total = tally(
                    [row for row in rows if row["scenario"] == scenario and row["rendering"] == name]
                )
                if total == 0:
                    marks.append("–")
                elif document.get("samples", 1) == 1 and total == 1:
                    marks.append("✓" if correct else "✗")
                else:
                    marks.append(f"{correct}/{total}")
            print(f"| {scenario} | {error_class} | " + " | ".join(marks) + " |")
        seconds = [row["seconds"] for row in rows]
        if seconds:
            print(f"\n{len(rows)} runs, {sum(seconds) / len(seconds):.1f} s per run on average "
                  f"({document.get('total_seconds')} s in all).")


if __name__ == "__main__":
    main(sys.argv[1:])
