"""The engine's second look at a reading's quote (focus.py), on sentences of the sample laws as the
extraction numbers them. The cases are the laws-de benchmark's misses with a 1.5B model: the right excerpt,
its first sentence quoted, the figure asked for further on."""

from __future__ import annotations

import pytest

from desktop.engine.focus import answers, asks_for_figure, focused, score, states_figure
from desktop.engine.findings import source_block
from desktop.engine.research_state import Finding, QuoteRecord

# StrlSchG § 17 (1), p. 16, as the extraction showed it
ANZEIGE = {
    1: "§ 17 Anzeigebedürftiger Betrieb von Anlagen zur Erzeugung ionisierender",
    2: "Strahlung",
    3: "(1) Wer beabsichtigt, eine der folgenden Anlagen zur Erzeugung ionisierender Strahlung zu betreiben, hat "
       "dies der zuständigen Behörde spätestens vier Wochen vor dem beabsichtigten Beginn schriftlich anzuzeigen:",
    4: "1. eine Plasmaanlage, bei deren Betrieb die Ortsdosisleistung von 10 Mikrosievert durch Stunde im Abstand "
       "von 0,1 Metern von den Wandungen des Bereichs,",
}
ANZEIGE_Q = ("Mit welchem Vorlauf muss der Betrieb einer anzeigebedürftigen Anlage zur Erzeugung ionisierender "
             "Strahlung, etwa einer Plasmaanlage, der Behörde angezeigt werden?")

# StrlSchV § 63 (6), p. 30
UNTERWEISUNG = {
    1: "(6) Der Strahlenschutzverantwortliche hat dafür zu sorgen, dass der Inhalt und der Zeitpunkt der "
       "Unterweisungen unverzüglich aufgezeichnet werden.",
    2: "Die Aufzeichnung ist von der unterwiesenen Person zu unterzeichnen.",
    3: "Der Strahlenschutzverantwortliche hat dafür zu sorgen, dass die Aufzeichnungen in den Fällen des Absatzes 1 "
       "fünf Jahre und in den Fällen des Absatzes 4 ein Jahr lang nach der Unterweisung aufbewahrt und der "
       "zuständigen Behörde auf Verlangen vorgelegt werden.",
}
UNTERWEISUNG_Q = ("Wie oft muss die Strahlenschutzunterweisung wiederholt werden, und wie lange sind die "
                  "unterschriebenen Aufzeichnungen darüber aufzubewahren?")


def test_the_sentence_with_the_figure_asked_for_is_put_before_the_models_heading() -> None:
    assert focused([1], ANZEIGE_Q, ANZEIGE, "de") == [3, 1]
    assert focused([1], UNTERWEISUNG_Q, UNTERWEISUNG, "de") == [3, 1]


def test_a_reading_that_quotes_the_answer_is_left_as_it_is() -> None:
    assert focused([3], ANZEIGE_Q, ANZEIGE, "de") == [3]
    assert focused([3, 4], ANZEIGE_Q, ANZEIGE, "de") == [3, 4]


def test_a_reading_without_a_usable_sentence_number_gets_the_best_sentence() -> None:
    # seen: an info copied until the server cut it, then no quote at all; or a number the excerpt lacks
    assert focused([], ANZEIGE_Q, ANZEIGE, "de") == [3]
    assert focused([99], ANZEIGE_Q, ANZEIGE, "de") == [3]  # 99 is no sentence of the excerpt


def test_nothing_is_added_when_no_sentence_is_about_the_question() -> None:
    unrelated = "Wann tritt die Verordnung über Kosmetikstudios in Kraft?"
    assert focused([2], unrelated, UNTERWEISUNG, "de") == [2]


def test_a_section_title_is_no_answer_even_when_it_holds_every_word_of_the_question() -> None:
    sentences = {1: "§ 5 Grenzwerte der Exposition für die Bevölkerung und die Dosis im Kalenderjahr",
                 2: "Die Summe der effektiven Dosen für Einzelpersonen der Bevölkerung beträgt 1 Millisievert im "
                    "Kalenderjahr."}
    assert focused([], "Welche Grenzwerte der Exposition gelten für die Bevölkerung?", sentences, "de") == [2]


def test_the_limit_keeps_the_quote_short() -> None:
    assert focused([1, 2, 4], ANZEIGE_Q, ANZEIGE, "de", limit=3) == [3, 1, 2]


@pytest.mark.parametrize(("question", "expected"), [
    (ANZEIGE_Q, True), (UNTERWEISUNG_Q, True),
    ("Bis wann erlosch die Berechtigung zum Leistungsbetrieb?", True),
    ("How long must the records be kept?", True),
    ("Welche effektive Jahresdosis darf eine Person erhalten?", True),
    ("Welches Dosiskriterium muss erfüllt sein?", True),
    ("Was versteht die Strahlenschutzverordnung unter einem Dosisrichtwert?", False),  # a definition
    ("Welche Behörde ist für die Endlagerung zuständig?", False),
    ("Who must notify the authority of an incident?", False),
    # the words that ask for a kind of figure (figure_kinds): laws-research-16's English parts
    ("Above what effective dose in the calendar year does special medical surveillance apply?", True),
    ("Ab welcher Ortsdosisleistung gilt eine Freisetzung als bedeutsam?", True),
])
def test_questions_that_ask_for_a_figure(question: str, expected: bool) -> None:
    assert asks_for_figure(question) is expected


@pytest.mark.parametrize(("sentence", "expected"), [
    ("spätestens vier Wochen vor dem beabsichtigten Beginn", True),
    ("in den Fällen des Absatzes 4 ein Jahr lang nach der Unterweisung", True),
    ("mit Ablauf des 31. Dezember 2022 für die Kernkraftwerke", True),
    ("von 0,3 Millisievert im Kalenderjahr", True),
    ("kept for two years after the inspection", True),
    ("hat der Behörde monatlich die erzeugten Elektrizitätsmengen mitzuteilen", True),  # a frequency
    ("nach § 17 Absatz 2 oder 3 erbracht", False),
    ("3. die Anlage nach Anlage 4 betrieben wird", False),
])
def test_sentences_that_state_a_figure(sentence: str, expected: bool) -> None:
    assert states_figure(sentence) is expected


def test_the_synthesis_reads_a_sources_verified_quote_before_the_models_reading() -> None:
    quote = QuoteRecord(proposed=ANZEIGE[3], verified=True, match="exact", display=ANZEIGE[3], chunk_id="c",
                        doc_id="d", doc="StrlSchG.pdf", page=16)
    finding = Finding(id="F1", task_id=0, chunk_id="c", doc_id="d", doc="StrlSchG.pdf", page=16, section="§ 17",
                      depth=0, tier=1, relevance=1.0, info="Der Betrieb ist der Behörde anzuzeigen.", quotes=[quote])
    block = source_block(1, finding)
    assert block.index("vier Wochen") < block.index("Der Betrieb ist der Behörde anzuzeigen.")


# StrlSchV § 117 (2), p. 58, as it stands in its chunk; the unit is split at a comma (sentences.MAX_WORDS), and
# the quote a 1.5B model named held both periods but not what they are of (laws-research-09)
PRUEFUNGEN = ("§ 117 Aufzeichnungen\n(1) Der Strahlenschutzverantwortliche hat dafür zu sorgen, dass Inhalt, Ergebnis "
              "und\nZeitpunkt der Prüfungen nach den §§ 115 und 116 Absatz 1 und 3 unverzüglich\naufgezeichnet werden.\n"
              "(2) Der Strahlenschutzverantwortliche hat dafür zu sorgen, dass die Aufzeichnungen\naufbewahrt werden,\n"
              "1.\xa0bei Prüfungen nach § 115 für die Dauer des Betriebes, mindestens jedoch drei Jahre\nnach dem "
              "Abschluss der nächsten vollständigen Abnahmeprüfung,\n2.\xa0bei Prüfungen nach § 116 zehn Jahre nach "
              "Abschluss der Prüfung.\nDie zuständige Behörde kann Abweichungen von den Aufbewahrungsfristen festlegen.")
PRUEFUNGEN_QUOTE = (" mindestens jedoch drei Jahre\nnach dem Abschluss der nächsten vollständigen Abnahmeprüfung,\n2.\xa0bei "
                    "Prüfungen nach § 116 zehn Jahre nach Abschluss der Prüfung.")
PRUEFUNGEN_Q = ("Wie lange sind die Aufzeichnungen über Abnahmeprüfungen und über Konstanzprüfungen der Geräte "
                "aufzubewahren?")


def test_a_quote_cut_at_a_comma_answers_with_the_start_of_its_sentence() -> None:
    """The drift guard read the quote alone, found one of the part's terms in it and let the model drop the only
    finding that held "drei Jahre" and "zehn Jahre"; read from its sentence's start it holds what was asked."""
    from desktop.engine.sentences import in_context, units

    assert any(PRUEFUNGEN[u.start:u.end] == PRUEFUNGEN_QUOTE for u in units(PRUEFUNGEN))  # as the reading cut it
    whole = in_context(PRUEFUNGEN, PRUEFUNGEN_QUOTE)
    assert whole.startswith("(2) Der Strahlenschutzverantwortliche") and whole.endswith(PRUEFUNGEN_QUOTE)
    assert not answers(PRUEFUNGEN_Q, PRUEFUNGEN_QUOTE, "de")
    assert answers(PRUEFUNGEN_Q, whole, "de")
    assert in_context(PRUEFUNGEN, "(2) Der Strahlenschutzverantwortliche") == "(2) Der Strahlenschutzverantwortliche"
    assert in_context(PRUEFUNGEN, "not in the text") == "not in the text"


def test_the_words_that_ask_for_a_figure_and_a_zu_infinitive_do_not_count_against_a_quote() -> None:
    """"Wie lange … aufzubewahren?" is answered by "… fünf Jahre … aufbewahrt": no statute repeats "lange", and
    "aufzubewahren" is the verb "aufbewahren"."""
    from desktop.engine.citation_support import content_terms

    assert content_terms("aufzubewahren, vorzulegen, einzuhalten", "de") == content_terms(
        "aufbewahren, vorlegen, einhalten", "de")
    assert content_terms("Anzug Abzug", "de") == {"anzug", "abzug"}  # no zu-infinitive: words of their own
    quote = "Die Aufzeichnungen über die Unterweisung sind fünf Jahre aufzubewahren."
    assert answers("Wie lange sind die Aufzeichnungen über die Unterweisung aufzubewahren?", quote, "de")
    assert answers("How long must the records of the instruction be kept?",
                   "The records of the instruction must be kept for five years.", "en")


def test_the_words_that_ask_for_a_figure_do_not_weigh_a_sentence() -> None:
    """laws-research-15: "so lange … bis" of another section shared "lange" with "Wie lange …?", and weighed as
    much as the sentence that answers the part (it shares "Zutritt" instead)."""
    part = "Wie lange sind die Aufzeichnungen über die Zutrittserlaubnis aufzubewahren?"
    answer = "Die Aufzeichnungen sind ab dem Zutritt fünf Jahre aufzubewahren."
    other = ("(2) Die zur Aufzeichnung Verpflichteten haben die Aufzeichnungen so lange aufzubewahren, bis die "
             "überwachte Person das 75. Lebensjahr vollendet hat oder vollendet hätte.")
    assert score(part, answer, "de", True) > score(part, other, "de", True)


def test_the_drift_guard_reads_a_quote_with_the_start_of_its_sentence() -> None:
    """The finding of laws-research-09 that held both periods is kept without asking the model."""
    from desktop.engine.sentences import in_context
    from desktop.engine.steps.drift import _answers

    quote = QuoteRecord(proposed=PRUEFUNGEN_QUOTE, verified=True, match="exact", display=PRUEFUNGEN_QUOTE.strip(),
                        chunk_id="c", doc_id="d", doc="StrlSchV.pdf", page=58)
    finding = Finding(id="F7", task_id=3, chunk_id="c", doc_id="d", doc="StrlSchV.pdf", page=58, tier=1,
                      relevance=1.0, quotes=[quote])
    assert not _answers(finding, [PRUEFUNGEN_Q], "de", {})
    assert _answers(finding, [PRUEFUNGEN_Q], "de", {PRUEFUNGEN_QUOTE: in_context(PRUEFUNGEN, PRUEFUNGEN_QUOTE)})


def test_a_paragraph_after_its_sections_title_is_weighed_by_its_own_words() -> None:
    """laws-research-14: the sentence that answers stood after § 4's title line, in one sentence with it (the title
    has no full stop); halved as a heading, it lost to another section's sentence sharing the part's words."""
    from desktop.engine.focus import score

    task = "Was muss er vor der Abgabe vom Empfänger einholen?"
    right = ("§ 4 Pflichten bei Abgabe und Empfang (1) Wer radioaktive Abfälle abgibt, ist verpflichtet, vorher eine "
             "schriftliche Erklärung des Empfängers über dessen Annahmebereitschaft einzuholen.")
    other = ("(1) Die Ablieferungspflicht nach § 5 bezieht sich nicht auf radioaktive Abfälle, deren anderweitige "
             "Beseitigung oder Abgabe im Einzelfall oder für einzelne Abfallarten im Einvernehmen mit der für den "
             "Empfänger der radioaktiven Abfälle zuständigen Behörde angeordnet oder genehmigt worden ist.")
    paragraph = right.split("(1) ", 1)[1]
    assert score(task, right, "de", False) == score(task, paragraph, "de", False) >= score(task, other, "de", False)
    title = "§ 4 Pflichten bei Abgabe und Empfang"
    assert score(task, title, "de", False) < score(task, right, "de", False)  # a title alone still counts half
