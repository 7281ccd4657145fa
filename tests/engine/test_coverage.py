"""The answer's coverage of the plan (coverage.py): a task the answer cites without the figure its best quote
states for it gets that quote, as a task the answer leaves out does. The case is laws-research-11 with a 1.5B
model: the statement on the deadline cited the finding that states "sechs Monate" and named no period."""

from __future__ import annotations

from desktop.engine.coverage import _unstated
from desktop.engine.research_state import Finding, QuoteRecord
from desktop.engine.state import Todo

TASK = Todo(id=1, task="Innerhalb welcher Frist ist die vollständige und zusammenfassende Meldung der Behörde "
                       "vorzulegen?")
QUOTE = ("Er hat dafür zu sorgen, dass der zuständigen Behörde spätestens sechs Monate nach Eintritt des bedeutsamen "
         "Vorkommnisses eine vollständige und zusammenfassende Meldung vorgelegt wird.")


def _finding(text: str) -> Finding:
    quote = QuoteRecord(proposed=text, verified=True, match="exact", display=text, chunk_id="c1", doc_id="d1",
                        doc="StrlSchV.pdf", page=55)
    return Finding(id="F7", task_id=1, chunk_id="c1", doc_id="d1", doc="StrlSchV.pdf", page=55, tier=1,
                   relevance=1.0, quotes=[quote])


def test_a_cited_task_whose_figure_the_answer_does_not_state_gets_its_quote() -> None:
    finding = _finding(QUOTE)
    said_nothing = "Die vollständige und zusammenfassende Meldung ist der Behörde vorzulegen [1]."
    assert _unstated(TASK, finding, said_nothing, "de")
    assert not _unstated(TASK, finding, "Die Meldung ist nach sechs Monaten vorzulegen [1].", "de")
    # a citation marker is no figure: "[6]" does not state "6 Monate"
    assert _unstated(TASK, _finding(QUOTE.replace("sechs", "6")), said_nothing.replace("[1]", "[6]"), "de")
    # a quote that states no figure, or one off the task, adds nothing
    assert not _unstated(TASK, _finding("Die Meldung ist der Behörde vorzulegen."), said_nothing, "de")
    off_task = "Die Betriebsanleitung ist bereitzuhalten, und zwar mindestens fünf Jahre lang."
    assert not _unstated(TASK, _finding(off_task), said_nothing, "de")


def test_the_quote_of_a_finding_that_answers_the_task_is_the_one_weighed_and_shown() -> None:
    """A finding quotes each sentence the engine showed of its excerpt, the model's pick first (seen: the model
    named the paragraph's first sentence, the period stood in the next): the sentence that answers the task is
    the one whose figure counts and the one the answer shows."""
    from desktop.engine.coverage import _said

    first = "(4) Der Strahlenschutzverantwortliche hat dafür zu sorgen, dass jedes bedeutsame Vorkommnis gemeldet wird."
    finding = _finding(first)
    finding.quotes.append(_finding(QUOTE).quotes[0])
    said_nothing = "Die vollständige und zusammenfassende Meldung ist der Behörde vorzulegen [1]."
    assert _unstated(TASK, finding, said_nothing, "de")
    line, quoted = _said(TASK, finding, "", "de")
    assert quoted and "sechs Monate" in line and "jedes bedeutsame Vorkommnis" not in line


LIFETIME = ("Der Grenzwert für die Summe der in allen Kalenderjahren ermittelten effektiven Dosen beruflich exponierter "
            "Personen beträgt 400 Millisievert. Die zuständige Behörde kann im Benehmen mit einem ermächtigten Arzt "
            "eine zusätzliche berufliche Exposition zulassen, wenn diese nicht mehr als 10 Millisievert effektive Dosis "
            "im Kalenderjahr beträgt und die beruflich exponierte Person einwilligt.")
LIFETIME_TASK = Todo(id=2, task="Der Grenzwert für die Summe der effektiven Dosen über das gesamte Berufsleben?")


def test_a_figure_the_answer_leaves_out_counts_though_it_states_another_of_the_quote() -> None:
    """laws-research-01 with a 1.5B model: the answer stated the 10 Millisievert of § 77 StrlSchG and not its 400."""
    finding = _finding(LIFETIME)
    answer = "Die Behörde kann eine zusätzliche Exposition von nicht mehr als 10 Millisievert zulassen [1]."
    assert _unstated(LIFETIME_TASK, finding, answer, "de")
    assert not _unstated(LIFETIME_TASK, finding, answer.replace("[1].", "; die Grenze sind 400 Millisievert [1]."), "de")


def test_a_task_may_be_answered_by_what_another_task_gathered() -> None:
    """The part before it had gathered § 77 StrlSchG first, so the part on the lifetime limit found nothing of its
    own; a finding of another task counts for it where its quote answers it, and only then."""
    from desktop.engine.coverage import _candidates

    other = _finding(LIFETIME).model_copy(update={"task_id": 1, "id": "F1"})
    off = _finding(QUOTE).model_copy(update={"task_id": 1, "id": "F2"})
    assert _candidates(LIFETIME_TASK, [other, off], "de") == [other]


CATEGORY_TASK = Todo(id=4, task="Above what annual dose must crew members be classified as category A?")
CATEGORY_A = ("1. Beruflich exponierte Personen der Kategorie A: Personen, deren Einsatz als fliegendes Personal zu "
              "einer effektiven Dosis durch kosmische Strahlung von mehr als 6 Millisievert im Kalenderjahr führen kann;")
CATEGORY_B = ("2. Beruflich exponierte Personen der Kategorie B: Personen, die nicht in die Kategorie A eingestuft sind "
              "und die einer beruflichen Exposition aus Tätigkeiten ausgesetzt sind, die im Kalenderjahr zu einer "
              "effektiven Dosis von mehr als 1 Millisievert")


def _read(fid: str, quote: str, info: str) -> Finding:
    return _finding(quote).model_copy(update={"id": fid, "task_id": 4, "info": info})


def test_across_languages_a_finding_is_weighed_by_its_faithful_reading() -> None:
    """laws-research-12 (English question, German statutes, 1.5B model): the task on category A had two
    findings, one read as "above 100 mSv" from the quote on category B (1 Millisievert), one read right from
    the quote of 6 Millisievert; the answer stated the 100 mSv and no line gave the 6 (the task's English words
    are not the quote's German ones, so the quote never "answered" it)."""
    from desktop.engine.coverage import _ranked, _said, faithful

    wrong = _read("F4", CATEGORY_B, "Crew members must be classified as category A if their annual effective dose "
                                    "is above 100 mSv.")
    right = _read("F8", CATEGORY_A, "Crew members must be classified as category A above 6 millisievert per year.")
    assert not faithful(wrong) and faithful(right)
    assert _ranked(CATEGORY_TASK, "", [wrong, right], "de", "en")[0] is right
    answer = "Crew members must be classified as category A if their annual effective dose is above 100 mSv [1]."
    assert _unstated(CATEGORY_TASK, right, answer, "de", "", "en")
    assert not _unstated(CATEGORY_TASK, right, answer.replace("100 mSv", "6 millisievert"), "de", "", "en")
    assert _said(CATEGORY_TASK, right, "", "de", "", "en") == (right.info, False)
    # a reading that misstates its figure is not shown: the document's words are
    shown, quoted = _said(CATEGORY_TASK, wrong, "", "de", "", "en")
    assert quoted and "100 mSv" not in shown and "mehr als 1 Millisievert" in shown
    # in one language nothing changes: the task's words are the quote's
    assert not _unstated(CATEGORY_TASK, right, answer, "de", "", "de")


RADON_QUESTION = ("Ein Unternehmen hat Arbeitsplätze in einem Radongebiet. Innerhalb welcher Frist muss die "
                  "Radon-222-Aktivitätskonzentration gemessen werden und über welche Gesamtdauer, und was gilt für "
                  "die über das Jahr gemittelte Radon-222-Aktivitätskonzentration in Gebäuden mit Arbeitsplätzen?")
RADON_PART = Todo(id=1, task="Innerhalb welcher Frist muss die Radon-222-Aktivitätskonzentration gemessen werden, "
                             "über welche Gesamtdauer?")
AREA = ("Für die über das Jahr gemittelte Radon-222-Aktivitätskonzentration in Gebäuden mit Arbeitsplätzen gilt ein "
        "Referenzwert von 300 Becquerel je Kubikmeter.")
DURATION = ("(1) Die Messungen der Radon-222-Aktivitätskonzentration sind nach den allgemein anerkannten Regeln der "
            "Technik über eine Gesamtdauer von zwölf Monaten durchzuführen.")


def test_a_part_of_the_question_gets_the_quote_that_answers_it_not_the_one_most_like_the_whole_question() -> None:
    """laws-research-03 (1.5B model): the part asking for the measuring period got the quote most like the whole
    question (which holds every part) as its best, not the one stating the period; and the "222" of Radon-222
    counted as a figure of every quote on radon."""
    from types import SimpleNamespace

    from desktop.engine.citation_support import amounts
    from desktop.engine.coverage import completed
    from desktop.engine.state import Plan, RunState
    from desktop.settings import Settings

    assert amounts("Radon-222-Aktivitätskonzentration, Cs-137") == set() and amounts("5-10 Millisievert") == {"5", "10"}
    area = _finding(AREA).model_copy(update={"id": "F4", "task_id": 1})
    duration = _finding(DURATION).model_copy(update={"id": "F1", "task_id": 1})
    state = RunState(run_id="r", question=RADON_QUESTION, database="Sample", language="de", doc_language="de",
                     plan=Plan(items=[Todo(id=0, task=RADON_QUESTION), RADON_PART], by_parts=True))
    state.later.research.findings = [area, duration]
    ctx = SimpleNamespace(state=state, settings=Settings().research)
    answer = "Ein Unternehmen in einem Radongebiet hat Pflichten [1]."
    completed_answer, sources, _ = completed(ctx, answer, ["F9"])  # type: ignore[arg-type]
    assert "zwölf Monaten" in completed_answer and "300 Becquerel" not in completed_answer and sources == ["F9", "F1"]
