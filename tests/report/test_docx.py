"""report.docx: opens with python-docx, carries the answer, the sources with their numbers and the
quality table; unverified quotes are not quoted; text Word cannot hold does not break the export."""

from __future__ import annotations

from pathlib import Path

import docx

from desktop.report.docx import to_docx
from desktop.report.model import Report


def _open(report: Report, path: Path) -> docx.document.Document:
    to_docx(report, path)
    return docx.Document(str(path))


def test_german_docx(report_de: Report, tmp_path: Path) -> None:
    doc = _open(report_de, tmp_path / "r.docx")
    paragraphs = [p.text for p in doc.paragraphs]
    text = "\n".join(paragraphs)
    headings = [p.text for p in doc.paragraphs if p.style.name.startswith(("Heading", "Title"))]
    assert headings[:4] == ["Dosisgrenzwerte für Einzelpersonen der Bevölkerung", "Antwort", "Überblick",
                            "Ausnahmen nach § 80"]
    assert {"Quellen", "Erkenntnisse", "Primär", "Sekundär", "Tertiär", "Qualität", "Plan", "Lauf"} <= set(headings)
    assert ("Der Dosisgrenzwert für Einzelpersonen der Bevölkerung beträgt 1 mSv im Kalenderjahr [1]. "
            "Für beruflich exponierte Personen gelten höhere Grenzwerte [2].") in paragraphs
    bold = [r.text for p in doc.paragraphs for r in p.runs if r.bold]
    assert "1 mSv" in bold
    assert "Die Behörde kann „im Einzelfall“ Ausnahmen zulassen [3]." in paragraphs
    assert "1. Erster Schritt <script>alert('x')</script> prüfen" in paragraphs  # plain text in Word: harmless
    sources = [p for p in paragraphs if p.startswith("[")]
    quote = report_de.citations[0].quote
    assert sources == [
        f"[1] StrlSchG.pdf, S. 12, § 80 — „{quote}“ \u2713 verifiziert",
        "[2] StrlSchV.pdf, S. 8, § 3 — Zitat nicht verifiziert",
        f"[3] Leitfaden Übersicht.pdf, S. 4 — „{report_de.citations[2].quote}“ \u2713 verifiziert (unscharfer Abgleich)",
    ]
    assert f"„{report_de.citations[1].quote}" not in text
    assert "Warnung: Einige Erkenntnisse wichen vom Thema ab." in paragraphs
    assert doc.core_properties.title == report_de.title


def test_quality_table(report_de: Report, tmp_path: Path) -> None:
    doc = _open(report_de, tmp_path / "r.docx")
    quality = doc.tables[0]
    rows = [[cell.text for cell in row.cells] for row in quality.rows]
    assert rows[0] == ["Sätze mit Quellenangabe", "88 %"]  # the measured figures lead
    assert ["Selbsteinschätzung des Sprachmodells: Belegtheit", "85 / 100"] in rows
    assert ["Selbsteinschätzung des Sprachmodells: Gesamt", "325 / 400"] in rows
    assert ["Verifizierte Zitate", "67 %"] in rows and ["Sätze mit Quellenangabe", "88 %"] in rows
    run_rows = [[cell.text for cell in row.cells] for row in doc.tables[1].rows]
    assert ["Modell", "qwen3:8b"] in run_rows
    assert ["Zeiten je Phase: Recherche", "3 min 05 s"] in run_rows


def test_control_characters_from_pdfs_do_not_break_word(report_en: Report, tmp_path: Path) -> None:
    report_en.citations[0].quote = "dose\x00 limit\x07 of 1 mSv"
    doc = _open(report_en, tmp_path / "r.docx")
    assert any(p.text.startswith("[1] Radiation Act.pdf, p. 5, Section 80 — “dose") for p in doc.paragraphs)
    assert "Sources" in [p.text for p in doc.paragraphs]
