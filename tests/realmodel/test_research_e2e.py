"""All five phases against a real model through llama.cpp's OpenAI-compatible server, driven through the
command line (``rabbithole research … --auto --json --out DIR``) over the bundled sample database.

``test_research_answers_from_the_gold_page``: Qwen2.5-Coder-1.5B-Instruct (the smallest model the design
promises to serve; ``RABBITHOLE_REALMODEL`` picks another), context 16384, the product's default research
settings, and a German question whose answer stands on a known page (laws-dev-02 of
``../shared/corpus/laws-de``: § 78 StrlSchG, page 52 of StrlSchG.pdf). The run must end with a report;
every quote it shows as verified must stand verbatim on its cited PDF page (recomputed here from the PDF
with the corpus' verbatim rule, not taken from the report's flags); and at least one verified quote must
come from the page that holds the answer. Takes 10-20 minutes on two cores.

``test_tiny_model_run_completes_and_every_shown_quote_is_verified``: the plumbing with SmolLM2-135M, a
model that misbehaves in every way (small budgets, so it finishes in minutes)."""

from __future__ import annotations

import json
import os
import time
from pathlib import Path

import pytest
from support.llama_server import DEFAULT_MODEL, LlamaServer, llama_server_fixture
from support.report_checks import PageTexts, check_quotes, shown_quotes

from desktop.cli import main
from desktop.kb.storage.registry import ensure_sample
from desktop.paths import resolve_paths
from desktop.settings import Settings, save_settings

pytestmark = [pytest.mark.realmodel, pytest.mark.timeout(5400)]

MODEL = os.environ.get("RABBITHOLE_REALMODEL", DEFAULT_MODEL)
CONTEXT = 16384
server = llama_server_fixture(MODEL, name="server", scope="function", context=CONTEXT, parallel=1)
tiny = llama_server_fixture("smollm2", name="tiny", scope="function", context=8192)

# laws-dev-02 of ../shared/corpus/laws-de/questions_dev.jsonl; the sample database holds the same PDFs.
QUESTION = ("Welche effektive Jahresdosis darf eine beruflich exponierte Person höchstens erhalten, und welche "
            "Ausnahme kann die Behörde im Einzelfall zulassen?")
GOLD = {("StrlSchG.pdf", 52)}  # § 78: "Der Grenzwert der effektiven Dosis beträgt … 20 Millisievert im Kalenderjahr."
SAMPLE_PDFS = Path(__file__).resolve().parents[2] / "kb"


def run_research(data: Path, out: Path, question: str) -> tuple[int, float]:
    started = time.monotonic()
    code = main(["research", question, "--db", "Sample", "--auto", "--json", "--out", str(out), "--data-dir", str(data)])
    return code, time.monotonic() - started


def measurements(model: str, out: Path, seconds: float, code: int) -> str:
    report = json.loads((out / "report.json").read_text()) if (out / "report.json").is_file() else {}
    summary = json.loads((out / "summary.json").read_text()) if (out / "summary.json").is_file() else {}
    run = report.get("run") or {}
    usage = summary.get("usage") or {}
    calls = run.get("llm_calls", usage.get("calls"))
    tokens = f"{run.get('prompt_tokens', usage.get('prompt_tokens'))}+{run.get('completion_tokens', usage.get('completion_tokens'))}"
    quotes = shown_quotes(report) if report else []
    return (f"real model {model}: exit {code} in {seconds:.0f} s, status {summary.get('status')} "
            f"({summary.get('message') or 'no message'}), {calls} LLM calls, {tokens} tokens, report "
            f"{'yes' if report else 'no'}{' (' + str(report['kind']) + ')' if report.get('kind') else ''}, "
            f"{len(report.get('citations') or [])} citations, {len(quotes)} verified quotes "
            f"({sum(1 for q in quotes if (q['doc'], q['page']) in GOLD)} on the gold page)")


def test_research_answers_from_the_gold_page(server: LlamaServer, tmp_path: Path) -> None:
    data, out = tmp_path / "data", tmp_path / "out"
    paths = resolve_paths(data).ensure()
    # the product's defaults but for the server: one slot, and a CPU's speed per call
    s = Settings().changed(llm={"backend": "openai", "host": server.url, "model": server.model,
                                "context_size": CONTEXT, "concurrency": 1, "timeout_s": 1800})
    save_settings(paths, s)
    ensure_sample(paths, s)
    code, seconds = run_research(data, out, QUESTION)
    print("\n" + measurements(server.model, out, seconds, code))
    assert code == 0
    assert (out / "report.json").is_file()
    report = json.loads((out / "report.json").read_text())
    assert_quotes_verbatim(report)
    quotes = shown_quotes(report)
    assert any((q["doc"], q["page"]) in GOLD for q in quotes), [(q["doc"], q["page"]) for q in quotes]


def assert_quotes_verbatim(report: dict) -> None:
    """Every quote the report shows as verified stands on its cited page, recomputed from the PDF."""
    checked = check_quotes(report, PageTexts(SAMPLE_PDFS))
    assert checked["verbatim_quotes"] == checked["verified_quotes"], checked["not_verbatim"]


def _tiny_settings(server: LlamaServer) -> Settings:
    return Settings().changed(
        llm={"backend": "openai", "host": server.url, "model": server.model,
             "context_size": 8192, "max_answer_tokens": 400, "timeout_s": 600, "concurrency": 1},
        # small budgets: a 135M model on two cores answers at tens of tokens per second
        research={"max_rounds": 1, "analysis_context_tokens": 1200, "plan_context_tokens": 1200,
                  "plan_min_items": 1, "plan_max_initial": 2, "max_chunks_per_task": 2, "extract_concurrency": 1,
                  "context_turns": 1, "reference_depth": 1, "synthesis_context_tokens": 2000})


def test_tiny_model_run_completes_and_every_shown_quote_is_verified(tiny: LlamaServer, tmp_path: Path) -> None:
    data, out = tmp_path / "data", tmp_path / "out"
    paths = resolve_paths(data).ensure()
    save_settings(paths, _tiny_settings(tiny))
    ensure_sample(paths, _tiny_settings(tiny))
    code, seconds = run_research(data, out, "What is the annual dose limit for occupationally exposed persons?")
    print("\n" + measurements(tiny.model, out, seconds, code))
    assert code == 0
    report = json.loads((out / "report.json").read_text())
    assert all(c["quote_verified"] for c in report["citations"] if c["quote"]), report["citations"]
    assert_quotes_verbatim(report)
    for finding in [f for tier in report["findings"].values() for f in tier]:
        assert all(q["verified"] for q in finding["quotes"])  # unverified ones are paraphrases, never quotes
