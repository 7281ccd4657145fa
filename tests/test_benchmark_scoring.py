"""The answer-quality benchmark's scoring (``benchmarks/answer_scoring.py``, ``support/report_checks.py``):
fast checks in the default run, so that a benchmark that takes an hour a question never dies on its
scoring after the run (seen: a name lost in a refactor)."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "benchmarks"))

from answer_scoring import facts_found, gold_pages, key_facts, on_gold  # noqa: E402
from research_cli import parse_summary  # noqa: E402
from support.report_checks import PageTexts, check_quotes, verbatim_norm  # noqa: E402

GOLD_DE = ("20 Millisievert im Kalenderjahr; im Einzelfall kann die Behörde für ein einzelnes Jahr 50 Millisievert "
           "zulassen, wobei in fünf aufeinanderfolgenden Jahren 100 Millisievert nicht überschritten werden dürfen.")
QUESTION_DE = "Welche effektive Jahresdosis darf eine beruflich exponierte Person höchstens erhalten?"
ON_PAGE_52 = ("Der Grenzwert der effektiven Dosis beträgt für beruflich exponierte Personen 20 Millisievert im "
              "Kalenderjahr.")


def test_key_facts_of_a_german_answer_are_numbers_with_their_unit() -> None:
    facts = key_facts(GOLD_DE, QUESTION_DE, "de")
    assert [f["fact"] for f in facts] == ["20 Millisievert", "50 Millisievert", "100 Millisievert"]
    answer = "Ja: 20 Millisievert im Kalenderjahr [1]; die Behörde kann 50 millisievert zulassen [2]."
    assert facts_found(facts, answer) == ["20 Millisievert", "50 Millisievert"]
    assert facts_found(facts, "Es gilt ein Grenzwert von 200 Millisievert.") == []  # 20 is not 200


@pytest.mark.parametrize(("gold", "said"), [("$11588.00", "Capital expenditure was $11,588 million."),
                                            ("30.8%", "The margin was 30.8 % in FY2022."),
                                            ("0,3 Millisievert", "höchstens 0.3 Millisievert")])
def test_numbers_are_found_whatever_their_format(gold: str, said: str) -> None:
    facts = key_facts(gold, "", "en")
    assert facts and facts_found(facts, said) == [f["fact"] for f in facts]


def test_facts_the_question_states_are_not_counted() -> None:
    assert key_facts("Nach § 78 StrlSchG 20 Millisievert.", "Was regelt § 78 StrlSchG?", "de") == [
        {"fact": "20 Millisievert", "pattern": key_facts("20 Millisievert", "", "de")[0]["pattern"]}]


def test_gold_pages_cover_page_ranges() -> None:
    gold = gold_pages({"evidence": [{"doc": "sub/StrlSchG.pdf", "page": 52, "page_end": 53}]})
    assert gold == {("StrlSchG.pdf", 52), ("StrlSchG.pdf", 53)}
    assert on_gold([{"doc": "StrlSchG.pdf", "page": 53}], gold) and not on_gold([{"doc": "StrlSchG.pdf", "page": 54}], gold)


def test_verbatim_rule_joins_hyphenated_line_breaks_but_keeps_ein_und() -> None:
    assert verbatim_norm("Strahlen-\n  schutz und Ein- \nund Ausfuhr\u00a0x") == "Strahlen-schutz und Ein- und Ausfuhr x"


def test_quotes_are_checked_against_the_pdf_page_not_the_reports_flag() -> None:
    report = {"citations": [
        {"doc": "StrlSchG.pdf", "path": None, "page": 52, "quote": ON_PAGE_52, "quote_verified": True},
        {"doc": "StrlSchG.pdf", "path": None, "page": 52, "quote": "Der Grenzwert beträgt 30 Millisievert.",
         "quote_verified": True},
        {"doc": "StrlSchG.pdf", "path": None, "page": 52, "quote": "not shown as verified", "quote_verified": False}],
        "findings": {"primary": [{"doc": "StrlSchG.pdf", "page": 52,
                                  "quotes": [{"text": ON_PAGE_52, "verified": True}]}]}}
    checked = check_quotes(report, PageTexts(ROOT / "kb"))
    assert checked["verified_quotes"] == 2  # the same quote on a citation and a finding counts once
    assert checked["verbatim_quotes"] == 1 and checked["verbatim_share"] == 0.5
    assert checked["not_verbatim"][0]["quote"].startswith("Der Grenzwert beträgt 30")


def test_the_json_summary_is_the_last_object_on_stdout() -> None:
    assert parse_summary('progress\n{"status": "running"}\n{"status": "done",\n "phase": "report"}\n') == {
        "status": "done", "phase": "report"}
    assert parse_summary("no summary") is None


def test_a_run_cites_the_references_in_the_sentences_it_was_shown_of_what_it_read(sample_kb) -> None:  # noqa: ANN001
    """``references_cited.py``: issue 21's "references followed in runs whose evidence cites one" counts only what
    the model was shown — a reference in a sentence left out of an excerpt, or in an excerpt never read, was not."""
    from references_cited import cited

    from desktop.engine.sentences import units

    hits = sample_kb.search("Grenzwerte beruflich exponierte Personen Absatz", 10)
    chunk = next(c for c in (sample_kb.chunk(h.chunk_id) for h in hits) if c and any(
        any(t.chunk_ids and (t.doc_id, t.section) != (c.doc_id, c.section) for t in r.targets)
        for r in sample_kb.references(c.text, c.doc_id)))
    at = {u.number: u for u in units(chunk.text)}
    citing = {n for n, u in at.items() for r in sample_kb.references(chunk.text, chunk.doc_id)
              if u.start <= r.reference.start < u.end and any(t.chunk_ids and (t.doc_id, t.section) !=
                                                                (chunk.doc_id, chunk.section) for t in r.targets)}
    plain = [n for n in at if n not in citing]

    def state(shown: list[int], read: bool) -> dict:
        return {"later": {"research": {"gathered": [{"chunk_id": chunk.chunk_id, "units": shown}],
                                       "visited": [chunk.chunk_id] if read else [], "tasks": []}}}
    assert cited(sample_kb, state([min(citing)], True))
    assert not cited(sample_kb, state([min(citing)], False))  # never read
    assert plain and not cited(sample_kb, state(plain[:1], True))  # the sentence that cites one was not shown


def test_fact_losses_names_the_facts_each_stage_lost() -> None:
    from fact_losses import lost

    held = {"gathered": {"a", "b", "c"}, "read": {"a", "b"}, "shown": {"a", "b"}, "quoted": {"a"}, "kept": {"a"},
            "answer": {"a", "c"}}  # an answer may state a fact no quote held: it is no loss of the stage before
    assert lost(held) == ["read lost c", "quoted lost b"]
