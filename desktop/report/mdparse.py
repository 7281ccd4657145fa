"""The answer's Markdown parsed into blocks and inline spans, for the HTML and Word exports.

A small subset on purpose (paragraphs, headings, flat lists, bold, italic, [n] markers): the answer is
the model's text, so anything else stays text — never markup.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field


@dataclass
class Span:
    """A run of inline text; ``cite`` is the source number when the run is a [n] marker."""

    text: str
    bold: bool = False
    italic: bool = False
    cite: int | None = None


@dataclass
class Block:
    kind: str  # "p", "h" (level 1-6), "ul", "ol"
    text: str = ""
    level: int = 0
    items: list[str] = field(default_factory=list)
    start: int = 1


_H = re.compile(r"^(#{1,6})\s+(.*?)\s*#*\s*$")
_UL = re.compile(r"^\s*[-*+]\s+(.*)$")
_OL = re.compile(r"^\s*(\d{1,9})[.)]\s+(.*)$")
_INLINE = re.compile(
    r"\*\*\*(?P<bi>.+?)\*\*\*"
    r"|\*\*(?P<b>.+?)\*\*"
    r"|\*(?P<i>[^*\s](?:[^*]*?[^*\s])?)\*"
    r"|\[(?P<cite>\d+(?:\s*[,;–-]\s*\d+)*)\]"
)
_NUMBER = re.compile(r"\d+")


def parse_blocks(markdown: str) -> list[Block]:
    """Split Markdown into paragraphs, headings and (flat) lists; unknown syntax stays text."""
    blocks: list[Block] = []
    current: Block | None = None
    for line in markdown.replace("\r\n", "\n").split("\n"):
        if not line.strip():
            current = None
        elif m := _H.match(line):
            blocks.append(Block("h", m.group(2), level=len(m.group(1))))
            current = None
        elif (m := _UL.match(line)) or (m := _OL.match(line)):
            kind = "ul" if m.re is _UL else "ol"
            if current is None or current.kind != kind:
                start = int(m.group(1)) if kind == "ol" else 1
                current = Block(kind, start=start)
                blocks.append(current)
            current.items.append(m.group(m.lastindex or 1))
        elif current is not None and current.kind in ("ul", "ol"):
            current.items[-1] += " " + line.strip()  # a wrapped list item
        elif current is not None:
            current.text += " " + line.strip()  # a soft line break, as in Markdown
        else:
            current = Block("p", line.strip())
            blocks.append(current)
    return blocks


def parse_inline(text: str, bold: bool = False, italic: bool = False) -> list[Span]:
    """Bold, italic and [n] markers ('[1]', '[1, 3]', '[2–4]'); everything else is plain text."""
    spans: list[Span] = []
    pos = 0
    for m in _INLINE.finditer(text):
        if m.start() > pos:
            spans.append(Span(text[pos : m.start()], bold, italic))
        if m.group("bi") is not None:
            spans += parse_inline(m.group("bi"), True, True)
        elif m.group("b") is not None:
            spans += parse_inline(m.group("b"), True, italic)
        elif m.group("i") is not None:
            spans += parse_inline(m.group("i"), bold, True)
        else:
            spans += _cite_spans(m.group("cite"), bold, italic)
        pos = m.end()
    if pos < len(text):
        spans.append(Span(text[pos:], bold, italic))
    return spans


def _cite_spans(inner: str, bold: bool, italic: bool) -> list[Span]:
    if inner.isdigit():
        return [Span(f"[{inner}]", bold, italic, cite=int(inner))]
    # "[1, 3]": each number links on its own, the punctuation stays plain text
    spans, pos = [Span("[", bold, italic)], 0
    for m in _NUMBER.finditer(inner):
        if m.start() > pos:
            spans.append(Span(inner[pos : m.start()], bold, italic))
        spans.append(Span(m.group(), bold, italic, cite=int(m.group())))
        pos = m.end()
    return spans + [Span("]", bold, italic)]
