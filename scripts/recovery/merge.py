#!/usr/bin/env python3
"""One results file from several runs of one model, for report.py.

Usage: python3 scripts/recovery/merge.py OUT.json FIRST.json [LATER.json ...]

The settings are the first file's (the model, its sampling); each later
file must name the same model file, temperature and samples, or the merge
is refused. A later file's row replaces an earlier row of the same
scenario, rendering and sample (a rendering re-run after its text
changed); the other rows are added. Each row keeps the commit of the
renderings it answered (`renderings_commit`), and the merged file lists
every input file and commit under `merged_from`.
"""

import json
import sys


def main(out, paths):
    documents = [json.load(open(path, encoding="utf-8")) for path in paths]
    first = documents[0]
    same = ("model", "temperature", "samples")
    rows = {}
    for path, document in zip(paths, documents):
        for name in same:
            if document.get(name) != first.get(name):
                sys.exit(f"{path}: {name} is {document.get(name)!r}, the first file's is {first.get(name)!r}")
        for row in document["rows"]:
            row = dict(row)
            row.setdefault("renderings_commit", document["commit"])
            rows[(row["scenario"], row["rendering"], row["sample"])] = row
    merged = dict(first)
    merged["rows"] = list(rows.values())
    merged["renderings"] = sorted({row["rendering"] for row in merged["rows"]})
    merged["merged_from"] = [
        {"file": path, "commit": document["commit"], "renderings": document["renderings"]}
        for path, document in zip(paths, documents)
    ]
    with open(out, "w", encoding="utf-8") as file:
        json.dump(merged, file, indent=1, ensure_ascii=False)
        file.write("\n")


if __name__ == "__main__":
    if len(sys.argv) < 3:
        sys.exit(__doc__)
    main(sys.argv[1], sys.argv[2:])
