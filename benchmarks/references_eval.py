"""Reference resolution accuracy on the laws-de gold references, through ``rabbithole kb refs``.

    python benchmarks/references_eval.py CORPUS_DIR [--work .bench/retrieval]

Uses (or builds) the laws-de database under ``--work``. For each gold item the context is given to
``kb refs --from <doc> --json``; the reference overlapping the gold span must resolve to the gold
document, unit and start page (every unit for lists), or be reported external for acts outside the
corpus. Prints the accuracy by kind and the misses.

Then, beyond the 30 gold items, every reference in every page of the five laws is parsed and
resolved (each page standing in its own law), and the outcomes are counted by kind: how much of what
the laws cite the resolver places, reports as external, or cannot find.
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
from collections import Counter
from pathlib import Path

from desktop.kb.database import KnowledgeBase
from desktop.paths import resolve_paths
from desktop.settings import Settings


def refs(context: str, doc: str, data_dir: Path) -> list[dict]:
    cmd = [sys.executable, "-m", "desktop", "kb", "refs", context, "--db", "laws-de", "--from", doc, "--json",
           "--data-dir", str(data_dir)]
    done = subprocess.run(cmd, capture_output=True, text=True, check=True)
    return json.loads(done.stdout)


def judge(item: dict, found: list[dict]) -> tuple[bool, str]:
    start = item["context"].index(item["reference"])
    end = start + len(item["reference"])
    match = [r for r in found if r["start"] < end and start < r["end"]]
    if not match:
        return False, f"not parsed (found {[r['reference'] for r in found]})"
    ref = match[0]
    if item["target"]["doc"] is None:
        return ref["status"] == "external", f"{ref['status']}: {ref['reason']}"
    expected = item.get("targets") or [{"doc": item["target"]["doc"], "unit": item["target"]["unit"],
                                        "target_page": item["target_page"]}]
    want = [(e["doc"], e["unit"], e["target_page"]) for e in expected]
    got = [(t["doc"], t["section"], t["page"]) for t in ref["targets"]]
    return got[: len(want)] == want, f"got {got}, want {want} ({ref['reason']})"


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("corpus", type=Path)
    ap.add_argument("--work", type=Path, default=Path(".bench/retrieval"))
    args = ap.parse_args()
    data_dir = args.work / "laws-de"
    subprocess.run([sys.executable, "-m", "desktop", "kb", "ingest", str(args.corpus / "laws-de"), "--db", "laws-de",
                    "--data-dir", str(data_dir)], capture_output=True, check=True)
    items = [json.loads(line) for line in (args.corpus / "laws-de" / "references_dev.jsonl").read_text().splitlines() if line]
    right: Counter[str] = Counter()
    total: Counter[str] = Counter()
    for item in items:
        ok, detail = judge(item, refs(item["context"], item["doc"], data_dir))
        total[item["kind"]] += 1
        right[item["kind"]] += ok
        if not ok:
            print(f"MISS {item['id']} {item['reference']!r}: {detail}")
    print("| kind | right / total |\n|---|---|")
    for kind in sorted(total):
        print(f"| {kind} | {right[kind]} / {total[kind]} |")
    print(f"| **all** | **{sum(right.values())} / {sum(total.values())}** |")
    sweep(data_dir)
    return 0


def sweep(data_dir: Path) -> None:
    outcomes: Counter[tuple[str, str]] = Counter()
    with KnowledgeBase.open(resolve_paths(data_dir), Settings(), "laws-de") as kb:
        for doc in kb.documents():
            for page in kb.pages(doc.doc_id, 1, doc.pages, max_pages=doc.pages):
                for resolved in kb.references(page.text, from_doc=doc.doc_id):
                    outcomes[(resolved.reference.kind, resolved.status)] += 1
    kinds = sorted({k for k, _ in outcomes})
    print("\n| kind | resolved | external | not found |\n|---|---|---|---|")
    for kind in kinds:
        print(f"| {kind} | " + " | ".join(str(outcomes[(kind, s)]) for s in ("resolved", "external", "not_found")) + " |")


if __name__ == "__main__":
    raise SystemExit(main())
