"""Locating verified quotes on laws-de pages: one rectangle per line, inside the page, in reading order,
covering the quote's words; [] for text that is not there and for a missing or damaged file."""

from __future__ import annotations

import json
import re
from itertools import pairwise
from pathlib import Path

import pymupdf
import pytest

from desktop.engine import quote_locate
from desktop.engine.quote_locate import locate, locate_many
from desktop.engine.quotes import verify_quote
from desktop.kb.textnorm import normalize
from desktop.report.model import Rect

LAWS = Path(__file__).resolve().parents[3] / "shared" / "corpus" / "laws-de"
STRLSCHG = LAWS / "StrlSchG.pdf"
needs_corpus = pytest.mark.skipif(not LAWS.is_dir(), reason=f"the evaluation corpus is not beside the checkout ({LAWS})")

# (page, quote): one line; wrapping onto the next line; a compound split after its hyphen
# ("Organ-\nÄquivalentdosis"); a word hyphenated at a line end ("grenzüber-\nschreitenden").
SENTENCES = [
    (52, "§ 78 Grenzwerte für beruflich exponierte Personen"),
    (52, "Der Grenzwert der effektiven Dosis beträgt für beruflich exponierte Personen 20 Millisievert im Kalenderjahr."),
    (53, "jeweils 150 Millisievert im Kalenderjahr für die Organ-Äquivalentdosis der Haut, der Hände, der Unterarme"),
    (34, "§ 43 Voraussetzungen für die Erteilung der Genehmigung der grenzüberschreitenden Verbringung von Konsumgütern"),
]


def words(text: str) -> list[str]:
    return re.findall(r"[^\W\d_]+|\d+", normalize(text).replace("-", "").casefold())


def assert_located(pdf: Path | pymupdf.Document, page_no: int, text: str, rects: list[Rect]) -> None:
    """Inside the page, in reading order (single-column laws: top to bottom), covering the text's words."""
    assert rects, text
    doc = pymupdf.open(pdf) if isinstance(pdf, Path) else pdf
    page = doc[page_no - 1]
    for r in rects:
        assert 0 <= r.x0 < r.x1 <= page.rect.width and 0 <= r.y0 < r.y1 <= page.rect.height
    assert all(a.y1 <= b.y0 + 1 for a, b in pairwise(rects)), "rectangles out of reading order"
    textpage = page.get_textpage()  # one for all boxes: get_textbox would extract the page per box
    shown = "\n".join(page.get_textbox(pymupdf.Rect(r.x0, r.y0, r.x1, r.y1), textpage=textpage) for r in rects)
    wanted, got = words(text), words(shown)
    assert " ".join(wanted) in " ".join(got), (wanted, got)


@needs_corpus
@pytest.mark.parametrize(("page", "quote"), SENTENCES)
def test_verified_sentences_are_located(page: int, quote: str) -> None:
    with pymupdf.open(STRLSCHG) as doc:
        check = verify_quote(quote, doc[page - 1].get_text())
    assert check.match == "exact" and check.display
    rects = locate(STRLSCHG, page, check.display)
    assert_located(STRLSCHG, page, check.display, rects)


@needs_corpus
def test_a_wrapped_sentence_has_one_rect_per_line() -> None:
    _, quote = SENTENCES[1]
    rects = locate(STRLSCHG, 52, quote)
    assert len(rects) == 2
    assert rects[1].x0 < rects[0].x0  # the second line starts at the left margin


@needs_corpus
def test_an_elided_quote_is_located_part_by_part() -> None:
    display = "Der Grenzwert der effektiven Dosis … 50 Millisievert zulassen"
    rects = locate(STRLSCHG, 52, display)
    assert_located(STRLSCHG, 52, "Der Grenzwert der effektiven Dosis", rects[:1])
    assert_located(STRLSCHG, 52, "50 Millisievert zulassen", rects[-1:])


@needs_corpus
def test_every_laws_gold_evidence_is_located() -> None:
    items = [
        (ev["page"], ev["text"])
        for line in (LAWS / "questions_dev.jsonl").read_text(encoding="utf-8").splitlines()
        for ev in json.loads(line)["evidence"]
        if ev["doc"] == "StrlSchG.pdf"
    ]
    found = locate_many(STRLSCHG, items)
    with pymupdf.open(STRLSCHG) as doc:
        for (page, text), rects in zip(items, found, strict=True):
            assert_located(doc, page, text, rects)


@needs_corpus
def test_text_that_is_not_there_is_not_located() -> None:
    assert locate(STRLSCHG, 53, SENTENCES[1][1]) == []  # it is on page 52
    assert locate(STRLSCHG, 52, "Der Grenzwert beträgt 25 Millisievert im Kalenderjahr.") == []
    assert locate(STRLSCHG, 52, "Dosi") == []  # whole words only
    assert locate(STRLSCHG, 999, SENTENCES[1][1]) == []
    assert locate(STRLSCHG, 52, "  ") == []


def test_a_missing_or_damaged_file_gives_no_rects(tmp_path: Path) -> None:
    assert locate(tmp_path / "gone.pdf", 1, "Der Grenzwert") == []
    broken = tmp_path / "broken.pdf"
    broken.write_bytes(b"%PDF-1.7\nnot really a PDF")
    assert locate_many(broken, [(1, "a"), (2, "b")]) == [[], []]
    assert locate(tmp_path, 1, "a folder") == []


@needs_corpus
def test_locate_many_opens_the_file_once(monkeypatch: pytest.MonkeyPatch) -> None:
    opened = []
    real_open = pymupdf.open

    def counting_open(*args: object, **kwargs: object) -> pymupdf.Document:
        opened.append(args)
        return real_open(*args, **kwargs)

    monkeypatch.setattr(quote_locate.pymupdf, "open", counting_open)
    found = locate_many(STRLSCHG, SENTENCES)
    assert len(opened) == 1
    monkeypatch.undo()
    assert found == [locate(STRLSCHG, page, text) for page, text in SENTENCES]


@pytest.mark.parametrize("rotation", [90, 180, 270])
def test_rects_are_stored_as_the_rotated_page_is_shown(tmp_path: Path, rotation: int) -> None:
    """A citation's rects are drawn as they are; a quote low on a turned page is found, not clipped by
    the turned page's outline."""
    path = tmp_path / f"turned-{rotation}.pdf"
    with pymupdf.open() as doc:
        page = doc.new_page(width=595, height=842)
        page.insert_text((72, 100), "Der Grenzwert steht oben auf der Seite.")
        page.insert_text((72, 780), "Die Messstelle wertet die Dosimeter monatlich aus.")
        upright = [page.search_for(t)[0] for t in ("Grenzwert steht oben", "Messstelle wertet")]
        page.set_rotation(rotation)
        matrix = page.rotation_matrix
        doc.save(path)
    for text, unturned in zip(("Der Grenzwert steht oben auf der Seite.",
                               "Die Messstelle wertet die Dosimeter monatlich aus."), upright, strict=True):
        (rect,) = locate(path, 1, text)
        shown = unturned * matrix  # part of the sentence: inside the sentence's rect
        assert rect.x0 - 2 <= shown.x0 < shown.x1 <= rect.x1 + 2 and rect.y0 - 2 <= shown.y0 < shown.y1 <= rect.y1 + 2
        assert ((rect.x1 - rect.x0) < (rect.y1 - rect.y0)) == (rotation in (90, 270))  # a line on its side
