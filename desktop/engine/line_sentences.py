"""The sentences of a finding's verified quotes as an answer's line shows them: each with the start of the
sentence it stands in (a list item with its lead-in), cut to ``MAX_CHARS`` where the two together are longer, and
whole as they are weighed against what a task asks (``coverage``)."""

from __future__ import annotations

from typing import NamedTuple

from desktop.engine.research_state import Finding
from desktop.engine.sentences import in_context, units

MAX_CHARS = 320  # a quote in the answer: the sentence that states it, not the whole passage


class Sentence(NamedTuple):
    shown: str  # as a line shows it: the lead's end left out where the whole passes ``MAX_CHARS`` (``with_lead``)
    whole: str  # with the whole start of the sentence it stands in: what it says, weighed against a task


def sentences(f: Finding) -> list[str]:
    """Each sentence of the finding's verified quotes as a line shows it (``sentences_of``)."""
    return [s.shown for s in sentences_of(f)]


def sentences_of(f: Finding) -> list[Sentence]:
    """Each sentence of the finding's verified quotes, with the start of the sentence it stands in
    (``sentences.in_context``), in one line; a sentence that goes on in the next chunk with its rest
    (``QuoteRecord.continues``)."""
    out: list[Sentence] = []
    for q in f.verified_quotes:
        text = q.display or ""
        for i, u in enumerate(units(text)):
            part = " ".join(text[u.start:u.end].split())
            if i == 0 and q.continues and out:
                out[-1] = Sentence(with_lead(out[-1].shown + " ", part), f"{out[-1].whole} {part}")
                continue
            lead = " ".join(in_context(text, text[u.start:u.end]).split())[:-len(part)]
            out.append(Sentence(with_lead(lead, part), lead + part))
    return out


def with_lead(lead: str, part: str) -> str:
    """``part`` after ``lead`` (the start of its sentence), the lead's end left out ("…") where both together
    pass ``MAX_CHARS``: the part holds the figure (seen: a list's lead of 300 characters, and the line cut at
    ``MAX_CHARS`` lost "für eine Dauer von 10 Jahren" that the unit after it states, laws-research-09)."""
    room = MAX_CHARS - len(part) - 3
    if len(lead) + len(part) <= MAX_CHARS or not lead:
        return lead + part
    if room < 40:  # no room for a lead worth reading: the part alone
        return part
    cut = lead[:room].rsplit(" ", 1)[0]
    after = lead[len(cut):].split()
    if after and cut[-1:].isdigit():  # a figure keeps its unit (seen, laws-dev-10: "… von mehr als 6 … die Unterarme")
        cut += " " + after[0]
    return cut + " … " + part
