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
"""

import json
import os
import sys

GOLD = {
    scenario["id"]: scenario["gold"]
    for scenario in json.load(
        open(os.path.join(os.path.dirname(os.path.abspath(__file__)), "scenarios.json"), encoding="utf-8")
    )
}


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
