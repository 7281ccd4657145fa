"""Which parts ask for a named body, and which sentences name one (``named_bodies``)."""

from __future__ import annotations

import pytest

from desktop.engine.named_bodies import asks_for_body, names_body


@pytest.mark.parametrize(("part", "expected"), [
    ("Welche Behörde als zentrale Stelle Vorkommnisse bei medizinischer Exposition erfasst und auswertet?", True),
    ("Welche Stelle des Bundes ist zusätzlich zu informieren?", True),
    ("Bei welcher Behörde ist das Register zu führen?", True),
    ("Which federal authority examines the notification?", True),
    ("Welche Gesamtdosis darf nicht überschritten werden?", False),  # "amt" inside a word asks for no office
    ("Welche Feststellung trifft die Behörde?", False),
    ("Wer muss die erzeugte Elektrizitätsmenge bescheinigen?", False),  # a person or a role as often as a body
    ("Welcher Grenzwert gilt?", False),
])
def test_the_parts_that_ask_for_a_body(part: str, expected: bool) -> None:
    assert asks_for_body(part) is expected


@pytest.mark.parametrize(("sentence", "expected"), [
    ("(2) Zentrale Stelle ist das Bundesamt für Strahlenschutz.", True),
    ("Über die Anzeige entscheidet das Luftfahrt-Bundesamt.", True),
    ("unverzüglich auch dem radiologischen Lagezentrum des Bundes gemeldet wird", True),
    ("The notification is examined by the Federal Office for Radiation Protection.", True),
    ("Die zuständige Behörde kann anordnen, dass …", False),  # every statute says it: no body by its name
    ("der Aufsichtsbehörde vorzulegen", False),
    ("Bundesgesetzblatt Teil I", False),
])
def test_the_sentences_that_name_a_body(sentence: str, expected: bool) -> None:
    assert names_body(sentence) is expected
