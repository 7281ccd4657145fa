"""Where a research run lost the facts its question asks for: the stages of each run's evidence, and which
facts each stage still holds.

    python benchmarks/fact_losses.py RUNS_DIR QUESTIONS DATA_DIR [--db Sample]
    python benchmarks/fact_losses.py .bench/laws-de/out/qwen2.5-coder-1.5b \\
        benchmarks/questions/laws-de-research.jsonl .bench/laws-de

RUNS_DIR holds one folder per question id (``answer_quality.py``'s ``--out`` folders, each with its
state.json); QUESTIONS the research questions with their gold facts; DATA_DIR the data folder whose
database the runs read (the chunks' texts come from its catalog). A fact counts at a stage when one of its
keys (``answer_scoring.gold_facts``) stands in that stage's text:

1. gathered: the whole chunks the engine gathered for the tasks (search and references followed);
2. read: those the model read (``research.visited``);
3. shown: the sentences of them the model was shown (each gathered item cut to its best sentences);
4. quoted: the verified quotes of the findings;
5. kept: the verified quotes of the findings the drift filter kept;
6. answer: the report's answer.

Prints one line per question and the totals; with ``--which``, also the facts each stage lost (the facts
the stage before held and it does not); nothing is written.
"""

from __future__ import annotations

import argparse
import json
import re
import sys
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

from answer_scoring import fact_norm, gold_facts  # noqa: E402

from desktop.engine.sentences import units  # noqa: E402
from desktop.kb.database import KnowledgeBase  # noqa: E402
from desktop.paths import resolve_paths  # noqa: E402
from desktop.settings import load_settings  # noqa: E402

STAGES = ("gathered", "read", "shown", "quoted", "kept", "answer")


def _holds(facts: list[dict[str, str]], texts: list[str]) -> set[str]:
    text = fact_norm("\n".join(texts))
    return {f["fact"] for f in facts if re.search(f["pattern"], text)}


def _shown(text: str, numbers: list[int]) -> str:
    by_number = {u.number: u for u in units(text)}
    return " ".join(text[by_number[n].start:by_number[n].end] for n in numbers if n in by_number) or text


def stages(state: dict[str, Any], chunks: dict[str, str]) -> dict[str, list[str]]:
    """The texts of each stage of one run."""
    research = state["later"]["research"]
    gathered = research["gathered"]
    read = set(research["visited"])
    findings = research["findings"]

    def quotes(kept_only: bool) -> list[str]:
        return [q.get("display") or "" for f in findings for q in f["quotes"] if q.get("verified")
                and (not kept_only or not f.get("drift") or f["drift"].get("kept", True))]

    report = state["later"].get("report") or {}
    return {
        "gathered": [chunks.get(w["chunk_id"], "") for w in gathered],
        "read": [chunks.get(w["chunk_id"], "") for w in gathered if w["chunk_id"] in read],
        "shown": [_shown(chunks.get(w["chunk_id"], ""), w["units"]) for w in gathered if w["chunk_id"] in read],
        "quoted": quotes(False),
        "kept": quotes(True),
        "answer": [report.get("answer") or state["later"]["synthesis"].get("answer") or ""],
    }


def lost(held: dict[str, set[str]]) -> list[str]:
    """Each stage with the facts it lost, the stage before holding them ("read lost b, d")."""
    return [f"{stage} lost {', '.join(sorted(held[before] - held[stage]))}"
            for before, stage in zip(STAGES, STAGES[1:]) if held[before] - held[stage]]


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("runs_dir", type=Path)
    ap.add_argument("questions", type=Path)
    ap.add_argument("data_dir", type=Path)
    ap.add_argument("--db", default="Sample")
    ap.add_argument("--which", action="store_true", help="also name the facts each stage lost")
    args = ap.parse_args()
    questions = [json.loads(line) for line in args.questions.read_text(encoding="utf-8").splitlines() if line.strip()]
    paths = resolve_paths(data_dir=args.data_dir)
    totals = dict.fromkeys(STAGES, 0)
    facts_total = 0
    with KnowledgeBase.open(paths, load_settings(paths), args.db) as kb:
        for q in questions:
            state_file = args.runs_dir / q["id"] / "state.json"
            if not state_file.is_file():
                continue
            state = json.loads(state_file.read_text(encoding="utf-8"))
            ids = [w["chunk_id"] for w in state["later"]["research"]["gathered"]]
            chunks = {c: chunk.text for c, chunk in kb.catalog.chunks_by_id(ids).items()}
            facts = gold_facts(q)
            held = {stage: _holds(facts, texts) for stage, texts in stages(state, chunks).items()}
            facts_total += len(facts)
            for stage in STAGES:
                totals[stage] += len(held[stage])
            print(f"{q['id']} ({q['lang']}, {len(facts)} facts): "
                  + ", ".join(f"{stage} {len(held[stage])}" for stage in STAGES))
            if args.which:
                print("    " + "; ".join(lost(held)))
    print(f"all ({facts_total} facts): " + ", ".join(f"{stage} {totals[stage]}" for stage in STAGES))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
