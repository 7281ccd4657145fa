"""report.md: every part of the report, [n] markers kept, unverified quotes never shown as quotes."""

from __future__ import annotations

from desktop.report.labels import LABELS
from desktop.report.markdown import demote_headings, md_safe, to_markdown
from desktop.report.model import Report


def test_german_report_has_every_part(report_de: Report) -> None:
    md = to_markdown(report_de)
    quote_1, quote_3 = report_de.citations[0].quote, report_de.citations[2].quote
    assert md.startswith("# Dosisgrenzwerte für Einzelpersonen der Bevölkerung\n")
    assert "**Frage:** Welche Dosisgrenzwerte gelten nach § 80 StrlSchG für die Bevölkerung?" in md
    for heading in ("## Antwort", "## Quellen", "## Erkenntnisse", "### Primär", "### Sekundär", "### Tertiär",
                    "## Wegen Themenabweichung ausgefiltert", "## Qualität", "## Plan", "## Lauf"):
        assert f"\n{heading}\n" in md, heading
    assert "Kalenderjahr [1]. " in md and "[1, 2]" in md and "[9]" in md  # markers kept as written
    assert "### Überblick" in md and "#### Ausnahmen nach § 80" in md  # answer headings sit below "## Antwort"
    assert f"[1] StrlSchG.pdf, S. 12, § 80 — „{quote_1}“ (verifiziert)" in md
    assert f"[3] Leitfaden Übersicht.pdf, S. 4 — „{quote_3}“ (verifiziert, unscharfer Abgleich)" in md
    assert "- Ausnahmen im Einzelfall — Leitfaden Übersicht.pdf, S. 4 [3]" in md
    assert "gefunden über Verweis aus: StrlSchV p. 8 § 3" in md
    assert "> **Warnung:** Einige Erkenntnisse wichen vom Thema ab." in md
    assert "Grund: behandelt Lebensmittel, nicht Personendosis; Abweichung 0.81" in md
    quality = md.split("## Qualität\n\n")[1].split("\n\n")[0].splitlines()
    assert quality[0] == "- Sätze mit Quellenangabe: 88 %"  # the measured figures lead
    assert "- Selbsteinschätzung des Sprachmodells: Gesamt: 325 / 400" in quality
    assert "- Überarbeitet: ja (erste Bewertung: 240 / 400)" in quality
    assert "- Sätze mit Quellenangabe: 88 %" in md and "- Verifizierte Zitate: 67 %" in md
    assert "1. Welche Dosisgrenzwerte gelten? (Status: done)" in md and "   - § 80 StrlSchG" in md
    assert "- Modell: qwen3:8b" in md and "- Embedding-Modell: multilingual-e5-small" in md
    assert "- Tokens (Prompt / Antwort): 51234 / 8012" in md
    # the phases by the names the window gives them, in the report's language (the codes were shown before)
    assert "- Zeiten je Phase:\n  - Klärung: 4.2 s\n  - Recherche: 3 min 05 s" in md


def test_unverified_quotes_are_never_quoted(report_de: Report, report_en: Report) -> None:
    md = to_markdown(report_de)
    unverified_de, unverified_en = report_de.citations[1].quote, report_en.citations[1].quote
    assert unverified_de and unverified_en
    assert "[2] StrlSchV.pdf, S. 8, § 3 — Zitat nicht verifiziert\n" in md
    # the unverified words appear only as a labelled paraphrase in the findings, never inside quote marks
    assert f"„{unverified_de}" not in md and f"{unverified_de}“" not in md
    assert f"Paraphrase, nicht verifiziert: {unverified_de}" in md
    source_lines = [line for line in md.splitlines() if line.startswith("[")]
    assert len(source_lines) == 3 and all(unverified_de not in line for line in source_lines)
    en = to_markdown(report_en)
    assert "[2] Ordinance.pdf, p. 9 — quote not verified\n" in en
    assert f"“{unverified_en}" not in en and f"paraphrase, not verified: {unverified_en}" in en


def test_english_labels(report_en: Report) -> None:
    md = to_markdown(report_en)
    quote_1 = report_en.citations[0].quote
    for heading in ("## Answer", "## Sources", "## Findings", "### Primary", "## Quality", "## Run"):
        assert f"\n{heading}\n" in md
    assert f"[1] Radiation Act.pdf, p. 5, Section 80 — “{quote_1}” (verified)" in md
    assert "- Revised: no" in md and "- The language model's self-rating: Total: 325 / 400" in md
    assert "reached through a reference in: Radiation Act p. 5 Section 80" in md
    assert "- Time per phase:\n  - Clarify: 4.2 s\n  - Research: 3 min 05 s" in md


def test_html_in_the_answer_cannot_become_markup(report_de: Report) -> None:
    md = to_markdown(report_de)
    assert "<script>" not in md and "&lt;script>alert('x')&lt;/script>" in md
    assert "Nachweis < 1 mSv" in md  # a comparison stays readable
    assert md_safe("a < b <b>") == "a < b &lt;b>"


def test_demote_headings_caps_at_six() -> None:
    assert demote_headings("# A\ntext #1\n##### B") == "### A\ntext #1\n###### B"


def test_both_languages_have_the_same_labels() -> None:
    assert LABELS["de"].keys() == LABELS["en"].keys()
