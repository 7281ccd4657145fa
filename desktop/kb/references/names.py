"""Recognise a law designation ("des Atomgesetzes", "StrlSchV 2018", "the FSMR", "der Strahlenschutz-
verordnung vom 20. Juli 2001") as a document of the registry.

Three tries, strictest first: the same name (case-insensitive), the same words up to German/English
inflection ("Atomgesetzes" ~ "Atomgesetz", "Atomrechtlichen" ~ "Atomrechtliche"), and an abbreviation
that spells the name ("StrlSchG" ~ "Strahlenschutzgesetz", "FSMR" ~ "Financial Services and Markets
Regulations"). The registry's short names, aliases and titles are the names a document answers to.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import cache

from desktop.kb.models import RegistryEntry
from desktop.kb.references.units import clean, parse_date


@dataclass(frozen=True)
class Designation:
    """A law designation taken apart: name without article/version, and the version it names."""

    name: str  # "Atomgesetzes", "Strahlenschutzverordnung", "FSMR"
    abbreviation: str | None = None  # "(AtG)" written after the name
    year: str | None = None  # "StrlSchG 2017", "Companies Regulations 2020"
    date: str | None = None  # ISO date of "vom 20. Juli 2001" / "in der Fassung vom …"


# Everything from a version phrase on: "vom 20. Juli 2001", "in der bis zum … geltenden Fassung", "a. F."
_VERSION_TAIL = re.compile(r"\s+(?:vom\b|in\s+(?:der|seiner|ihrer)\b|a\.\s?F\.|alter\s+Fassung).*$", re.S)
_LEADING_ARTICLES = re.compile(r"^(?:(?:des|der|dem|den|die|das|zur|zum|of|the)\s+)+", re.I)
_TRAILING_PAREN = re.compile(r"\s*\(([^()]*)\)\s*$")
_TRAILING_YEAR = re.compile(r"\s+((?:19|20)\d{2})$")  # "StrlSchG 2017"; "KTA 1401" is a number, no year


def parse_designation(law: str) -> Designation:
    """"der Strahlenschutzverordnung vom 20. Juli 2001" → name "Strahlenschutzverordnung", date 2001-07-20."""
    text = clean(law)
    tail = _VERSION_TAIL.search(text)
    date = None
    if tail:
        # only "vom <date>" names a version by its date; "bis zum <date> geltenden" is the end of one
        if re.match(r"\s+(?:vom|in\s+der\s+Fassung)\b", tail[0]):
            date = parse_date(tail[0])
        text = text[: tail.start()]
    text = _LEADING_ARTICLES.sub("", text)
    abbreviation = None
    paren = _TRAILING_PAREN.search(text)
    if paren:
        abbreviation, text = paren[1].strip(), text[: paren.start()]
    year = None
    year_match = _TRAILING_YEAR.search(text)
    if year_match:
        year, text = year_match[1], text[: year_match.start()]
    if abbreviation:  # "(StrlSchV 2018)"
        found = _TRAILING_YEAR.search(abbreviation)
        if found:
            year, abbreviation = year or found[1], abbreviation[: found.start()]
    return Designation(name=text.strip(), abbreviation=abbreviation or None, year=year, date=date)


def entry_names(entry: RegistryEntry) -> list[str]:
    """The names a document answers to, years and bracketed abbreviations split off the title; the
    file name too ("KTA_1401.pdf" answers to "KTA 1401")."""
    out: list[str] = []
    stem = re.sub(r"\.pdf$", "", entry.file_name, flags=re.I).replace("_", " ")
    for name in (entry.short_name, *entry.aliases, entry.title, stem):
        if not name:
            continue
        plain = _TRAILING_PAREN.sub("", name)
        paren = _TRAILING_PAREN.search(name)
        for candidate in (plain, paren[1] if paren else None):
            if candidate:
                candidate = _TRAILING_YEAR.sub("", clean(candidate)).strip()
                if candidate and candidate not in out:
                    out.append(candidate)
    return out


def match_law(law: Designation, registry: list[RegistryEntry]) -> RegistryEntry | None:
    """The registry entry a designation names, or None. Several at the same strictness (two versions of
    one law): the one of the cited date/year, else the latest."""
    cited = [c for c in (law.name, law.abbreviation) if c]
    for same in (_same_text, same_words, _abbreviates, _numbered_prefix):
        hits = [e for e in registry if any(same(c, n) for c in cited for n in entry_names(e))]
        if hits:
            return _prefer(hits, law)
    return None


def _prefer(hits: list[RegistryEntry], law: Designation) -> RegistryEntry:
    if law.date:
        hits = [e for e in hits if e.issued == law.date] or hits
    if law.year:
        hits = [e for e in hits if (e.issued or "").startswith(law.year)] or hits
    return max(hits, key=lambda e: e.issued or "")


def _same_text(a: str, b: str) -> bool:
    return a.casefold() == b.casefold()


_ENDINGS = ("es", "s", "en", "n", "e")  # genitive/plural/adjective endings: Gesetzes, Regulations, -lichen


def _forms(word: str) -> set[str]:
    word = word.casefold()
    return {word} | {word[: -len(e)] for e in _ENDINGS if word.endswith(e) and len(word) - len(e) >= 3}


def same_words(a: str, b: str) -> bool:
    """The same name up to inflection: "Atomrechtlichen Entsorgungsverordnung" ~ "Atomrechtliche …"."""
    wa, wb = a.split(), b.split()
    return len(wa) == len(wb) and all(_forms(x) & _forms(y) for x, y in zip(wa, wb, strict=True))


def _numbered_prefix(cited: str, name: str) -> bool:
    """A numbered designation opens the name: "KTA 1401" ~ "KTA 1401 Allgemeine Forderungen", "ISO 9001" ~
    "ISO 9001:2015"; not "KTA 14010" or "IEC 60601-2" for "IEC 60601"."""
    if not re.search(r"\d", cited):
        return False
    head = name.casefold()
    return head.startswith(cited.casefold()) and not re.match(r"[\w.-]", head[len(cited):len(cited) + 1])


def _abbreviates(a: str, b: str) -> bool:
    return abbreviation_matches(a, b) or abbreviation_matches(b, a)


# --- abbreviations ----------------------------------------------------------------------------------

_ABBREVIATION = re.compile(r"[A-ZÄÖÜ][A-Za-zÄÖÜäöüß]{1,11}")
# The last capital of a German abbreviation stands for the last part of the name.
_FINAL_PARTS = {
    "g": ("gesetzbuch", "gesetz"), "v": ("verordnung",), "o": ("ordnung",), "r": ("richtlinie",),
    "b": ("buch",), "s": ("satzung",), "a": ("abkommen",),
}
_NAME_ENDINGS = ("", "es", "s", "e", "en", "n")
_STOPWORDS = {"über", "die", "der", "des", "den", "dem", "das", "zur", "zum", "zu", "von", "vom", "und", "für",
              "bei", "mit", "gegen", "vor", "am", "im", "ihre", "the", "of", "and", "for", "on", "in", "to", "a", "an"}
# A lower-case letter right after a capital lies close to it: "Vw" in "Verwaltung", not "At" in "Arzneimittel".
_MAX_GAP = 3


def looks_like_abbreviation(text: str) -> bool:
    """One short word with at least two capitals: "StrlSchV", "AtG", "FSMR" (not "Atomgesetz")."""
    return bool(_ABBREVIATION.fullmatch(text)) and sum(c.isupper() for c in text) >= 2


def abbreviation_matches(abbr: str, name: str) -> bool:
    """Whether ``abbr`` abbreviates ``name``.

    German compounds: the first letters are equal, the letters appear in order, every word of the name is
    entered at its first letter, and the final capital stands for the last part (G → …gesetz, V →
    …verordnung, O → …ordnung, R → …richtlinie, B → …buch). English: the capitals are the initials of
    the name's words ("FSMR" = Financial Services and Markets Regulations).
    """
    abbr = _TRAILING_YEAR.sub("", abbr.strip())
    name = _TRAILING_YEAR.sub("", clean(name))
    if not looks_like_abbreviation(abbr) or looks_like_abbreviation(name):
        return False
    words = [w for w in re.split(r"[\s\-–]+", name.casefold()) if w and w not in _STOPWORDS]
    if not words:
        return False
    if abbr.isupper() and "".join(w[0] for w in words) == abbr.casefold():
        return True
    return _spells_compound(abbr, words)


def _spells_compound(abbr: str, words: list[str]) -> bool:
    parts = _FINAL_PARTS.get(abbr[-1].casefold())
    if not parts or not abbr[-1].isupper():
        return False
    last = words[-1]
    for part in parts:
        for ending in _NAME_ENDINGS:
            if last.endswith(part + ending):
                stem = last[: len(last) - len(part) - len(ending)]
                stem_words = words[:-1] + ([stem] if stem else [])
                if stem_words and _spells(abbr[:-1], tuple(stem_words)):
                    return True
    return False


def _spells(letters: str, words: tuple[str, ...]) -> bool:
    """``letters`` spell ``words`` in order, entering every word at its first letter, skipping none."""
    lower = letters.casefold()

    @cache
    def go(i: int, w: int, prev: int) -> bool:  # letters[:i] placed; the last one at words[w][prev]
        if i == len(lower):
            return w == len(words) - 1
        ch = lower[i]
        near = letters[i].islower() and letters[i - 1].isupper()
        idx = words[w].find(ch, prev + 1)
        while idx != -1 and (not near or idx - prev <= _MAX_GAP):
            if go(i + 1, w, idx):
                return True
            idx = words[w].find(ch, idx + 1)
        return w + 1 < len(words) and words[w + 1][0] == ch and go(i + 1, w + 1, 0)

    return bool(lower) and words[0][0] == lower[0] and go(1, 0, 0)
