"""Does a headless run end in a report whatever the model and the server do? Runs ``rabbithole research
… --auto`` (one subprocess per run, the product's default retry schedule) against the tests' fake Ollama
server on 127.0.0.1 — the real ``ollama`` client over HTTP, nothing inside the engine replaced — in three
conditions, each over several seeds:

- ``random``: a model that answers every call with random but schema-valid JSON (``RandomSchemaModel``:
  any string, number, list length and enum value the schema allows);
- ``faults``: the scripted research model behind a server with ``--rate`` transient faults per call
  (HTTP 500, invalid JSON, cut-off JSON, slow answers; ``FaultPlan``);
- ``both``: random answers and faults at once.

    python benchmarks/resilience.py PDF_DIR [--seeds 10] [--rate 0.3] [--conditions random,faults,both]
    python benchmarks/resilience.py kb

PDF_DIR: the bundled laws (``kb/`` or ``../shared/corpus/laws-de``) give the ``Sample`` database from
the shipped vectors; any other folder is ingested into ``bench-resilience``. The questions are the
scripted model's (German for ``random``, English for the others). One JSON line per run goes to
``--results``: condition, seed, exit code, report written and its kind, status, wall time, LLM calls,
faults injected, citations and how many shown quotes are verified."""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import time
from collections import Counter
from datetime import datetime, timezone
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests"))

from research_cli import ROOT, engine_version, is_bundled_sample, parse_summary, rabbithole  # noqa: E402
from support.fake_ollama import FakeOllama  # noqa: E402
from support.fake_ollama_replies import chat_model  # noqa: E402
from support.random_model import FaultPlan, RandomSchemaModel  # noqa: E402
from support.research_llm import QUESTION_DE, QUESTION_EN, ResearchLLM  # noqa: E402

MODEL = "research-test"
CONDITIONS = ("random", "faults", "both")


def prepare(pdf_dir: Path, data: Path) -> str:
    """The database name, built once in ``data``."""
    db = "Sample" if is_bundled_sample(pdf_dir) else "bench-resilience"
    if db != "Sample":
        done = rabbithole(["kb", "ingest", str(pdf_dir), "--db", db], data, capture_output=True)
        if done.returncode != 0:
            raise SystemExit(f"kb ingest failed: {done.stderr[-500:]}")
    listed = rabbithole(["kb", "list", "--db", db, "--json"], data, capture_output=True)
    if listed.returncode != 0:
        raise SystemExit(f"kb list --db {db} failed: {listed.stderr[-500:]}")
    return db


def responder_and_faults(condition: str, seed: int, rate: float) -> tuple[object, FaultPlan | None, str]:
    if condition == "random":
        return RandomSchemaModel(seed=seed), None, QUESTION_DE
    faults = FaultPlan(rate=rate, seed=seed)
    if condition == "faults":
        return ResearchLLM(), faults, QUESTION_EN
    return RandomSchemaModel(seed=seed), faults, QUESTION_EN


def run_one(condition: str, seed: int, args: argparse.Namespace, db: str) -> dict:
    responder, faults, question = responder_and_faults(condition, seed, args.rate)
    out = args.data_dir / "out" / f"{condition}-{seed}"
    with FakeOllama([chat_model(f"{MODEL}:latest", "qwen3", 32768)], responder=responder, faults=faults) as fake:
        started = time.monotonic()
        try:
            done = rabbithole(["research", question, "--db", db, "--auto", "--json", "--out", str(out),
                               "--llm-host", fake.url, "--model", MODEL], args.data_dir, capture_output=True,
                              timeout=args.timeout_s)
        except subprocess.TimeoutExpired as timeout:  # recorded as a failed run, not a crash of the benchmark
            done = subprocess.CompletedProcess(timeout.cmd, -9, _text(timeout.stdout), _text(timeout.stderr))
        wall = time.monotonic() - started
        injected = Counter(kind for _, kind in fake.injected)
    summary = parse_summary(done.stdout) or {}
    report_file = out / "report.json"
    report = json.loads(report_file.read_text(encoding="utf-8")) if report_file.is_file() else None
    citations = (report or {}).get("citations") or []
    quoted = [c for c in citations if c.get("quote")]
    row = {"condition": condition, "seed": seed, "rate": args.rate if faults else 0.0,
           "exit_code": done.returncode, "report": report is not None,
           "report_kind": (report or {}).get("kind"), "status": summary.get("status"),
           "message": summary.get("message"), "wall_s": round(wall, 1),
           "llm_calls": ((report or {}).get("run") or {}).get("llm_calls"),
           "faults_injected": dict(injected), "citations": len(citations),
           "quotes_shown": len(quoted), "quotes_verified": sum(1 for c in quoted if c.get("quote_verified")),
           "engine": args.engine, "recorded_at": datetime.now(timezone.utc).isoformat(timespec="seconds")}
    if done.returncode != 0 or report is None:
        row["stderr_tail"] = done.stderr[-1500:]
    return row


def _text(value: bytes | str | None) -> str:
    return value.decode(errors="replace") if isinstance(value, bytes) else value or ""


def table(rows: list[dict]) -> str:
    lines = ["| condition | runs | exit 0 | report | synthesis / evidence | faults injected | wall s (median) |",
             "|---|---:|---:|---:|---|---:|---:|"]
    for condition in CONDITIONS:
        mine = [r for r in rows if r["condition"] == condition]
        if not mine:
            continue
        kinds = Counter(r["report_kind"] for r in mine if r["report"])
        walls = sorted(r["wall_s"] for r in mine)
        lines.append(f"| {condition} | {len(mine)} | {sum(r['exit_code'] == 0 for r in mine)} | "
                     f"{sum(r['report'] for r in mine)} | {kinds.get('synthesis', 0)} / {kinds.get('evidence', 0)} | "
                     f"{sum(sum(r['faults_injected'].values()) for r in mine)} | {walls[len(walls) // 2]:.0f} |")
    return "\n".join(lines)


def parse_args(argv: list[str] | None) -> argparse.Namespace:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("pdf_dir", type=Path, help="folder with the PDFs to research in")
    ap.add_argument("--seeds", type=int, default=10, help="runs per condition (seeds 1..N)")
    ap.add_argument("--rate", type=float, default=0.3, help="share of calls that fail transiently (default 0.3)")
    ap.add_argument("--conditions", default=",".join(CONDITIONS), help="comma-separated, of " + ", ".join(CONDITIONS))
    ap.add_argument("--timeout-s", type=float, default=900, help="per run")
    ap.add_argument("--data-dir", type=Path, default=ROOT / ".bench" / "resilience")
    ap.add_argument("--results", type=Path, default=ROOT / "benchmarks" / "results" / "resilience.jsonl")
    args = ap.parse_args(argv)
    args.engine = engine_version()
    args.data_dir = args.data_dir.resolve()
    return args


def main(argv: list[str] | None = None) -> int:
    args = parse_args(argv)
    conditions = [c for c in args.conditions.split(",") if c]
    if unknown := set(conditions) - set(CONDITIONS):
        raise SystemExit(f"unknown condition(s): {', '.join(sorted(unknown))}")
    db = prepare(args.pdf_dir.resolve(), args.data_dir)
    args.results.parent.mkdir(parents=True, exist_ok=True)
    rows = []
    for condition in conditions:
        for seed in range(1, args.seeds + 1):
            row = run_one(condition, seed, args, db)
            rows.append(row)
            with open(args.results, "a", encoding="utf-8") as fh:
                fh.write(json.dumps(row, ensure_ascii=False) + "\n")
            print(f"{condition} seed {seed}: exit {row['exit_code']}, report {row['report_kind'] or row['report']}, "
                  f"{row['wall_s']:.0f} s, faults {row['faults_injected']}", flush=True)
    print("\n" + table(rows))
    return 0 if all(r["exit_code"] == 0 and r["report"] for r in rows) else 1


if __name__ == "__main__":
    raise SystemExit(main())
