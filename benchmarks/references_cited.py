"""Whether the runs followed the references their evidence cites: issue 21's "references followed in ≥ 80 % of
runs whose evidence cites one".

    python benchmarks/references_cited.py RUNS_DIR DATA_DIR [--db Sample]
    python benchmarks/references_cited.py .bench/laws-de/out/qwen2.5-coder-1.5b .bench/laws-de

RUNS_DIR holds one folder per question id (``answer_quality.py``'s ``--out`` folders, each with its state.json);
DATA_DIR the data folder whose database the runs read. A run's evidence cites a reference when a sentence the
model was shown of an excerpt it read holds a reference the knowledge base resolves (``kb.references``) to a unit
with text other than the excerpt's own — what the engine could have followed. A run followed references when any
of its tasks did (``TaskRun.followed``).

Prints one line per run and the share; nothing is written.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any

from desktop.engine.sentences import units
from desktop.kb.database import KnowledgeBase
from desktop.paths import resolve_paths
from desktop.settings import load_settings


def cited(kb: KnowledgeBase, state: dict[str, Any]) -> list[str]:
    """The references standing in the shown sentences of the excerpts the run read, as written."""
    research = state["later"]["research"]
    read = set(research["visited"])
    items = [w for w in research["gathered"] if w["chunk_id"] in read]
    chunks = kb.catalog.chunks_by_id([w["chunk_id"] for w in items])
    out = []
    for item in items:
        chunk = chunks.get(item["chunk_id"])
        if chunk is None:
            continue
        spans = [(u.start, u.end) for u in units(chunk.text) if not item["units"] or u.number in item["units"]]
        for ref in kb.references(chunk.text, chunk.doc_id):
            elsewhere = any(t.chunk_ids and t.doc_id and (t.doc_id, t.section) != (chunk.doc_id, chunk.section)
                            for t in ref.targets)
            if elsewhere and any(a <= ref.reference.start < b for a, b in spans):
                out.append(" ".join(ref.reference.text.split()))
    return out


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("runs_dir", type=Path)
    ap.add_argument("data_dir", type=Path)
    ap.add_argument("--db", default="Sample")
    args = ap.parse_args()
    paths = resolve_paths(data_dir=args.data_dir)
    citing = following = 0
    with KnowledgeBase.open(paths, load_settings(paths), args.db) as kb:
        for run in sorted(p for p in args.runs_dir.iterdir() if (p / "state.json").is_file()):
            state = json.loads((run / "state.json").read_text(encoding="utf-8"))
            refs = cited(kb, state)
            followed = sum(t.get("followed", 0) for t in state["later"]["research"]["tasks"])
            citing += bool(refs)
            following += bool(refs) and followed > 0
            print(f"{run.name}: cites {len(refs)}, followed {followed}" + (f" ({'; '.join(refs[:3])})" if refs else ""))
    share = f"{following}/{citing} = {following / citing:.0%}" if citing else "no run's evidence cites a reference"
    print(f"runs whose evidence cites a reference that followed one: {share}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
