"""Evidence the model passed over (``extraction.passed_over``): an excerpt the engine gathered, left out of the
model's reading, whose shown sentences answer a task of the plan, is kept as a finding marked as the
engine's pick. Seen with a 1.5B model on the laws-de research questions: excerpts stating "fünf
Arbeitstage", "sechs Monate" and "zwölf Monate" for the deadlines asked for, each left out."""

from __future__ import annotations

from types import SimpleNamespace

from support import fake_ollama_replies as replies
from support.research_llm import QUESTION_DE, QUESTION_EN

from desktop.engine.extraction import PASSED_OVER, passed_over
from desktop.engine.schemas import ExcerptReading
from desktop.engine.state import Todo
from desktop.report.markdown import to_markdown

TASKS = [Todo(id=0, task="Welche Fristen gelten für die Abgabe radioaktiver Abfälle?"),
         Todo(id=1, task="Was muss er vor der Abgabe vom Empfänger einholen?"),
         Todo(id=2, task="Mit welchem Vorlauf ist die Abgabe der Behörde mitzuteilen und ein noch nicht "
                         "feststehendes Beförderungsdatum nachzumelden?")]
DEADLINES = {1: "(2) Wer radioaktive Abfälle zur Beförderung abgibt, ist verpflichtet, dies der für ihn zuständigen "
                "Behörde mindestens fünf Arbeitstage vor Beginn der Beförderung mitzuteilen.",
             2: "Kann das Datum der Beförderung in der Transportmeldung noch nicht verbindlich genannt werden, ist "
                "dieses mindestens zwei Arbeitstage vor dem Beginn der Beförderung nachzumelden."}
PACKAGING = {1: "(3) Behälter oder sonstige Einheiten zur Verpackung radioaktiver Abfälle sind mit einer Kennzeichnung "
                "nach Anlage Teil B zu versehen."}


def _reader(**texts: dict[int, str]) -> SimpleNamespace:
    return SimpleNamespace(sources={label: SimpleNamespace(item=SimpleNamespace(task_id=1)) for label in texts})


def test_an_excerpt_left_out_that_answers_another_task_is_kept() -> None:
    """S1 was gathered for task 1 and answers task 2 (the excerpt stood first in task 1's search)."""
    reader = _reader(S1=DEADLINES, S2=PACKAGING, S3=DEADLINES)
    sentences = {"S1": DEADLINES, "S2": PACKAGING, "S3": DEADLINES}
    read = {"S3": ExcerptReading(excerpt="S3", relevance=3, quote=[1])}
    rescued = passed_over(reader, read, sentences, TASKS, "de")  # type: ignore[arg-type]
    assert set(rescued) == {"S1"}  # S2 answers nothing, S3 the model read
    assert rescued["S1"].relevance == PASSED_OVER
    assert passed_over(reader, read, sentences, TASKS[1:2], "de") == {}  # task 1 alone: it answers nothing


def test_a_passage_kept_for_one_task_is_kept_again_where_it_shows_another_task_new_sentences() -> None:
    """laws-dev-02 with a 1.5B model: § 78 StrlSchG was shown for the question with its sentence on the exception
    and kept; shown again for the part on the annual limit with the sentence stating 20 Millisievert, the model
    passed it over, and as a passage read before it was not kept: the 20 Millisievert stood in no finding."""
    from desktop.engine.extraction import _quoted, _shows_more
    from desktop.engine.research_state import Finding, QuoteRecord

    limit = "(1) Der Grenzwert der effektiven Dosis beträgt für beruflich exponierte Personen 20 Millisievert im Kalenderjahr."
    exception = ("Die zuständige Behörde kann im Einzelfall für ein einzelnes Jahr eine effektive Dosis von 50 "
                 "Millisievert zulassen, wobei in fünf aufeinander folgenden Jahren insgesamt 100 Millisievert nicht "
                 "überschritten werden dürfen.")
    kept = Finding(id="F3", task_id=0, chunk_id="c78", doc_id="d", doc="StrlSchG.pdf", page=52, tier=1, relevance=1.0,
                   quotes=[QuoteRecord(proposed=exception, verified=True, match="exact", display=exception,
                                       chunk_id="c78", doc_id="d", doc="StrlSchG.pdf", page=52)])
    quoted = _quoted([kept])
    assert _shows_more({1: limit, 2: exception}, quoted["c78"])
    # what its findings quote already, however the lines break, is nothing new
    assert not _shows_more({1: exception.replace("für ein", "für\nein")}, quoted["c78"])


AIRCREW = [Todo(id=0, task="A German airline asks which rules apply to its aircrew: by when must the doses be "
                            "available, and which federal authority examines the notification?"),
           Todo(id=1, task="By when must the determined doses be available after a deployment?"),
           Todo(id=2, task="Which federal authority examines the notification?")]
RESULTS = {1: "(3) Der Strahlenschutzverantwortliche hat dafür zu sorgen, dass die Ermittlungsergebnisse spätestens "
              "sechs Monate nach dem Einsatz vorliegen."}
TRAINING = {1: "(1) Verantwortlich für die Unterrichtung ihrer eigenen Einsatzkräfte sind die Einsatzorganisationen."}
OFFICE = {1: "Das Luftfahrt-Bundesamt ist zuständig für die Prüfung der Anzeige des Betriebs von Luftfahrzeugen."}


def test_across_languages_an_excerpt_holding_the_kind_of_answer_its_task_asks_for_is_kept() -> None:
    """laws-research-12 (1.5B model, English parts over the German laws): the model called two of eight excerpts
    helpful, and § 67 StrlSchV's "sechs Monate nach dem Einsatz", shown for the part asking by when, was passed
    over; no English word of the part stands in it. Across languages an excerpt is kept when it holds the kind of
    answer its own task asks for (a period, a named body), never by the whole question of a plan by parts."""
    def reader(**tasks: int) -> SimpleNamespace:
        return SimpleNamespace(sources={label: SimpleNamespace(item=SimpleNamespace(task_id=t))
                                        for label, t in tasks.items()})

    sentences = {"S1": RESULTS, "S2": TRAINING, "S3": OFFICE, "S4": RESULTS, "S5": {1: RESULTS[1], 2: OFFICE[1]}}
    sources = reader(S1=1, S2=1, S3=2, S4=2, S5=0)
    rescued = passed_over(sources, {}, sentences, AIRCREW, "de", "en", True)  # type: ignore[arg-type]
    # S2 states no period; S4's period is not what its task asks for (a body); S5 stands for the whole question
    assert set(rescued) == {"S1", "S3"} and rescued["S1"].relevance == PASSED_OVER
    assert passed_over(sources, {}, sentences, AIRCREW, "de", "de", True) == {}  # type: ignore[arg-type]
    assert set(passed_over(sources, {}, sentences, AIRCREW, "de", "en", False)) == {"S1", "S3", "S5"}  # type: ignore[arg-type]


def test_text_served_on_request_is_not_the_engines_to_keep() -> None:
    reader = SimpleNamespace(sources={"S1": SimpleNamespace(item=None)})
    assert passed_over(reader, {}, {"S1": DEADLINES}, TASKS, "de") == {}  # type: ignore[arg-type]


def test_a_run_keeps_what_the_model_passed_over_and_the_report_says_who_picked_it(harness, research_llm) -> None:  # noqa: ANN001
    """The scripted model reads only the first excerpt of each batch; the others that state the annual limit
    the question asks for are findings all the same, and the report marks them."""
    def first_only(request):  # noqa: ANN001, ANN202
        reading = research_llm.extraction("de", request.body)
        return replies.as_json({"readings": reading["readings"][:1], "requests": []})

    research_llm.plan_items = 1
    research_llm.overrides["ExtractionBatch"] = first_only
    state = harness.run(lambda engine: engine.start(QUESTION_DE, "Sample", auto=True))
    state = harness.run(lambda engine: engine.approve(state.run_id))
    findings = state.later.research.findings
    picked = [f for f in findings if f.picked_by_engine]
    assert picked and len(picked) < len(findings)
    assert all(f.verified_quotes and f.relevance == round(PASSED_OVER / 3, 3) for f in picked)
    report = state.later.report
    shown = [f for group in (report.findings.primary, report.findings.secondary) for f in group if f.picked_by_engine]
    assert len(shown) == len(picked)
    assert to_markdown(report).count("vom Modell übergangen") == len(picked)  # a German report says it in German


def test_the_reading_step_tells_the_rescue_the_questions_language(harness, research_llm, monkeypatch) -> None:  # noqa: ANN001
    """An English question over the German sample laws: each batch's rescue is told the question's language,
    the documents' and whether the plan is the question's parts."""
    from desktop.engine import extraction

    told: list[tuple[str, str | None]] = []
    rescue = extraction.passed_over

    def spy(*args, **kwargs):  # noqa: ANN002, ANN003, ANN202
        told.append((args[4], args[5] if len(args) > 5 else None))
        return rescue(*args, **kwargs)

    monkeypatch.setattr(extraction, "passed_over", spy)
    research_llm.plan_items = 1
    state = harness.run(lambda engine: engine.start(QUESTION_EN, "Sample", auto=True))
    harness.run(lambda engine: engine.approve(state.run_id))
    assert told and set(told) == {("de", "en")}
