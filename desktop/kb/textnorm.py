"""Text normalisation for comparing what a PDF says with what someone typed or quoted.

One rule everywhere (search, reference location, quote verification): Unicode NFKC, typographic
quotes and dashes made plain, soft hyphens dropped, a hyphen at a line end joined with the next
word ("Organ-\\nÄquivalentdosis" → "Organ-Äquivalentdosis", "Strahlen-\\nschutz" → "Strahlenschutz")
unless the next word is a conjunction ("Teilchen- oder"), and whitespace runs collapsed.
``normalize_mapped`` gives the same text with, for each character, the span of the original it came
from (quote verification displays the source's own characters).
"""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass
from itertools import pairwise

_QUOTES = str.maketrans(
    {
        "\u201e": '"', "\u201c": '"', "\u201d": '"', "\u00ab": '"', "\u00bb": '"', "\u2033": '"',
        "\u201a": "'", "\u2018": "'", "\u2019": "'", "\u2039": "'", "\u203a": "'", "\u2032": "'",
        "\u2010": "-", "\u2011": "-", "\u2012": "-", "\u2013": "-", "\u2014": "-", "\u2212": "-",
        "\u00a0": " ", "\u202f": " ", "\u2007": " ", "\u00ad": None, "\u200b": None,
    }
)
# Words that show "Teilchen- oder Wellenstrahlung" is an elided compound, not a broken word.
_KEEP_HYPHEN_BEFORE = r"(?:und|oder|bis|sowie|bzw|als|wie|and|or|to)\b"
# A hyphen ending a line, followed by a lower-case continuation: "Strahlen-\nschutz" → "Strahlenschutz".
_BROKEN_WORD = re.compile(r"(?<=[^\W\d_])-[ \t]*\n[ \t]*(?!" + _KEEP_HYPHEN_BEFORE + r")(?=[a-zäöüß])")
# A hyphen ending a line before a capital keeps the hyphen: "Organ-\nÄquivalentdosis".
_HYPHEN_NEWLINE = re.compile(r"(?<=\w)-[ \t]*\n[ \t]*(?!" + _KEEP_HYPHEN_BEFORE + r")(?=\w)")
# A hyphen printed at a line end, before the next line's first word (after a space too: "1.05 -\nMinuten").
_PRINTED_LINE_HYPHEN = re.compile(r"-[ \t]*\n\s*(?!" + _KEEP_HYPHEN_BEFORE + r")(?=\S)")
_SPACE = re.compile(r"\s+")


def plain(text: str) -> str:
    """NFKC with typographic quotes/dashes/odd spaces replaced; keeps line breaks."""
    return unicodedata.normalize("NFKC", text).translate(_QUOTES)


def normalize(text: str) -> str:
    """The canonical form used to compare two texts."""
    text = plain(text)
    text = _BROKEN_WORD.sub("", text)
    text = _HYPHEN_NEWLINE.sub("-", text)
    return _SPACE.sub(" ", text).strip()


def squash(text: str) -> str:
    """Case-folded normal form for lenient containment tests."""
    return normalize(text).casefold()


# --- The same normalisation with a map back into the original text (quote verification shows the
# source's own characters, so every normalised character must know where it came from). ---


@dataclass(frozen=True, slots=True)
class Mapped:
    """Normalised text; character i came from ``original[starts[i]:ends[i]]``."""

    text: str
    starts: list[int]
    ends: list[int]

    def span(self, start: int, end: int) -> tuple[int, int]:
        """The original span that normalised ``text[start:end]`` (end > start) came from."""
        return self.starts[start], self.ends[end - 1]


def _cluster_bounds(word: str) -> list[int]:
    """Starts of base-plus-combining-marks clusters: NFKC composes within a cluster, never across."""
    return [i for i, c in enumerate(word) if i == 0 or not unicodedata.combining(c)] + [len(word)]


# A word with a non-ASCII character (a combining mark composes with the letter before it).
_NON_ASCII_WORD = re.compile(r"\S*[^\x00-\x7f]\S*")


def _nfkc_mapped(text: str) -> Mapped:
    out: list[str] = []
    starts: list[int] = []
    ends: list[int] = []
    last = 0
    for m in _NON_ASCII_WORD.finditer(text):
        word, base = m.group(), m.start()
        out.append(text[last:base])  # ASCII is NFKC-stable
        starts.extend(range(last, base))
        ends.extend(range(last + 1, base + 1))
        last = m.end()
        if unicodedata.is_normalized("NFKC", word):
            out.append(word)
            starts.extend(range(base, last))
            ends.extend(range(base + 1, last + 1))
            continue
        bounds = _cluster_bounds(word)
        pieces = [
            (c, base + a, base + b)
            for a, b in pairwise(bounds)
            for c in unicodedata.normalize("NFKC", word[a:b])
        ]
        if "".join(p[0] for p in pieces) != unicodedata.normalize("NFKC", word):
            # composition across clusters (rare scripts): map the whole word coarsely
            pieces = [(c, m.start(), m.end()) for c in unicodedata.normalize("NFKC", word)]
        out.extend(p[0] for p in pieces)
        starts.extend(p[1] for p in pieces)
        ends.extend(p[2] for p in pieces)
    out.append(text[last:])
    starts.extend(range(last, len(text)))
    ends.extend(range(last + 1, len(text) + 1))
    return Mapped("".join(out), starts, ends)


# The characters _QUOTES changes (each into one character or none), found in one pass.
_TRANSLATED = re.compile("[" + "".join(re.escape(chr(k)) for k in _QUOTES) + "]")


def _translate_mapped(m: Mapped) -> Mapped:
    text, starts, ends = [], [], []
    last = 0
    for hit in _TRANSLATED.finditer(m.text):
        a = hit.start()
        text.append(m.text[last:a])
        starts.extend(m.starts[last:a])
        ends.extend(m.ends[last:a])
        if repl := hit.group().translate(_QUOTES):
            text.append(repl)
            starts.append(m.starts[a])
            ends.append(m.ends[a])
        last = a + 1
    text.append(m.text[last:])
    starts.extend(m.starts[last:])
    ends.extend(m.ends[last:])
    return Mapped("".join(text), starts, ends)


def plain_mapped(text: str) -> Mapped:
    """``plain(text)`` with its map back into ``text``."""
    return _translate_mapped(_nfkc_mapped(text))


def sub_mapped(pattern: re.Pattern[str], repl: str, m: Mapped) -> Mapped:
    """``pattern.sub(repl, m.text)`` keeping the map: inserted characters map to the whole replaced span."""
    text, starts, ends = [], [], []
    last = 0
    for hit in pattern.finditer(m.text):
        a, b = hit.span()
        text.append(m.text[last:a])
        starts.extend(m.starts[last:a])
        ends.extend(m.ends[last:a])
        if repl and b > a:
            text.append(repl)
            starts.extend([m.starts[a]] * len(repl))
            ends.extend([m.ends[b - 1]] * len(repl))
        last = b
    text.append(m.text[last:])
    starts.extend(m.starts[last:])
    ends.extend(m.ends[last:])
    return Mapped("".join(text), starts, ends)


# The whitespace runs _SPACE changes: a single plain space is left as it is (and costs nothing).
_SPACE_TO_CHANGE = re.compile(r"[^\S ]\s*| \s+")


def normalize_mapped(text: str) -> Mapped:
    """``normalize(text)`` with its map back into ``text`` (same rules, same result)."""
    m = plain_mapped(text)
    m = sub_mapped(_BROKEN_WORD, "", m)
    m = sub_mapped(_HYPHEN_NEWLINE, "-", m)
    m = sub_mapped(_SPACE_TO_CHANGE, " ", m)
    lead = len(m.text) - len(m.text.lstrip())
    stop = len(m.text.rstrip())
    return Mapped(m.text[lead:stop], m.starts[lead:stop], m.ends[lead:stop])


def resolve_line_hyphens(text: str) -> str:
    """Original characters as printed, on one line: a hyphen at a line end stays and the break goes
    ("Mindest-\\nanzahl" → "Mindest-anzahl", "öffentlich-\\nrechtlichen" → "öffentlich-rechtlichen")
    unless the next word is a conjunction ("Teilchen- oder"), soft hyphens dropped, whitespace runs as
    one space; quotes and dashes stay as printed. This is the corpus' verbatim rule, and what a reviewer
    sees on the page: whether such a hyphen belongs to the word cannot be told from the page (in the
    sample laws 3 of the 9 before a lower-case word do), so a shown quote never joins the word itself.
    Comparison (``normalize``) joins it; the quote matcher finds either spelling."""
    text = text.replace("\u00ad", "").replace("\u200b", "")
    text = _PRINTED_LINE_HYPHEN.sub("-", text)
    return _SPACE.sub(" ", text).strip()
