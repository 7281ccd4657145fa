"""Does a source say what a statement of the answer claims? A deterministic check of the citations a
model gave: a source is kept for a statement when it holds enough of the statement's content words and
numbers. Seen with a 1.5B model: every statement cited all six sources, one stated a number none of them
holds, and one answered "there is no limit" from the section that sets it. The check is lenient
(paraphrases pass); what it removes are citations of sources that share next to nothing with the claim,
figures no source gives, and denials no source makes."""

from __future__ import annotations

import re

from desktop.kb.search.lexical import index_terms

MIN_SUPPORT = 0.3  # share of the statement's terms a cited source must hold
# Words that turn a claim into its opposite (German and English).
_NEGATION = re.compile(r"\b(?:nicht|nichts|kein\w*|nie|niemals|weder|ohne|not|no|none|never|neither|nor|without|"
                       r"cannot)\b|n't\b")


# A number joined to a word by a hyphen names something ("Radon-222", "Cs-137"); it states no amount (seen: the
# "222" of Radon-222 counted as the figure of every quote on radon, and the quote without the period won).
_NUMBER = re.compile(r"(?<![\w.,])(?<![^\W\d_]-)\d+(?:[.,]\d+)*")
# Numbers that point somewhere instead of stating an amount: "§ 25", "Absatz 3", "Nr. 1 bis 4", a list's
# "3. die …" or "2. Daten, die …" and a paragraph's "(2)" (seen: "ist 3 Jahre [1]" passed on a source's list item
# "3. die …"; a list's "2. Daten" made its sentence the one that "states a figure" for a part asking how long).
# An ordinal before a date or a span of time states one: "31. Dezember", "das 75. Lebensjahr".
# Words of time (German and English, as word stems): periods, deadlines and their units.
TIME_WORDS = r"(?:jahr|monat|woche|tag|kalendertag|stunde|minute|year|month|week|day|hour)"
_TIME_ORDINAL = (r"(?:januar|februar|märz|april|mai|juni|juli|august|september|oktober|november|dezember|"
                 rf"\w*{TIME_WORDS})")
POINTERS = re.compile(
    r"(?:§§?|\b(?:Abs|Nr|Art|Buchst|lit|Kap|Sec|para)\.|\b(?:Absatz|Absatzes|Absätze|Nummer|Nummern|Satz|Satzes|Sätze|"
    r"Anlage|Anhang|Artikel|Buchstabe|Teil|Kapitel|Abschnitt|Section|Article|Annex|Chapter|Paragraph|Schedule|Part)\b)"
    r"\s*\d+\w*(?:\s*(?:,|und|bis|oder|and|to|or|-)\s*\d+\w*)*"
    r"|(?<![\w.,])\d+\.(?=\s+(?-i:[a-zäöüß]))"
    rf"|(?<![\w.,])\d+\.(?=\s+(?!{_TIME_ORDINAL})(?-i:[A-ZÄÖÜ]))|\(\d+[a-z]?\)", re.I)


def amounts(text: str) -> set[str]:
    """The numbers a text states as amounts (limits, periods, counts), in the lexical index's form ("0,3"
    and "0.3" as "0_3"); section, paragraph and list numbers left out."""
    return {re.sub(r"[.,]", "_", n) for n in _NUMBER.findall(POINTERS.sub(" ", text))}


# Amounts written as words ("vier Wochen", "six months"); "ein"/"one" are articles as often as numbers.
WORD_VALUES = {w: str(v) for v, words in {
    2: "zwei two", 3: "drei three", 4: "vier four", 5: "fünf five", 6: "sechs six", 7: "sieben seven",
    8: "acht eight", 9: "neun nine", 10: "zehn ten", 11: "elf eleven", 12: "zwölf twelve", 20: "zwanzig twenty",
    30: "dreißig thirty", 40: "vierzig forty", 50: "fünfzig fifty", 60: "sechzig sixty"}.items() for w in words.split()}
_NUMBER_WORD = re.compile(r"\b(" + "|".join(WORD_VALUES) + r")\b", re.I)


def stated_amounts(text: str) -> set[str]:
    """``amounts`` and the amounts a text writes as words, as digits: what a source states, so that "4 weeks"
    is found in "vier Wochen" (an English answer over German statutes, or a model writing digits)."""
    return amounts(text) | {WORD_VALUES[m.casefold()] for m in _NUMBER_WORD.findall(text)}


# A German separable verb's zu-infinitive: "aufzubewahren" is "aufbewahren" (a question asks what is "aufzubewahren",
# the statute says it is "aufbewahrt"; seen in laws-research-09).
_ZU_INFINITIVE = re.compile(r"^(ab|an|auf|aus|bei|ein|fest|her|hin|mit|nach|vor|weg|zurück|zusammen|dar|fort|"
                            r"los|zu)zu(\w{3,})$")


def content_terms(text: str, language: str) -> set[str]:
    """Stemmed content words of four letters or more, and numbers (as the lexical index writes them); a
    zu-infinitive as its verb."""
    return {_ZU_INFINITIVE.sub(r"\1\2", t) for t in index_terms(text, language).split() if t[0].isdigit() or len(t) >= 4}


def holds(term: str, found: set[str]) -> bool:
    """A German compound counts for its first part ("berufsleb" in "berufslebensdosis") and the other way."""
    if term in found or term[0].isdigit():
        return term in found
    return any(len(term) >= 5 and f.startswith(term) or len(f) >= 5 and term.startswith(f) for f in found)


def support(statement: str, source: str, language: str) -> float:
    """Share of the statement's terms (numbers included) the source holds; none when the statement gives
    numbers and the source holds not one of them (in one field of law every source shares the words)."""
    claimed = content_terms(statement, language)
    if not claimed:
        return 1.0  # nothing to check ("Ja.")
    found = content_terms(source, language)
    numbers = amounts(statement)
    if numbers and not numbers & stated_amounts(source):
        return 0.0
    return sum(holds(t, found) for t in claimed) / len(claimed)


def negates(text: str) -> bool:
    return bool(_NEGATION.search(text.casefold()))


def supporting(statement: str, cited: list[int], sources: list[str], language: str,
               documents: list[str] | None = None) -> list[int]:
    """The cited source numbers (1-based into ``sources``) that support the statement; none when the
    statement gives a number that no supporting source holds (a figure the sources do not state), or
    denies something ("there is no limit") that none of them denies — the words match, the claim does not.
    ``documents`` (beside ``sources``): the sources' own words, where a figure must stand — a source may hold
    a model's reading of it too, and a reading that misstates a figure vouches for nothing (seen: "above
    100 mSv", read from a quote of "mehr als 6 Millisievert", passed on the reading's own words)."""
    kept = [n for n in cited if support(statement, sources[n - 1], language) >= MIN_SUPPORT]
    words = documents if documents is not None else sources
    held = set().union(*(stated_amounts(words[n - 1]) for n in kept)) if kept else set()
    if not amounts(statement) <= held:
        return []
    if negates(statement) and not any(negates(sources[n - 1]) for n in kept):
        return []
    return kept
