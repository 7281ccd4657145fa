"""Document-level facts read once before extraction: title, short name, other names, date of issue,
language, body font size, and the running headers/footers ("furniture") to leave out of chunks."""

from __future__ import annotations

import re
from collections import Counter
from dataclasses import dataclass
from pathlib import Path

import pymupdf

from desktop.kb.language import detect_language
from desktop.kb.ingestion.pdf import PageLayout, read_page

_SAMPLE_PAGES = 12
_MARGIN = 0.09  # share of the page height at top and bottom where running headers and footers sit
_DIGITS = re.compile(r"\d+")
_PAGE_NUMBER = re.compile(r"^(?:[-–—\s]*|(?:seite|page|p\.|s\.)\s*)#(?:\s*(?:von|of|/)\s*#)?[-–—\s]*$", re.I)
# "(StrlSchV 2018)" / "(AtG)" at the end of a title names the document's short form.
_TITLE_ABBREV = re.compile(r"\(([A-ZÄÖÜ][A-Za-zÄÖÜäöüß\-]{1,15})(?:\s+\d{4})?\)\s*$")
_ABBREV_LIKE = re.compile(r"^[A-ZÄÖÜ][A-Za-zäöüß\-]*[A-ZÄÖÜ][A-Za-zäöüß\-]*$")
_BAD_TITLE = re.compile(r"^(?:untitled|microsoft word|document\d*|[\W\d_]*$)|\.(?:docx?|pdf|indd|tmp)$", re.I)
# Running headers that are navigation or status, not the document's name.
_NOT_A_NAME = frozenset({"table of contents", "contents", "inhaltsverzeichnis", "inhalt", "confidential", "draft", "entwurf"})
_ISSUED_DE = re.compile(r"Ausfertigungsdatum:?\s*(\d{4}-\d{2}-\d{2}|\d{1,2}\.\s*\d{1,2}\.\s*\d{4})")
_PAREN = re.compile(r"\s*\([^)]*\)\s*")


@dataclass
class DocProbe:
    page_count: int
    title: str
    short_name: str | None
    aliases: list[str]
    issued: str | None
    language: str
    body_size: float
    furniture: frozenset[str]
    encrypted: bool
    repaired: bool = False


def furniture_key(text: str) -> str:
    """Lines that differ only by their numbers ("Seite 3 von 9") share one key."""
    return " ".join(_DIGITS.sub("#", text.lower()).split())


def is_furniture(layout: PageLayout, y0: float, y1: float, text: str, furniture: frozenset[str]) -> bool:
    if layout.height <= 0 or not (y1 < layout.height * _MARGIN or y0 > layout.height * (1 - _MARGIN)):
        return False
    key = furniture_key(text)
    return key in furniture or bool(_PAGE_NUMBER.match(key))


def _sample_indices(page_count: int) -> list[int]:
    if page_count <= _SAMPLE_PAGES:
        return list(range(page_count))
    step = page_count / _SAMPLE_PAGES
    return sorted({int(i * step) for i in range(_SAMPLE_PAGES)})


def _margin_keys(layout: PageLayout) -> set[str]:
    keys = set()
    for line in layout.lines:
        if line.y1 < layout.height * _MARGIN or line.y0 > layout.height * (1 - _MARGIN):
            keys.add(furniture_key(line.text))
    return keys


def _title_from_layout(first: PageLayout) -> str | None:
    """The biggest text on the first page, lines of that size joined."""
    if not first.lines:
        return None
    biggest = max(line.size for line in first.lines)
    parts = [line.text for line in first.lines if line.size >= biggest - 0.5]
    title = " ".join(" ".join(parts).split())
    return title[:300] if len(title) >= 3 else None


def _furniture_aliases(furniture: frozenset[str], raw_lines: list[str]) -> list[str]:
    """Short running-header texts ("Atomgesetz (Stand 2022)") are names the document goes by."""
    names = []
    for text in raw_lines:
        if furniture_key(text) not in furniture:
            continue
        name = _PAREN.sub(" ", text).strip()
        if (
            name
            and not _DIGITS.search(name)
            and len(name.split()) <= 5
            and name.lower() not in _NOT_A_NAME
            and name not in names
        ):
            names.append(name)
    return names


def _issued(text: str) -> str | None:
    m = _ISSUED_DE.search(text)
    if not m:
        return None
    value = m.group(1).replace(" ", "")
    if "-" in value:
        return value
    day, month, year = value.split(".")
    return f"{year}-{int(month):02d}-{int(day):02d}"


def probe(doc: pymupdf.Document, path: Path) -> DocProbe:
    """Read a handful of pages spread over the document; cheap even for 2,000 pages."""
    layouts = [read_page(doc, i) for i in _sample_indices(doc.page_count)]
    sizes: Counter[float] = Counter()
    margin_counts: Counter[str] = Counter()
    for layout in layouts:
        for line in layout.lines:
            sizes[round(line.size, 1)] += len(line.text)
        margin_counts.update(_margin_keys(layout))
    threshold = max(2, int(0.4 * len(layouts) + 0.5))
    furniture = frozenset(k for k, n in margin_counts.items() if n >= threshold)

    first = layouts[0]
    meta_title = (doc.metadata or {}).get("title", "").strip()
    title = meta_title if meta_title and not _BAD_TITLE.search(meta_title) else None
    title = title or _title_from_layout(first) or path.stem
    title = " ".join(title.split())

    short = None
    m = _TITLE_ABBREV.search(title)
    if m:
        short = m.group(1)
    keywords = ((doc.metadata or {}).get("keywords") or "").strip()
    if not short and _ABBREV_LIKE.match(keywords):
        short = keywords

    margin_lines = [line.text for layout in layouts for line in layout.lines]
    aliases = [a for a in _furniture_aliases(furniture, margin_lines) if a != short]
    if not short:
        short = next((a for a in aliases if _ABBREV_LIKE.match(a)), None)
        aliases = [a for a in aliases if a != short]

    sample_text = " ".join(layout.text for layout in layouts)
    return DocProbe(
        page_count=doc.page_count,
        title=title,
        short_name=short,
        aliases=aliases,
        issued=_issued(first.text),
        language=detect_language(sample_text, default="en"),
        body_size=sizes.most_common(1)[0][0] if sizes else 10.0,
        furniture=furniture,
        encrypted=bool((doc.metadata or {}).get("encryption")),
        repaired=bool(doc.is_repaired),
    )
