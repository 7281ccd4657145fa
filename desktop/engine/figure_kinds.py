"""What kind of figure a part of the question asks for, and what kind each figure of a text is: a period
("18 Monaten", "zwei Arbeitstage", "six months", "75. Lebensjahr") or an amount (a dose, a limit, a sum, a
count). The answer's completion (``coverage.py``) adds a quote for a figure the answer does not state only
where the figure is of a kind the part asks for (seen: a part asking "Bis wann muss … nach einer
Überschreitung des Referenzwerts …" would otherwise have got the quote of the reference value, 300 Becquerel,
for the period it asks for).

Deterministic and lenient: a part that asks for a figure without naming its kind accepts either kind.
"""

from __future__ import annotations

import re

from desktop.engine.citation_support import POINTERS, TIME_WORDS, WORD_VALUES, stated_amounts

PERIOD, AMOUNT = "period", "amount"

# The words that ask for a period, deadline or interval (German and English).
_ASKS_PERIOD = re.compile(
    r"\b(?:wie\s+lange?|bis\s+wann|wann|innerhalb\s+welche\w*|binnen\s+welche\w*|\w*frist\w*|vorlauf\w*|"
    r"zeitraum\w*|\w*dauer\w*|aufzubewahren|aufbewahr(?!te[mnrs]?\b)\w*|wie\s+oft|rhythmus|intervall\w*|"
    r"how\s+long|how\s+often|by\s+when|when|within\s+what|what\s+(?:\w+\s+){0,2}?(?:period|interval|deadline)s?|"
    r"in\s+advance|period\w*|interval\w*|deadline\w*|kept|retained)\b", re.I)
# The words that ask for an amount: a limit, dose, sum, count, or "ab welcher …", "above what …". A noun such as
# "Referenzwert" alone does not ask for one ("nach einer Überschreitung des Referenzwerts": its value is known).
_ASKS_AMOUNT = re.compile(
    r"\b(?:\w*grenzwert\w*|höchst\w*|obergrenze\w*|mindest\w*|betrag\w*|\w*summe\w*|\w*deckung\w*|"
    r"welche\w*\s+(?:\w+\s+){0,3}?\w*(?:dosis|dosen|wert|werte|betrag|menge|anzahl|höhe|leistung)\b|"
    r"\w*(?:dosis|dosen)\w*,?\s+(?:ab|bis|unter|über|oberhalb|unterhalb)\s+(?:der|dem|denen|welche\w*)|"
    r"(?:ab|bis\s+zu|oberhalb|unterhalb)\s+welche\w*|wie\s+viele?|wie\s+hoch|"
    r"what\s+(?:\w+\s+){0,3}?(?:dose|limit|level|value|amount|sum|maximum|minimum|cover|index|ceiling|number)|"
    r"(?:above|below|up\s+to|over|under)\s+what|how\s+(?:many|much|high)|maximum|minimum|ceiling|limit\w*)\b",
    re.I)

_TIME_NOUN = re.compile(rf"\w*{TIME_WORDS}\w*$", re.I)
# A figure and the word after it: digits (not a section, paragraph or list number, not "Radon-222") or a number
# word. "6 Millisievert" is an amount, "sechs Monate" a period; a number with a full stop is one only before a
# word of time ("75. Lebensjahr"), else it numbers an item or orders ("5. Berechnung der …").
_FIGURE = re.compile(
    r"(?<![\w.,])(?<![^\W\d_]-)(\d+(?:[.,]\d+)*)(\.?)\s*([^\W\d_][\w-]*)?|\b(" + "|".join(WORD_VALUES) + r")\s+(\w+)",
    re.I)


# One of a unit of time, the article its number: "innerhalb eines Monats", "binnen einer Woche", "within a month"
# (``WORD_VALUES`` leaves "ein"/"one" out, an article as often as a number; before a unit of time it is a period).
_ONE_PERIOD = re.compile(rf"\b(?:eine[mnrs]?|ein|a|an|one)\s+(?:(?:vollen|ganzen|full|whole)\s+)?{TIME_WORDS}\w*", re.I)


# A frequency answers "wie oft" without a number: "monatlich", "jährlich", "annually" (seen, laws-research-07:
# "Wie oft sind der Behörde die erzeugten Mengen mitzuteilen?" is answered by "… monatlich …").
FREQUENCY = re.compile(
    r"\b(?:täglich|wöchentlich|monatlich|vierteljährlich|halbjährlich|jährlich|daily|weekly|monthly|quarterly|"
    r"yearly|annually)\w*", re.I)


def asked_kinds(part: str) -> set[str]:
    """The kinds of figure ``part`` asks for; empty where it names none (then any figure may answer it)."""
    kinds = set()
    if _ASKS_PERIOD.search(part):
        kinds.add(PERIOD)
    if _ASKS_AMOUNT.search(part):
        kinds.add(AMOUNT)
    return kinds


def kinded_figures(text: str) -> dict[str, set[str]]:
    """The figures ``text`` states, each value (as ``citation_support.stated_amounts`` writes it) with its
    kinds; one unit of time with its article is the period "1" (seen, laws-research-16: "… ist das Dosimeter …
    innerhalb eines Monats bei der Messstelle einzureichen" stated no figure, and the part "By when must a used
    dosimeter be submitted …?" showed the sentence on "zwölf Monate" instead)."""
    out: dict[str, set[str]] = {"1": {PERIOD}} if _ONE_PERIOD.search(text) else {}
    for m in _FIGURE.finditer(POINTERS.sub(" ", text)):
        digits, dot, noun, word, word_noun = m.groups()
        following = noun if digits else word_noun
        period = bool(following and _TIME_NOUN.match(following))
        if dot and not period:
            continue  # an item's number or an ordinal ("1. Exposition …"), not an amount ("75. Lebensjahr" is a period)
        value = re.sub(r"[.,]", "_", digits) if digits else WORD_VALUES[word.casefold()]
        kind = PERIOD if period else AMOUNT
        out.setdefault(value, set()).add(kind)
    return out


def states_kind(text: str, kinds: set[str]) -> bool:
    """Whether ``text`` states a figure of a kind in ``kinds`` (any kind where it is empty); a frequency is a
    period."""
    if (not kinds or PERIOD in kinds) and FREQUENCY.search(text):
        return True
    return any(not kinds or of & kinds for of in kinded_figures(text).values())


def new_figures(text: str, said: dict[str, set[str]], kinds: set[str]) -> set[str]:
    """The figures of ``text`` of a kind in ``kinds`` (any kind where it is empty) that ``said`` (the figures an
    answer states, each with its kinds: ``said_figures``) does not state as that kind: "sechs Monate" is new
    beside "6 Millisievert" (seen, laws-research-03: the part's period and retention were left out because its
    line stated the dose of 6 mSv)."""
    return {value for value, of in kinded_figures(text).items()
            if (not kinds or of & kinds) and not said.get(value, set()) & of}


def said_figures(text: str) -> dict[str, set[str]]:
    """The figures ``text`` states, each with its kinds; one whose kind is not told (``stated_amounts`` finds
    more than ``kinded_figures``) counts as every kind."""
    kinded = kinded_figures(text)
    return {value: kinded.get(value, {PERIOD, AMOUNT}) for value in stated_amounts(text)} | kinded
