"""The answer's claims: each sentence that cites sources, with what can be checked of each source without
reading it — the quote stands verbatim on its page, the claim's figures stand in the quote, how many of the
claim's words do. Honest signals for the reviewer, each named for what it checks: a verbatim quote says
nothing of whether it supports the sentence that cites it (a sentence on dose limits citing an earnings
release still had a verbatim quote)."""

from __future__ import annotations

import re
from collections.abc import Iterator

from desktop.engine.citation_support import amounts, stated_amounts, support
from desktop.engine.sentences import sentences
from desktop.kb.language import detect_language
from desktop.report.mdparse import parse_blocks, parse_inline
from desktop.report.model import Citation, Claim, ClaimSource

_MARKER = re.compile(r"\s*\[\d+(?:\s*[,;–-]\s*\d+)*\]")


def _cited(sentence: str) -> list[int]:
    return list(dict.fromkeys(s.cite for s in parse_inline(sentence) if s.cite is not None))


def _source(claim: str, c: Citation, language: str) -> ClaimSource:
    quote = c.quote if c.quote_verified and c.quote else ""
    stated = amounts(claim)
    # words compare only within a language: an English claim on a German statute shares next to none
    same = bool(quote) and detect_language(quote, language, evidence=1) == language
    return ClaimSource(n=c.n, verbatim=bool(quote), figures=(stated <= stated_amounts(quote)) if stated else None,
                       terms=round(support(claim, quote, language), 2) if same else None)


MIN_WORDS = 3  # a cited "sentence" shorter than this ("(S1) [3]", "Ebd. [2]") belongs to the one before it


def _sentences(text: str) -> list[str]:
    out: list[str] = []
    for sentence in sentences(text):
        if out and _cited(sentence) and len(_MARKER.sub("", sentence).split()) < MIN_WORDS:
            out[-1] = f"{out[-1]} {sentence.strip()}"
        else:
            out.append(sentence.strip())
    return out


def _plain(sentence: str) -> str:
    """A cited sentence's words alone: markers out, then **bold** and *italic*."""
    return " ".join("".join(span.text for span in parse_inline(_MARKER.sub("", sentence))).split())


def _cited_sentences(answer: str) -> Iterator[tuple[str, list[int]]]:
    """Each sentence of ``answer`` (Markdown with [n] markers) in order, with the numbers it cites."""
    for block in parse_blocks(answer):
        for text in block.items if block.kind in ("ul", "ol") else [block.text]:
            for sentence in _sentences(text):
                yield sentence, _cited(sentence)


def citing(answer: str) -> dict[int, list[str]]:
    """The sentences of ``answer`` that cite each [n], as plain words."""
    out: dict[int, list[str]] = {}
    for sentence, cited in _cited_sentences(answer):
        for n in cited:
            out.setdefault(n, []).append(_plain(sentence))
    return out


def claims(answer: str, citations: list[Citation], language: str) -> list[Claim]:
    """The cited sentences of ``answer`` in order, each with its sources."""
    by_n = {c.n: c for c in citations}
    out: list[Claim] = []
    for sentence, numbers in _cited_sentences(answer):
        cited = [n for n in numbers if n in by_n]
        if not cited:
            continue
        plain = _plain(sentence)  # the claim is read, copied, compared
        out.append(Claim(index=len(out), text=plain, marked=sentence.strip(),
                         sources=[_source(plain, by_n[n], language) for n in cited]))
    return out
