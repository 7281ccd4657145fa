"""Find legal and document references in text: ``parse_references(text) -> list[Reference]``.

German statute citations (references_de), English ones (references_en), EU acts and technical
standards named on their own (below). The parsers may find overlapping candidates ("§ 128 Absatz 1"
contains "Absatz 1"); the earliest and then longest wins. A law designation written once after a
chain of citations ("§ 5, § 6 oder § 9b des Atomgesetzes") is given to every member of the chain.
Pure: no I/O, no state.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator

from desktop.kb.models import Reference
from desktop.kb.references.german import find_german
from desktop.kb.references.english import find_english
from desktop.kb.references.units import EU_ACT_RE, STANDARD_RE, canonical_unit, clean, unit_kind

__all__ = ["parse_references", "canonical_unit", "unit_kind"]

# What may stand between two citations of one chain: a comma and/or a conjunction.
_CHAIN_GAP = re.compile(r"\s*,?\s*(?:(?:und|oder|sowie|bzw\.|and|or|and/or)\s+)?")


def parse_references(text: str) -> list[Reference]:
    """Every reference in ``text``, in order, without overlaps; spans are offsets into ``text``."""
    candidates = [*find_german(text), *find_english(text), *_find_documents(text)]
    chosen = _without_overlaps(candidates)
    return _share_chain_laws(chosen, text)


def _find_documents(text: str) -> Iterator[Reference]:
    """EU acts ("Richtlinie 2013/59/Euratom") and standards ("DIN EN ISO 9001") named on their own."""
    for m in EU_ACT_RE.finditer(text):
        name = clean(m[0])
        yield Reference(text=m[0], start=m.start(), end=m.end(), kind="document", law=name, external=name)
    for m in STANDARD_RE.finditer(text):
        # not external here: the resolver decides (a KB may hold the standard itself)
        yield Reference(text=m[0], start=m.start(), end=m.end(), kind="document", law=clean(m[0]))


def _without_overlaps(candidates: Iterable[Reference]) -> list[Reference]:
    chosen: list[Reference] = []
    for ref in sorted(candidates, key=lambda r: (r.start, -(r.end - r.start))):
        if not chosen or ref.start >= chosen[-1].end:
            chosen.append(ref)
    return chosen


def _share_chain_laws(refs: list[Reference], text: str) -> list[Reference]:
    """Copy the law of the last citation of a chain to the citations before it that name none."""
    out = list(refs)
    for i in range(len(out) - 2, -1, -1):
        ref, nxt = out[i], out[i + 1]
        if ref.law or ref.self_reference or ref.kind != nxt.kind or ref.kind in ("paragraph", "document"):
            continue
        if not (nxt.law or nxt.self_reference) or not _CHAIN_GAP.fullmatch(text, ref.end, nxt.start):
            continue
        out[i] = ref.model_copy(update={
            "law": nxt.law, "self_reference": nxt.self_reference, "external": nxt.external})
    return out
