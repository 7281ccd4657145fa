"""Text work over whole chunks and pages stays off the engine's event loop: a quote is verified and located
in the session's counted worker threads, so a long chunk never stalls the steps (or the window) running on
the loop."""

from __future__ import annotations

import threading

import pytest
from support.research_llm import QUESTION_DE

from desktop.engine import estimate, extraction
from desktop.engine.store import RunStore


def test_quotes_are_verified_in_the_worker_threads(harness, research_llm, monkeypatch: pytest.MonkeyPatch) -> None:  # noqa: ANN001
    threads: list[str] = []
    real = extraction.verify_quote

    def verify(quote: str, source: str):  # noqa: ANN202
        threads.append(threading.current_thread().name)
        return real(quote, source)

    monkeypatch.setattr(extraction, "verify_quote", verify)

    async def run(engine):  # noqa: ANN001, ANN202
        state = await engine.start(QUESTION_DE, "Sample")
        state = await engine.end_clarification(state.run_id, "Nur beruflich exponierte Erwachsene.")
        return await engine.approve(state.run_id)

    state = harness.run(run)
    assert state.later.research.findings and threads
    assert all(name.startswith("rabbithole-work") for name in threads), set(threads)


def test_run_saves_and_the_estimates_text_work_run_in_the_worker_threads(harness, research_llm,  # noqa: ANN001
                                                                         monkeypatch: pytest.MonkeyPatch) -> None:
    saves: list[str] = []
    cuts: list[str] = []
    real_save, real_cut = RunStore.save, estimate.cut_text

    def save(self, state, events=()):  # noqa: ANN001, ANN202
        saves.append(threading.current_thread().name)
        return real_save(self, state, events)

    def cut(text: str, aim, language: str) -> str:  # noqa: ANN001
        cuts.append(threading.current_thread().name)
        return real_cut(text, aim, language)

    monkeypatch.setattr(RunStore, "save", save)
    monkeypatch.setattr(estimate, "cut_text", cut)

    async def run(engine):  # noqa: ANN001, ANN202
        state = await engine.start(QUESTION_DE, "Sample")
        return await engine.end_clarification(state.run_id, "Nur beruflich exponierte Erwachsene.")

    state = harness.run(run)
    assert state.plan is not None  # the plan's estimate cut the question's chunks to measure them
    assert saves and cuts
    assert all(name.startswith("rabbithole-work") for name in saves + cuts), set(saves + cuts)
