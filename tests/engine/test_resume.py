"""Runs survive: faults, cancellation, a restart, and SIGKILL of a real ``rabbithole research`` process."""

from __future__ import annotations

import asyncio
import json
import os
import signal
import sqlite3
import subprocess
import sys
import time
from pathlib import Path

import pytest
from support import fake_ollama_replies as replies
from support.research_llm import QUESTION_DE, QUESTION_EN

from desktop.engine import events as ev
from desktop.engine.store import RunStore


def test_server_down_pauses_clearly_and_resume_continues(harness, fake_llm) -> None:  # noqa: ANN001
    fake_llm.stop()

    async def down(engine):  # noqa: ANN001, ANN202
        return await engine.start(QUESTION_EN, "Sample")

    state = harness.run(down)
    assert state.status == "paused" and "not running" in state.message and fake_llm.url in state.message
    assert state.message_key == "run_server_down"
    assert state.next_step == "clarify.queries"  # nothing of the failed step was kept
    assert [e.status for e in harness.of(ev.RunStopped)] == ["paused"] and not harness.of(ev.Error)

    fake_llm.start()

    async def back(engine):  # noqa: ANN001, ANN202
        return await engine.resume(state.run_id)

    resumed = harness.run(back)
    assert resumed.status == "waiting" and resumed.clarification.rounds[0].questions
    # why it paused is past: neither the message nor its key (which the window words) stays
    assert resumed.message is None and resumed.message_key == "" and resumed.message_values == {}


def test_cancel_during_a_step_leaves_it_resumable(harness, research_llm) -> None:  # noqa: ANN001
    research_llm.once["RetrievalAnalysis"] = [replies.slow(10, research_llm.default("RetrievalAnalysis", "en", ""))]

    async def scenario(engine):  # noqa: ANN001, ANN202
        task = asyncio.create_task(engine.start(QUESTION_EN, "Sample"))
        while not any(isinstance(e, ev.ChunksRetrieved) for e in harness.events):
            await asyncio.sleep(0.02)
        run_id = harness.events[0].run_id
        started = time.monotonic()
        engine.cancel(run_id)
        state = await task
        assert time.monotonic() - started < 5  # the 10 s LLM call was abandoned, not waited for
        return state

    state = harness.run(scenario)
    assert state.status == "cancelled" and state.next_step == "clarify.analyze"
    assert state.clarification.rounds[0].new_chunks  # the finished retrieval step was kept

    async def again(engine):  # noqa: ANN001, ANN202
        return await engine.resume(state.run_id)

    assert harness.run(again).pending.kind == "answer"


def test_reopened_after_restart(harness) -> None:  # noqa: ANN001
    async def first(engine):  # noqa: ANN001, ANN202
        return await engine.start(QUESTION_DE, "Sample")

    state = harness.run(first)

    async def second(engine):  # noqa: ANN001, ANN202 - a new engine on the same store: the app restarted
        assert [r.run_id for r in engine.runs()] == [state.run_id]
        again = engine.load(state.run_id)
        assert again == state
        return await engine.answer(state.run_id, "Berufliche Exposition.\n/end")

    assert harness.run(second).pending.kind == "approve_plan"
    logged = RunStore(harness.store_file).events(state.run_id)
    assert [e.type for e in logged] == [e.type for e in harness.events]


def _runs(runs_file: Path) -> dict[str, int]:
    """Run id → steps done, read from the store while another process writes it."""
    if not runs_file.exists():
        return {}
    try:
        with sqlite3.connect(f"file:{runs_file}?mode=ro", uri=True, timeout=5) as db:
            rows = db.execute("SELECT run_id, state FROM runs").fetchall()
    except sqlite3.OperationalError:
        return {}
    return {run_id: json.loads(state)["steps"] for run_id, state in rows}


def _steps(runs_file: Path, earlier: dict[str, int]) -> tuple[str | None, int]:
    """The run the test started (the data folder holds other tests' runs too)."""
    new = {r: n for r, n in _runs(runs_file).items() if r not in earlier}
    return next(iter(new.items()), (None, 0))


@pytest.mark.slow
def test_sigkill_during_a_run_loses_at_most_the_step_in_flight(sample_paths, fake_llm, research_llm,  # noqa: ANN001
                                                                tmp_path: Path) -> None:
    paths, _ = sample_paths
    # every analysis takes a while: the process is killed inside one
    research_llm.overrides["RetrievalAnalysis"] = lambda req: replies.slow(
        1.5, research_llm.default("RetrievalAnalysis", "en", ""))
    answers = tmp_path / "answers.txt"
    answers.write_text("Occupational exposure.\nAdults only. /end\napprove\n")
    cmd = [sys.executable, "-m", "desktop", "research", QUESTION_EN, "--db", "Sample", "--answers", str(answers),
           "--llm-host", fake_llm.url, "--model", "research-test", "--data-dir", str(paths.data_dir), "--json"]
    earlier = _runs(paths.runs_file)
    proc = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    deadline = time.monotonic() + 120
    while True:  # wait until the second round is being analysed
        run_id, steps = _steps(paths.runs_file, earlier)
        analyses = research_llm.calls["RetrievalAnalysis"]
        if analyses >= 2 and steps >= 6:
            break
        assert proc.poll() is None, proc.stderr.read().decode()[-2000:]
        assert time.monotonic() < deadline, "the run never reached round 2"
        time.sleep(0.05)
    os.kill(proc.pid, signal.SIGKILL)
    proc.wait(30)
    run_id, steps_at_kill = _steps(paths.runs_file, earlier)
    store = RunStore(paths.runs_file)
    killed = store.load(run_id)
    store.close()
    assert killed.status == "running" and killed.next_step == "clarify.analyze" and killed.steps == steps_at_kill
    assert len(killed.clarification.rounds) == 2 and killed.clarification.rounds[0].answer == "Occupational exposure."

    # the answers file is replayed from its start on resume: the run only needs the rest
    answers.write_text("Adults only. /end\napprove\n")
    resume = [sys.executable, "-m", "desktop", "research", "--resume", run_id, "--answers", str(answers),
              "--llm-host", fake_llm.url, "--model", "research-test", "--data-dir", str(paths.data_dir), "--json"]
    done = subprocess.run(resume, capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr[-2000:]
    summary = json.loads(done.stdout)
    assert summary["run_id"] == run_id and summary["status"] == "done" and summary["phase"] == "report"
    assert summary["rounds"] == 2 and summary["plan"]["approved"]


def _state_of(runs_file: Path, run_id: str) -> dict:
    with sqlite3.connect(f"file:{runs_file}?mode=ro", uri=True, timeout=5) as db:
        return json.loads(db.execute("SELECT state FROM runs WHERE run_id = ?", (run_id,)).fetchone()[0])


@pytest.mark.slow
def test_sigkill_in_phase_3_then_resume_finishes_the_report(sample_paths, fake_llm, research_llm,  # noqa: ANN001
                                                             tmp_path: Path) -> None:
    paths, _ = sample_paths
    research_llm.overrides["ExtractionBatch"] = lambda req: replies.slow(1.0, research_llm.extraction("en", req.body, True))
    base = ["--llm-host", fake_llm.url, "--model", "research-test", "--data-dir", str(paths.data_dir), "--json"]
    earlier = _runs(paths.runs_file)
    proc = subprocess.Popen([sys.executable, "-m", "desktop", "research", QUESTION_EN, "--db", "Sample", "--auto", *base],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    deadline = time.monotonic() + 180
    while True:  # until the first batch of extractions is stored and the next one is being read
        run_id, _ = _steps(paths.runs_file, earlier)
        state = _state_of(paths.runs_file, run_id) if run_id else {}
        if state.get("later", {}).get("research", {}).get("findings") and research_llm.calls["ExtractionBatch"] > 2:
            break
        assert proc.poll() is None, proc.stderr.read().decode()[-2000:]
        assert time.monotonic() < deadline, "the run never reached phase 3"
        time.sleep(0.05)
    os.kill(proc.pid, signal.SIGKILL)
    proc.wait(30)
    killed = RunStore(paths.runs_file).load(run_id)
    before = [f.id for f in killed.later.research.findings]
    assert killed.phase == "research" and killed.next_step in ("research.extract", "research.summarize") and before

    done = subprocess.run([sys.executable, "-m", "desktop", "research", "--resume", run_id, "--auto", *base],
                          capture_output=True, text=True, timeout=600)
    assert done.returncode == 0, done.stderr[-2000:]
    assert json.loads(done.stdout)["status"] == "done"
    final = RunStore(paths.runs_file).load(run_id)
    ids = [f.id for f in final.later.research.findings]
    assert ids[: len(before)] == before and len(ids) == len(set(ids))  # kept, and nothing read twice
    shown = [(w.chunk_id, n) for w in final.later.research.gathered for n in w.units]
    assert len(shown) == len(set(shown)) and final.later.report is not None  # no sentence gathered twice


def test_a_run_an_older_release_saved_as_stopped_loads_as_cancelled() -> None:
    from desktop.engine.state import RunState
    from desktop.engine.store import RunSummary

    state = RunState.model_validate({"run_id": "abc", "question": "q", "database": "Sample", "status": "stopped"})
    summary = RunSummary(run_id="abc", question="q", database="Sample", status="stopped", phase="plan",
                         created_at="", updated_at="")
    assert state.status == summary.status == "cancelled"
