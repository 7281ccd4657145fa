"""Text work over whole chunks and pages stays off the engine's event loop: a quote is verified and located
in the session's counted worker threads, so a long chunk never stalls the steps (or the window) running on
the loop."""

from __future__ import annotations

import threading

import pytest
from support.research_llm import QUESTION_DE

from desktop.engine import extraction


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
