"""Text normalisation for comparing what a PDF says with what someone typed or quoted.

One rule everywhere (search, reference location, quote verification): Unicode NFKC, typographic
quotes and dashes made plain, soft hyphens dropped, a hyphen at a line end joined with the next
word ("Organ-\\nÄquivalentdosis" → "Organ-Äquivalentdosis", "Strahlen-\\nschutz" → "Strahlenschutz")
unless the next word is a conjunction ("Teilchen- oder"), and whitespace runs collapsed.
"""

from __future__ import annotations

import re
import unicodedata

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
