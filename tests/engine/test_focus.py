"""The engine's second look at a reading's quote (focus.py), on sentences of the sample laws as the
extraction numbers them. The cases are the laws-de benchmark's misses with a 1.5B model: the right excerpt,
its first sentence quoted, the figure asked for further on."""

from __future__ import annotations

import pytest

from desktop.engine.focus import asks_for_figure, focused, states_figure
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
])
def test_questions_that_ask_for_a_figure(question: str, expected: bool) -> None:
    assert asks_for_figure(question) is expected


@pytest.mark.parametrize(("sentence", "expected"), [
    ("spätestens vier Wochen vor dem beabsichtigten Beginn", True),
    ("in den Fällen des Absatzes 4 ein Jahr lang nach der Unterweisung", True),
    ("mit Ablauf des 31. Dezember 2022 für die Kernkraftwerke", True),
    ("von 0,3 Millisievert im Kalenderjahr", True),
    ("kept for two years after the inspection", True),
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
