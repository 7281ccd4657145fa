"""The lexical side of search: German/English tokens for SQLite FTS5 and the queries over them.

FTS5's own tokenizers know neither German stems nor "§ 5", so text is tokenised here: statute
signs stick to their number ("§ 5" → "§5"), decimals stay whole ("0,1" → "0_1"), words are
case-folded, stop words dropped and Snowball-stemmed in the chunk's language. A query term is
matched by its German or its English stem, so one index serves both languages.
"""

from __future__ import annotations

import functools
import re
import threading

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


def _raw_tokens(text: str) -> list[str]:
    out: list[str] = []
    for m in _TOKEN.finditer(text):
        if m.group("para"):
            out.append("§" + m.group("para").lower())
        elif m.group("num"):
            out.append(re.sub(r"[.,]", "_", m.group("num")))
        else:
            word = m.group("word").casefold()
            if word not in STOPWORDS:
                out.append(word)
    return out


def index_terms(text: str, language: str) -> str:
    """The FTS5 column value for a text: space-separated stemmed tokens."""
    return " ".join(tok if not tok[0].isalpha() else _stem(tok, language) for tok in _raw_tokens(text))


def query_terms(query: str) -> list[tuple[str, ...]]:
    """Each query token with its alternatives (German stem, English stem), de-duplicated, in order."""
    seen: set[tuple[str, ...]] = set()
    terms: list[tuple[str, ...]] = []
    for tok in _raw_tokens(query):
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
