"""Figures findable however they are written: the lexical index holds a number as written and by its
value, read with the text's language ("1.234,5" in German, "1,234.5" in English); a database indexed
before this is indexed again when opened."""

from __future__ import annotations

from pathlib import Path

import pytest
from support import pdfs

from desktop.kb.search import fts
from desktop.kb.database import KnowledgeBase
from desktop.kb.search.lexical import fts_terms, index_terms, number_value, query_terms
from desktop.paths import AppPaths
from desktop.settings import Settings


@pytest.mark.parametrize(("number", "language", "value"), [
    ("1.234,5", "de", "1234_5"), ("1,234.5", "en", "1234_5"), ("1.234.567,89", "de", "1234567_89"),
    ("1.000", "de", "1000"), ("1,000", "en", "1000"), ("1,000", "de", "1"),  # German: one comma is a decimal sign
    ("12,50", "de", "12_5"), ("11588.00", "en", "11588"), ("0,3", "de", "0_3"), ("2021", "en", "2021"),
    ("1,000", None, "1000"), ("0,5", None, "0_5"),  # a query's language is unknown: 3-digit groups are thousands
    ("31.12.2022", "de", None), ("1,2.3,4", "en", None),  # a date, and no number at all
])
def test_a_number_is_read_with_its_texts_language(number: str, language: str | None, value: str | None) -> None:
    assert number_value(number, language) == value


def test_the_index_holds_a_number_as_written_and_by_its_value() -> None:
    terms = fts_terms("Capital expenditures were $(1,234.50) million, up 12.5% in 2021.", "en").split()
    assert {"1_234_50", "1234_5", "12_5", "2021"} <= set(terms)
    assert fts_terms("Die Kosten betrugen 2.345,60 Euro.", "de").split()[-3:] == ["2_345_60", "2345_6", "euro"]
    # what the engine compares texts by stays as written (support and drift checks count terms)
    assert "1234_5" not in index_terms("$(1,234.50) million", "en").split()


def test_a_query_asks_for_the_number_as_written_and_by_its_value() -> None:
    assert query_terms("capex 1,234.5 and 12.50 and 0,3") == [
        ("capex",), ("1_234_5", "1234_5"), ("12_50", "12_5"), ("0_3",)]


@pytest.fixture
def figures(kb: KnowledgeBase, tmp_path: Path) -> KnowledgeBase:
    docs = tmp_path / "docs"
    docs.mkdir()
    pdfs.report(docs / "annual.pdf", [
        "Capital expenditures for the fiscal year amounted to 1,234.5 million dollars, mainly for new plants.",
        "The company paid dividends to its shareholders and repurchased shares during the year.",
    ], title="Annual Report")
    pdfs.report(docs / "haushalt.pdf", [
        "Die Investitionsausgaben des Landes betrugen im Haushaltsjahr 2.345,6 Millionen Euro insgesamt.",
        "Die Verwaltung berichtet jährlich über die Entwicklung der Ausgaben und Einnahmen.",
    ], title="Haushaltsbericht")
    assert kb.ingest([docs]).pending_embeddings == 0
    return kb


@pytest.mark.parametrize(("query", "doc"), [
    ("1234.5", "annual.pdf"), ("1.234,5", "annual.pdf"), ("1,234.50", "annual.pdf"),
    ("2,345.6", "haushalt.pdf"), ("2345.6", "haushalt.pdf"), ("2.345,6", "haushalt.pdf"),
])
def test_a_figure_is_found_however_it_is_written(figures: KnowledgeBase, query: str, doc: str) -> None:
    hits = figures.search(query, k=3, mode="lexical")
    assert hits and hits[0].doc == doc, [h.doc for h in hits]


def test_a_database_indexed_before_numbers_had_values_is_indexed_again_when_opened(
        figures: KnowledgeBase, app_paths: AppPaths, settings: Settings) -> None:
    catalog = figures.catalog
    fresh = catalog.query("SELECT rowid, head, body FROM chunks_fts ORDER BY rowid")
    with catalog.transaction() as db:  # the index as the previous version wrote it
        for row in catalog.query("SELECT rowid, text, language FROM chunks"):
            db.execute("UPDATE chunks_fts SET body = ? WHERE rowid = ?",
                       (index_terms(row["text"], row["language"]), row["rowid"]))
        db.execute("DELETE FROM meta WHERE key = 'lexical_version'")
    assert not figures.search("2345.6", k=3, mode="lexical")
    figures.close()
    with KnowledgeBase.open(app_paths, settings, "Test") as again:
        assert again.catalog.get_meta("lexical_version") == fts.LEXICAL_VERSION
        hits = again.search("2345.6", k=3, mode="lexical")
        assert hits and hits[0].doc == "haushalt.pdf"
        assert fts.upgrade(again.catalog) == 0  # indexed once, not on every opening
        upgraded = again.catalog.query("SELECT rowid, head, body FROM chunks_fts ORDER BY rowid")
        assert [tuple(r) for r in upgraded] == [tuple(r) for r in fresh]  # as a new ingestion writes it
