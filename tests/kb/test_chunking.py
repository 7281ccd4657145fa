"""Structure-aware chunking on real PDFs: spans, page boundaries, sections, furniture."""

from __future__ import annotations

from pathlib import Path

import pymupdf
import pytest
from support.pdfs import make_pdf, statute

from desktop.kb.ingestion.chunking import chunk_page
from desktop.kb.ingestion.docinfo import probe
from desktop.kb.ingestion.pdf import open_pdf, read_page
from desktop.kb.ingestion.structure import SectionTracker, classify_heading
from desktop.settings import ChunkingSettings


def _chunks(path: Path, sizes: ChunkingSettings | None = None) -> list[tuple[int, str, str | None, object]]:
    doc = open_pdf(path)
    info = probe(doc, path)
    tracker = SectionTracker()
    out = []
    for i in range(doc.page_count):
        layout = read_page(doc, i)
        for piece in chunk_page(layout, info.body_size, info.furniture, sizes or ChunkingSettings()):
            for h in piece.headings:
                tracker.observe(h)
            out.append((piece.page, piece.text, tracker.section, piece))
    return out


def test_page_text_is_pymupdfs_and_spans_slice_it(tmp_path: Path) -> None:
    path = statute(tmp_path / "t.pdf", sections=4)
    doc = pymupdf.open(path)
    for page_no, text, _, piece in _chunks(path):
        page_text = doc[page_no - 1].get_text()
        assert page_text[piece.start : piece.end] == text


def test_chunks_never_span_pages_and_sections_start_at_headings(tmp_path: Path) -> None:
    path = statute(tmp_path / "t.pdf", sections=5)
    chunks = _chunks(path)
    sections = [s for _, _, s, _ in chunks]
    assert [s for s in dict.fromkeys(sections) if s] == ["§ 1", "§ 2", "§ 3", "§ 4", "§ 5"]
    for page_no, text, section, _ in chunks:
        if section:
            # the § heading opens the first chunk of its section, and a chunk holds one § only
            assert text.count("§ ") <= 1 or text.startswith(section)
    # § 2 starts on page 2 together with § 1 (two per page after the title page)
    assert {(p, s) for p, _, s, _ in chunks if s in ("§ 1", "§ 2")} == {(2, "§ 1"), (2, "§ 2")}


def test_running_header_and_page_numbers_are_not_chunked(tmp_path: Path) -> None:
    path = statute(tmp_path / "t.pdf", abbreviation="KopfG", sections=6)
    for _, text, _, _ in _chunks(path):
        assert "Seite " not in text
        assert not text.startswith("KopfG")


def test_long_paragraph_is_split_at_sentences(tmp_path: Path) -> None:
    sentence = "Der Betreiber hat die Anlage regelmäßig zu prüfen und das Ergebnis aufzuzeichnen. "
    path = make_pdf(tmp_path / "long.pdf", [[("h", "§ 1 Prüfung"), ("p", sentence * 30)]])
    sizes = ChunkingSettings(target_words=60, max_words=80, min_words=10)
    chunks = _chunks(path, sizes)
    assert len(chunks) >= 4
    for _, text, section, _ in chunks:
        assert section == "§ 1"
        assert len(text.split()) <= 80 + 15  # a group may exceed the target by one sentence
        assert text.rstrip().endswith(".")


def test_small_tail_joins_previous_chunk(tmp_path: Path) -> None:
    para = "Ein Absatz mit genug Wörtern um allein zu stehen, und noch ein paar weitere Wörter dazu. " * 3
    path = make_pdf(tmp_path / "tail.pdf", [[("h", "§ 1 Titel"), ("p", para), ("p", para), ("p", "Kurz.")]])
    sizes = ChunkingSettings(target_words=40, max_words=200, min_words=10)
    texts = [t for _, t, _, _ in _chunks(path, sizes)]
    assert not any(t.strip() == "Kurz." for t in texts)
    assert texts[-1].rstrip().endswith("Kurz.")


@pytest.mark.parametrize(
    ("text", "kind", "label", "title"),
    [
        ("§ 5 Begriffsbestimmungen", "unit", "§ 5", "Begriffsbestimmungen"),
        ("§ 9a Planfeststellung", "unit", "§ 9a", "Planfeststellung"),
        ("Anlage 4", "unit", "Anlage 4", None),
        ("Anlage (zu § 2)", "unit", "Anlage", "(zu § 2)"),
        ("Art. 3 Inkrafttreten", "unit", "Art. 3", "Inkrafttreten"),
        ("Item 7. Management's Discussion", "unit", "Item 7", "Management's Discussion"),
        ("3.2 Methods", "unit", "3.2", "Methods"),
        ("Teil 2 Strahlenschutz", "structure", "Teil 2 Strahlenschutz", None),
        ("Zweiter Abschnitt Überwachungsvorschriften", "structure", "Zweiter Abschnitt Überwachungsvorschriften", None),
        ("2019 Compared to 2018", "generic", None, "2019 Compared to 2018"),
    ],
)
def test_heading_classification(text: str, kind: str, label: str | None, title: str | None) -> None:
    h = classify_heading(text)
    assert (h.kind, h.label, h.title) == (kind, label, title)


def test_tracker_hierarchy_and_annex_parts() -> None:
    t = SectionTracker()
    for h in ("Teil 2 Planung", "Kapitel 1 Vorabkontrolle", "§ 7 Genehmigung"):
        t.observe(h)
    assert (t.section, t.section_title, t.heading_path) == ("§ 7", "Genehmigung", "Teil 2 Planung › Kapitel 1 Vorabkontrolle")
    t.observe("Kapitel 2 Pflichten")
    assert t.section is None and t.heading_path == "Teil 2 Planung › Kapitel 2 Pflichten"
    t.observe("Anlage 2 Unterlagen")
    t.observe("Teil B: Anwendung am Menschen")
    # an annex stands outside the body's chapters; its "Teil B" is a part of the annex
    assert t.section == "Anlage 2" and t.heading_path == "Teil B: Anwendung am Menschen"
