"""A research run started while a knowledge base is still being embedded uses what exists — every passage
by its words, those with a vector by meaning too — and says so: a warning in the run's log and a line in the
report's run section, in the report's language."""

from __future__ import annotations

from pathlib import Path

from conftest import make_paths
from support import pdfs
from support.research_llm import QUESTION_DE

from desktop.engine import events as ev
from desktop.kb.database import KnowledgeBase
from desktop.kb.progress import CancelToken
from desktop.kb.storage.registry import SAMPLE_DB, ensure_sample
from desktop.report.labels import run_rows
from desktop.report.markdown import to_markdown
from desktop.settings import Settings


def _add_unembedded(paths, settings: Settings, folder: Path) -> int:  # noqa: ANN001
    """A PDF added to the sample whose embedding is still to come (stopped where the vectors begin)."""
    pdfs.statute(folder / "NeuG.pdf", abbreviation="NeuG", sections=3)
    cancel = CancelToken()
    with KnowledgeBase.open(paths, settings, SAMPLE_DB) as kb:
        kb.ingest([folder], cancel=cancel, progress=lambda p: cancel.cancel() if p.stage == "embed" else None)
        missing, total = kb.vector_coverage()
    assert 0 < missing < total
    return missing


def test_a_run_during_embedding_says_what_was_searched_by_words_only(
        tmp_path: Path, embedding_cache_dir: Path, harness, research_llm) -> None:  # noqa: ANN001
    paths = make_paths(tmp_path / "data", embedding_cache_dir)  # a sample of its own: it gets a document more
    assert ensure_sample(paths, Settings()) is not None
    (tmp_path / "new").mkdir()
    missing = _add_unembedded(paths, Settings(), tmp_path / "new")
    harness.paths = paths

    async def run(engine):  # noqa: ANN001, ANN202
        state = await engine.start(QUESTION_DE, SAMPLE_DB)
        state = await engine.end_clarification(state.run_id)
        return await engine.approve(state.run_id)

    state = harness.run(run)
    warning = [w for w in harness.of(ev.Warning) if w.key == "warn_vectors_missing"]
    assert len(warning) == 1 and warning[0].values["missing"] == missing == state.vectors_missing
    assert f"{missing} of {state.passages} passages have no vector yet" in warning[0].message
    report = state.later.report
    assert state.status == "done" and report is not None and report.citations  # the sample's vectors still serve
    assert report.run.vectors_missing == missing and report.run.passages == state.passages
    rows = dict(run_rows(report))
    assert rows["Passagen ohne Vektor bei Beginn"].startswith(f"{missing} von {state.passages}: nur über ihre Wörter")
    assert "Passagen ohne Vektor bei Beginn" in to_markdown(report)


def test_a_fully_embedded_database_says_nothing(harness, research_llm) -> None:  # noqa: ANN001
    async def run(engine):  # noqa: ANN001, ANN202
        state = await engine.start(QUESTION_DE, SAMPLE_DB)
        state = await engine.end_clarification(state.run_id)
        return await engine.approve(state.run_id)

    state = harness.run(run)
    assert state.vectors_missing == 0 and state.passages > 0
    assert not [w for w in harness.of(ev.Warning) if w.key == "warn_vectors_missing"]
    assert "Passagen ohne Vektor" not in to_markdown(state.later.report)
