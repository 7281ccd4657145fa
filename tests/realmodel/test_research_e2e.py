"""All five phases against a real (tiny) model through llama.cpp's OpenAI-compatible server: the run
completes, and every quote the report shows stands on the cited PDF page. A tiny model answers badly
and often invalidly; this proves the plumbing, not the answer's quality."""

from __future__ import annotations

import json
import os
import time
from pathlib import Path

import pymupdf
import pytest
from support.llama_server import LlamaServer, llama_server_fixture

from desktop.cli import main
from desktop.kb.databases import ensure_sample
from desktop.kb.textnorm import normalize
from desktop.paths import resolve_paths
from desktop.settings import Settings, save_settings

pytestmark = [pytest.mark.realmodel, pytest.mark.timeout(3600)]

MODEL = os.environ.get("RABBITHOLE_REALMODEL", "smollm2")
server = llama_server_fixture(MODEL, name="server", context=8192)


def _settings(server: LlamaServer) -> Settings:
    s = Settings()
    s.llm.backend, s.llm.host, s.llm.model = "openai", server.url, server.model
    s.llm.context_size, s.llm.max_answer_tokens, s.llm.timeout_s, s.llm.concurrency = 8192, 400, 600, 1
    r = s.research  # small budgets: a 135M model on two cores answers at tens of tokens per second
    r.max_rounds, r.analysis_context_tokens, r.plan_context_tokens = 1, 1200, 1200
    r.plan_min_items, r.plan_max_initial, r.max_chunks_per_task, r.extract_concurrency = 1, 2, 2, 1
    r.context_turns, r.reference_depth, r.synthesis_context_tokens = 1, 1, 2000
    return s


def test_full_run_completes_and_every_shown_quote_is_verified(server: LlamaServer, tmp_path: Path) -> None:
    data = tmp_path / "data"
    paths = resolve_paths(data).ensure()
    save_settings(paths, _settings(server))
    ensure_sample(paths, _settings(server))
    out = tmp_path / "out"
    started = time.monotonic()
    code = main(["research", "What is the annual dose limit for occupationally exposed persons?", "--db", "Sample",
                 "--auto", "--json", "--out", str(out), "--data-dir", str(data)])
    seconds = time.monotonic() - started
    assert code == 0
    report = json.loads((out / "report.json").read_text())
    audit = [json.loads(line) for line in (out / "audit.jsonl").read_text().splitlines()]
    calls = sum(1 for e in audit if e["type"] == "llm_call")
    warnings = [e["message"] for e in audit if e["type"] == "warning"]
    shown = [c for c in report["citations"] if c["quote"]]
    for c in shown:
        assert c["quote_verified"], c
        with pymupdf.open(c["path"]) as doc:
            assert normalize(c["quote"]) in normalize(doc[c["page"] - 1].get_text()), (c["doc"], c["page"], c["quote"])
    for finding in [f for tier in report["findings"].values() for f in tier]:
        assert all(q["verified"] for q in finding["quotes"])  # unverified ones are paraphrases, never quotes
    print(f"\nreal model {server.model}: run done in {seconds:.0f} s, {calls} LLM calls, "
          f"{report['run']['prompt_tokens']}+{report['run']['completion_tokens']} tokens, "
          f"{len(report['citations'])} citations ({len(shown)} with a verified quote), quality {report['quality']['total']}/400, "
          f"{len(warnings)} warnings")
