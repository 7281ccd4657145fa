"""The quality section's measured figures (``steps/quality.measured``): which tasks count as answered."""

from __future__ import annotations

from types import SimpleNamespace

import pytest

from desktop.engine.research_state import Finding, QuoteRecord
from desktop.engine.schemas import QualityAnswer
from desktop.engine.state import Plan, RunState, Todo
from desktop.engine.steps.quality import failure_detail, measured
from desktop.settings import Settings

QUESTION = "Wie lange sind Aufzeichnungen über die ermittelte Dosis aufzubewahren?"
SENTENCE = "Die Aufzeichnungen sind bis zur Vollendung des 75. Lebensjahres aufzubewahren."


def _measured(by_parts: bool) -> tuple[int, int]:
    """Tasks answered and tasks in all, for a plan of the question and one task whose answer cites only the
    question's own finding."""
    plan = Plan(items=[Todo(id=0, task=QUESTION), Todo(id=1, task="Strahlenschutzbereiche bei Oberflächen")],
                by_parts=by_parts)
    state = RunState(run_id="r", question=QUESTION, database="Sample", language="de", doc_language="de", plan=plan)
    quote = QuoteRecord(proposed=SENTENCE, verified=True, match="exact", display=SENTENCE, chunk_id="c1", doc_id="d1",
                        doc="StrlSchG.pdf", page=99)
    state.later.research.findings = [Finding(id="F1", task_id=0, chunk_id="c1", doc_id="d1", doc="StrlSchG.pdf",
                                             page=99, tier=1, relevance=1.0, quotes=[quote])]
    state.later.synthesis.answer = "Bis zum 75. Lebensjahr [1]."
    state.later.synthesis.sources = ["F1"]
    ctx = SimpleNamespace(state=state, settings=Settings().research)
    rating = QualityAnswer(grounding=50, completeness=50, structure=50, citations=50)
    quality = measured(ctx, rating, rated=False)  # type: ignore[arg-type]
    return quality.tasks_answered, quality.tasks_total


def test_in_a_plan_the_model_made_the_question_is_a_task_of_its_own() -> None:
    """Seen in the window walk (a 1.5B model's plan: the question and one off-task sentence): the answer cited the
    question's own finding, and the quality section said "Aufgaben mit Beleg 0 / 1"."""
    assert _measured(by_parts=False) == (1, 2)


def test_in_a_plan_by_the_questions_parts_the_question_is_answered_through_them() -> None:
    assert _measured(by_parts=True) == (0, 1)


@pytest.mark.parametrize(
    ("detail", "language", "said"),
    [
        ("the model m gave no valid answer for synthesis.write in 3 attempts; the last problem: No statement is said "
         "by the sources it names. Build each statement from its sources, with their words and numbers, and name "
         "only those sources. Try again, choose a larger model, or simplify the request", "de",
         "keine Aussage stand in den Quellen, die sie nannte; 3 Versuche"),
        ("the model m gave no valid answer for synthesis.write in 2 attempts; the last problem: No statement names a "
         "source number between 1 and 4. Give every statement its sources", "en",
         "no statement named a source from the list; 2 attempts"),
        ("the server closed the connection", "de", "die Fehlermeldung steht im Prüfprotokoll (audit.jsonl)"),
    ],
)
def test_why_the_model_failed_is_said_in_the_reports_language(detail: str, language: str, said: str) -> None:
    assert failure_detail(detail, language) == said
