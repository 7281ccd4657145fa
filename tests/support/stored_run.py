"""A finished run with a small report, saved in a data folder's run store, for window tests that need
one without running the research."""

from __future__ import annotations

from datetime import UTC, datetime

from desktop.engine.state import RunState
from desktop.engine.store import RunStore
from desktop.paths import AppPaths
from desktop.report.model import Quality, Report, RunMeta


def stored_run(paths: AppPaths, question: str, run_id: str = "r-stored") -> RunState:
    state = RunState(run_id=run_id, question=question, database="Sample", language="de", status="done",
                     phase="report")
    now = datetime.now(UTC)
    state.later.report = Report(
        question=question, language="de", title=question[:40], answer="Der Grenzwert beträgt 1 mSv.",
        quality=Quality(grounding=80, completeness=80, structure=80, citations=80, total=320,
                        cited_sentence_share=1.0, verified_quote_share=1.0),
        run=RunMeta(run_id=run_id, database="Sample", llm_backend="ollama", llm_host="h", model="m", embedder="e",
                    started_at=now, finished_at=now))
    store = RunStore(paths.runs_file)
    try:
        store.save(state)
    finally:
        store.close()
    return state
