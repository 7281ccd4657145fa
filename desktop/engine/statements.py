"""What may stand in an answer: deterministic checks of a statement the model wrote, against the question
and the text, before it is rendered with its citations.

Seen with a 1.5B model, each statement verbatim-cited, so the citation check passed them all: after a
right first sentence, two sentences on an unrelated ordinance power and a numbered fragment ("1. daß die
Aufsuchung …"); a sentence about how to read the rule; an answer ending in a garbled word ("… Einvernehmen
hîs"); an English answer over German statutes saying twice "… are as follows:" and nothing after it; and
an "open points" list holding a garbled copy of the plan's scope. A statement that fails here is left out
of the answer (the findings it rests on stay in the findings); an open point must be a gap the model
named, not a copy of the scope, the question or a task.
"""

from __future__ import annotations

import re

from rapidfuzz import fuzz

from desktop.engine.checks import foreign
from desktop.engine.citation_support import TIME_WORDS, content_terms, holds
from desktop.engine.focus import states_figure

# An enumeration's item or a clause cut out of one: "1. daß …", "a) die …", "(2) …", "- …".
_LIST_ITEM = re.compile(r"^\s*(?:\(?\d{1,3}[.)]|\(?[a-z]{1,2}\)|[-–•])\s+")
# A lead-in with nothing after it: "… are as follows:", "… wie folgt.", "Folgende Fristen gelten:".
_ANNOUNCES = re.compile(r"(?::\s*$|\b(?:as follows|the following|wie folgt|folgende[nrs]?)\W*$)", re.I)
# Letters a German or English answer is written in; any other one the sources do not have is garbage.
_OWN_LETTERS = re.compile(r"[A-Za-zÄÖÜäöüß]")
# Words no German or English sentence ends with: a statement ending in one was cut off ("… an eine Anlage des
# Bundes zur.", "… abzugleichen und"). German separable prefixes (an, auf, mit, zu, ein …) and English
# prepositions ("… it must comply with.") may end a sentence and are not here.
_CUT_AFTER = frozenset("der die das des dem den eine einer eines einem einen zur zum vom und oder sowie bzw für von "
                       "dass daß wenn weil the of and or".split())
_WORD = re.compile(r"\w+", re.UNICODE)
MIN_WORDS = 4
MIN_TERMS = 3  # content words a statement needs before it is judged off the question
_NUMBER_WORDS = frozenset("zwei drei vier fünf funf sechs sieben acht neun zehn zwölf zwolf zwanzig dreißig hundert "
                          "tausend three four five seven eight nine twelve twenty thirty hundred thousand".split())
_TIME = re.compile(rf"\b\w*{TIME_WORDS}", re.I)
SAME_AS_SCOPE = 85  # rapidfuzz partial ratio at which an open point restates the scope, question or a task


def fragment(text: str) -> bool:
    """A list item, a clause starting in lower case, a lead-in without its list, a sentence cut off after a
    word no sentence ends with, or a few words."""
    plain = text.strip().lstrip("„“\"'»«")
    last = _WORD.findall(plain)[-1:] or [""]
    return (len(plain.split()) < MIN_WORDS or bool(_LIST_ITEM.match(plain)) or plain[:1].islower()
            or bool(_ANNOUNCES.search(plain)) or last[0].casefold() in _CUT_AFTER)


def question(text: str) -> bool:
    """A statement that asks (seen: a plan task copied into the answer before a sentence of its own, "Mit
    welchem Vorlauf ist die Abgabe … nachzumelden? Der Betreiber muss …"); statutes ask nothing."""
    return "?" in text


def restates(reading: str, asked: list[str], language: str) -> bool:
    """A model's reading of an excerpt that says nothing of it: a question, or no figure, no word of time and no
    content word that the question and its tasks (``asked``) do not hold. Seen (laws-research-13, a 1.5B model
    writing English readings of German statutes): "What is added to the index for thin-layer materials such as
    tiles?", the task word for word, and "The radionuclides' specific activities must be determined for the
    gamma dose from building products in habitable rooms.", each shown as the answer to its part. A figure or a
    word of time says something: a reading may answer one part in another's words ("… by the end of the
    calendar year" for "by when …", where a later part says "in the calendar year", laws-research-16)."""
    if question(reading):
        return True
    if states_figure(reading) or _TIME.search(reading):
        return False
    said = content_terms(reading, language)
    wanted = set().union(*(content_terms(a, language) for a in asked)) if asked else set()
    return bool(said) and all(holds(t, wanted) for t in said)


def garbled(text: str, sources: list[str]) -> str | None:
    """The first word with a letter neither German nor English writes and no source holds ("hîs")."""
    known = " ".join(sources)
    for word in _WORD.findall(text):
        letters = [ch for ch in word if ch.isalpha()]
        if any(not _OWN_LETTERS.match(ch) for ch in letters) and word not in known:
            return word
    return None


def off_question(text: str, aims: list[str], language: str) -> bool:
    """No content word of the statement stands in the question, its research queries or its tasks (a German
    compound counts for its first part): it does not address what was asked. A statement of fewer than
    ``MIN_TERMS`` content words ("Zwei Wochen.") is not judged."""
    claimed = {t for t in content_terms(text, language) if not t[0].isdigit() and t not in _NUMBER_WORDS}
    if len(claimed) < MIN_TERMS:
        return False
    wanted = set().union(*(content_terms(a, language) for a in aims)) if aims else set()
    return not any(holds(t, wanted) for t in claimed)


def why_left_out(text: str, aims: list[str], sources: list[str], language: str) -> str | None:
    """Why a statement may not stand in the answer ('other_language', 'fragment', 'question', 'garbled',
    'off_question'), or None."""
    if foreign(text, language):
        return "other_language"
    if fragment(text):
        return "fragment"
    if question(text):
        return "question"
    if garbled(text, sources):
        return "garbled"
    if off_question(text, aims, language):
        return "off_question"
    return None


def real_gap(point: str, restated: list[str], sources: list[str]) -> bool:
    """An open point the model named itself: not a (garbled) copy of the scope, the question or a task, nor
    of what a source says (seen: a finding's own sentence listed as "open"), not a fragment, no garbled word."""
    plain = " ".join(point.split())
    if fragment(plain) or garbled(plain, sources):
        return False
    return not any(fuzz.partial_ratio(plain.casefold(), " ".join(r.split()).casefold()) >= SAME_AS_SCOPE
                   for r in [*restated, *sources] if r.strip())
