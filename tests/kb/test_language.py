"""Which language a question or a page is in: German or English, offline, by function words."""

from __future__ import annotations

import json

import pytest
from conftest import corpus_dir

from desktop.kb.language import detect_language


@pytest.mark.parametrize(("question", "language"), [
    ("Was versteht die Strahlenschutzverordnung unter einem Dosisrichtwert?", "de"),  # seen: answered in English
    ("Was besagt § 249 Abs. 1 BGB?", "de"),
    ("Worauf beruht die Festsetzung des Streitwertes?", "de"),
    ("Kann das Gericht einen angefochtenen Steuerbescheid aufheben?", "de"),
    ("Grenzwert für Äquivalentdosis", "de"),
    ("What is the dose limit?", "en"),
    ("What was Amazon's net income in FY2019?", "en"),
])
def test_a_short_question_is_told_by_one_function_word(question: str, language: str) -> None:
    assert detect_language(question, evidence=1) == language


def test_a_page_needs_three_function_words_before_it_overrules_the_default() -> None:
    assert detect_language("Anlage 4 Tabelle 1 Nuklid Bq the", default="de") == "de"
    assert detect_language("Table 3: Revenue der", default="en") == "en"
    assert detect_language("Der Grenzwert ist nicht überschritten, wenn die Dosis unter 1 mSv liegt.") == "de"


@pytest.mark.parametrize(("name", "language"), [("laws-de", "de"), ("legalquad-dev", "de"),
                                                ("financebench-dev", "en"), ("obliqa-dev", "en")])
def test_every_dev_question_is_told_right(name: str, language: str) -> None:
    lines = (corpus_dir(name) / "questions_dev.jsonl").read_text(encoding="utf-8").splitlines()
    questions = [json.loads(line)["question"] for line in lines if line.strip()]
    assert questions and [q for q in questions if detect_language(q, evidence=1) != language] == []
