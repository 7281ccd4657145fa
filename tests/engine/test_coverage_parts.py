"""The evidence of each part of a question (coverage.py, a plan by the question's parts): each part shows the
sentence of its best finding that answers it, the other figures of the kind it asks for that sentence's finding
states, and across languages the sentence a reading's figure stands in. The cases are 1.5B-model runs of the
laws-de research questions (laws-research-02, -12, -14)."""

from __future__ import annotations

from types import SimpleNamespace

from desktop.engine.coverage import completed
from desktop.engine.research_state import Finding, QuoteRecord
from desktop.engine.state import Plan, RunState, Todo
from desktop.settings import Settings


def _finding(fid: str, task_id: int, *sentences: str, info: str = "") -> Finding:
    quotes = [QuoteRecord(proposed=s, verified=True, match="exact", display=s, chunk_id="c" + fid, doc_id="d1",
                          doc="AtEV.pdf", page=3) for s in sentences]
    return Finding(id=fid, task_id=task_id, chunk_id="c" + fid, doc_id="d1", doc="AtEV.pdf", page=3, tier=1,
                   relevance=1.0, quotes=quotes, info=info)


def _completed(question: str, parts: list[str], findings: list[Finding], answer: str, sources: list[str],
               language: str = "de") -> str:
    return _completion(question, parts, findings, answer, sources, language)[0]


def _completion(question: str, parts: list[str], findings: list[Finding], answer: str, sources: list[str],
                language: str = "de") -> tuple[str, list[str], list[int]]:
    items = [Todo(id=0, task=question), *(Todo(id=i, task=p) for i, p in enumerate(parts, start=1))]
    state = RunState(run_id="r", question=question, database="Sample", language=language, doc_language="de",
                     plan=Plan(items=items, by_parts=True))
    state.later.research.findings = findings
    ctx = SimpleNamespace(state=state, settings=Settings().research)
    return completed(ctx, answer, sources)  # type: ignore[arg-type]


WASTE_Q = ("Ein Betreiber gibt radioaktive Abfälle zur Beförderung ab. Was muss er vor der Abgabe vom Empfänger "
           "einholen, und mit welchem Vorlauf ist die Abgabe der Behörde mitzuteilen und ein noch nicht feststehendes "
           "Beförderungsdatum nachzumelden?")
CONSENT = ("(1) Wer radioaktive Abfälle abgibt, ist verpflichtet, vorher eine schriftliche Erklärung des Empfängers "
           "über dessen Annahmebereitschaft einzuholen.")
FIVE_DAYS = ("(2) Wer radioaktive Abfälle zur Beförderung abgibt, ist verpflichtet, dies der für ihn zuständigen "
             "Behörde mindestens fünf Arbeitstage vor Beginn der Beförderung mitzuteilen.")
TWO_DAYS = ("Kann das Datum der Beförderung noch nicht verbindlich genannt werden, ist dieses mindestens zwei "
            "Arbeitstage vor dem Beginn der Beförderung der Behörde nachzumelden.")
BECQUEREL = "Der Referenzwert für die Abgabe an die Behörde beträgt 300 Becquerel je Kubikmeter."


def test_a_part_shows_each_period_its_finding_states_and_no_figure_of_another_kind() -> None:
    """laws-research-14: one finding held both periods the part asks for, in two sentences; the answer got one
    line with one of them. A figure of another kind in the same finding (a Becquerel value for a part asking for
    a period) is not added."""
    parts = ["Mit welchem Vorlauf ist die Abgabe der Behörde mitzuteilen und ein noch nicht feststehendes "
             "Beförderungsdatum nachzumelden?"]
    finding = _finding("F1", 1, FIVE_DAYS, TWO_DAYS, BECQUEREL)
    answer = _completed(WASTE_Q, parts, [finding], "Die Abgabe ist der Behörde mitzuteilen [1].", ["F1"])
    assert "fünf Arbeitstage" in answer and "zwei Arbeitstage" in answer
    assert "300 Becquerel" not in answer


def test_one_finding_answers_two_parts_with_two_sentences() -> None:
    """laws-research-14: the finding that answers the first part (what to obtain, no figure asked) holds the
    answer to the second (a period) in another sentence. The first part's line is the sentence that answers it,
    not the one with a figure; the second part still gets its own sentence of the same finding."""
    parts = ["Was muss er vor der Abgabe vom Empfänger einholen?",
             "Mit welchem Vorlauf ist die Abgabe der Behörde mitzuteilen und ein noch nicht feststehendes "
             "Beförderungsdatum nachzumelden?"]
    finding = _finding("F1", 1, CONSENT, FIVE_DAYS, TWO_DAYS)
    answer = _completed(WASTE_Q, parts, [finding], "", [])
    lines = answer.splitlines()
    first = [line for line in lines if line.startswith("- Was muss er")]
    second = " ".join(line for line in lines if line.startswith("- Mit welchem Vorlauf"))
    assert len(first) == 1 and "schriftliche Erklärung" in first[0]
    assert "fünf Arbeitstage" in second and "zwei Arbeitstage" in second


def test_a_line_answers_its_own_task_whatever_finding_it_shows() -> None:
    """A part's line may show another task's finding whose quote answers the part (``_candidates``): the part is
    the one answered, not the finding's task (seen with the scripted model: three tasks had a line, the quality
    section counted two). A part with no evidence gets no line."""
    parts = ["Was muss er vor der Abgabe vom Empfänger einholen?",
             "Mit welchem Vorlauf ist die Abgabe der Behörde mitzuteilen und ein noch nicht feststehendes "
             "Beförderungsdatum nachzumelden?",
             "Welche Strafe droht bei einem Verstoß?"]
    answer, sources, lined = _completion(WASTE_Q, parts, [_finding("F1", 1, CONSENT, FIVE_DAYS, TWO_DAYS)], "", [])
    assert "fünf Arbeitstage" in answer and sources == ["F1"]
    assert lined == [1, 2]


RECORD_Q = "Wie lange ist die Gesundheitsakte aufzubewahren und wann ist sie zu vernichten?"
RECORD = ("Sie ist so lange aufzubewahren, bis die Person das 75. Lebensjahr vollendet hat oder vollendet hätte, "
          "mindestens jedoch 30 Jahre nach Beendigung der Tätigkeit.")


def test_a_part_the_answer_states_still_shows_its_evidence_in_the_documents_words() -> None:
    """laws-research-02: the statement on the part cited its finding and said "75 Jahre" for "bis die Person das
    75. Lebensjahr vollendet hat"; every figure's number stood in the answer, so no line showed the sentence."""
    parts = ["Wie lange ist die Gesundheitsakte aufzubewahren?"]
    said = "Die Gesundheitsakte ist 75 Jahre und 30 Jahre aufzubewahren [1]."
    answer = _completed(RECORD_Q, parts, [_finding("F1", 1, RECORD)], said, ["F1"])
    assert "75. Lebensjahr" in answer


CREW_Q = "Which rules apply to aircrew: by when must the determined doses be available after a deployment?"
RESULTS = ("(3) Der Strahlenschutzverantwortliche hat dafür zu sorgen, dass die Ermittlungsergebnisse spätestens sechs "
           "Monate nach dem Einsatz vorliegen und unverzüglich dem Luftfahrt-Bundesamt vorgelegt werden.")
REPORT = "(2) Die Meldung hat alle verfügbaren Angaben zu enthalten, die für die Bewertung erforderlich sind."


def test_across_languages_a_reading_backed_by_its_quote_answers_the_part_by_that_quote() -> None:
    """laws-research-12: the reading of the right finding added a figure ("within 24 hours" for "unverzüglich"),
    so it was not weighed; the part's line was a finding whose reading repeated the part's words and stated no
    figure. A reading whose figure its quote states ("six months", "sechs Monate") answers a part asking for
    one, and is shown by the quote's sentence."""
    parts = ["By when must the determined doses be available after a deployment?"]
    right = _finding("F1", 0, RESULTS, info="The Strahlenschutzverantwortliche has to ensure that the results are "
                                            "available six months after the deployment and within 24 hours.")
    parrot = _finding("F4", 1, REPORT, info="The determined doses must be available after a deployment by the "
                                            "Ministry of Health.")
    answer = _completed(CREW_Q, parts, [parrot, right], "The doses must be available after a deployment [1].",
                        ["F4"], language="en")
    assert "sechs Monate nach dem Einsatz" in answer and "24 hours" not in answer


FITNESS_PART = "Die Stufen, in denen die ärztliche Bescheinigung die Tauglichkeit angibt?"
DOCUMENTS = ("(1) Zur Erteilung der ärztlichen Bescheinigung nach § 77 Absatz 1 hat der ermächtigte Arzt folgende "
             "Unterlagen anzufordern:")
GRADES = ("(2) In der ärztlichen Bescheinigung ist die Tauglichkeit der beruflich exponierten Person in den Stufen "
          "„tauglich“, „bedingt tauglich“ und „nicht tauglich“ anzugeben.")


def test_a_sentence_that_answers_the_part_comes_before_the_tier() -> None:
    """laws-research-02: the part's line showed the tier-1 finding's paragraph on the documents a doctor asks
    for; the tier-2 finding held the grades asked for."""
    primary = _finding("F1", 1, DOCUMENTS)
    secondary = _finding("F2", 1, GRADES).model_copy(update={"tier": 2})
    answer = _completed("Welche Anforderungen gelten für die ärztliche Überwachung?", [FITNESS_PART],
                        [primary, secondary], "", [])
    assert "bedingt tauglich" in answer and "Unterlagen anzufordern" not in answer
