"""report.pdf: opens with PyMuPDF, A4, page numbers in the report's language, the answer and the
German typography (umlauts, §, „…“) survive as text, [n] markers link to their source."""

from __future__ import annotations

import unicodedata
from pathlib import Path

import pymupdf
import pytest

from desktop.report.model import Report
from desktop.report.pdf import to_pdf


def _norm(text: str) -> str:
    """NFKC folds the typesetter's ligatures (ﬁ → fi); whitespace differs by line breaking."""
    return " ".join(unicodedata.normalize("NFKC", text).split())


def _pdf(report: Report, path: Path) -> tuple[list[str], pymupdf.Document]:
    to_pdf(report, path)
    doc = pymupdf.open(path)
    return [page.get_text() for page in doc], doc


def test_german_pdf(report_de: Report, tmp_path: Path) -> None:
    pages, doc = _pdf(report_de, tmp_path / "r.pdf")
    with doc:
        assert doc.page_count == len(pages) >= 1
        assert tuple(doc[0].rect) == pytest.approx(tuple(pymupdf.paper_rect("a4")))  # A4
        total = len(pages)
        for i, text in enumerate(pages, start=1):
            assert f"Seite {i} von {total}" in text
        assert "Seite 1 von" in pages[0]
        text = _norm("\n".join(pages))
        assert _norm("Der Dosisgrenzwert für Einzelpersonen der Bevölkerung beträgt 1 mSv im Kalenderjahr [1].") in text
        assert _norm(report_de.citations[0].quote or "") in text  # a verified quote, with its umlauts
        for needle in ("Überblick", "§ 80", "„im Einzelfall“", "Qualität", "Übersicht.pdf", "ß", "verifiziert",
                       "<script>alert('x')</script>"):  # the escaped script shows as text, as in the HTML
            assert needle in text, needle
        assert "Zitat nicht verifiziert" in text and f"„{report_de.citations[1].quote}" not in text
        assert doc.metadata["title"] == report_de.title


def test_markers_link_inside_the_pdf(report_de: Report, tmp_path: Path) -> None:
    _, doc = _pdf(report_de, tmp_path / "r.pdf")
    with doc:
        links = [link for page in doc for link in page.get_links()]
        assert links and all(link["kind"] == pymupdf.LINK_GOTO for link in links)
        # the first marker ([1] in the answer) jumps to the source entry "[1] StrlSchG.pdf ..."
        first = links[0]
        target = doc[first["page"]]
        to = first["to"]
        words = target.get_text("words", clip=pymupdf.Rect(to.x, to.y, to.x + 200, to.y + 14))
        assert [w[4] for w in words][:2] == ["[1]", "StrlSchG.pdf,"]


def test_english_footer(report_en: Report, tmp_path: Path) -> None:
    pages, doc = _pdf(report_en, tmp_path / "r.pdf")
    with doc:
        assert f"Page 1 of {len(pages)}" in pages[0]
        assert "Seite" not in "".join(pages)
        assert "Public dose limits" in pages[0]


def test_long_report_flows_over_pages(report_de: Report, tmp_path: Path) -> None:
    report_de.answer = "\n\n".join(f"Absatz {i}: Prüfung nach § {i} [1]." for i in range(200))
    pages, doc = _pdf(report_de, tmp_path / "long.pdf")
    with doc:
        n = len(pages)
        assert n > 2 and f"Seite {n} von {n}" in pages[-1]
        assert "Absatz 199: Prüfung nach § 199 [1]." in _norm("\n".join(pages))
