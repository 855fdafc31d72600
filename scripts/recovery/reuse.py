#!/usr/bin/env python3
"""Answers already measured, carried over to the renderings of a newer
commit wherever the text is byte-identical.

Usage: python3 scripts/recovery/reuse.py [--only NAME,NAME] OUT.json \
           NEW_RENDERINGS.json OLD_RENDERINGS.json RESULTS.json [RESULTS.json ...]

A model's answer depends only on the text it reads (and the fixed system
prompt, task and call): a scenario's rendering whose text at the new
commit equals, byte for byte, a text answered at the old commit gets that
answer. Each results file must have answered OLD_RENDERINGS (its
`commit`). For every scenario and every rendering of NEW_RENDERINGS, the
rows of the first results file (then the next) whose old text is the new
text are copied under the new rendering's name, marked
`reused_from: {"commit", "rendering"}`; a new rendering that no old text
equals gets no row (run it). `--only` carries answers to the named new
renderings alone: a run of `mcp_text` alone would otherwise also answer
every `model_text` whose text equals it, a part of that rendering only.
Settings are the first results file's, the
commit is the new one's, and `reused_from` lists the inputs.
"""

import json
import sys


def texts(path):
    document = json.load(open(path, encoding="utf-8"))
    return document["commit"], {
        scenario["id"]: scenario["renderings"] for scenario in document["scenarios"]
    }


def main(out, new_path, old_path, result_paths, only=None):
    new_commit, new = texts(new_path)
    old_commit, old = texts(old_path)
    documents = [json.load(open(path, encoding="utf-8")) for path in result_paths]
    first = documents[0]
    answered = {}
    for path, document in zip(result_paths, documents):
        if document["commit"] != old_commit:
            sys.exit(f"{path} answered the renderings of {document['commit']}, not {old_commit}")
        for name in ("model", "temperature", "samples"):
            if document.get(name) != first.get(name):
                sys.exit(f"{path}: {name} differs from {result_paths[0]}'s")
        for row in document["rows"]:
            text = old.get(row["scenario"], {}).get(row["rendering"])
            if text is None:
                continue
            key = (row["scenario"], text, row["sample"])
            answered.setdefault(key, row)
    rows = []
    missing = []
    for scenario, renderings in new.items():
        for rendering, text in renderings.items():
            if text is None or (only is not None and rendering not in only):
                continue
            found = [row for (id_, said, _), row in answered.items() if id_ == scenario and said == text]
            if not found:
                missing.append(f"{scenario}/{rendering}")
            for row in found:
                copy = dict(row)
                copy["reused_from"] = {"commit": old_commit, "rendering": row["rendering"]}
                copy["rendering"] = rendering
                rows.append(copy)
    merged = dict(first)
    merged["commit"] = new_commit
    merged["renderings_file"] = new_path
    merged["rows"] = rows
    merged["renderings"] = sorted({row["rendering"] for row in rows})
    merged["reused_from"] = [
        {"file": path, "commit": document["commit"], "renderings": document["renderings"]}
        for path, document in zip(result_paths, documents)
    ]
    with open(out, "w", encoding="utf-8") as file:
        json.dump(merged, file, indent=1, ensure_ascii=False)
        file.write("\n")
    print(f"{len(rows)} rows carried over; not answered at {old_commit[:7]}: {len(missing)}", file=sys.stderr)
    for name in missing[:20]:
        print(f"  {name}", file=sys.stderr)


if __name__ == "__main__":
    arguments = sys.argv[1:]
    only = None
    if arguments[:1] == ["--only"] and len(arguments) > 1:
        only = set(arguments[1].split(","))
        arguments = arguments[2:]
    if len(arguments) < 4:
        sys.exit(__doc__)
    main(arguments[0], arguments[1], arguments[2], arguments[3:], only)
