"""Resolve parsed references against the knowledge base: which document, which unit, which page.

``resolve(refs, index, from_doc, context)`` turns each ``Reference`` into a ``ResolvedReference``:
- the law designation picks the document (registry names, German case endings tolerated, abbreviations
  recognised: "des Atomgesetzes" → AtG); no designation or "dieses Gesetzes" → ``from_doc``;
- a repealed version, another version's date, an EU act or a law the KB does not hold → "external";
- a unit the document does not have → "not_found"; a bare "Absatz 4" → the § the context stands in;
- every unit of a list or range gets its own target, on the page where the unit starts.
Name matching lives in desktop.kb.references.names.
"""

from __future__ import annotations

import re

from desktop.kb.models import Reference, RegistryEntry, ResolvedReference, ResolvedTarget, SectionLocation
from desktop.kb.references.index import ReferenceIndex
from desktop.kb.references.names import Designation, match_law, parse_designation

_SENTENCE_START = re.compile(r"(?:[.;:!?]\s+|\n\s*|\(\d+[a-z]?\)\s*)")
_WINDOW = 160  # characters before a bare "Absatz 4" used to find where it stands
_MIN_WINDOW = 40  # a shorter passage is too common to be found in one place only


def resolve(refs: list[Reference], index: ReferenceIndex, from_doc: str | None = None,
            context: str | None = None) -> list[ResolvedReference]:
    """Resolve ``refs`` parsed from ``context`` (text standing in document ``from_doc``, a doc_id)."""
    resolver = _Resolver(index, index.registry(), from_doc, context)
    return [resolver.resolve(ref) for ref in refs]


class _Resolver:
    def __init__(self, index: ReferenceIndex, registry: list[RegistryEntry], from_doc: str | None,
                 context: str | None) -> None:
        self.index = index
        self.registry = registry
        self.from_doc = from_doc
        self.context = context

    def resolve(self, ref: Reference) -> ResolvedReference:
        if ref.external:  # the parser recognised an EU act or a repealed version
            return _external(ref, f"names {ref.external!r}, an act or version outside the knowledge base")
        entry = self._document(ref)
        if isinstance(entry, ResolvedReference):
            return entry
        if ref.kind == "paragraph":
            return self._paragraph(ref, entry)
        units = ref.units or ([ref.unit] if ref.unit else [])
        if not units:  # a document as a whole ("DIN 6815", "KTA 1401")
            return ResolvedReference(reference=ref, status="resolved",
                                     targets=[ResolvedTarget(doc=entry.file_name, doc_id=entry.doc_id)])
        return self._units(ref, entry, units)

    # --- which document ---------------------------------------------------------------------------

    def _document(self, ref: Reference) -> RegistryEntry | ResolvedReference:
        """The cited document, or the ResolvedReference that explains why there is none."""
        if ref.kind == "document" and ref.law:  # a standard's number is its name: "KTA 1401", "ICRP 103"
            return self._named_document(ref, Designation(name=ref.law))
        if ref.law and not ref.self_reference:
            return self._named_document(ref, parse_designation(ref.law))
        if self.from_doc is None:
            return _not_found(ref, "the reference names no document and the text's document is unknown")
        entry = next((e for e in self.registry if e.doc_id == self.from_doc), None)
        # a document not (yet) in the registry is still resolvable through the section index
        return entry or RegistryEntry(doc_id=self.from_doc, file_name="", title="")

    def _named_document(self, ref: Reference, law: Designation) -> RegistryEntry | ResolvedReference:
        entry = match_law(law, self.registry)
        if entry is None:
            return _external(ref, f"{law.name!r} is not a document of the knowledge base")
        if law.date and entry.issued and law.date != entry.issued:
            return _external(ref, f"cites the version of {law.date}; {entry.file_name} is the one of {entry.issued}")
        if law.year and not _has_year(entry, law.year):
            return _external(ref, f"cites the version of {law.year}; {entry.file_name} is another one")
        return entry

    # --- which unit -------------------------------------------------------------------------------

    def _units(self, ref: Reference, entry: RegistryEntry, units: list[str]) -> ResolvedReference:
        targets: list[ResolvedTarget] = []
        missing: list[str] = []
        for unit in units:
            loc = self.index.find_section(entry.doc_id, unit)
            if loc is None:
                missing.append(unit)
            else:
                targets.append(_target(loc, entry))
        name = entry.file_name or entry.doc_id
        if not targets:
            return _not_found(ref, f"{name} has no {', '.join(missing)}")
        # a range may run over numbers a law never had or repealed ("§§ 7 bis 9" without § 8): keep the rest
        reason = f"{name} has no {', '.join(missing)}" if missing else None
        return ResolvedReference(reference=ref, status="resolved", reason=reason, targets=targets)

    def _paragraph(self, ref: Reference, entry: RegistryEntry) -> ResolvedReference:
        """A bare "Absatz 4" means a paragraph of the § the text itself stands in."""
        if ref.law and not ref.self_reference and entry.doc_id != self.from_doc:
            return _not_found(ref, "a paragraph without its § can only be placed in the text's own document")
        if not self.context:
            return _not_found(ref, "no context given to tell which § the paragraph belongs to")
        here = self._locate(entry.doc_id, ref)
        if here is None or not here.section:
            return _not_found(ref, "the context was not found in the document, so its § is unknown")
        start = self.index.find_section(entry.doc_id, here.section) or here
        return ResolvedReference(reference=ref, status="resolved", targets=[_target(start, entry)])

    def _locate(self, doc_id: str, ref: Reference) -> SectionLocation | None:
        """Where the reference stands: the text just before it first (a long context may span several
        §§), the whole context as a fallback."""
        assert self.context is not None
        window = _window(self.context, ref.start, ref.end)
        here = self.index.locate_text(doc_id, window) if window else None
        return here or self.index.locate_text(doc_id, self.context)


def _window(context: str, start: int, end: int) -> str | None:
    """The text from the start of the reference's sentence (at most _WINDOW characters back) to its end."""
    if not 0 <= start < end <= len(context):
        return None
    begin = max(0, start - _WINDOW)
    boundaries = [m.end() for m in _SENTENCE_START.finditer(context, begin, start)]
    if boundaries and end - boundaries[-1] >= _MIN_WINDOW:
        begin = boundaries[-1]
    elif end - begin < _MIN_WINDOW:
        return None
    return context[begin:end]


def _has_year(entry: RegistryEntry, year: str) -> bool:
    """Whether a document is the version of ``year`` ("StrlSchV 2018"), or cannot tell (no dates)."""
    names = (entry.short_name or "", entry.title, *entry.aliases)
    years = {found for name in names for found in re.findall(r"\b(?:19|20)\d{2}\b", name)}
    if entry.issued:
        years.add(entry.issued[:4])
    return not years or year in years


def _target(loc: SectionLocation, entry: RegistryEntry) -> ResolvedTarget:
    return ResolvedTarget(doc=entry.file_name or loc.file_name, doc_id=loc.doc_id, page=loc.page,
                          section=loc.section, chunk_ids=loc.chunk_ids)


def _external(ref: Reference, reason: str) -> ResolvedReference:
    return ResolvedReference(reference=ref, status="external", reason=reason)


def _not_found(ref: Reference, reason: str) -> ResolvedReference:
    return ResolvedReference(reference=ref, status="not_found", reason=reason)
