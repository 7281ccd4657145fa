"""Retrieval quality on the dev sets: does search put the gold evidence page in the top k?

    python benchmarks/retrieval_quality.py CORPUS_DIR [--work DIR] [--sets a,b] [--modes hybrid,dense,lexical]
                                           [--server SETTINGS.json | --local-server] [--cache-from DIR]

CORPUS_DIR holds the evaluation sets (financebench-dev, legalquad-dev, obliqa-dev, laws-de). Each set
is ingested through the command line into its own data folder under ``--work`` (kept, so a rerun only
searches) and its questions run through ``rabbithole kb search --queries`` in each mode, k = 10.

Per question, with the ranked chunks mapped to (document, page):
- recall@k: share of the question's gold evidence pages among the top-k chunks' pages
  (an ObliQA passage continuing to ``page_end`` counts on any of its pages);
- MRR: 1 / rank of the first chunk on a gold page (0 when none in the top 10).
Prints a Markdown table and writes the figures as JSON beside the work folder.

With ``--server``/``--local-server`` (bench_server.py) every set goes into a knowledge base on the team
server instead; ``--cache-from`` copies each set's embedding cache from an earlier embedded run's work
folder, so both modes rank the very same vectors and only the backends differ.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import subprocess
import sys
import time
from pathlib import Path

from bench_server import add_arguments, settings_from

from desktop.kb.server.connect import PASSWORD_ENV
from desktop.paths import resolve_paths
from desktop.settings import Settings, save_settings

SETS = ("financebench-dev", "legalquad-dev", "obliqa-dev", "laws-de")
K = 10


ENV: dict[str, str] = dict(os.environ)  # the password of a team server joins it (never the settings file)


def cli(*args: str, data_dir: Path) -> subprocess.CompletedProcess[str]:
    cmd = [sys.executable, "-m", "desktop", *args, "--data-dir", str(data_dir)]
    return subprocess.run(cmd, capture_output=True, text=True, check=False, env=ENV)


def prepare(data_dir: Path, settings: Settings, cache_from: Path | None) -> None:
    """A set's data folder on the chosen backend, with the embeddings an earlier run computed."""
    paths = resolve_paths(data_dir).ensure()
    if settings.kb.mode == "server":
        if settings.kb.server.password:
            ENV[PASSWORD_ENV] = settings.kb.server.password
        save_settings(paths, settings.changed(kb={"server": {"password": None}}))
    cached = cache_from / data_dir.name / "cache" / "embeddings.sqlite" if cache_from else None
    if cached and cached.is_file() and not (paths.cache_dir / "embeddings.sqlite").exists():
        paths.cache_dir.mkdir(parents=True, exist_ok=True)
        shutil.copy2(cached, paths.cache_dir / "embeddings.sqlite")


def pdf_folder(corpus: Path, name: str) -> Path:
    return corpus / name / "pdfs" if (corpus / name / "pdfs").is_dir() else corpus / name


def gold_pages(question: dict) -> list[set[tuple[str, int]]]:
    """One set of acceptable (doc, page) per evidence item."""
    items = []
    for ev in question["evidence"]:
        last = ev.get("page_end") or ev["page"]
        items.append({(ev["doc"], p) for p in range(ev["page"], last + 1)})
    return items


def score(question: dict, hits: list[dict], k: int) -> tuple[float, float]:
    """(recall@k, reciprocal rank) of one question."""
    evidence = gold_pages(question)
    ranked = [(Path(h["doc"]).name, h["page"]) for h in hits]
    found = sum(1 for pages in evidence if any(r in pages for r in ranked[:k]))
    rr = next((1.0 / i for i, r in enumerate(ranked[:K], start=1) if any(r in pages for pages in evidence)), 0.0)
    return found / len(evidence), rr


def ensure_ingested(corpus: Path, name: str, data_dir: Path) -> dict[str, object]:
    started = time.perf_counter()
    done = cli("kb", "ingest", str(pdf_folder(corpus, name)), "--db", name, data_dir=data_dir)
    if done.returncode != 0:
        raise SystemExit(f"ingest of {name} failed:\n{done.stdout}\n{done.stderr[-3000:]}")
    return {"seconds": round(time.perf_counter() - started, 1), "summary": done.stdout.strip().splitlines()[-1]}


def run_set(corpus: Path, name: str, work: Path, modes: list[str], settings: Settings,
            cache_from: Path | None) -> dict[str, object]:
    data_dir = work / name
    prepare(data_dir, settings, cache_from)
    ingest = ensure_ingested(corpus, name, data_dir)
    questions = [json.loads(line) for line in (corpus / name / "questions_dev.jsonl").read_text().splitlines() if line]
    queries = work / f"{name}.queries.jsonl"
    queries.write_text("".join(json.dumps({"id": q["id"], "query": q["question"]}, ensure_ascii=False) + "\n"
                               for q in questions))
    result: dict[str, object] = {"questions": len(questions), "ingest": ingest}
    for mode in modes:
        started = time.perf_counter()
        done = cli("kb", "search", "--queries", str(queries), "--db", name, "--mode", mode, "--k", str(K), data_dir=data_dir)
        if done.returncode != 0:
            raise SystemExit(f"search failed:\n{done.stderr[-3000:]}")
        seconds = time.perf_counter() - started
        hits = {row["id"]: row["hits"] for row in map(json.loads, done.stdout.splitlines())}
        per_q = [(score(q, hits[q["id"]], 5), score(q, hits[q["id"]], 10)) for q in questions]
        result[mode] = {
            "recall@5": round(sum(s5[0] for s5, _ in per_q) / len(per_q), 3),
            "recall@10": round(sum(s10[0] for _, s10 in per_q) / len(per_q), 3),
            "mrr": round(sum(s10[1] for _, s10 in per_q) / len(per_q), 3),
            "seconds": round(seconds, 1),
        }
    return result


def table(results: dict[str, dict]) -> str:
    modes = [m for m in ("hybrid", "dense", "lexical") if any(m in r for r in results.values())]
    lines = ["| set | questions | " + " | ".join(f"{m} R@5 / R@10 / MRR" for m in modes) + " |",
             "|---|---|" + "---|" * len(modes)]
    avg = {m: [0.0, 0.0, 0.0] for m in modes}
    for name, r in results.items():
        cells = []
        for m in modes:
            v = r[m]
            cells.append(f"{v['recall@5']:.3f} / {v['recall@10']:.3f} / {v['mrr']:.3f}")
            for i, key in enumerate(("recall@5", "recall@10", "mrr")):
                avg[m][i] += v[key] / len(results)
        lines.append(f"| {name} | {r['questions']} | " + " | ".join(cells) + " |")
    lines.append("| **mean** | | " + " | ".join(" / ".join(f"{x:.3f}" for x in avg[m]) for m in modes) + " |")
    return "\n".join(lines)


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("corpus", type=Path)
    ap.add_argument("--work", type=Path, default=Path(".bench/retrieval"))
    ap.add_argument("--sets", default=",".join(SETS))
    ap.add_argument("--modes", default="hybrid,dense,lexical")
    ap.add_argument("--cache-from", type=Path, metavar="DIR", help="an earlier run's work folder: reuse its embeddings")
    add_arguments(ap)
    args = ap.parse_args()
    settings = settings_from(args)
    args.work.mkdir(parents=True, exist_ok=True)
    results = {}
    for name in args.sets.split(","):
        results[name] = run_set(args.corpus, name, args.work, args.modes.split(","), settings, args.cache_from)
        print(f"{name}: {json.dumps(results[name])}", file=sys.stderr)
    (args.work / "retrieval_quality.json").write_text(json.dumps(results, indent=2))
    print(table(results))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
