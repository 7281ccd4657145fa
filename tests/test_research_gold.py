"""The research gold set of the German laws (``benchmarks/questions/laws-de-research.jsonl``): every fact's text
stands verbatim on its page of the PDF in ``kb/`` (the corpus' verbatim rule), its keys stand in that text, no two
facts of a question share a key, and the evidence pages are the facts' pages."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "benchmarks"))

from answer_scoring import fact_norm  # noqa: E402
from support.report_checks import PageTexts, verbatim_norm  # noqa: E402

GOLD = ROOT / "benchmarks" / "questions" / "laws-de-research.jsonl"
QUESTIONS = [json.loads(line) for line in GOLD.read_text(encoding="utf-8").splitlines() if line.strip()]
PAGES = PageTexts(ROOT / "kb")


def _keys(fact: dict) -> set[str]:
    return {fact_norm(k) for k in [*fact["keys"], *(fact.get("keys_en") or [])]}


def test_the_set_is_large_mixed_and_cross_law() -> None:
    ids = [q["id"] for q in QUESTIONS]
    assert len(ids) == len(set(ids)), "ids must be unique"
    assert len(QUESTIONS) >= 12
    assert sum(q["lang"] == "en" for q in QUESTIONS) >= 4
    assert sum(len({f["doc"] for f in q["facts"]}) >= 2 for q in QUESTIONS) >= 5


@pytest.mark.parametrize("q", QUESTIONS, ids=[q["id"] for q in QUESTIONS])
def test_question_is_multi_part_and_its_facts_are_on_their_pages(q: dict) -> None:
    facts = q["facts"]
    assert q["lang"] in ("de", "en") and q["question"] and q["answer"]
    assert 3 <= len(facts) <= 6
    assert len({(f["doc"], f["section"]) for f in facts}) >= 2, "facts from at least two sections"
    assert len({f["id"] for f in facts}) == len(facts)
    for f in facts:
        page = PAGES.get(None, f["doc"], int(f["page"]))
        assert page is not None, f"{f['doc']} has no page {f['page']}"
        assert verbatim_norm(f["text"]) in page, f"fact {f['id']}: text not verbatim on {f['doc']} p. {f['page']}"
        assert 1 <= len(f["keys"]) <= 3
        for key in f["keys"]:
            assert fact_norm(key) in fact_norm(f["text"]), f"fact {f['id']}: key {key!r} not in its text"
        if q["lang"] == "en":
            assert f.get("keys_en"), f"fact {f['id']}: an English question needs keys_en"
    for i, f in enumerate(facts):
        for g in facts[i + 1:]:
            assert not _keys(f) & _keys(g), f"facts {f['id']} and {g['id']} share a key"
    assert {(e["doc"], int(e["page"])) for e in q["evidence"]} == {(f["doc"], int(f["page"])) for f in facts}
    assert len(q["evidence"]) == len({(e["doc"], int(e["page"])) for e in q["evidence"]})
