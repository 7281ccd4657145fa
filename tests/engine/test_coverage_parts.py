"""The evidence of each part of a question (coverage.py, a plan by the question's parts): each part shows the
sentence of its best finding that answers it, the other figures of the kind it asks for that sentence's finding
states, and across languages the sentence a reading's figure stands in. The cases are 1.5B-model runs of the
laws-de research questions (laws-research-02, -12, -14)."""

from __future__ import annotations

import asyncio
from types import SimpleNamespace

from desktop.engine.coverage import completed, meaning
from desktop.engine.research_state import Finding, QuoteRecord
from desktop.engine.state import Plan, RunState, Todo
from desktop.settings import Settings


def _finding(fid: str, task_id: int, *sentences: str, info: str = "") -> Finding:
    quotes = [QuoteRecord(proposed=s, verified=True, match="exact", display=s, chunk_id="c" + fid, doc_id="d1",
                          doc="AtEV.pdf", page=3) for s in sentences]
    return Finding(id=fid, task_id=task_id, chunk_id="c" + fid, doc_id="d1", doc="AtEV.pdf", page=3, tier=1,
                   relevance=1.0, quotes=quotes, info=info)


def _completed(question: str, parts: list[str], findings: list[Finding], answer: str, sources: list[str],
               language: str = "de", searches: dict[int, list[str]] | None = None, kb: object = None,
               by_parts: bool = True) -> str:
    return _completion(question, parts, findings, answer, sources, language, searches, kb, by_parts)[0]


def _lines(question: str, part: str, findings: list[Finding]) -> list[str]:
    """The lines of an answer left empty, for a plan of one part."""
    return [line for line in _completed(question, [part], findings, "", []).splitlines() if line.startswith("- ")]


def _completion(question: str, parts: list[str], findings: list[Finding], answer: str, sources: list[str],
                language: str = "de", searches: dict[int, list[str]] | None = None,
                kb: object = None, by_parts: bool = True) -> tuple[str, list[str], list[int]]:
    """``completed`` for a plan by ``parts`` (``searches``: a part's sub-queries by its id), or with them as the
    tasks of a plan the model made (not ``by_parts``); with ``kb``, each part's closeness in meaning to the kept
    sentences (``meaning``) measured by that knowledge base."""
    items = [Todo(id=0, task=question), *(Todo(id=i, task=p, subtasks=(searches or {}).get(i, []))
                                          for i, p in enumerate(parts, start=1))]
    state = RunState(run_id="r", question=question, database="Sample", language=language, doc_language="de",
                     plan=Plan(items=items, by_parts=by_parts))
    state.later.research.findings = findings

    async def in_thread(fn, *args):  # noqa: ANN001, ANN202 - the engine runs it in the knowledge base's thread
        return fn(*args)
    ctx = SimpleNamespace(state=state, settings=Settings().research, kb=kb, in_thread=in_thread)
    close = asyncio.run(meaning(ctx)) if kb else None  # type: ignore[arg-type]
    return completed(ctx, answer, sources, close)  # type: ignore[arg-type]


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


HEALTH_Q = ("Wie lange ist die Gesundheitsakte aufzubewahren und wann ist sie spätestens zu vernichten?")
HEALTH_RECORD = ("(3) Die Gesundheitsakte ist während der Tätigkeit der beruflich exponierten Person auf dem neuesten "
                 "Stand zu halten. Sie ist so lange aufzubewahren, bis die Person das 75. Lebensjahr vollendet hat oder "
                 "vollendet hätte, mindestens jedoch 30 Jahre nach Beendigung der Wahrnehmung von Aufgaben als "
                 "beruflich exponierte Person. Sie ist spätestens 100 Jahre nach der Geburt der überwachten Person zu "
                 "vernichten.")
AIRCREW = ("(3) Der Strahlenschutzverantwortliche hat dafür zu sorgen, dass die Ermittlungsergebnisse spätestens sechs "
           "Monate nach dem Einsatz vorliegen und unverzüglich dem Luftfahrt-Bundesamt nach § 168 Absatz 2 des "
           "Strahlenschutzgesetzes vorgelegt werden.")


def test_a_finding_is_weighed_by_its_sentence_that_answers_the_part() -> None:
    """laws-research-02: the part "Wann sie spätestens zu vernichten ist?" (its search held the part before it,
    "… aufzubewahren ist?") weighed the other part's finding by its sentence on keeping the record, which shared
    as many words as the one on destroying it and came first; so a finding on aircrew doses, whose sentence
    answers by "spätestens", was the part's best. A finding counts by the sentence that answers the part."""
    parts = ["Wie lange die Gesundheitsakte aufzubewahren ist?", "Wann sie spätestens zu vernichten ist?"]
    searches = {2: ["Wie lange die Gesundheitsakte aufzubewahren ist? Wann sie spätestens zu vernichten ist?"]}
    answer = _completed(HEALTH_Q, parts, [_finding("F5", 1, HEALTH_RECORD), _finding("F12", 2, AIRCREW)], "", [],
                        searches=searches)
    line = next(line for line in answer.splitlines() if line.startswith("- Wann sie"))
    assert "100 Jahre nach der Geburt" in line and "Luftfahrt-Bundesamt" not in answer


RADON_Q = ("Was gilt nach der Anmeldung eines Arbeitsplatzes in einem Radongebiet für die Abschätzung der Exposition "
           "(Frist, Aufbewahrung der Ergebnisse und Dosis, ab der die Anforderungen des beruflichen Strahlenschutzes "
           "gelten)?")
ESTIMATE = ("(1) Der zur Anmeldung Verpflichtete hat innerhalb von sechs Monaten nach der Anmeldung eine auf den "
            "Arbeitsplatz bezogene Abschätzung der Radon-222-Exposition durchzuführen")
KEEP = "Die Ergebnisse der Abschätzung sind fünf Jahre lang aufzubewahren."
BELOW = ("(2) Ergibt die Abschätzung, dass die effektive Dosis 6 Millisievert im Kalenderjahr nicht überschreiten kann, "
         "so hat der zur Abschätzung Verpflichtete die Exposition durch Radon regelmäßig zu überprüfen.")
ABOVE = ("(3) Ergibt die Abschätzung, dass die effektive Dosis 6 Millisievert im Kalenderjahr überschreiten kann, so "
         "sind Anforderungen des beruflichen Strahlenschutzes nach Maßgabe des § 131 zu erfüllen.")


def test_a_part_asking_for_figures_of_two_kinds_shows_the_kind_its_best_finding_lacks() -> None:
    """laws-research-03: the part asked for a period, a retention and a dose; its line showed its best finding's
    dose, and the period and retention its other finding stated were left out (the "6" of "6 Millisievert" also
    passed for the "sechs" of "sechs Monaten")."""
    part = ("Was gilt nach der Anmeldung des Arbeitsplatzes für die Abschätzung der Exposition (Frist, Aufbewahrung "
            "der Ergebnisse und Dosis, ab der die Anforderungen des beruflichen Strahlenschutzes gelten)?")
    answer = _completed(RADON_Q, [part], [_finding("F9", 1, BELOW, ABOVE), _finding("F3", 1, ESTIMATE, KEEP)],
                        "", [])
    assert "6 Millisievert" in answer and "sechs Monaten" in answer and "fünf Jahre" in answer


LICENCE_Q = ("A contractor's staff work in other companies' radiation protection areas. Which activities need a "
             "licence, and for how long can such a licence be granted at most?")
DUTY = ("2. gewährleistet ist, dass die in den Anlagen und Einrichtungen beschäftigten Personen den Anordnungen der "
        "Strahlenschutzverantwortlichen und der Strahlenschutzbeauftragten dieser Anlagen oder Einrichtungen Folge zu "
        "leisten haben, die diese in Erfüllung ihrer Pflichten nach diesem Gesetz treffen. Die Genehmigung wird auf "
        "längstens fünf Jahre befristet.")
TRAINING = ("Voraussetzung für die Teilnahme an diesem Modul ist der Nachweis einer Lizenz als Übungsleiterin mit einer "
            "Ausbildung von mindestens 120 Lerneinheiten.")


def test_across_languages_a_part_shows_the_sentence_closest_in_meaning_when_no_reading_answers_it() -> None:
    """laws-research-08 (English parts over German statutes): the finding held the licence's term in its second
    sentence and had no reading, so the part's line was its first sentence, on the staff's duties. The knowledge
    base's multilingual embedder (the real bundled model) finds the sentence that answers the part."""
    from desktop.kb.search.embeddings import OfflineEmbedder

    parts = ["Which activities need a licence?", "For how long can such a licence be granted at most?"]
    findings = [_finding("F2", 1, TRAINING), _finding("F3", 2, DUTY)]
    kb = SimpleNamespace(embedder=OfflineEmbedder())
    lines = _completed(LICENCE_Q, parts, findings, "", [], language="en", kb=kb).splitlines()
    term = next(line for line in lines if line.startswith("- For how long"))
    assert "fünf Jahre befristet" in term and "Anordnungen" not in term
    # without the closeness in meaning, the first sentence stands for the part
    before = _completed(LICENCE_Q, parts, findings, "", [], language="en").splitlines()
    assert "fünf Jahre" not in next(line for line in before if line.startswith("- For how long"))


def test_a_sentence_that_goes_on_past_its_passage_ends_its_line_with_an_ellipsis() -> None:
    """laws-research-14: the part's sentence ran over a page break, its verified quote ended "… an eine Anlage des
    Bundes zur", and the line read as a whole sentence; the period it asks for stood on the next page."""
    cut_off = ("(3) Die Angaben in den elektronischen Buchführungssystemen sind nach der Ablieferung der radioaktiven "
               "Abfälle an die Landessammelstelle oder an eine Anlage des Bundes zur")
    parts = ["Wie lange sind die Angaben im elektronischen Buchführungssystem nach der Ablieferung bereitzuhalten?",
             "Was muss er vor der Abgabe vom Empfänger einholen?"]
    answer = _completed(WASTE_Q, parts, [_finding("F1", 1, cut_off), _finding("F2", 2, CONSENT)], "", [])
    lines = {line.split(":")[0]: line for line in answer.splitlines() if line.startswith("- ")}
    assert lines["- Wie lange sind die Angaben im elektronischen Buchführungssystem nach der Ablieferung "
                 "bereitzuhalten"].endswith("an eine Anlage des Bundes zur …“ [1]")
    assert lines["- Was muss er vor der Abgabe vom Empfänger einholen"].endswith("einzuholen.“ [2]")


CONTROL_Q = "Ab welcher möglichen Jahresdosis muss ein betrieblicher Bereich als Kontrollbereich eingerichtet werden?"
CONTROL = ("2. Kontrollbereich, wenn Personen im Kalenderjahr eine effektive Dosis von mehr als 6 Millisievert "
           "erhalten können, und")
PUBLIC = ("(1) Für Einzelpersonen der Bevölkerung beträgt der Grenzwert der Summe der effektiven Dosen 1 Millisievert "
          "im Kalenderjahr durch Expositionen aus 1. genehmigungs- oder anzeigebedürftigen Tätigkeiten")
X_RAY = ("(3) Bereiche, in denen nur Röntgeneinrichtungen oder Störstrahler betrieben werden, gelten nur während der "
         "Einschaltzeit als Strahlenschutzbereiche.")


def test_in_a_plan_the_model_made_the_question_gets_the_figure_no_line_and_no_statement_states() -> None:
    """laws-dev-10 with a 1.5B model: the plan's tasks were the model's ("Strahlenschutzbereiche bei Oberflächen"),
    the answer cited the limit for the public, and the question's own finding, § 52's 6 Millisievert, stood in no
    line: the question was answered only through its tasks."""
    tasks = ["Strahlenschutzbereiche bei Oberflächen", "Strahlenschutzbereiche bei betrieblichen Bereichen"]
    findings = [_finding("F1", 0, CONTROL), _finding("F2", 2, PUBLIC), _finding("F3", 1, X_RAY)]
    said = ("Ein betrieblicher Bereich muss als Kontrollbereich eingerichtet werden, wenn die Exposition von Personen "
            "einen der Grenzwerte für Einzelpersonen der Bevölkerung überschreiten kann [1].")
    answer = _completed(CONTROL_Q, tasks, findings, said, ["F2"], by_parts=False)
    assert f"- {CONTROL_Q.rstrip('?')}: „{CONTROL} …“" in answer
    # where the answer states the figure, the question needs no line of its own
    stated = said.replace("[1].", ", mehr als 6 Millisievert im Kalenderjahr [2].")
    assert CONTROL not in _completed(CONTROL_Q, tasks, findings, stated, ["F2", "F1"], by_parts=False)


NOTICE_Q = ("Mit welchem Vorlauf muss der Betrieb einer anzeigebedürftigen Anlage zur Erzeugung ionisierender Strahlung, "
            "etwa einer Plasmaanlage, der Behörde angezeigt werden?")
NOTICE = ("(1) Wer beabsichtigt, eine der folgenden Anlagen zur Erzeugung ionisierender Strahlung zu betreiben, hat "
          "dies der zuständigen Behörde spätestens vier Wochen vor dem beabsichtigten Beginn schriftlich anzuzeigen:")
ANNEX = "Anlage 4 Vorläufig als Notfallpläne des Bundes geltende Dokumente (Fundstelle: BGBl."


def test_in_a_plan_the_model_made_a_task_keeps_the_sentence_the_question_would_show() -> None:
    """laws-dev-06: the task "Vorlauf für anzeigebedürftige Anlage" and the question shared their best sentence;
    the question does not take it from the task (which would then show its next best, an annex's title), nor show
    it twice."""
    findings = [_finding("F1", 1, NOTICE), _finding("F2", 0, ANNEX)]
    answer = _completed(NOTICE_Q, ["Vorlauf für anzeigebedürftige Anlage"], findings, "", [], by_parts=False)
    lines = [line for line in answer.splitlines() if line.startswith("- ")]
    assert lines == [f"- Vorlauf für anzeigebedürftige Anlage: „{NOTICE}“ [1]"]


def test_a_lead_cut_short_keeps_its_last_figure_with_its_unit() -> None:
    """laws-dev-10: the part of § 52's sentence on the other doses was shown after its lead cut at "… von mehr als
    6 …", and the 6 Millisievert the question asks for stood in no line."""
    from desktop.engine.line_sentences import sentences as _sentences

    sentence = ("2. Kontrollbereich, wenn Personen im Kalenderjahr eine effektive Dosis von mehr als 6 Millisievert "
                "oder eine Organ-Äquivalentdosis von mehr als 15 Millisievert für die Augenlinse oder 150 Millisievert "
                "für die Hände, die Unterarme, die Füße oder Knöchel oder eine lokale Hautdosis von mehr als 150 "
                "Millisievert erhalten können, und 3. Sperrbereich, wenn in einem Bereich die Ortsdosisleistung höher "
                "als 3 Millisievert durch Stunde sein kann")
    shown = _sentences(_finding("F1", 1, sentence))
    assert len(shown) == 2 and all(" 6 … " not in text for text in shown)
    assert "von mehr als 6 Millisievert … die Unterarme" in shown[1]


def test_at_a_tie_a_part_shows_the_finding_gathered_for_it() -> None:
    """laws-research-02 (RESULTS §21, §23): two sentences shared as many of the part's words; the one another part
    had gathered (the first examination, "vor der erstmaligen Aufgabenwahrnehmung") was shown for the part on the
    repeated one, which its own finding stated."""
    part = ("Die Frist, innerhalb der die Untersuchung durch einen ermächtigten Arzt für die Fortsetzung der Tätigkeit "
            "wiederholt werden muss?")
    first = ("in diese Kategorie erforderlich ist, wenn sie innerhalb eines Jahres vor der erstmaligen "
             "Aufgabenwahrnehmung von einem nach § 175 Absatz 1 Satz 1 ermächtigten Arzt untersucht worden ist und dem "
             "Strahlenschutzverantwortlichen eine von diesem Arzt ausgestellte Bescheinigung vorliegt,")
    again = ("wenn sie innerhalb eines Jahres nach der letzten Untersuchung erneut von einem nach § 175 Absatz 1 Satz 1 "
             "ermächtigten Arzt untersucht wurde und dem Strahlenschutzverantwortlichen eine von diesem Arzt ausgestellte "
             "Bescheinigung vorliegt, nach der der weiteren Aufgabenwahrnehmung keine gesundheitlichen Bedenken "
             "entgegenstehen.")
    findings = [_finding("F12", 0, first), _finding("F5", 1, again)]  # F12 gathered for the question itself
    lines = _lines(HEALTH_Q, part, findings)
    assert len(lines) == 1 and "nach der letzten Untersuchung erneut" in lines[0]


def test_a_part_asking_for_a_period_shows_the_sentence_that_states_one() -> None:
    """laws-research-11 (RESULTS §24): the part on how long the records of an incident are kept showed the
    ordinance power "… für welchen Zeitraum er diesbezügliche Aufzeichnungen aufzubewahren hat", which shares all
    of its words and states no period; its other finding stated "30 Jahre lang"."""
    question = "Was muss ein Strahlenschutzverantwortlicher nach einem bedeutsamen Vorkommnis veranlassen?"
    part = "Die Aufbewahrungsdauer der Aufzeichnungen über das Vorkommnis?"
    power = ("3. dass und auf welche Weise der Strahlenschutzverantwortliche ein Vorkommnis aufzuzeichnen und zu "
             "untersuchen hat, dass und für welchen Zeitraum er diesbezügliche Aufzeichnungen aufzubewahren hat")
    thirty = ("(4) Der Strahlenschutzverantwortliche hat dafür zu sorgen, dass die Aufzeichnungen nach Absatz 2 30 "
              "Jahre lang aufbewahrt und der zuständigen Behörde auf Verlangen vorgelegt werden.")
    findings = [_finding("F5", 1, power), _finding("F9", 1, thirty)]
    lines = _lines(question, part, findings)
    assert len(lines) == 1 and "30 Jahre lang" in lines[0]


def test_a_part_asking_how_often_is_not_shown_a_period_of_something_else() -> None:
    """laws-research-07: a frequency ("monatlich") answers "Wie oft …?"; a sentence that shares the part's words
    and states another period ("fünf Arbeitstage vor …", on notices of a transport) does not take its place."""
    question = "Welche Pflichten hat der Betreiber eines Kernkraftwerks?"
    part = "Wie oft sind der Behörde die erzeugten Mengen mitzuteilen?"
    monthly = ("Der Genehmigungsinhaber hat der zuständigen Behörde monatlich die im Vormonat erzeugten "
               "Elektrizitätsmengen mitzuteilen.")
    findings = [_finding("F1", 1, monthly), _finding("F2", 1, FIVE_DAYS)]
    lines = _lines(question, part, findings)
    assert len(lines) == 1 and "monatlich" in lines[0]


def test_a_part_asking_which_body_shows_the_sentence_that_names_one() -> None:
    """laws-research-11 (RESULTS §24): "Welche Behörde als zentrale Stelle …?" showed the sentence on what the
    central office does, which shares most of the part's words; the part's tier-2 finding named it."""
    question = "Was muss ein Strahlenschutzverantwortlicher nach einem bedeutsamen Vorkommnis veranlassen?"
    part = "Welche Behörde als zentrale Stelle Vorkommnisse bei medizinischer Exposition erfasst und auswertet?"
    duties = ("(1) Die zentrale Stelle 1. richtet ein elektronisches System zur Erfassung, Verarbeitung und Auswertung "
              "von Informationen über bedeutsame Vorkommnisse bei medizinischer Exposition ein und betreibt dieses")
    named = "(2) Zentrale Stelle ist das Bundesamt für Strahlenschutz."
    second = _finding("F10", 1, named).model_copy(update={"tier": 2})
    lines = _lines(question, part, [_finding("F3", 1, duties), second])
    assert len(lines) == 1 and "Bundesamt für Strahlenschutz" in lines[0]


# StrlSchV § 52 (2) on p. 24, one sentence of 55 words: its units split at a comma near its middle
CONTROLLED = ("2. Kontrollbereich, wenn Personen im Kalenderjahr eine effektive Dosis von mehr als 6 Millisievert oder eine "
              "Organ-Äquivalentdosis von mehr als 15 Millisievert für die Augenlinse oder 150 Millisievert für die "
              "Hände, die Unterarme, die Füße oder Knöchel oder eine lokale Hautdosis von mehr als 150 Millisievert "
              "erhalten können, und 3. Sperrbereich, wenn in einem Bereich die Ortsdosisleistung höher als 3 "
              "Millisievert durch Stunde sein kann")


def test_two_parts_of_one_sentence_do_not_read_as_the_same_line_twice() -> None:
    """laws-dev-10 (1.5B model, the answer from the evidence): the question's line and the line for the figures
    it lacked both began "2. Kontrollbereich, wenn Personen im Kalenderjahr eine effektive Dosis von mehr als 6
    Millisievert"; the second goes on from where the first's start ends."""
    question = "Ab welcher möglichen Jahresdosis muss ein betrieblicher Bereich als Kontrollbereich eingerichtet werden?"
    lines = [line for line in _completed(question, [], [_finding("F1", 0, CONTROLLED)], "", [], by_parts=False)
             .splitlines() if line.startswith("- ")]
    starts = [line.split(": „", 1)[1][:60] for line in lines]
    assert len(lines) == len(set(starts)), lines
    assert sum("15 Millisievert für die Augenlinse" in line for line in lines) == 1


def test_of_two_sentences_as_close_to_a_part_its_line_shows_the_one_with_its_rarer_words() -> None:
    """laws-research-14: one finding of the part held two sentences sharing five of its words each; the line showed
    the one whose words ("Sicherstellung und Endlagerung radioaktiver Abfälle") every excerpt of the evidence
    shares, not the one that answers it."""
    question = "Ein Betreiber gibt radioaktive Abfälle zur Beförderung an einen anderen Standort ab."
    part = ("Wem hat der Bund die Wahrnehmung seiner Aufgaben bei der Sicherstellung und Endlagerung radioaktiver "
            "Abfälle zu übertragen?")
    facilities = ("(3) Die Länder haben Landessammelstellen für die Zwischenlagerung der in ihrem Gebiet angefallenen "
                  "radioaktiven Abfälle, der Bund hat Anlagen zur Sicherstellung und zur Endlagerung radioaktiver "
                  "Abfälle einzurichten;")
    third_party = ("der Bund hat die Wahrnehmung seiner Aufgaben einem Dritten zu übertragen, der in privater "
                   "Rechtsform zu organisieren und dessen alleiniger Gesellschafter der Bund ist.")
    delivered = ("(3) Andere radioaktive Abfälle dürfen nur dann an eine Anlage des Bundes zur Sicherstellung und zur "
                 "Endlagerung radioaktiver Abfälle abgeliefert werden, wenn die Landessammelstelle zustimmt.")
    unless = ("es sei denn, diese Abfälle sind nach Absatz 1 Nummer 5 an eine Anlage des Bundes zur Sicherstellung "
              "und zur Endlagerung radioaktiver Abfälle abzuliefern.")
    findings = [_finding("F4", 1, facilities, third_party), _finding("F5", 0, delivered), _finding("F8", 0, unless)]
    lines = _lines(question, part, findings)
    assert len(lines) == 1 and "einem Dritten zu übertragen" in lines[0]


def test_a_list_item_is_weighed_with_the_lead_its_line_leaves_out() -> None:
    """laws-research-10: the item "1. bei Erwerb und Abgabe … die Angaben entsprechend Anlage 9" stands under a lead
    too long to show, which names the register the part asks about; weighed without it, the item lost to another
    section's sentence on what a federal office transmits to the register."""
    question = "Welche Mitteilungspflichten hat ein Strahlenschutzverantwortlicher bei hochradioaktiven Strahlenquellen?"
    part = ("Welche Angaben sind dem Register bei Erwerb und Abgabe einer hochradioaktiven Strahlenquelle zu "
            "übermitteln?")
    office = ("(1) Das Bundesamt für Wirtschaft und Ausfuhrkontrolle übermittelt dem Register über hochradioaktive "
              "Strahlenquellen unverzüglich in gesicherter elektronischer Form die Angaben nach Anlage 9 über erteilte "
              "Genehmigungen nach § 3 Absatz 1 des Atomgesetzes oder § 12 Absatz 1 für die grenzüberschreitende "
              "Verbringung einer hochradioaktiven Strahlenquelle aus einem Staat")
    duty = ("(4) Bei hochradioaktiven Strahlenquellen hat der Strahlenschutzverantwortliche zusätzlich zu der Pflicht "
            "nach Absatz 1 Satz 1 dafür zu sorgen, dass dem Register über hochradioaktive Strahlenquellen beim "
            "Bundesamt für Strahlenschutz in gesicherter elektronischer Form Folgendes mitgeteilt wird: 1. bei Erwerb "
            "und Abgabe hochradioaktiver Strahlenquellen unverzüglich die Angaben entsprechend Anlage 9 sowie "
            "Änderungen der erfassten Angaben und 2. innerhalb eines Monats das Datum der Dichtheitsprüfung nach § 89 "
            "Absatz 2.")
    lines = _lines(question, part, [_finding("F5", 1, office), _finding("F7", 0, duty)])
    assert len(lines) == 1 and "1. bei Erwerb und Abgabe hochradioaktiver Strahlenquellen" in lines[0], lines
