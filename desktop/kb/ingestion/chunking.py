"""Structure-aware chunking of one page.

A chunk never spans two pages, starts at every heading (so a § never shares a chunk with the next),
packs whole paragraphs up to a target size, and splits an overlong paragraph at sentence ends. Chunk
text is an exact slice of the page text, so its char span can be located and highlighted later — except
a table's chunks (``tables.py``): Markdown rows under the table's caption and header.
"""

from __future__ import annotations

import bisect
import re
from collections.abc import Iterator
from dataclasses import dataclass

from desktop.kb.ingestion.docinfo import is_furniture
from desktop.kb.ingestion.pdf import LayoutLine, PageLayout
from desktop.kb.ingestion.structure import LONG_HEADING_START
from desktop.kb.ingestion.tables import find_tables, table_chunks
from desktop.settings import ChunkingSettings

_HEADING_SIZE_RATIO = 1.12
_HEADING_MAX_CHARS = 220
_HEADING_MAX_LINES = 4
_UNIT_HEADING_MAX_CHARS = 500  # "Anlage 4 Freigrenzen, Freigabewerte für …" runs over five lines
_UNIT_HEADING_MAX_LINES = 8
_LETTERS = re.compile(r"[^\W\d_]{2}")
_WORD = re.compile(r"\S+")
# End of a sentence: punctuation, space, then something that starts a sentence.
_SENTENCE_END = re.compile(r"(?<=[.!?;:])\s+(?=[(\[\"„“A-ZÄÖÜ0-9])")
_LINE_BREAK = re.compile(r"\n")


@dataclass(frozen=True)
class Piece:
    """A chunk before it knows its section: the headings it opens with are applied by the caller. A
    table's piece is Markdown (``table``), not a slice of the page text; its span covers its rows' cells
    and ``box`` their place on the page."""

    page: int
    start: int
    end: int
    text: str
    headings: tuple[str, ...] = ()
    table: bool = False
    box: tuple[float, float, float, float] | None = None

    @property
    def words(self) -> int:
        return len(_WORD.findall(self.text))


def _words(text: str) -> int:
    return len(_WORD.findall(text))


def _runs(lines: list[LayoutLine], body_size: float) -> Iterator[tuple[bool, list[LayoutLine]]]:
    """Consecutive lines of one block with the same heading style, tagged heading or not."""

    def styled(line: LayoutLine) -> bool:
        return line.bold or line.size >= body_size * _HEADING_SIZE_RATIO

    run: list[LayoutLine] = []
    for line in lines:
        if run and (line.block != run[-1].block or styled(line) != styled(run[-1])):
            yield _judge(run, styled(run[0]))
            run = []
        run.append(line)
    if run:
        yield _judge(run, styled(run[0]))


def _judge(run: list[LayoutLine], styled: bool) -> tuple[bool, list[LayoutLine]]:
    text = " ".join(line.text for line in run)
    unit = bool(LONG_HEADING_START.match(text))
    heading = (
        styled
        and len(run) <= (_UNIT_HEADING_MAX_LINES if unit else _HEADING_MAX_LINES)
        and len(text) <= (_UNIT_HEADING_MAX_CHARS if unit else _HEADING_MAX_CHARS)
        and (unit or bool(_LETTERS.search(text)))
    )
    return heading, run


class _Packer:
    def __init__(self, layout: PageLayout, sizes: ChunkingSettings) -> None:
        self.layout, self.sizes = layout, sizes
        self.pieces: list[Piece] = []
        self.start: int | None = None
        self.end = 0
        self.words = 0
        self.has_body = False
        self.headings: list[str] = []

    def add(self, start: int, end: int, words: int, body: bool) -> None:
        if self.start is None:
            self.start = start
        self.end = end
        self.words += words
        self.has_body = self.has_body or body

    def flush(self) -> None:
        if self.start is not None:
            text = self.layout.text[self.start : self.end]
            self.pieces.append(Piece(self.layout.page, self.start, self.end, text, tuple(self.headings)))
        self.start, self.words, self.has_body, self.headings = None, 0, False, []

    def heading(self, lines: list[LayoutLine]) -> None:
        if self.has_body:
            self.flush()
        self.headings.append(" ".join(line.text for line in lines))
        self.add(lines[0].start, lines[-1].end, sum(_words(line.text) for line in lines), body=False)

    def paragraph(self, lines: list[LayoutLine]) -> None:
        start, end = lines[0].start, lines[-1].end
        words = _words(self.layout.text[start:end])
        if self.has_body and self.words + words > self.sizes.target_words:
            self.flush()
        if words <= self.sizes.max_words:
            self.add(start, end, words, body=True)
            return
        for s, e in self._sentence_groups(start, end):
            self.add(s, e, _words(self.layout.text[s:e]), body=True)
            self.flush()

    def _sentence_groups(self, start: int, end: int) -> Iterator[tuple[int, int]]:
        """Split [start, end) at sentence ends into groups of about the target size."""
        text = self.layout.text
        sentence_cuts = [m.end() for m in _SENTENCE_END.finditer(text, start, end)]
        cuts = [start]
        for cut in sentence_cuts + [end]:
            if _words(text[cuts[-1] : cut]) > self.sizes.max_words:
                # a table or list without sentence ends: fall back to its line breaks
                cuts += [m.end() for m in _LINE_BREAK.finditer(text, cuts[-1], cut)]
            cuts.append(cut)
        group_start, words = start, 0
        for a, b in zip(cuts, cuts[1:]):
            n = _words(text[a:b])
            if words and words + n > self.sizes.target_words:
                yield group_start, a
                group_start, words = a, 0
            words += n
        if group_start < end:
            yield group_start, end


def _merge_small(pieces: list[Piece], min_words: int) -> list[Piece]:
    """A tail too small to stand alone joins the piece before it, unless it opens a new section."""
    merged: list[Piece] = []
    for piece in pieces:
        if merged and not piece.headings and piece.words < min_words:
            prev = merged.pop()
            end = piece.end
            merged.append(Piece(prev.page, prev.start, end, "", prev.headings))
        else:
            merged.append(piece)
    return merged


def _text_pieces(layout: PageLayout, lines: list[LayoutLine], body_size: float, sizes: ChunkingSettings) -> list[Piece]:
    packer = _Packer(layout, sizes)
    for is_heading, run in _runs(lines, body_size):
        if is_heading:
            packer.heading(run)
        else:
            packer.paragraph(run)
    packer.flush()
    pieces = _merge_small(packer.pieces, sizes.min_words)
    # Pieces rebuilt by the merge carry no text yet; every text is the exact page slice.
    return [Piece(p.page, p.start, p.end, layout.text[p.start : p.end], p.headings) for p in pieces]


def chunk_page(layout: PageLayout, body_size: float, furniture: frozenset[str], sizes: ChunkingSettings) -> list[Piece]:
    """The pieces of one page, in reading order: its text as today, each table as Markdown pieces with
    its header (``tables.py``). Text pieces stop at a table, so none holds a table's cells again."""
    lines = [ln for ln in layout.lines if not is_furniture(layout, ln.y0, ln.y1, ln.text, furniture)]
    tables = find_tables(lines) if sizes.tables else []
    consumed = {start for t in tables for start in t.lines}
    cuts = sorted(t.start for t in tables)
    segments: list[list[LayoutLine]] = [[] for _ in range(len(cuts) + 1)]
    for line in lines:
        if line.start not in consumed:
            segments[bisect.bisect_right(cuts, line.start)].append(line)
    pieces = [p for seg in segments for p in _text_pieces(layout, seg, body_size, sizes)]
    for table in tables:
        pieces += [Piece(layout.page, start, end, text, table=True, box=box)
                   for text, start, end, box in table_chunks(table, sizes.target_words)]
    return sorted(pieces, key=lambda p: p.start)
