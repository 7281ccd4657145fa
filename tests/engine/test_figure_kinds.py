"""What kind of figure a part of the question asks for, and the kind of each figure a text states
(figure_kinds.py): the answer's completion adds a figure only of a kind the part asks for."""

from __future__ import annotations

import pytest

from desktop.engine.figure_kinds import (
    AMOUNT,
    PERIOD,
    asked_kinds,
    kinded_figures,
    new_figures,
    said_figures,
    states_kind,
)


@pytest.mark.parametrize(("part", "kinds"), [
    ("Bis wann muss nach einer Überschreitung des Referenzwerts der Erfolg der Maßnahmen überprüft sein?", {PERIOD}),
    ("Innerhalb welcher Frist muss gemessen werden, über welche Gesamtdauer?", {PERIOD}),
    ("Wie lange sind die Aufzeichnungen aufzubewahren?", {PERIOD}),
    ("Die mögliche effektive Jahresdosis, ab der eine Person in Kategorie A einzustufen ist?", {AMOUNT}),
    ("Der Grenzwert für die Summe der effektiven Dosen über das gesamte Berufsleben?", {AMOUNT}),
    ("Ab welcher Ortsdosisleistung gilt eine Freisetzung als bedeutsam?", {AMOUNT}),
    ("Wie viele Lerneinheiten umfasst die Schulung?", {AMOUNT}),
    ("Was gilt für die Abschätzung (Frist, Aufbewahrung der Ergebnisse und Dosis, ab der die Anforderungen gelten)?",
     {PERIOD, AMOUNT}),
    ("By when must the determined doses be available after a deployment?", {PERIOD}),
    ("What minimum insurance cover per participant has to be proven?", {AMOUNT}),
    ("Above what annual dose must crew members be classified as category A?", {AMOUNT}),
    ("Unter welchen Voraussetzungen darf sie einen Kontrollbereich betreten?", set()),
    # laws-research-09: "aufbewahrte" describes the data, it asks for no period (its line showed "30 Jahre")
    ("Unter welcher Voraussetzung dürfen elektronisch aufbewahrte Bilddaten komprimiert werden?", set()),
    ("Wie lange sind die aufbewahrten Bilddaten bereitzuhalten?", {PERIOD}),
    ("Which federal authority examines the notification?", set()),
])
def test_the_kinds_a_part_asks_for(part: str, kinds: set[str]) -> None:
    assert asked_kinds(part) == kinds


def test_each_figure_has_the_kind_of_the_word_after_it() -> None:
    assert kinded_figures("innerhalb von 18 Monaten, mindestens zwei Arbeitstage vor") == \
        {"18": {PERIOD}, "2": {PERIOD}}
    assert kinded_figures("mehr als 6 Millisievert im Kalenderjahr, 300 Becquerel je Kubikmeter") == \
        {"6": {AMOUNT}, "300": {AMOUNT}}
    assert kinded_figures("bis die Person das 75. Lebensjahr vollendet hat") == {"75": {PERIOD}}
    assert kinded_figures("0,3 Millisievert") == {"0_3": {AMOUNT}}
    # numbers that point or number an item are no figures: "§ 5 Absatz 2", "Satzes 1", "5. Berechnung", "Radon-222"
    assert kinded_figures("nach § 5 Absatz 2 im Falle des Satzes 1: 5. Berechnung der Radon-222-Konzentration") == {}


def test_new_figures_are_those_of_an_asked_kind_the_answer_lacks() -> None:
    text = "Die Messung muss innerhalb von 18 Monaten erfolgen; der Referenzwert beträgt 300 Becquerel je Kubikmeter."
    assert new_figures(text, {}, {PERIOD}) == {"18"}
    assert new_figures(text, {"18": {PERIOD}}, {PERIOD}) == set()
    assert new_figures(text, {}, {AMOUNT}) == {"300"}
    assert new_figures(text, {}, set()) == {"18", "300"}  # a part that names no kind takes either
    # "18 Monate" is new beside "18 Millisievert": a value the answer states as another kind
    assert new_figures(text, said_figures("höchstens 18 Millisievert"), {PERIOD}) == {"18"}
    assert new_figures(text, said_figures("binnen 18 Monaten"), {PERIOD}) == set()


def test_a_figure_whose_kind_is_not_told_counts_as_every_kind() -> None:
    assert said_figures("innerhalb von 18 Monaten") == {"18": {PERIOD}}
    assert said_figures("zwölf") == {"12": {PERIOD, AMOUNT}}


def test_a_list_number_before_a_noun_states_no_amount_an_ordinal_of_time_does() -> None:
    """laws-research-09: "… aufbewahrt werden und 2. Daten, die …" counted as a sentence stating a figure, and
    won the line for a part asking how long records are kept over the sentence stating "30 Jahren"."""
    from desktop.engine.citation_support import amounts

    assert amounts("aufbewahrt werden und 2. Daten, die den Prozess beschreiben") == set()
    assert amounts("1. Beruflich exponierte Personen der Kategorie A") == set()
    assert amounts("bis zum 31. Dezember 2026") == {"31", "2026"}
    assert amounts("bis die Person das 75. Lebensjahr vollendet hat") == {"75"}
    assert amounts("beträgt 20 Millisievert. Die Behörde") == {"20"}


def test_one_unit_of_time_with_its_article_is_a_period() -> None:
    """laws-research-16: "innerhalb eines Monats" stated no figure, so the part asking by when a dosimeter is to be
    submitted could not take the sentence that says it."""
    submit = ("Nach der Verwendung eines Dosimeters in einer Notfallexpositionssituation ist das Dosimeter zusammen mit "
              "dem Referenzdosimeter innerhalb eines Monats bei der Messstelle einzureichen.")
    assert kinded_figures(submit) == {"1": {PERIOD}}
    assert kinded_figures("binnen einer Woche nach Festlegung") == {"1": {PERIOD}}
    assert kinded_figures("within a month of the deployment") == {"1": {PERIOD}}
    assert new_figures(submit, said_figures("1 Millisievert"), {PERIOD}) == {"1"}  # a dose of 1 is no period of 1
    # an article before anything but a unit of time is no number
    assert kinded_figures("Die Messstelle hat eine Bescheinigung auszustellen.") == {}
    assert kinded_figures("im Laufe eines Kalenderjahres") == {}


def test_a_frequency_states_a_period() -> None:
    """laws-research-07: "Wie oft sind der Behörde die erzeugten Mengen mitzuteilen?" is answered by "monatlich", a
    period without a number; a sentence that states it states the kind the part asks for, an amount does not."""
    monthly = "Der Betreiber hat der Behörde monatlich die im Vormonat erzeugten Elektrizitätsmengen mitzuteilen."
    assert states_kind(monthly, {PERIOD})
    assert states_kind(monthly, set())
    assert not states_kind(monthly, {AMOUNT})
    assert states_kind("must be reported annually to the authority", {PERIOD})
    assert not states_kind("Die Behörde ist zu unterrichten.", {PERIOD})
    assert states_kind("mindestens fünf Arbeitstage vor Beginn", {PERIOD})
