"""The lexical side of search: German/English tokens for SQLite FTS5 and the queries over them.

FTS5's own tokenizers know neither German stems nor "§ 5", so text is tokenised here: statute
signs stick to their number ("§ 5" → "§5"), decimals stay whole ("0,1" → "0_1"), words are
case-folded, stop words dropped and Snowball-stemmed in the chunk's language. A query term is
matched by its German or its English stem, so one index serves both languages. Numbers are indexed
as written and, where written otherwise, by their value ("1.234,50" and "1,234.5" both as "1234_5").
"""

from __future__ import annotations

import functools
import re
import threading
from collections.abc import Iterator

import snowballstemmer

from desktop.kb.language import ENGLISH, GERMAN

FTS_TOKENIZER = "unicode61 remove_diacritics 0 tokenchars '§_'"

_TOKEN = re.compile(
    r"§+\s*(?P<para>\d+[a-z]?)"  # § 5, §§ 12, § 9a
    r"|(?P<num>\d+(?:[.,]\d+)*)"  # 20, 0,1, 1.000
    r"|(?P<word>[^\W\d_]+)",  # words, umlauts included
    re.I,
)
STOPWORDS = GERMAN | ENGLISH | frozenset(
    "abs satz nr s i ii iii e v u a b c d f g h n o p r t w x y z "
    "welche welcher welches was wer wie wann wo warum gibt es sein ihre ihr ich wir sie er "
    "what which who whom how when where why does do did can could would should there their they".split()
)

# A Snowball stemmer keeps its word in instance fields while it works, so one shared by two threads
# stems garbage or raises IndexError: each thread gets its own pair.
_LOCAL = threading.local()


def _stemmer(language: str) -> snowballstemmer.stemmer:
    stemmers = getattr(_LOCAL, "stemmers", None)
    if stemmers is None:
        stemmers = _LOCAL.stemmers = {"de": snowballstemmer.stemmer("german"), "en": snowballstemmer.stemmer("english")}
    return stemmers.get(language, stemmers["en"])


@functools.lru_cache(maxsize=200_000)  # thread-safe: a race only computes a stem twice
def _stem(word: str, language: str) -> str:
    return _stemmer(language).stemWord(word)


def _written(number: str) -> str:
    return re.sub(r"[.,]", "_", number)


def _tokens(text: str) -> Iterator[tuple[str, str]]:
    """(token, the number as written or ""): statute signs, numbers (separators as "_"), words not stop words."""
    for m in _TOKEN.finditer(text):
        if m.group("para"):
            yield "§" + m.group("para").lower(), ""
        elif m.group("num"):
            yield _written(m.group("num")), m.group("num")
        else:
            word = m.group("word").casefold()
            if word not in STOPWORDS:
                yield word, ""


def _raw_tokens(text: str) -> list[str]:
    return [token for token, _ in _tokens(text)]


def number_value(number: str, language: str | None) -> str | None:
    """A number's value in one form, read with its text's language: "1.234,5" (de) and "1,234.5" (en) are
    "1234_5", "1.000" (de) and "1,000" (en) "1000", "12,50" (de) "12_5". One kind of separator is a
    thousands separator where every group after the first has three digits and the language writes it so
    ("," in English, "." in German; either when the language is None, as for a query), else the decimal
    sign. None for what is no number we can read ("31.12.2022", "1.2.3")."""
    seps = [ch for ch in number if ch in ".,"]
    if not seps:
        return number
    groups = re.split(r"[.,]", number)
    if len(set(seps)) == 2:
        decimal = seps[-1]
        if seps.count(decimal) > 1 or number.rfind(decimal) < max(number.rfind(c) for c in ".,"):
            return None
    else:
        grouped = all(len(g) == 3 for g in groups[1:]) and groups[0] not in ("", "0") and len(groups[0]) <= 3
        thousands_sign = {"de": ".", "en": ","}.get(language or "", seps[0])
        if grouped and (seps[0] == thousands_sign or len(seps) > 1):
            decimal = None
        elif len(seps) > 1:
            return None
        else:
            decimal = seps[0]
    whole, frac = (number[:number.rfind(decimal)], number[number.rfind(decimal) + 1:]) if decimal else (number, "")
    whole, frac = re.sub(r"[.,]", "", whole), frac.rstrip("0")
    return f"{whole}_{frac}" if frac else whole


def index_terms(text: str, language: str) -> str:
    """Space-separated stemmed tokens, numbers as written: what the engine compares texts by."""
    return " ".join(tok if not tok[0].isalpha() else _stem(tok, language) for tok in _raw_tokens(text))


def fts_terms(text: str, language: str) -> str:
    """The FTS5 column value for a text: its ``index_terms`` with each number's value after the number
    where it is written otherwise ("1.234,50" also as "1234_5"), so a search finds a figure however a
    document or a question separates its digits."""
    out: list[str] = []
    for token, number in _tokens(text):
        out.append(token if not token[0].isalpha() else _stem(token, language))
        value = number_value(number, language) if number else None
        if value and value != token:
            out.append(value)
    return " ".join(out)


def query_terms(query: str) -> list[tuple[str, ...]]:
    """Each query token with its alternatives (German stem, English stem; a number as written and its
    value, three-digit groups read as thousands), de-duplicated, in order."""
    seen: set[tuple[str, ...]] = set()
    terms: list[tuple[str, ...]] = []
    for tok, number in _tokens(query):
        if number:  # the query's language is unknown: three-digit groups are read as thousands
            alts = tuple(dict.fromkeys(v for v in (tok, number_value(number, None)) if v))
        else:
            alts = (tok,) if not tok[0].isalpha() else tuple(dict.fromkeys((_stem(tok, "de"), _stem(tok, "en"))))
        if alts not in seen:
            seen.add(alts)
            terms.append(alts)
    return terms


def _quote(token: str) -> str:
    return '"' + token.replace('"', '""') + '"'


def match_expression(terms: list[tuple[str, ...]]) -> str | None:
    """An FTS5 MATCH string ranking chunks by any of the terms (BM25 does the weighting)."""
    parts = [" OR ".join(_quote(alt) for alt in alts) for alts in terms]
    if not parts:
        return None
    return " OR ".join(f"({p})" if " OR " in p else p for p in parts)
