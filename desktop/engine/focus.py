"""Which sentence of an excerpt answers the question? A deterministic second look at a reading's quote.

Seen with a 1.5B model on the laws-de benchmark: it picks the right excerpt and calls it relevant, but
quotes and restates the excerpt's first sentence — a heading, the paragraph before — while the figure
asked for stands two sentences further on ("… spätestens vier Wochen vor dem beabsichtigten Beginn …").
In 9 of 13 runs that missed the key fact, the fact was in an excerpt the model had read and rated, not
in its reading. So the engine ranks the excerpt's sentences by the question's words (and, where the
question asks for a figure, by whether a sentence states one) and adds the best one to the quote when it
clearly beats every sentence the model named. The added sentence is cut from the source and verified
like any other quote; the model's own choice stays.
"""

from __future__ import annotations

import re

from desktop.engine.citation_support import TIME_WORDS, amounts, support
from desktop.engine.figure_kinds import FREQUENCY, asked_kinds

MARGIN = 0.15  # how much better than the model's best sentence the engine's must score to be added
FIGURE_BONUS = 0.4  # a sentence with a figure, when the question asks for one
MIN_OVERLAP = 0.15  # a figure counts only in a sentence about the question
MIN_SCORE = 0.35  # below this no sentence is a confident pick
MIN_WORDS = 6  # shorter "sentences" are list stubs; they count half, as headings do
HOLDS = 0.5  # share of a question's (or query's) terms a quote must hold to answer it

# Questions that ask for a figure: a period, deadline, limit, count, amount or date (German and English).
_ASKS_FIGURE = re.compile(
    r"\b(?:wie\s+(?:lange?|oft|viele?|hoch|groß|gross|weit|schnell)|bis\s+wann|wann|innerhalb\s+welche\w*|"
    r"frist\w*|vorlauf\w*|zeitraum\w*|dauer\w*|\w*grenzwert\w*|\w*obergrenze\w*|höchst\w*|mindest\w*|"
    r"welche\w*\s+(?:\w+\s+){0,2}?\w*(?:dosis|wert|betrag|anzahl|menge|summe)\w*|prozent\w*|"
    r"how\s+(?:long|often|many|much|high|large|far|soon)|when|by\s+what\s+date|deadline\w*|period\w*|"
    r"limit\w*|threshold\w*|amount\w*|value\w*|rate\w*|percent\w*|ratio\w*|minimum|maximum|total)\b",
    re.I)
_NUMBER_WORDS = (
    r"zwei|drei|vier|fünf|sechs|sieben|acht|neun|zehn|elf|zwölf|zwanzig|dreißig|vierzig|fünfzig|sechzig|hundert|"
    r"tausend|halbe?n?|"
    r"two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|twenty|thirty|forty|fifty|sixty|hundred|"
    r"thousand|half")
_TIME_UNITS = rf"{TIME_WORDS}\w*"
# "vier Wochen", "fünf Mitgliedern", "ein Jahr lang", "two years"
_WORDED_FIGURE = re.compile(rf"\b(?:(?:{_NUMBER_WORDS})\s+\w+|ein\w*\s+{_TIME_UNITS}|an?\s+{_TIME_UNITS})",
                            re.I)
# A section's title line: "§ 17 Anzeigebedürftiger Betrieb von …", "Anlage 4 Dosiswerte", "Art. 5 Scope". It
# shares every word with a question about its section and answers none.
_HEADING = re.compile(r"^\s*(?:§+|Art\.|Artikel|Anlage|Anhang|Section|Article|Annex)\s*\d+\w*\s+\(?[A-ZÄÖÜ]")
# A title line and the first paragraph under it, in one sentence (the title has no full stop): "§ 4 Pflichten bei
# Abgabe und Empfang (1) Wer radioaktive Abfälle abgibt, ist verpflichtet, vorher …". The paragraph is a sentence,
# weighed by its own words (seen, laws-research-14: halved as a heading, it lost to a sentence of another section).
_UNDER_HEADING = re.compile(r"^[^()]*?\s\(\d+[a-z]?\)\s+(?=\S)")


# The words that ask for a figure ("wie lange", "bis wann", "how long"): the figure answers them, no quote
# repeats them (seen: "lang" of "Wie lange …" counted against the quote that states "drei Jahre").
_INTERROGATIVE = re.compile(
    r"\b(?:wie\s+(?:lange?|oft|viele?|hoch|groß|gross|weit|schnell)|bis\s+wann|wann|innerhalb\s+welche\w*|"
    r"how\s+(?:long|often|many|much|high|large|far|soon)|when|by\s+what\s+date)\b", re.I)


def asked_words(question: str) -> str:
    """``question`` without the words that ask for a figure ("Wie lange", "bis wann"): what a sentence that answers
    it shares with it."""
    return _INTERROGATIVE.sub(" ", question)


def asks_for_figure(question: str) -> bool:
    """Whether ``question`` asks for a figure: by its own words, or by those that ask for a kind of figure
    (``figure_kinds.asked_kinds``; seen, laws-research-16: "Above what effective dose … does special medical
    surveillance apply?" asked for an amount and was given a definition that states none)."""
    return bool(_ASKS_FIGURE.search(question) or asked_kinds(question))


def states_figure(sentence: str) -> bool:
    """An amount in digits (not a section or list number), a number word with its noun, a date, or a frequency
    ("monatlich": it answers "Wie oft …?")."""
    return bool(amounts(sentence) or _WORDED_FIGURE.search(sentence) or FREQUENCY.search(sentence))


def figures(text: str) -> set[str]:
    """The figures a text states: amounts in digits (as ``amounts`` writes them) and worded figures by their
    number and the start of their noun ("drei jahr" for "drei Jahre" and "drei Jahren")."""
    worded = (m.group(0).casefold().split() for m in _WORDED_FIGURE.finditer(text))
    return amounts(text) | {f"{w[0]} {w[1][:4]}" for w in worded if len(w) > 1}


def title_line(text: str) -> bool:
    """A section's title line alone ("§ 5 Ablieferung"), not one run into the paragraph under it."""
    return bool(_HEADING.match(text)) and not _UNDER_HEADING.match(text)


def score(question: str, sentence: str, language: str, wants_figure: bool) -> float:
    """Share of the question's words the sentence holds (``asked_words``: seen, laws-research-15, "Wie lange sind
    die Aufzeichnungen über die Zutrittserlaubnis aufzubewahren?" weighed "… so lange aufzubewahren, bis …" of
    another section as high as "Die Aufzeichnungen sind ab dem Zutritt fünf Jahre aufzubewahren."), plus a bonus
    for a figure the question asks for; a title line counts half, the paragraph after it (``_UNDER_HEADING``) by
    itself."""
    if _HEADING.match(sentence) and (under := _UNDER_HEADING.match(sentence)):
        sentence = sentence[under.end():]
    value = support(asked_words(question), sentence, language)
    if wants_figure and value >= MIN_OVERLAP and states_figure(sentence):
        value += FIGURE_BONUS
    if len(sentence.split()) < MIN_WORDS or _HEADING.match(sentence):
        value /= 2
    return value


def focused(quote: list[int], question: str, sentences: dict[int, str], language: str,
            limit: int = 3) -> list[int]:
    """The reading's sentence numbers, with the excerpt's best answering sentence put first when it
    clearly beats every sentence the model named (or the model named none). At most ``limit``."""
    if not sentences:
        return quote
    wants = asks_for_figure(question)
    scores = {n: score(question, text, language, wants) for n, text in sentences.items()}
    best = max(scores, key=lambda n: (scores[n], -n))
    named = [n for n in quote if n in scores]
    if best in named or scores[best] < MIN_SCORE:
        return quote
    if named and scores[best] < max(scores[n] for n in named) + MARGIN:
        return quote
    return [best, *named][:limit]


def answers(question: str, quote: str, language: str) -> bool:
    """Whether a quote holds what ``question`` asks for: at least half its terms, and a figure where it asks
    for one. The engine's guard against a small model's verdicts (drift, reading): such a quote is
    evidence, whatever the model made of it."""
    if not quote.strip() or support(asked_words(question), quote, language) < HOLDS:
        return False
    return states_figure(quote) or not asks_for_figure(question)
