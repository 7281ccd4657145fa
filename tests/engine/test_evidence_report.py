"""A run that found evidence ends in a report whatever the model does: when no usable answer can be
written, the report lists the verified findings by task and tier (an evidence report, labelled as such),
with the reason in its quality section; the CLI exits 0."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pymupdf
from support import fake_ollama_replies as replies
from support.research_llm import QUESTION_DE, QUESTION_EN

from desktop.cli import main
from desktop.engine import events as ev
from desktop.kb.textnorm import normalize


async def _to_report(engine, question: str):  # noqa: ANN001, ANN202
    state = await engine.start(question, "Sample")
    state = await engine.end_clarification(state.run_id)
    return await engine.approve(state.run_id)


def test_no_usable_synthesis_gives_an_evidence_report_of_the_verified_findings(harness, research_llm) -> None:  # noqa: ANN001
    # the failure seen with a real 1.5B model: statements without a source from the list, every time
    research_llm.overrides["SynthesisAnswer"] = {"answer": [{"text": "Es gibt einen Grenzwert.", "sources": [99]}]}
    state = harness.run(lambda engine: _to_report(engine, QUESTION_DE))
    report = state.later.report
    assert state.status == "done" and report is not None and report.kind == "evidence"
    assert report.answer.startswith("**Belegbericht.** Dies ist ein Belegbericht: Das Sprachmodell konnte keine")
    assert not report.quality.assessed and "keine verwendbare Antwort" in report.quality.notes
    assert "No statement names a source number" in report.quality.notes  # what the model kept doing
    kept = [f for f in state.later.research.findings if f.drift is None or f.drift.kept]
    assert len(report.citations) == len(kept) > 0  # every kept finding, each cited once
    assert set(re.findall(r"^### Aufgabe (\d+):", report.answer, re.M)) == {str(t.task_id) for t in state.later.research.tasks
                                                                          if any(f.task_id == t.task_id for f in kept)}
    for c in report.citations:
        assert c.quote_verified and c.quote
        with pymupdf.open(c.path) as doc:
            assert normalize(c.quote) in normalize(doc[c.page - 1].get_text())
        assert f"[{c.n}]" in report.answer
    calls = [c for c in harness.of(ev.LlmCall) if c.purpose == "synthesis.write"]
    assert len(calls) == 1 and calls[0].failed and len(calls[0].attempts) == 3  # all three tries audited
    assert "synthesis.quality" not in {c.purpose for c in harness.of(ev.LlmCall)}  # nothing to grade
    assert harness.of(ev.ReportReady)[-1].kind == "evidence"


def test_no_findings_give_a_report_that_says_so(harness, research_llm) -> None:  # noqa: ANN001
    research_llm.overrides["ExtractionBatch"] = {"readings": [], "requests": []}
    state = harness.run(lambda engine: _to_report(engine, QUESTION_EN))
    report = state.later.report
    assert state.status == "done" and report.kind == "evidence" and not report.citations
    assert "no evidence for this question" in report.answer
    assert "synthesis.write" not in {c.purpose for c in harness.of(ev.LlmCall)}


def test_cli_exits_0_with_an_evidence_report(capsys, sample_paths, fake_llm, research_llm, tmp_path: Path) -> None:  # noqa: ANN001
    research_llm.overrides["SynthesisAnswer"] = replies.invalid_json()
    paths, _ = sample_paths
    out = tmp_path / "out"
    code = main(["research", QUESTION_EN, "--db", "Sample", "--auto", "--json", "--out", str(out), "--llm-host",
                 fake_llm.url, "--model", "research-test", "--data-dir", str(paths.data_dir)])
    captured = capsys.readouterr()
    assert code == 0 and json.loads(captured.out)["status"] == "done"
    assert "evidence report ready" in captured.err
    report = json.loads((out / "report.json").read_text())
    assert report["kind"] == "evidence" and report["citations"] and not report["quality"]["assessed"]
    assert "Evidence report" in (out / "report.md").read_text()
    audit = [json.loads(line) for line in (out / "audit.jsonl").read_text().splitlines()]
    failed = [e for e in audit if e["type"] == "llm_call" and e["purpose"] == "synthesis.write"]
    assert failed and failed[0]["failed"] and all(a["error"] for a in failed[0]["attempts"])
