"""Numbered sentences of an excerpt, so that the LLM quotes by pointing instead of copying.

Small models copy text badly: a quote written out by a 1.5B model is often paraphrased and then fails
verification, and every copied word costs an answer token. Shown ``[1] … [2] …``, the model names
the numbers of the sentences that state a point, and the quote is cut from the source itself — word for
word by construction, and still verified and located on the PDF page like any other quote.

A "sentence" here is a unit a reviewer would quote: a sentence, an enumerated clause ending in ';' (not at a
';' inside a parenthesis, "(LE; 1 LE = 45 Minuten)"), a paragraph mark "(2)" starts a new one, a unit heading
("§ 77 Grenzwert …") stands alone, and a unit longer than ``MAX_WORDS`` is split at a comma or colon near its
middle.
"""

from __future__ import annotations

import os
import re
from dataclasses import dataclass

from desktop.kb.ingestion.tables import MD_ROW, MD_RULE
from desktop.kb.textnorm import resolve_line_hyphens

MAX_WORDS = 45
MAX_RUN = 3  # consecutive sentences one quote may span: a quote, not a page

# Words that end in a full stop without ending a sentence (German and English legal writing).
_ABBREVIATIONS = frozenset(
    "abs art nr satz s vgl bzw ggf z b d h u a i v m buchst lit anl kap tz rn rdnr ziff abschn bspw "
    "sog etc ca inkl insb max min mind gem ff f e g i no nos sec para paras art arts p pp vol ch cf "
    "approx fig dr prof st".split()
)
_END = re.compile(r"[.!?;](?:[\"'»«“”)\]]*)(?=\s+\S)")
_PARAGRAPH = re.compile(r"\n(?=\(\d+[a-z]?\)\s)")
_UNIT_LINE = re.compile(
    r"^(?:§§?\s*\d+\w*|Art(?:ikel|\.)?\s*\d+\w*|Anlage\s+\w+|Anhang\s+\w+|Section\s+\d[\d.]*|Article\s+\d+\w*|"
    r"Annex\s+\w+|Teil\s+\w+|Kapitel\s+\w+|Abschnitt\s+\w+)\b[^\n]*$",
    re.M,
)
_SOFT = re.compile(r"[,:](?=\s)")
_FULL_STOP = re.compile(r"[.!?]\s")
ASIDE = 300  # characters a parenthesis is looked for before a semicolon


@dataclass(frozen=True)
class Unit:
    number: int  # 1-based, as shown to the model
    start: int
    end: int


def _is_boundary(text: str, match: re.Match[str]) -> bool:
    """A full stop ends a sentence unless it closes an abbreviation or a number ("§ 5 Abs. 2", "1. für"); a
    semicolon ends a unit unless it stands inside a parenthesis."""
    if text[match.start()] == ";":
        return not _in_parentheses(text, match.start())
    if text[match.start()] != ".":
        return True
    before = re.search(r"(\w+)$", text[: match.start()])  # the word the full stop is attached to
    word = before.group(1) if before else ""
    if word.isdigit() and len(word) <= 4:
        return False  # enumerations "1.", dates "31. Dezember", years at an item's end are rare in statutes
    if word.casefold() in _ABBREVIATIONS or (len(word) == 1 and word.isalpha()):
        return False
    following = text[match.end():].lstrip()
    return bool(following) and (following[0].isupper() or following[0] in "(§„\"“" or following[0].isdigit())


def _in_parentheses(text: str, at: int) -> bool:
    """Whether ``at`` stands inside a parenthesis opened since the last full stop, at most ``ASIDE`` characters
    before ("(LE; 1 LE = 45 Minuten)": the semicolon separates two parts of one aside, and the unit cut there
    left the figure out of the sentences shown to the reader, laws-research-05)."""
    before = text[max(0, at - ASIDE):at]
    ends = [m.end() for m in _FULL_STOP.finditer(before)]
    since = before[ends[-1]:] if ends else before
    return since.count("(") > since.count(")")


def _cuts(text: str) -> list[int]:
    """Offsets where a new unit starts."""
    cuts = {m.end() for m in _END.finditer(text) if _is_boundary(text, m)}
    cuts |= {m.start() + 1 for m in _PARAGRAPH.finditer(text)}
    for m in _UNIT_LINE.finditer(text):
        line = m.group(0).rstrip()
        if line and line[-1] not in ".;:,":  # a heading line, not a sentence that starts with "§ 5 …"
            cuts |= {m.start(), m.start() + len(line)}
    # a table chunk's rows (kb/ingestion/tables.py) are a unit each, the header with its rule line: a row's cells
    # hold no sentence ends, and a figure's full stop is none
    rows = [m for m in MD_ROW.finditer(text) if not MD_RULE.match(m.group(0))]
    if rows:
        cuts = {c for c in cuts if c < rows[0].start()} | {m.start() for m in rows} | {rows[-1].end()}
    return sorted(c for c in cuts if 0 < c < len(text))


def _split_long(text: str, start: int, end: int) -> list[tuple[int, int]]:
    """Halve a long unit at the comma or colon nearest its middle, until every part is short enough."""
    piece = text[start:end]
    if len(piece.split()) <= MAX_WORDS:
        return [(start, end)]
    middle = len(piece) // 2
    soft = [m.end() for m in _SOFT.finditer(piece) if 0 < m.end() < len(piece) - 1]
    if not soft:
        return [(start, end)]
    cut = start + min(soft, key=lambda c: abs(c - middle))
    return _split_long(text, start, cut) + _split_long(text, cut, end)


def units(text: str) -> list[Unit]:
    """The quotable units of ``text`` with their offsets (leading/trailing whitespace excluded)."""
    bounds = [0, *_cuts(text), len(text)]
    spans: list[tuple[int, int]] = []
    for a, b in zip(bounds, bounds[1:]):
        while a < b and text[a].isspace():
            a += 1
        while b > a and text[b - 1].isspace():
            b -= 1
        if b > a:
            spans += _split_long(text, a, b)
    return [Unit(i, a, b) for i, (a, b) in enumerate(spans, start=1)]


def in_context(text: str, part: str) -> str:
    """``part`` of ``text`` with the start of the sentence it stands in: a unit split at a comma
    (``_split_long``) holds the figure, the part before it what the figure is of ("… die Aufzeichnungen
    aufbewahrt werden, 1. bei Prüfungen nach § 115 …, | mindestens jedoch drei Jahre …"). ``part`` itself
    where it is not in ``text`` or starts its sentence."""
    at = text.find(part)
    if at <= 0:
        return part
    start = max([0, *(c for c in _cuts(text) if c <= at)])
    return text[start:at].lstrip() + part


SHARED_START = 40  # characters two lines must share to be two parts of one sentence


def past_shared_start(text: str, before: list[str]) -> str:
    """``text`` from where it leaves a line of ``before`` that starts as it does, after "… ": two parts of one
    long sentence, each shown with the sentence's start (``in_context``), read as the same line twice (seen,
    laws-dev-10: two lines began "2. Kontrollbereich, wenn Personen im Kalenderjahr eine effektive Dosis von
    mehr als 6 Millisievert", the second went on with the eye lens' 15 Millisievert). ``text`` itself where no
    line shares its start, or where little of it is left past the shared start."""
    for other in before:
        common = os.path.commonprefix([other, text])
        shared = common if len(common) == len(text) or text[len(common)] == " " else common.rsplit(" ", 1)[0]
        if len(shared) >= SHARED_START and len(text) - len(shared) >= SHARED_START // 2:
            return "… " + text[len(shared):].lstrip()
    return text


GAP = "(…)"  # between two shown sentences that do not follow each other in the text


def numbered(text: str, only: list[int] | None = None) -> tuple[str, list[Unit]]:
    """``[1] First sentence. [2] Second …`` on one line each unit, whitespace inside a unit collapsed.
    ``only``: just these units (``units`` numbers), numbered anew from 1, with ``GAP`` where text between
    them is left out; the returned units keep their offsets in ``text``."""
    found = units(text)
    if only:
        wanted = set(only)
        found = [Unit(i, u.start, u.end) for i, u in enumerate((u for u in found if u.number in wanted), start=1)]
    lines: list[str] = []
    for before, u in zip([None, *found], found):
        if before is not None and text[before.end:u.start].strip():
            lines.append(GAP)
        lines.append(f"[{u.number}] {resolve_line_hyphens(text[u.start:u.end])}")
    return "\n".join(lines), found


def sentences(text: str) -> list[str]:
    """Whole sentences of running text (full stop, '!' or '?' with the abbreviation rules above; no
    split at ';', in long sentences or within a quotation): where an answer's statement puts its source
    markers, and what the answer's claims are. (Seen: a verified quote of two sentences got a marker inside,
    "„… 400 Millisievert [1]. Die …“", and then stood in no source.)"""
    out, start = [], 0
    for m in _END.finditer(text):
        if text[m.start()] != ";" and _is_boundary(text, m) and not _open_quotation(text[start:m.end()]):
            out.append(text[start:m.end()].strip())
            start = m.end()
    out.append(text[start:].strip())
    return [x for x in out if x]


def _open_quotation(text: str) -> bool:
    """A quotation begun and not closed: German „…“, English “…”, or straight quotes."""
    if "„" in text:
        return text.count("„") > text.count("“")
    return text.count("“") > text.count("”") or text.count('"') % 2 == 1


def quotes(text: str, found: list[Unit], numbers: list[int]) -> list[str]:
    """The source's own text for the sentences a model named: runs of consecutive numbers that follow each
    other in the text become one quote (at most ``MAX_RUN`` sentences; a longer run goes on in the next quote);
    numbers outside the excerpt are ignored. Seen (laws-research-13, a 1.5B model): § 133 StrlSchG's excerpt was
    "[1] Kapitel 3 [2] Schutz vor Radioaktivität in Bauprodukten [3] § 133 Referenzwert [4] Der Referenzwert …
    beträgt … 1 Millisievert im Kalenderjahr."; all four were quoted, and the fourth, over the run's length, was
    left out: the finding quoted three headings."""
    by_number = {u.number: u for u in found}
    chosen = sorted({n for n in numbers if n in by_number})
    runs: list[list[int]] = []
    previous = None
    for n in chosen:
        adjacent = previous is not None and n == previous + 1 and \
            not text[by_number[previous].end:by_number[n].start].strip()
        if adjacent and len(runs[-1]) < MAX_RUN:
            runs[-1].append(n)
        else:
            runs.append([n])
        previous = n
    return [text[by_number[r[0]].start:by_number[r[-1]].end] for r in runs]
