"""The answer as the report shows it: the model's statements rendered to Markdown with ``[n]`` markers,
each kept only where a cited source supports it (``citation_support.py``) and where it may stand in an answer at
all (``statements.py``: no fragment, garbled word or statement off the question); open points only where
they are gaps the model named; quotations that stand in no source shown without quotation marks."""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from desktop.engine.checks import distinct
from desktop.engine.quotes import verify_quote
from desktop.engine.schemas import LINE_CHARS, SHORT_CHARS, Statement, SynthesisAnswer
from desktop.engine.sentences import sentences
from desktop.engine.statements import real_gap, why_left_out
from desktop.engine.citation_support import supporting
from desktop.report.labels import LABELS

_ANY_MARKER = re.compile(r"\s*\[(?:\d{1,3}(?:\s*[,;–-]\s*\d{1,3})*)\]")  # "[2]", "[2, 5]" a model wrote anyway
# A quotation in the answer: typographic or straight quotes around at least four words.
QUOTED = re.compile(r"[„“\"]([^„“”\"\n]{12,600}?)[“”\"]")


@dataclass
class Rendered:
    """The answer's Markdown; the statements left out for want of a supporting source (``uncited``) and
    those that may not stand in an answer, with why (``left_out``: 'other_language', 'fragment', 'question',
    'garbled', 'off_question')."""

    markdown: str
    uncited: list[str] = field(default_factory=list)
    left_out: list[tuple[str, str]] = field(default_factory=list)


def cited_numbers(statement: Statement, n_sources: int) -> list[int]:
    """The statement's source numbers that name a source, each once."""
    return list(dict.fromkeys(n for n in statement.sources if 1 <= n <= n_sources))


def plain(text: str) -> str:
    """A statement without the source markers a model wrote anyway, on one line."""
    return " ".join(_ANY_MARKER.sub("", text).split())


def whole_words(raw: str, limit: int) -> str:
    """The text as shown: one the server's grammar stopped at the schema's length limit ends mid-word
    (seen: "… die Messwerte der Messs"); it is cut back to its last whole word and the cut marked."""
    text = plain(raw)
    if len(raw) < limit or text[-1:] in (".", "!", "?", ")", "“", "”", '"') or " " not in text:
        return text
    return text.rsplit(" ", 1)[0].rstrip(",;:–-") + " …"


def _with_markers(text: str, numbers: list[int]) -> str:
    """'First sentence [1][3]. Second sentence [1][3].' — each sentence of the statement carries its
    sources, the markers before the closing full stop, as a reader expects them."""
    markers = "".join(f"[{n}]" for n in numbers)
    out = []
    for sentence in sentences(text):
        if sentence[-1:] in (".", "!", "?"):
            out.append(f"{sentence[:-1]} {markers}{sentence[-1]}")
        else:
            out.append(f"{sentence} {markers}.")
    return " ".join(out)


def render(answer: SynthesisAnswer, sources: list[str], language: str, aims: list[str] | None = None,
           restated: list[str] = (), documents: list[str] | None = None) -> Rendered:  # type: ignore[assignment]
    """Markdown of the answer: the direct answer as a paragraph, details as a list, open points last.
    ``sources`` are the texts of the numbered sources: a statement keeps the citations whose source
    supports it (``citation_support.py``; its figures must stand in the source's ``documents`` text, its
    verified quotes, where given); one left with none, said twice, or failing ``statements.why_left_out``
    against ``aims`` (the question, its queries and tasks; None: no such check) is not rendered. An open
    point that restates one of ``restated`` (scope, question, tasks) is no gap the model found."""
    out = Rendered("")
    said: list[str] = []

    def cited(statements: list[Statement]) -> list[str]:
        rendered = []
        for s in statements:
            text = whole_words(s.text, LINE_CHARS)
            if not text or text.endswith("?") or distinct([*said, text]) == said:
                continue  # empty, a question (seen: a 1.5B model citing the question back), or said already
            if aims is not None and (why := why_left_out(text, aims, sources, language)):
                out.left_out.append((why, text))
                continue
            numbers = supporting(text, cited_numbers(s, len(sources)), sources, language, documents)
            if not numbers:
                out.uncited.append(text)
                continue
            said.append(text)
            rendered.append(_with_markers(text, numbers))
        return rendered

    lead, details = cited(answer.answer), cited(answer.details)
    if not lead:  # the model put every cited statement into the details: the first one leads
        lead, details = details[:1], details[1:]
    parts = [" ".join(lead)]
    if details:
        parts.append("\n".join(f"- {d}" for d in details))
    open_points = [o for o in distinct(whole_words(o, SHORT_CHARS) for o in answer.open)
                   if distinct([*said, o]) != said and (aims is None or real_gap(o, list(restated), sources))]
    if open_points and lead:
        heading = LABELS["de" if language == "de" else "en"]["open_points"]
        parts.append(f"**{heading}:**\n" + "\n".join(f"- {o}" for o in open_points))
    out.markdown = "\n\n".join(p for p in parts if p)
    return out


def unquote_unverified(answer: str, source_texts: list[str]) -> tuple[str, int, int]:
    """Quotations in the answer that stand in no source lose their quotation marks (a paraphrase).

    Returns the answer, and how many quotations there were and how many were verified.
    """
    total = verified = 0

    def fix(m: re.Match[str]) -> str:
        nonlocal total, verified
        inner = m.group(1)
        if len(inner.split()) < 4:
            return m.group(0)  # a term in quotes, not a quotation
        total += 1
        if any(verify_quote(inner, text).verified for text in source_texts):
            verified += 1
            return m.group(0)
        return inner

    return QUOTED.sub(fix, answer), total, verified
