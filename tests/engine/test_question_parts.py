"""The parts of a research question (question_parts.py), and the plan made of them (--auto and the window):
every fact the question asks for is searched for on its own."""

from __future__ import annotations

import pytest
from support.research_llm import TEXTS

from desktop.engine import events as ev
from desktop.engine.question_parts import parts, searches

ETHICS = ("Innerhalb welcher Frist muss eine Ethikkommission zu einem strahlenschutzrechtlichen Forschungsvorhaben "
          "Stellung nehmen, und mit wie vielen Mitgliedern muss sie es beraten?")
TWO_PARTS = ("Welche effektive Jahresdosis darf eine beruflich exponierte Person höchstens erhalten, und welche "
             "Ausnahme kann die Behörde im Einzelfall zulassen?")


@pytest.mark.parametrize(("question", "expected"), [
    (ETHICS, ["Innerhalb welcher Frist muss eine Ethikkommission zu einem strahlenschutzrechtlichen Forschungsvorhaben "
              "Stellung nehmen?", "Mit wie vielen Mitgliedern muss sie es beraten?"]),
    # an enumeration of what is asked for, after a question that frames it
    ("Was muss ein Strahlenschutzverantwortlicher nach einem bedeutsamen Vorkommnis veranlassen? Gefragt sind die "
     "Frist für die Meldung an die Behörde, die Aufbewahrungsdauer der Aufzeichnungen, und welche Stelle des Bundes "
     "zusätzlich zu informieren ist.",
     ["Was muss ein Strahlenschutzverantwortlicher nach einem bedeutsamen Vorkommnis veranlassen?",
      "Die Frist für die Meldung an die Behörde?", "Die Aufbewahrungsdauer der Aufzeichnungen?",
      "Welche Stelle des Bundes zusätzlich zu informieren ist?"]),
    # a sentence that sets the scene is no part; a piece too short to search for stays with the one before
    ("A German airline asks which rules apply to its aircrew: above what annual effective dose must the operation "
     "of an aircraft be notified, and how far in advance; and which federal authority examines the notification?",
     ["Above what annual effective dose must the operation of an aircraft be notified, how far in advance?",
      "Which federal authority examines the notification?"]),
    # one question: a condition that leads into it, "Wie und wann", a yes/no part are no parts of their own
    ("In the event that a Sponsor is dismissed, how should a Person convey the relevant facts to the Regulator?",
     ["In the event that a Sponsor is dismissed, how should a Person convey the relevant facts to the Regulator?"]),
    ("When considering the obligations of a Branch, what is one registration requirement it is not subject to?",
     ["When considering the obligations of a Branch, what is one registration requirement it is not subject to?"]),
    ("Wie und wann muss ein Strahlenschutzverantwortlicher Strahlenschutzbeauftragte bestellen, und wird er "
     "dadurch entlastet?",
     ["Wie und wann muss ein Strahlenschutzverantwortlicher Strahlenschutzbeauftragte bestellen, und wird er "
      "dadurch entlastet?"]),
])
def test_a_question_is_split_into_what_it_asks_for(question: str, expected: list[str]) -> None:
    assert parts(question) == expected


def test_a_question_that_asks_several_things_is_planned_by_its_parts(harness, research_llm) -> None:  # noqa: ANN001
    """--auto: the parts are the tasks (seen with a 1.5B model: "Übersicht der relevanten Gesetze" for a question
    that named five facts). In the documents' language they are their own searches: no model call at all."""
    state = harness.run(lambda engine: engine.start(TWO_PARTS, "Sample", auto=True))
    assert [t.task for t in state.plan.items] == [TWO_PARTS, *parts(TWO_PARTS)]
    assert not [c for c in harness.of(ev.LlmCall) if c.purpose == "plan.propose"]


def test_in_the_window_a_question_that_asks_several_things_is_proposed_by_its_parts(harness, research_llm) -> None:  # noqa: ANN001
    """The window's plan is the user's to edit and approve, and starts from the question's parts as --auto's does
    (seen with a 1.5B model: a two-part question planned as "Check the specific radiation protection rules and
    their conditions", a minute of the budget, and neither part's answer found)."""
    async def scenario(engine):  # noqa: ANN001, ANN202
        state = await engine.start(TWO_PARTS, "Sample")
        assert state.pending.kind == "answer"  # the clarification asks the user first, as ever
        return await engine.end_clarification(state.run_id)

    state = harness.run(scenario)
    assert [t.task for t in state.plan.items] == [TWO_PARTS, *parts(TWO_PARTS)] and state.plan.by_parts
    assert state.plan.items[0].context == ""  # the user said nothing: the question is not shown twice
    assert state.status == "waiting" and state.pending.kind == "approve_plan"
    assert not [c for c in harness.of(ev.LlmCall) if c.purpose == "plan.propose"]
    assert research_llm.calls["PlanProposal"] == 0


def test_over_documents_in_another_language_the_model_writes_a_search_for_each_part(harness, research_llm) -> None:  # noqa: ANN001
    question = ("Which effective dose may an occupationally exposed person receive per year at most, and which "
                "exception may the competent authority allow in a single case?")
    state = harness.run(lambda engine: engine.start(question, "Sample", auto=True))
    assert [t.task for t in state.plan.items] == [question, *parts(question)]
    assert all(len(t.subtasks) == 1 for t in state.plan.items[1:])
    assert set(state.plan.items[1].subtasks) <= set(TEXTS["de"]["queries"])  # in German, the documents' language
    calls = [c for c in harness.of(ev.LlmCall) if c.purpose == "plan.propose"]
    assert len(calls) == 1 and "question:\n1. Which effective dose" in calls[0].messages[1]["content"]
    assert "Write exactly 2 queries" in calls[0].messages[1]["content"]


def test_a_part_that_names_its_subject_by_a_pronoun_is_searched_with_the_part_before_it() -> None:
    asked = ["Wie lange ist die Gesundheitsakte aufzubewahren?", "Wann ist sie spätestens zu vernichten?"]
    assert searches(asked) == [asked[0], f"{asked[0]} {asked[1]}"]


def test_a_pronoun_after_the_parts_own_subject_does_not_join_the_part_before() -> None:
    """laws-research-14: "seiner Aufgaben" is the Bund's, named in the part itself; searched and weighed with the
    part before it, its line showed a sentence on the electronic records that part asked about. A demonstrative
    always points back; "sein" at the end of a part is a verb."""
    records = "Wie lange sind die Angaben im elektronischen Buchführungssystem bereitzuhalten?"
    federal = ("Wem hat der Bund die Wahrnehmung seiner Aufgaben bei der Sicherstellung und Endlagerung radioaktiver "
               "Abfälle zu übertragen?")
    checked = "Bis wann muss der Erfolg der Reduzierungsmaßnahmen durch eine Messung überprüft sein?"
    waived = "Unter welcher Voraussetzung entfällt diese Vorlagepflicht?"
    assert searches([records, federal, checked, waived]) == [records, federal, checked, f"{checked} {waived}"]

