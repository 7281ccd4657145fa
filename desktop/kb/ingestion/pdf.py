"""Reading PDFs with PyMuPDF: opening with a clear reason when a file cannot be used, and the text of
one page with its lines, their positions in the page text and their style."""

from __future__ import annotations

import functools
import re
import shutil
from dataclasses import dataclass, field
from pathlib import Path

import pymupdf

from desktop.kb.errors import PdfRejected
from desktop.kb.ingestion.notices import notice

# Plain-text extraction flags; the same TextPage gives both the text and the layout, so offsets agree.
_TEXT_FLAGS = pymupdf.TEXTFLAGS_TEXT
_BOLD_FLAG = 16
_BOLD_NAMES = ("bold", "black", "heavy", "semibold", "demi")

pymupdf.TOOLS.mupdf_display_errors(False)  # MuPDF's repair chatter is not for the user; we report per file
pymupdf.TOOLS.mupdf_display_warnings(False)
# MuPDF warnings that mean a page's content could not be read in full (none occur on intact files).
_DAMAGE = re.compile(r"cannot load|syntax error|format error|repair", re.I)


@dataclass(frozen=True)
class Cell:
    """A run of a line's text with no wide gap inside: a table cell where the line is a table row."""

    text: str
    start: int  # offset in the page text
    end: int
    x0: float
    x1: float


@dataclass(frozen=True)
class LayoutLine:
    text: str
    start: int  # offset of the line in the page text
    end: int
    size: float
    bold: bool
    block: int
    y0: float
    y1: float
    x0: float = 0.0
    x1: float = 0.0
    cells: tuple[Cell, ...] = ()


@dataclass
class PageLayout:
    page: int  # 1-based
    text: str  # exactly PyMuPDF's page text, the base of every char offset we store
    height: float
    lines: list[LayoutLine] = field(default_factory=list)
    ocr: bool = False
    scanned: bool = False  # images but no text layer (and no OCR)
    damaged: bool = False  # MuPDF could not read all of the page's content
    error: str | None = None


def open_pdf(path: Path) -> pymupdf.Document:
    """Open a PDF or raise PdfRejected with a reason a user understands."""
    try:
        with open(path, "rb") as fh:
            head = fh.read(1024)
    except FileNotFoundError:
        raise PdfRejected(notice("file_missing")) from None
    except IsADirectoryError:
        raise PdfRejected(notice("is_folder")) from None
    except PermissionError:
        raise PdfRejected(notice("permission_denied")) from None
    except OSError as exc:
        raise PdfRejected(notice("unreadable_file", error=str(exc.strerror or exc))) from None
    if not head:
        raise PdfRejected(notice("empty_file"))
    if b"%PDF-" not in head:
        raise PdfRejected(notice("not_pdf"))
    try:
        doc = pymupdf.open(path, filetype="pdf")
    except Exception as exc:  # MuPDF raises several types for broken files
        raise PdfRejected(notice("cannot_open", error=_short(exc))) from None
    # PyMuPDF already tried the empty password: files "encrypted" only against editing open normally.
    if doc.needs_pass:
        doc.close()
        raise PdfRejected(notice("password"))
    if doc.page_count == 0:
        doc.close()
        raise PdfRejected(notice("no_pages"))
    return doc


def _short(exc: Exception) -> str:
    return str(exc).strip().splitlines()[0][:160] if str(exc).strip() else type(exc).__name__


@functools.cache
def tesseract_available() -> bool:
    if not shutil.which("tesseract"):
        return False
    try:
        return bool(pymupdf.get_tessdata())
    except Exception:
        return False


def _is_bold(span: dict) -> bool:
    return bool(span["flags"] & _BOLD_FLAG) or any(n in span["font"].lower() for n in _BOLD_NAMES)


def _cells(spans: list[dict], at: int, text: str) -> tuple[Cell, ...]:
    """The line's spans grouped into cells, split where the gap between two spans is wider than the text's
    size (a table row written as one line: "Net income     3,033     10,073"); offsets in the page text."""
    cells: list[Cell] = []
    cursor = 0
    group: list[tuple[dict, int]] = []

    def close() -> None:
        first, last = group[0], group[-1]
        start, end = first[1], last[1] + len(last[0]["text"].strip())
        cells.append(Cell(text[start:end], at + start, at + end, first[0]["bbox"][0], last[0]["bbox"][2]))

    for span in spans:
        piece = span["text"].strip()
        found = text.find(piece, cursor)
        if found < 0:
            return (Cell(text, at, at + len(text), spans[0]["bbox"][0], spans[-1]["bbox"][2]),)
        cursor = found + len(piece)
        if group and span["bbox"][0] - group[-1][0]["bbox"][2] > max(span["size"], 6.0):
            close()
            group = []
        group.append((span, found))
    close()
    return tuple(cells)


def _layout_lines(textpage: pymupdf.TextPage, page_text: str) -> list[LayoutLine]:
    lines: list[LayoutLine] = []
    cursor = 0
    for block_no, block in enumerate(textpage.extractDICT()["blocks"]):
        for line in block.get("lines", ()):
            spans = [s for s in line["spans"] if s["text"].strip()]
            if not spans:
                continue
            text = "".join(s["text"] for s in line["spans"]).strip()
            at = page_text.find(text, cursor)
            if at < 0:
                continue  # MuPDF's plain text dropped or merged this line; it cannot be addressed
            cursor = at + len(text)
            lines.append(
                LayoutLine(
                    text=text,
                    start=at,
                    end=at + len(text),
                    size=max(s["size"] for s in spans),
                    bold=all(_is_bold(s) for s in spans),
                    block=block_no,
                    y0=line["bbox"][1],
                    y1=line["bbox"][3],
                    x0=spans[0]["bbox"][0],
                    x1=spans[-1]["bbox"][2],
                    cells=_cells(spans, at, text),
                )
            )
    return lines


def read_page(doc: pymupdf.Document, index: int, ocr_languages: str | None = None) -> PageLayout:
    """Text and layout of page ``index`` (0-based); OCR when it has no text layer and OCR is allowed."""
    pymupdf.TOOLS.mupdf_warnings(reset=True)
    try:
        page = doc.load_page(index)
        textpage = page.get_textpage(flags=_TEXT_FLAGS)
        text = textpage.extractText()
        lines = _layout_lines(textpage, text)
    except Exception as exc:
        return PageLayout(page=index + 1, text="", height=0.0, error=_short(exc))
    damaged = bool(_DAMAGE.search(pymupdf.TOOLS.mupdf_warnings(reset=True)))
    layout = PageLayout(page=index + 1, text=text, height=page.rect.height, lines=lines, damaged=damaged)
    if lines or not page.get_images(full=False):
        return layout
    if ocr_languages and tesseract_available():
        try:
            textpage = page.get_textpage_ocr(flags=_TEXT_FLAGS, language=ocr_languages, dpi=200, full=True)
            text = textpage.extractText()
            return PageLayout(
                page=index + 1, text=text, height=page.rect.height, lines=_layout_lines(textpage, text), ocr=True
            )
        except Exception as exc:
            layout.error = f"page {index + 1}: OCR failed ({_short(exc)})"
    layout.scanned = True
    return layout
