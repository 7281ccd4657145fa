"""The section index over the catalog: the document registry (names a document is cited by), where a
unit such as "§ 5" or "Anlage 4" starts and which chunks it spans, and where a passage stands."""

from __future__ import annotations

import json

from desktop.kb.storage.catalog import SqlCatalog
from desktop.kb.models import Chunk, RegistryEntry, SectionLocation
from desktop.kb.textnorm import squash

_LOCATE_PROBE = 80  # characters of a passage enough to find it again


class SectionIndex:
    """Implements the ReferenceIndex protocol (desktop.kb.references.index) on one database."""

    def __init__(self, catalog: SqlCatalog) -> None:
        self.catalog = catalog
        self._bodies: dict[str, tuple[int, list[tuple[Chunk, str]]]] = {}
        self._registry: tuple[tuple[int, int], list[RegistryEntry]] | None = None

    def _normalised_chunks(self, doc_id: str) -> list[tuple[Chunk, str]]:
        """A document's chunks with their normalised text, kept until the catalog changes."""
        cached = self._bodies.get(doc_id)
        if cached is None or cached[0] != self.catalog.generation:
            chunks = self.catalog.chunks_where("doc_id = ?", (doc_id,))
            cached = (self.catalog.generation, [(c, squash(c.text)) for c in chunks])
            self._bodies[doc_id] = cached
        return cached[1]

    def registry(self) -> list[RegistryEntry]:
        """Kept until the catalog changes: every search that resolves a citation asks for it."""
        version = self.catalog.version()
        if self._registry is None or self._registry[0] != version:
            self._registry = (version, self._read_registry())
        return self._registry[1]

    def _read_registry(self) -> list[RegistryEntry]:
        rows = self.catalog.query("SELECT doc_id, file_name, title, short_name, aliases, issued, meta FROM documents")
        entries = []
        for r in rows:
            aliases = json.loads(r["aliases"])
            # users can teach the registry other names: rabbithole kb meta DOC --set aliases="A; B"
            extra = json.loads(r["meta"]).get("aliases", "")
            aliases += [a.strip() for a in extra.split(";") if a.strip() and a.strip() not in aliases]
            entries.append(RegistryEntry(doc_id=r["doc_id"], file_name=r["file_name"], title=r["title"],
                                         short_name=r["short_name"], aliases=aliases, issued=r["issued"]))
        return entries

    def section_chunks(self, doc_id: str, section: str, start_ordinal: int) -> list[Chunk]:
        """The run of chunks from a unit's heading until the next unit starts."""
        nxt = self.catalog.query(
            "SELECT MIN(ordinal) AS o FROM sections WHERE doc_id = ? AND ordinal > ?", (doc_id, start_ordinal)
        )[0]["o"]
        end = nxt if nxt is not None else 1 << 62
        # (COALESCE rather than IS: SQLite's "IS ?" is no SQL PostgreSQL knows)
        return self.catalog.chunks_where("doc_id = ? AND ordinal >= ? AND ordinal < ? AND COALESCE(section, '') = ?",
                                         (doc_id, start_ordinal, end, section or ""))

    def find_section(self, doc_id: str, unit: str) -> SectionLocation | None:
        rows = self.catalog.query(
            """SELECT s.section, s.title, s.page, s.ordinal, d.file_name FROM sections s
               JOIN documents d ON d.doc_id = s.doc_id
               WHERE s.doc_id = ? AND s.section = ? ORDER BY s.ordinal LIMIT 1""",
            (doc_id, unit),
        )
        if not rows:
            return None
        r = rows[0]
        chunks = self.section_chunks(doc_id, r["section"], r["ordinal"])
        return SectionLocation(doc_id=doc_id, file_name=r["file_name"], section=r["section"], title=r["title"],
                               page=r["page"], chunk_ids=[c.chunk_id for c in chunks])

    def locate_text(self, doc_id: str, text: str) -> SectionLocation | None:
        """The chunk whose text contains the passage's start (or that the passage contains)."""
        wanted = squash(text)
        rows = self.catalog.query("SELECT file_name FROM documents WHERE doc_id = ?", (doc_id,))
        if not wanted or not rows:
            return None
        bodies = self._normalised_chunks(doc_id)
        # shorter probes find a passage that starts just before a chunk boundary
        for size in (_LOCATE_PROBE, _LOCATE_PROBE // 2, _LOCATE_PROBE // 4):
            probe = wanted[:size]
            for chunk, body in bodies:
                if probe in body or (len(body) > 40 and body in wanted):
                    return SectionLocation(doc_id=doc_id, file_name=rows[0]["file_name"], section=chunk.section or "",
                                           title=chunk.section_title, page=chunk.page, chunk_ids=[chunk.chunk_id])
        return None
