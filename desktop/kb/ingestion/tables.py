"""Tables found in a page's layout, written as Markdown chunks with their header row in every chunk.

A financial statement or a statute's annex table reaches the page text as loose lines, one cell each:
"Net income", "3,033", "10,073", "11,588", with the year row and the statement's title in other chunks.
PyMuPDF's ``find_tables`` rebuilds such tables but cost ~450 ms a page (20 pages of a FinanceBench
filing, both cores busy), some 200 times the whole extraction of a page. So tables are found here from what extraction already
has, each line's cells with their x-extent: rows are cells at one height; a table is a run of rows
whose figures stand in the same columns (right edges aligned, as figures are set). The rows above its
first figure row whose cells sit over those columns are its header; the title lines above it (the
statement's name, "(in millions)") its caption.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Iterator
from dataclasses import dataclass

from desktop.kb.ingestion.pdf import Cell, LayoutLine

# A figure as tables print it: 3,033  (292)  12.5%  $1,234  –  —  n/a
_FIGURE = re.compile(r"^[(−–-]?\s*[$€£]?\s*\(?\d[\d.,' ]*\)?\s*%?\)?$|^[—–-]{1,3}$|^n/?a$", re.I)
_CURRENCY = re.compile(r"^[$€£]$")
_YEAR = re.compile(r"^(?:19|20)\d\d$")
_ALIGN = 12.0  # points: figures of one column end within this of each other
_MIN_FIGURE_ROWS = 3
_MAX_GAP_ROWS = 2  # label-only rows ("OPERATING ACTIVITIES:") a table may hold between figure rows
_MAX_HEADER_ROWS = 3
_MAX_LABEL_ROWS = 2  # label-only rows ("Assets") between a table's header and its first figures
_MAX_CAPTION_LINES = 3
_CAPTION_MAX_CHARS = 120


def is_figure(text: str) -> bool:
    return bool(_FIGURE.match(text.strip()))


@dataclass(frozen=True)
class Row:
    cells: tuple[Cell, ...]
    y0: float
    y1: float
    lines: tuple[LayoutLine, ...]

    def figures(self, left: float) -> list[Cell]:
        """The row's figure cells right of ``left`` (a label's leading "2." or "§ 5" is no figure); none
        in a row whose figures are years ("2017  2018  2019"), which heads the columns."""
        found = [c for c in self.cells if c.x0 >= left and is_figure(c.text)]
        if found and all(_YEAR.match(c.text.strip()) for c in found):
            return []
        return found


Box = tuple[float, float, float, float]


@dataclass(frozen=True)
class TableRow:
    """One row: its label and a text per figure column, where its cells stand in the page text and on
    the page."""

    cells: tuple[str, ...]
    start: int
    end: int
    box: Box

    def markdown(self) -> str:
        return _md_row(self.cells)


@dataclass(frozen=True)
class Table:
    """A table of one page: its caption, one header per column (the label column's first), its rows."""

    caption: str
    header: tuple[str, ...]
    rows: tuple[TableRow, ...]
    start: int  # span in the page text: from the first header or row cell to the last row's end
    end: int
    bbox: Box
    lines: frozenset[int]  # page-text offsets (starts) of the layout lines it consumed

    def markdown_rows(self) -> list[str]:
        return [r.markdown() for r in self.rows]

    def markdown_header(self) -> str:
        head = _md_row(self.header)
        rule = "|" + "|".join(["---", *["---:"] * (len(self.header) - 1)]) + "|"
        return f"{head}\n{rule}"


# A table chunk's Markdown row and its header's rule line ("|---|---:|"), one line each.
MD_ROW = re.compile(r"^\|[^\n]*\|[ \t]*$", re.M)
MD_RULE = re.compile(r"^\|[\s|:-]*\|[ \t]*$")


def header_of(text: str) -> str | None:
    """A table chunk's Markdown header (its header row and rule line), or None for a chunk of text."""
    lines = text.splitlines()
    for i in range(1, len(lines)):
        if MD_RULE.match(lines[i]) and MD_ROW.match(lines[i - 1]):
            return f"{lines[i - 1]}\n{lines[i]}"
    return None


def is_table_rows(text: str) -> bool:
    """A quote made of a table chunk's Markdown rows (and nothing else)."""
    lines = [ln for ln in text.splitlines() if ln.strip()]
    return bool(lines) and all(MD_ROW.match(ln.strip()) for ln in lines)


def _md_row(cells: tuple[str, ...]) -> str:
    return "| " + " | ".join(" ".join(c.replace("|", "/").split()) for c in cells) + " |"


def _rows(lines: list[LayoutLine]) -> list[Row]:
    """Lines grouped into rows: cells whose vertical extents overlap by half the smaller height."""
    rows: list[list[LayoutLine]] = []
    for line in sorted(lines, key=lambda ln: (ln.y0, ln.x0)):
        if rows:
            last = rows[-1]
            top, bottom = min(x.y0 for x in last), max(x.y1 for x in last)
            overlap = min(bottom, line.y1) - max(top, line.y0)
            if overlap >= 0.5 * min(bottom - top, line.y1 - line.y0):
                last.append(line)
                continue
        rows.append([line])
    out = []
    for group in rows:
        cells = tuple(sorted((c for ln in group for c in (ln.cells or _whole(ln))), key=lambda c: c.x0))
        out.append(Row(cells, min(x.y0 for x in group), max(x.y1 for x in group), tuple(group)))
    return out


def _whole(line: LayoutLine) -> tuple[Cell, ...]:
    return (Cell(line.text, line.start, line.end, line.x0, line.x1),)


def _columns(rows: list[Row], left: float) -> list[float]:
    """Right edges of the figure columns: figures' right edges clustered, each held by two rows or more."""
    edges = sorted(c.x1 for r in rows for c in r.figures(left))
    clusters: list[list[float]] = []
    for x in edges:
        if clusters and x - clusters[-1][-1] <= _ALIGN:
            clusters[-1].append(x)
        else:
            clusters.append([x])
    return [max(c) for c in clusters if len(c) >= 2]


def _column_of(cell: Cell, columns: list[float]) -> int | None:
    best = min(range(len(columns)), key=lambda i: abs(columns[i] - cell.x1))
    return best if abs(columns[best] - cell.x1) <= _ALIGN * 1.5 else None


def _figure_runs(rows: list[Row], left: float) -> Iterator[tuple[int, int]]:
    """[first, last] row indices of runs with figures in at least three rows, allowing a few label-only
    rows between them."""
    first = last = None
    count = gap = 0
    for i, row in enumerate(rows):
        figures = row.figures(left)
        if figures and (len(figures) >= 2 or row.cells[0].x0 < left):
            first = i if first is None else first
            last, count, gap = i, count + 1, 0
            continue
        gap += 1
        if first is not None and gap > _MAX_GAP_ROWS:
            if count >= _MIN_FIGURE_ROWS:
                yield first, last
            first, count, gap = None, 0, 0
    if first is not None and count >= _MIN_FIGURE_ROWS:
        yield first, last


def _header(rows: list[Row], first: int, columns: list[float], centres: list[float], zone: float,
            labels: tuple[float, float]) -> tuple[list[Row], list[str], int]:
    """The rows above the first figure row that head its columns: cells right of the labels that reach
    over the figure columns, and a label-column cell at the table's left edge ("($ million)"); a title
    centred over the page ends them. Up to two label-only rows may stand between them and the figures
    ("Assets", "Operations"): they open the table's body. The header text per column, the label column's
    first; and the index of the body's first row."""
    label_x0, label_x1 = labels

    def heads(c: Cell) -> bool:
        return c.x0 >= label_x1 - 10 and c.x1 > zone - _ALIGN * 3

    start = first
    while first - start < _MAX_LABEL_ROWS and start > 0 and all(c.x1 <= zone for c in rows[start - 1].cells):
        start -= 1
    taken: list[Row] = []
    i = start - 1
    while i >= 0 and len(taken) < _MAX_HEADER_ROWS:
        row = rows[i]
        fits = all(heads(c) or (c.x0 <= label_x0 + 20 and c.x1 <= zone) for c in row.cells)
        if not any(heads(c) for c in row.cells) or not fits or rows[start].y0 - row.y1 > 60:
            break
        taken.insert(0, row)
        i -= 1
    if not taken:
        start = first  # label rows over no header are text before the table
    texts = [""] * (len(columns) + 1)
    for level, row in enumerate(taken):
        for k, cell in _assigned(row, columns, centres, zone, spans=level < len(taken) - 1):
            texts[k] = f"{texts[k]} {cell.text}".strip()
    return taken, texts, start


def _assigned(row: Row, columns: list[float], centres: list[float], zone: float,
              spans: bool) -> Iterator[tuple[int, Cell]]:
    """(column, cell) for each column a header row's cell heads; column 0 is the labels'. A cell as wide as
    a column or wider heads the columns it reaches over; a narrow one the column it is aligned with. In an
    upper row (``spans``) with fewer cells than columns, a cell heads every column whose figures (their
    ``centres``) stand nearer to it than to its neighbours: "December 31, 2018" centred over "Total  Level 1
    Level 2" heads all three."""
    edge = zone - _ALIGN * 3 + 2
    over = [c for c in row.cells if c.x1 > edge]
    for cell in row.cells:
        if cell.x1 <= edge:
            yield 0, cell
    bounds = [(columns[k - 1] if k else zone - _ALIGN * 3, columns[k]) for k in range(len(columns))]
    if spans and 0 < len(over) < len(columns):
        middles = [(a.x1 + b.x0) / 2 for a, b in zip(over, over[1:])]
        for k, centre in enumerate(centres, start=1):
            yield k, over[sum(1 for m in middles if m < centre)]
        return
    spacing = min((b - a for a, b in zip(columns, columns[1:])), default=0.0)
    wide = [c for c in over if c.x1 - c.x0 >= 0.8 * spacing]
    every = len(wide) == 1 and len(over) == 1
    for cell in over:
        k_near = _column_of(cell, columns) if cell.x1 - cell.x0 < 0.8 * spacing or not spacing else None
        for k, (lo, hi) in enumerate(bounds, start=1):
            if every or ((k - 1 == k_near) if k_near is not None else (cell.x1 > lo + 2 and cell.x0 < hi - 2)):
                yield k, cell


def _caption(lines: list[LayoutLine], above: float, taken: set[int]) -> str:
    """Short lines just above the table (its header or first row): the statement's or annex's title. Not
    a line of another table, one with figures, or prose (a long line ending a sentence)."""
    chosen: list[LayoutLine] = []
    per_block = Counter(ln.block for ln in lines)
    for line in sorted((ln for ln in lines if ln.y1 <= above + 1), key=lambda ln: -ln.y1):
        limit = chosen[-1].y0 if chosen else above
        prose = per_block[line.block] > 3 or len(line.text) > 30 and line.text.rstrip()[-1:] in ".;,"
        if (limit - line.y1 > 24 or len(line.text) > _CAPTION_MAX_CHARS or line.start in taken or prose
                or any(is_figure(c.text) for c in line.cells) or len(chosen) >= _MAX_CAPTION_LINES):
            break
        chosen.append(line)
    return " ".join(ln.text for ln in reversed(chosen))


def _centre(body: list[Row], left: float, columns: list[float], k: int) -> float:
    """Where column ``k``'s figures stand: the middle of their cells (the median, against a wide one)."""
    middles = sorted((c.x0 + c.x1) / 2 for r in body for c in r.figures(left) if _column_of(c, columns) == k)
    return middles[len(middles) // 2] if middles else columns[k]


def _label(row: Row, zone: float) -> str:
    return " ".join(c.text for c in row.cells if c.x1 <= zone + _ALIGN and not _CURRENCY.match(c.text))


def find_tables(lines: list[LayoutLine]) -> list[Table]:
    """The tables of a page's (furniture-free) lines, top to bottom."""
    if len(lines) < _MIN_FIGURE_ROWS * 2:
        return []
    left = min(ln.x0 for ln in lines) + 1  # cells starting at the text's left edge are labels
    rows = _rows(lines)
    tables: list[Table] = []
    for first, last in _figure_runs(rows, left):
        body = rows[first:last + 1]
        columns = _columns(body, left)
        if not columns:
            continue
        zone = min(c.x0 for r in body for c in r.figures(left) if _column_of(c, columns) is not None)
        label_cells = [c for r in body for c in r.cells if c.x1 <= zone + _ALIGN and not is_figure(c.text)]
        labels = (min((c.x0 for c in label_cells), default=zone), max((c.x1 for c in label_cells), default=zone))
        centres = [_centre(body, left, columns, k) for k in range(len(columns))]
        header_rows, heads, start = _header(rows, first, columns, centres, zone, labels)
        body = rows[start:last + 1]
        table_rows = _table_rows(body, columns, zone)
        if table_rows is None:
            continue  # a cell in no column (a text column among the figures): left to the text chunks, whole
        used = [*header_rows, *body]
        cells = [c for r in used for c in r.cells]
        x0, y0 = min(c.x0 for c in cells), min(r.y0 for r in used)
        taken = {start for t in tables for start in t.lines}
        caption = _caption(lines, y0, taken)
        tables.append(Table(
            caption=caption, header=tuple(heads), rows=tuple(table_rows),
            start=min(c.start for c in cells), end=max(c.end for c in cells),
            bbox=(x0, y0, max(c.x1 for c in cells), max(r.y1 for r in used)),
            lines=frozenset(ln.start for r in used for ln in r.lines),
        ))
    return tables


def _table_rows(body: list[Row], columns: list[float], zone: float) -> list[TableRow] | None:
    """Each row as its label and one text per column; a label-only row followed by a row whose label
    goes on in lower case is one wrapped label ("… operating lease" / "assets, and other  11,478 …").
    None when a cell right of the labels stands in no figure column: that table is not understood, and
    dropping the cell would lose text (seen: the module codes between a table's figure columns)."""
    out: list[TableRow] = []
    pending: list[Row] = []

    def emit(rows: list[Row], label: str, values: list[str]) -> None:
        cells = [c for r in rows for c in r.cells]
        box = (min(c.x0 for c in cells), min(r.y0 for r in rows), max(c.x1 for c in cells), max(r.y1 for r in rows))
        out.append(TableRow((label, *values), min(c.start for c in cells), max(c.end for c in cells), box))

    for row in body:
        values = [""] * len(columns)
        for cell in row.cells:
            if cell.x1 <= zone + _ALIGN or _CURRENCY.match(cell.text):
                continue
            k = _column_of(cell, columns)
            if k is None:
                return None
            values[k] = f"{values[k]} {cell.text}".strip()
        label = _label(row, zone)
        if pending and (not label or label[:1].islower()):
            label = f"{_label(pending[0], zone)} {label}".strip()
            rows, pending = [pending[0], row], []
        else:
            if pending:
                emit(pending, _label(pending[0], zone), [""] * len(columns))
            rows, pending = [row], []
        if not any(values) and len(rows) == 1:
            pending = rows
            continue
        emit(rows, label, values)
    if pending:
        emit(pending, _label(pending[0], zone), [""] * len(columns))
    return out


def table_chunks(table: Table, target_words: int) -> list[tuple[str, int, int, Box]]:
    """The table as Markdown chunks of about ``target_words`` words of rows, each with the caption and
    the header, so a chunk read alone still says what its figures are: (text, start, end, box)."""
    head = "\n".join(x for x in (table.caption, table.markdown_header()) if x)
    groups: list[list[TableRow]] = [[]]
    words = 0
    for row in table.rows:
        n = len(row.markdown().split())
        if groups[-1] and words + n > target_words:
            groups.append([])
            words = 0
        groups[-1].append(row)
        words += n
    out = []
    for rows in groups:
        box = (min(r.box[0] for r in rows), min(r.box[1] for r in rows), max(r.box[2] for r in rows),
               max(r.box[3] for r in rows))
        text = head + "\n" + "\n".join(r.markdown() for r in rows)
        out.append((text, min(r.start for r in rows), max(r.end for r in rows), box))
    return out
