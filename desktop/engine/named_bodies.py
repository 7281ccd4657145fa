"""Whether a part of a question asks for a named body — an authority, office or other public institution
("Welche Behörde …?", "Welche Stelle des Bundes …?", "Which federal authority examines …?") — and whether a
sentence names one ("das Bundesamt für Strahlenschutz", "Luftfahrt-Bundesamt", "dem radiologischen Lagezentrum
des Bundes", "the Federal Office for Radiation Protection"). The answer's lines (``coverage.py``) prefer for such
a part a sentence that names one, as they prefer a sentence stating a figure for a part that asks for a figure.

Seen (laws-research-11, a 1.5B model): the part "Welche Behörde als zentrale Stelle Vorkommnisse bei medizinischer
Exposition erfasst und auswertet?" showed "(1) Die zentrale Stelle 1. richtet ein elektronisches System … ein",
which shares most of its words; the finding beside it held "(2) Zentrale Stelle ist das Bundesamt für
Strahlenschutz."

Deterministic and narrow: "die zuständige Behörde" names no body (every statute says it), and "Wer …?" asks for
a person or role as often as for a body, so it is left out.
"""

from __future__ import annotations

import re

# The words that ask for a body: "welche Behörde", "welcher Stelle des Bundes", "which federal authority".
_ASKS_BODY = re.compile(
    r"\b(?:welche[mnrs]?\s+(?:\w+\s+){0,2}?\w*(?:behörden?|stellen?|institution(?:en)?|einrichtung(?:en)?|"
    r"amt(?:es|s)?|ministeri(?:um|ums|en)|organisation(?:en)?)|"
    r"which\s+(?:\w+\s+){0,2}?(?:authority|authorities|body|bodies|office|agency|institution|ministry|"
    r"organi[sz]ation))\b", re.I)
# A body by its name: a federal or state office, agency or ministry, or the federal radiological situation centre.
_NAMES_BODY = re.compile(
    r"(?:\b|-)(?:bundes(?:amt|anstalt|ministerium|oberbehörde|verwaltungsamt|regierung)|landes(?:amt|anstalt|"
    r"ministerium|sammelstelle)|lagezentrum)\w*|"
    r"\b(?:federal\s+(?:office|ministry|agency|institute|government)|ministry\s+(?:of|for)|office\s+for)\b", re.I)


def asks_for_body(part: str) -> bool:
    """Whether ``part`` asks which authority, office or institution does or receives something."""
    return bool(_ASKS_BODY.search(part))


def names_body(text: str) -> bool:
    """Whether ``text`` names an authority, office or institution by its name."""
    return bool(_NAMES_BODY.search(text))
