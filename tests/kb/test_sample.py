"""The bundled sample database against the gold data of the laws-de corpus: every § and Anlage starts
on the right page, page numbers are physical pages, and cross-references resolve to the right §."""

from __future__ import annotations

import json

import pytest
from conftest import CORPUS, corpus_dir

from desktop.kb.database import KnowledgeBase
from desktop.kb.textnorm import normalize


def _jsonl(name: str) -> list[dict]:
    return [json.loads(line) for line in (corpus_dir("laws-de") / name).read_text().splitlines() if line.strip()]


def test_sample_has_the_five_laws_with_their_names(sample_kb: KnowledgeBase) -> None:
    docs = {d.file_name: d for d in sample_kb.documents()}
    assert set(docs) == {"StrlSchG.pdf", "StrlSchV.pdf", "AtG.pdf", "AtEV.pdf", "NiSV.pdf"}
    assert {d.short_name for d in docs.values()} == {"StrlSchG", "StrlSchV", "AtG", "AtEV", "NiSV"}
    assert "Atomgesetz" in docs["AtG.pdf"].aliases
    assert docs["StrlSchV.pdf"].issued == "2018-11-29"
    assert all(d.language == "de" and d.pending_embeddings == 0 for d in docs.values())
    assert sample_kb.verify() == []


def test_every_unit_starts_on_its_gold_page(sample_kb: KnowledgeBase) -> None:
    gold = json.loads((corpus_dir("laws-de") / "sections.json").read_text())
    docs = {d.file_name: d.doc_id for d in sample_kb.documents()}
    wrong = []
    for file_name, units in gold.items():
        for unit in units:
            label = unit["unit"].replace("§§", "§")  # the gold names "§§ 12c und 12d" by its first unit
            found = sample_kb.sections.find_section(docs[file_name], label)
            if found is None or found.page != unit["page"]:
                wrong.append((file_name, unit["unit"], unit["page"], found.page if found else None))
    assert wrong == [], f"{len(wrong)} of {sum(map(len, gold.values()))} units misplaced"


def test_gold_evidence_stands_on_the_stated_page(sample_kb: KnowledgeBase) -> None:
    docs = {d.file_name: d for d in sample_kb.documents()}
    for q in _jsonl("questions_dev.jsonl"):
        for ev in q["evidence"]:
            page = sample_kb.pages(docs[ev["doc"]].doc_id, ev["page"])[0]
            assert normalize(ev["text"]) in normalize(page.text), (q["id"], ev["doc"], ev["page"])


def _gold_references() -> list[dict]:
    file = CORPUS / "laws-de" / "references_dev.jsonl"
    return [json.loads(line) for line in file.read_text().splitlines() if line.strip()] if file.exists() else []


@pytest.mark.parametrize("item", _gold_references(), ids=lambda i: i["id"])
def test_gold_reference_resolves(sample_kb: KnowledgeBase, item: dict) -> None:
    from_doc = sample_kb.find_document(item["doc"]).doc_id
    resolved = sample_kb.references(item["context"], from_doc=from_doc)
    start = item["context"].index(item["reference"])
    end = start + len(item["reference"])
    match = [r for r in resolved if r.reference.start < end and start < r.reference.end]
    assert match, f"no reference parsed at {item['reference']!r}: {[r.reference.text for r in resolved]}"
    ref = match[0]
    target = item["target"]
    if target["doc"] is None:
        assert ref.status == "external", (ref.status, ref.reason)
        return
    expected = item.get("targets") or [{"doc": target["doc"], "unit": target["unit"], "target_page": item["target_page"]}]
    got = [(t.doc, t.section, t.page) for t in ref.targets]
    assert got[: len(expected)] == [(e["doc"], e["unit"], e["target_page"]) for e in expected], ref.reason


@pytest.mark.parametrize(("query", "doc", "section"), [
    ("§ 78 StrlSchG", "StrlSchG.pdf", "§ 78"),
    ("Anlage 4 StrlSchV", "StrlSchV.pdf", "Anlage 4"),
    ("Was regelt § 7 des Atomgesetzes?", "AtG.pdf", "§ 7"),
])
def test_a_cited_unit_comes_first(sample_kb: KnowledgeBase, query: str, doc: str, section: str) -> None:
    hits = sample_kb.search(query, k=3)
    assert [(h.doc, h.section) for h in hits] == [(doc, section)] * 3
