"""Quote verification: is a quote the model gave really in its source, word for word?

Regulatory reviewers rely on this: a quote is shown as a quote only when it is found in its source
(chunk or page text) after the project's normalisation (``desktop.kb.textnorm``), or by a strict
fuzzy match that forgives only OCR-style slips inside words. What is displayed is always the
source's own text of the matched span, never the model's words. Pure text logic, no PDF I/O.
"""

from __future__ import annotations

import re
from bisect import bisect_left, bisect_right
from collections import Counter
from dataclasses import dataclass
from functools import lru_cache
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field
from rapidfuzz import fuzz
from rapidfuzz.distance import Levenshtein

from desktop.kb.textnorm import Mapped, normalize, normalize_mapped, resolve_line_hyphens, sub_mapped

# fuzz.ratio of the quote against the matched span (both case-folded). 95 leaves room for about one
# slipped character per 20; the word rules below are what keep a long quote from drifting further.
FUZZY_THRESHOLD = 95.0
# Shorter quotes are verified exactly or not at all: in a few words a slip can be a different claim, and a
# generic phrase ("A Relevant Person must:") is found on many pages once one character is forgiven.
FUZZY_MIN_WORDS = 6
# The matched span may be at most this much longer or shorter than the quote.
LENGTH_TOLERANCE = 0.10
# Each part of an elided quote ("A … B") needs this many words: "der … ist" would be found anywhere.
MIN_PART_WORDS = 2
ELLIPSIS = " … "

MatchKind = Literal["exact", "fuzzy", "none"]


class QuoteCheck(BaseModel):
    """The verdict on one quote against one source text."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    verified: bool = False
    match: MatchKind = "none"
    display: str | None = Field(None, description="the source's own text of the matched span(s)")
    start: int | None = Field(None, description="offset into the source where the match begins")
    end: int | None = Field(None, description="offset into the source where the match ends")
    score: float = Field(0.0, ge=0, le=100)


NOT_VERIFIED = QuoteCheck()

# After NFKC "…" is "..."; "[...]" and "(...)" mark an omission as well.
_ELLIPSIS = re.compile(r"\s*(?:\[\s*\.{3,}\s*\]|\(\s*\.{3,}\s*\)|\.{3,})\s*")
_WRAPPING = ' "\'*'  # quote marks (and Markdown emphasis) a model puts around a quote
_INNER_HYPHEN = re.compile(r"(?<=[^\W\d_])-(?=[^\W\d_])")  # "self-regulatory", "Organ-Äquivalentdosis"
_TOKEN = re.compile(r"\d+|[^\W\d]+|[^\w\s]")  # "13Der" is two tokens: a paragraph number and a word
_WORD = re.compile(r"\w+")
_NUMBER = re.compile(r"\d+(?:[.,]\d+)*")
_NEGATION = re.compile(
    r"\b(?:nicht|nichts|kein\w*|nie|niemals|niemand|weder|ohne|not|no|none|never|neither|nor|nothing|"
    r"nobody|without|cannot)\b|n't\b"
)
# Words whose change flips what a legal sentence says: never forgiven as a slip.
_PROTECTED = frozenset(
    "nicht nichts kein keine keinen keinem keiner keines nie niemals niemand weder noch ohne muss müssen "
    "soll sollen darf dürfen kann können mindestens höchstens mehr weniger alle jede jeder jedes nur und "
    "oder vor nach not no none never neither nor nothing without cannot must shall should may might can "
    "could will would least most all any each every only more less and or before after".split()
)
_NEGATING_PREFIXES = ("un", "in", "im", "il", "ir", "non", "dis", "a", "nicht", "miss", "mis")
_NEGATING_SUFFIXES = ("los", "less", "frei", "free")


@dataclass(frozen=True)
class _Source:
    norm: Mapped  # the project's normal form, mapped back into the source
    flat: Mapped  # the same without hyphens inside words
    folded: str  # norm.text lower-cased character by character (same length)
    token_starts: list[int]
    token_ends: list[int]
    vocabulary: frozenset[str]  # the folded words of the source


@dataclass(frozen=True)
class _Hit:
    start: int  # offsets into the original source
    end: int
    match: MatchKind
    score: float


def verify_quote(quote: str, source: str) -> QuoteCheck:
    """Check ``quote`` against ``source`` (chunk or page text).

    Each part of the quote (split at "…", "...", "[…]") must be found, in order: exactly after
    normalisation, then ignoring case, then ignoring hyphens inside words; else by the strict fuzzy
    match (``_fuzzy``). ``start``/``end`` span all parts in ``source``; ``display`` is the source's text
    of each part joined with " … "; ``score`` is 100 for exact, else the lowest fuzzy part's ratio.
    """
    parts = _parts(quote)
    if not parts or not source.strip():
        return NOT_VERIFIED
    if len(parts) > 1 and any(_words(p) < MIN_PART_WORDS for p in parts):
        return NOT_VERIFIED
    src = _prepare(source)
    hits: list[_Hit] = []
    pos = 0
    for part in parts:
        hit = _exact(part, src, pos) or _fuzzy(part, src, pos)
        if hit is None:
            return NOT_VERIFIED
        hits.append(hit)
        pos = hit.end
    return QuoteCheck(
        verified=True,
        match="fuzzy" if any(h.match == "fuzzy" for h in hits) else "exact",
        display=ELLIPSIS.join(_display(source, h) for h in hits),
        start=hits[0].start,
        end=hits[-1].end,
        score=round(min(h.score for h in hits), 1),
    )


def _parts(quote: str) -> list[str]:
    """The normalised quote, unwrapped, split at omission marks into the parts that must appear in order."""
    text = normalize(quote).strip(_WRAPPING)
    parts = (p.strip(_WRAPPING + ",;") for p in _ELLIPSIS.split(text))
    return [p for p in parts if _WORD.search(p)]


def _words(text: str) -> int:
    return len(_WORD.findall(text))


def _fold(text: str) -> str:
    """Lower case that keeps every offset (``"İ".lower()`` has two characters)."""
    low = text.lower()
    if len(low) == len(text):
        return low
    return "".join(c if len(c.lower()) != 1 else c.lower() for c in text)


@lru_cache(maxsize=128)
def _prepare(source: str) -> _Source:
    """Everything derived from one source, kept for the next quote (a step checks several per chunk)."""
    norm = normalize_mapped(source)
    tokens = [m.span() for m in _TOKEN.finditer(norm.text)]
    return _Source(
        norm=norm,
        flat=sub_mapped(_INNER_HYPHEN, "", norm),
        folded=_fold(norm.text),
        token_starts=[a for a, _ in tokens],
        token_ends=[b for _, b in tokens],
        vocabulary=frozenset(_WORD.findall(_fold(norm.text))),
    )


@lru_cache(maxsize=512)
def _pattern(needle: str, flags: int) -> re.Pattern[str]:
    """The needle as a regex that does not start or end inside a number: "20" is not in "120", "1.20"
    or "20a" (a different § or a different limit)."""
    head = r"(?<!\w)(?<!\d[.,])" if needle[0].isdigit() else ""
    tail = r"(?!\w)(?![.,]\d)" if needle[-1].isdigit() else ""
    return re.compile(head + re.escape(needle) + tail, flags)


def _whole_words(text: str, start: int, end: int) -> tuple[int, int] | None:
    """A match that starts or stops inside a word is widened to the whole word, so the display shows
    what the source prints ("em. §§ 1908" → "gem. §§ 1908"); refused where the letters added would
    negate the quoted word ("zulässig" inside "unzulässig", "harm" inside "harmless")."""
    a, b = start, end
    while 0 < a < len(text) and text[a - 1].isalpha() and text[a].isalpha():
        a -= 1
    while 0 < b < len(text) and text[b - 1].isalpha() and text[b].isalpha():
        b += 1
    prefix, suffix = text[a:start].lower(), text[end:b].lower()
    if prefix.startswith(_NEGATING_PREFIXES) or any(s in suffix for s in _NEGATING_SUFFIXES):
        return None
    return a, b


def _exact(part: str, src: _Source, pos: int) -> _Hit | None:
    """Normal form as is, then ignoring case, then ignoring hyphens inside words: a line-end hyphen in
    the PDF is ambiguous ("Strahlen-\\nschutz" is one word, "self-\\nregulatory" keeps its hyphen)."""
    for mapped, needle in ((src.norm, part), (src.flat, _INNER_HYPHEN.sub("", part))):
        first = bisect_left(mapped.starts, pos)
        for flags in (0, re.IGNORECASE):
            for found in _pattern(needle, flags).finditer(mapped.text, first):
                if words := _whole_words(mapped.text, *found.span()):
                    start, end = mapped.span(*words)
                    return _Hit(start, end, "exact", 100.0)
    return None


def _fuzzy(part: str, src: _Source, pos: int) -> _Hit | None:
    """The best window of the source for the quote, then the strict checks a legal quote must pass."""
    if _words(part) < FUZZY_MIN_WORDS:
        return None
    quote = _fold(part)
    first = bisect_left(src.norm.starts, pos)
    hay = src.folded[first:]
    if len(hay) < len(quote) * (1 - LENGTH_TOLERANCE):
        return None
    window = fuzz.partial_ratio_alignment(quote, hay, score_cutoff=FUZZY_THRESHOLD)
    if window is None:
        return None
    best = _best_span(quote, src, first + window.dest_start, first + window.dest_end, first)
    if best is None or not _faithful(quote, src.folded[best[0] : best[1]], src.vocabulary):
        return None
    start, end = src.norm.span(best[0], best[1])
    return _Hit(start, end, "fuzzy", best[2])


def _best_span(quote: str, src: _Source, lo: int, hi: int, first: int) -> tuple[int, int, float] | None:
    """Snap the window to token boundaries: the span of about the quote's length that matches best."""
    slack = max(4, int(len(quote) * LENGTH_TOLERANCE))
    starts, ends = src.token_starts, src.token_ends
    best: tuple[int, int, float] | None = None
    for i in range(bisect_left(starts, max(first, lo - slack)), bisect_right(starts, lo + slack)):
        for j in range(bisect_left(ends, hi - slack), bisect_right(ends, hi + slack)):
            a, b = starts[i], ends[j]
            if b <= a or abs((b - a) - len(quote)) > len(quote) * LENGTH_TOLERANCE:
                continue
            score = fuzz.ratio(quote, src.folded[a:b])
            if score >= FUZZY_THRESHOLD and (best is None or score > best[2]):
                best = (a, b, score)
    return best


def _faithful(quote: str, span: str, vocabulary: frozenset[str]) -> bool:
    """Same numbers, same negations, and every differing word an OCR-style slip within a small budget."""
    if _NUMBER.findall(quote) != _NUMBER.findall(span):
        return False
    if Counter(_NEGATION.findall(quote)) != Counter(_NEGATION.findall(span)):
        return False
    q_tokens, s_tokens = _TOKEN.findall(quote), _TOKEN.findall(span)
    budget = 1 + _words(quote) // 25
    for (qa, qb), (sa, sb) in _differences(q_tokens, s_tokens):
        words_a = [t for t in q_tokens[qa:qb] if _WORD.fullmatch(t)]
        words_b = [t for t in s_tokens[sa:sb] if _WORD.fullmatch(t)]
        if "".join(words_a) == "".join(words_b):
            continue  # punctuation, hyphens or spacing only: "backwards-compatible", a dropped comma
        if not _slip(words_a, words_b):
            return False
        if any(w in vocabulary for w in words_a):
            return False  # the quote's word is printed elsewhere in the source: a real word, not a typo
        budget -= 1
        if budget < 0:
            return False
    return True


def _differences(a: list[str], b: list[str]) -> list[tuple[tuple[int, int], tuple[int, int]]]:
    """Token ranges that differ, neighbouring edits merged into one block (a word split in two is one)."""
    blocks: list[tuple[tuple[int, int], tuple[int, int]]] = []
    for op in Levenshtein.opcodes(a, b):
        if op.tag == "equal":
            continue
        if blocks and blocks[-1][0][1] == op.src_start and blocks[-1][1][1] == op.dest_start:
            (qa, _), (sa, _) = blocks.pop()
            blocks.append(((qa, op.src_end), (sa, op.dest_end)))
        else:
            blocks.append(((op.src_start, op.src_end), (op.dest_start, op.dest_end)))
    return blocks


def _slip(a: list[str], b: list[str]) -> bool:
    """One word (or a word split in two) mistyped by a character or two, and nothing that flips meaning."""
    if not a or not b or len(a) > 2 or len(b) > 2 or any(w in _PROTECTED for w in a + b):
        return False
    wa, wb = "".join(a), "".join(b)
    if any(c.isdigit() for c in wa + wb):
        return False
    if abs(len(wa) - len(wb)) > 1 or _negated(wa, wb):
        return False
    return Levenshtein.distance(wa, wb) <= (1 if max(len(wa), len(wb)) < 8 else 2)


def _negated(wa: str, wb: str) -> bool:
    short, long = sorted((wa, wb), key=len)
    return any(long == p + short for p in _NEGATING_PREFIXES)


def _display(source: str, hit: _Hit) -> str:
    """The source's own characters of the span, as printed (a line-end hyphen stays)."""
    return resolve_line_hyphens(source[hit.start : hit.end])
