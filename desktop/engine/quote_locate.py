"""Where a verified quote stands on its PDF page: highlight rectangles, one per line, in reading order.

The text to locate is a verified display text (``QuoteCheck.display``): the source's own words. It is
found among the page's words (PyMuPDF ``get_text("words")``, in the order of ``get_text()``) with the
project's normalisation, so it is found wherever ``verify_quote`` found it: across line breaks,
across words hyphenated at a line end ("Strahlen-\\nschutz", "Organ-\\nÄquivalentdosis"), across
block boundaries (a list marker "(a)" in a block of its own) and odd spaces (EN SPACE after "4.4.1").
``page.search_for`` was the first design and misses all of those but the soft hyphen (measured on the
ObliQA gold: 74 of 552 verified passages not found, another 104 only in part), and it returns the
boxes of every occurrence in one flat list. Nothing found, or a file that is gone or damaged: ``[]``,
never an exception — the caller records why the quote has no highlight.
"""

from __future__ import annotations

import logging
import re
from bisect import bisect_left
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

import pymupdf

from desktop.engine.quotes import ELLIPSIS
from desktop.kb.ingestion.tables import MD_RULE, is_table_rows
from desktop.kb.textnorm import Mapped, normalize, normalize_mapped, sub_mapped
from desktop.report.labels import markdown_cells
from desktop.report.model import Rect

log = logging.getLogger(__name__)

_INNER_HYPHEN = re.compile(r"(?<=[^\W\d_])-(?=[^\W\d_])")
# A word box as MuPDF gives it: x0, y0, x1, y1, text, block, line, word number.
_Word = tuple[float, float, float, float, str, int, int, int]


@dataclass(frozen=True)
class _PageWords:
    """A page's words joined into one text (a space within a line, a line break between lines), its
    normal forms mapped back into that text, and for each character of it the word it belongs to."""

    norm: Mapped
    flat: Mapped  # without hyphens inside words: "self-\nregulatory" may be quoted with or without
    owner: list[int]  # word index per character of the joined text, -1 for separators
    words: list[_Word]
    bounds: pymupdf.Rect  # the unrotated page, where MuPDF measures words
    turn: pymupdf.Matrix  # from there to the page as shown (turned by its /Rotate)

    @classmethod
    def read(cls, page: pymupdf.Page) -> _PageWords:
        words: list[_Word] = page.get_text("words", sort=False)
        pieces: list[str] = []
        owner: list[int] = []
        for i, word in enumerate(words):
            if i:
                same_line = word[5:7] == words[i - 1][5:7]
                pieces.append(" " if same_line else "\n")
                owner.append(-1)
            pieces.append(word[4])
            owner.extend([i] * len(word[4]))
        norm = normalize_mapped("".join(pieces))
        return cls(norm, sub_mapped(_INNER_HYPHEN, "", norm), owner, words, page.rect * page.derotation_matrix,
                   page.rotation_matrix)


def locate(pdf_path: Path | str, page: int, text: str) -> list[Rect]:
    """Rectangles of ``text`` on the 1-based ``page`` as the page is shown (PDF points from its top-left
    corner, after its /Rotate), so a viewer draws them as they are; ``[]`` when the text, the page or
    the file cannot be found."""
    return locate_many(pdf_path, [(page, text)])[0]


def locate_many(pdf_path: Path | str, wanted: Sequence[tuple[int, str]]) -> list[list[Rect]]:
    """``locate`` for several (page, text) pairs of one file, opening it once."""
    path = Path(pdf_path)
    try:
        if not path.is_file():
            log.info("cannot locate quotes: %s is missing", path)
            return [[] for _ in wanted]
        doc = pymupdf.open(path, filetype="pdf")
    except Exception as exc:  # MuPDF raises several types for damaged files
        log.info("cannot locate quotes: %s cannot be opened (%s)", path, exc)
        return [[] for _ in wanted]
    with doc:
        pages: dict[int, _PageWords] = {}
        return [_locate_on(doc, pages, number, text) for number, text in wanted]


def _locate_on(doc: pymupdf.Document, pages: dict[int, _PageWords], number: int, text: str) -> list[Rect]:
    if not 1 <= number <= doc.page_count or not text.strip():
        return []
    try:
        if number not in pages:
            pages[number] = _PageWords.read(doc.load_page(number - 1))
    except Exception as exc:  # a damaged page: no highlight rather than a failed research step
        log.info("cannot read page %d of %s: %s", number, doc.name, exc)
        return []
    page = pages[number]
    if is_table_rows(text):
        return _line_rects(page, _cells_found(page, text))
    indices: list[int] = []
    pos = 0
    for part in text.split(ELLIPSIS):
        span = _find(page, normalize(part), pos)
        if span is None:
            return []
        indices += sorted({page.owner[k] for k in range(*span) if page.owner[k] >= 0})
        pos = span[1]
    return _line_rects(page, indices)


def _cells_found(page: _PageWords, text: str) -> list[int]:
    """The words of a table chunk's Markdown rows: each cell looked for after the one before, as the page
    text runs through a row (label, then figures). A header's cells are put together from several page
    lines and may not be found; a row counts when most of its cells are."""
    cells = [c for line in text.splitlines() if not MD_RULE.match(line) for c in markdown_cells(line) if c]
    indices: list[int] = []
    found, pos = 0, 0
    for cell in cells:
        span = _find(page, normalize(cell), pos)
        if span is None:
            continue
        found += 1
        indices += sorted({page.owner[k] for k in range(*span) if page.owner[k] >= 0})
        pos = span[1]
    return indices if cells and found * 2 > len(cells) else []


def _find(page: _PageWords, needle: str, pos: int) -> tuple[int, int] | None:
    """The first occurrence at or after ``pos`` (offsets in the joined text), as ``verify_quote`` looks:
    as is, ignoring case, then ignoring hyphens inside words."""
    if not needle:
        return None
    for mapped, wanted in ((page.norm, needle), (page.flat, _INNER_HYPHEN.sub("", needle))):
        first = bisect_left(mapped.starts, pos)
        for flags in (0, re.IGNORECASE):
            if found := _pattern(wanted, flags).search(mapped.text, first):
                return mapped.span(*found.span())
    return None


def _pattern(needle: str, flags: int) -> re.Pattern[str]:
    """Whole words only: "Dosis" is not highlighted inside "Dosisleistung", "20" not inside "120"; a
    paragraph number glued to a word ("13Der") is not part of it."""
    return re.compile(_edge(needle[0], r"(?<!") + re.escape(needle) + _edge(needle[-1], r"(?!"), flags)


def _edge(char: str, look: str) -> str:
    if char.isdigit():
        return look + r"\d)"
    return look + r"[^\W\d_])" if char.isalpha() else ""


def _line_rects(page: _PageWords, indices: list[int]) -> list[Rect]:
    """One rectangle per text line the words lie on, in the order of the page text (reading order)."""
    lines: dict[tuple[int, int], pymupdf.Rect] = {}
    for i in indices:
        word = page.words[i]
        box = pymupdf.Rect(word[:4])
        key = (word[5], word[6])
        lines[key] = lines[key] | box if key in lines else box
    clipped = [r & page.bounds for r in lines.values()]
    return [_to_rect(r * page.turn) for r in clipped if not r.is_empty]


def _to_rect(r: pymupdf.Rect) -> Rect:
    return Rect(x0=r.x0, y0=r.y0, x1=r.x1, y1=r.y1)
