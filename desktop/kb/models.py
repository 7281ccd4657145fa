"""Domain models of the knowledge base: documents, chunks, search hits, ingestion events, references."""

from __future__ import annotations

from datetime import datetime
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field

from desktop.kb.ingestion.notices import Notice


class _Model(BaseModel):
    model_config = ConfigDict(extra="forbid")


# --- documents and chunks -----------------------------------------------------------------------


class DocumentInfo(_Model):
    doc_id: str = Field(description="sha256 of the file's bytes")
    file_name: str
    path: str
    title: str
    short_name: str | None = Field(None, description="abbreviation such as 'StrlSchV'")
    aliases: list[str] = Field(default_factory=list, description="other names the document is cited by")
    language: str
    pages: int
    chunks: int
    size_bytes: int
    issued: str | None = Field(None, description="date of issue (ISO) when the document states one")
    warnings: list[Notice] = Field(default_factory=list)
    meta: dict[str, str] = Field(default_factory=dict, description="user metadata: category, exhibit, bates, …")
    tags: list[str] = Field(default_factory=list)
    ingested_at: datetime
    pending_embeddings: int = 0


class Chunk(_Model):
    chunk_id: str
    doc_id: str
    page: int = Field(ge=1, description="1-based physical page")
    ordinal: int = Field(ge=0, description="position of the chunk within its document")
    char_start: int = Field(ge=0, description="offset in the page's text (PyMuPDF page.get_text())")
    char_end: int
    section: str | None = Field(None, description="statute unit or heading label, e.g. '§ 5', 'Anlage 4'")
    section_title: str | None = None
    heading_path: str | None = Field(None, description="enclosing structure, e.g. 'Teil 2 › Kapitel 1'")
    language: str
    text: str
    kind: Literal["text", "table"] = Field("text", description="a slice of the page text, or a table as Markdown")
    box: list[float] | None = Field(None, description="a table chunk's rows on the page: x0, y0, x1, y1 (points)")


class SearchHit(_Model):
    chunk_id: str
    doc_id: str
    doc: str = Field(description="file name")
    path: str
    title: str
    page: int
    section: str | None
    section_title: str | None
    text: str
    score: float
    char_start: int
    char_end: int
    dense_rank: int | None = None
    lexical_rank: int | None = None

    def contract(self) -> dict[str, object]:
        """The JSON shape of docs/architecture.md §6 that scripts and benchmarks rely on."""
        return {
            "doc": self.doc,
            "path": self.path,
            "page": self.page,
            "section": self.section,
            "text": self.text,
            "score": round(self.score, 6),
            "chunk_id": self.chunk_id,
        }


# "semantic": by meaning, with the units the query cites ("§ 31 AtG") — hybrid without the lexical index, for a
# query in another language than the documents, whose words match that index only by accident
SearchMode = Literal["hybrid", "dense", "lexical", "semantic"]


class SearchFilter(_Model):
    docs: list[str] | None = Field(None, description="doc ids or file names")
    tags: list[str] | None = Field(None, description="documents carrying any of these tags")
    meta: dict[str, str] | None = Field(None, description="documents whose metadata has these values")
    page_from: int | None = Field(None, ge=1)
    page_to: int | None = Field(None, ge=1)
    section: str | None = None

    def is_empty(self) -> bool:
        return not (self.docs or self.tags or self.meta or self.page_from or self.page_to or self.section)


# --- ingestion ----------------------------------------------------------------------------------

FileStatus = Literal["added", "updated", "unchanged", "moved", "removed", "duplicate", "rejected"]


class FileOutcome(_Model):
    path: str
    status: FileStatus
    reason: Notice | None = None
    warnings: list[Notice] = Field(default_factory=list)
    doc_id: str | None = None
    pages: int = 0
    chunks: int = 0


class IngestProgress(_Model):
    stage: Literal["scan", "extract", "embed", "done"]
    file: str | None = None
    files_done: int = 0
    files_total: int = 0
    pages_done: int = 0
    pages_total: int = 0
    chunks_done: int = 0
    embedded: int = 0
    to_embed: int = 0
    elapsed_s: float = 0.0
    eta_s: float | None = None


class IngestReport(_Model):
    database: str
    files: list[FileOutcome] = Field(default_factory=list)
    cancelled: bool = False
    embedded: int = 0
    pending_embeddings: int = 0
    embed_error: str | None = Field(None, description="why embedding stopped early; lexical search still works")
    elapsed_s: float = 0.0

    def count(self, status: FileStatus) -> int:
        return sum(1 for f in self.files if f.status == status)

    @property
    def did_something(self) -> bool:
        """False when every file was rejected and nothing else happened: the CLI exits non-zero."""
        return any(f.status != "rejected" for f in self.files) or self.embedded > 0


# --- references ---------------------------------------------------------------------------------

RefKind = Literal["section", "article", "annex", "paragraph", "chapter", "part", "document"]


class Reference(_Model):
    """A citation found in text, as written, before it is resolved against the knowledge base."""

    text: str = Field(description="the reference as it appears in the text")
    start: int = Field(ge=0, description="offset of text in the input")
    end: int
    kind: RefKind
    unit: str | None = Field(None, description="canonical unit label: '§ 5', 'Art. 3', 'Anlage 4', 'Section 2.3'")
    units: list[str] = Field(default_factory=list, description="every unit of a list or range, in order")
    range_to: str | None = None
    paragraph: str | None = None
    sentence: str | None = None
    number: str | None = None
    letter: str | None = None
    part: str | None = Field(None, description="part of an annex, e.g. 'Teil A'")
    table: str | None = None
    column: str | None = None
    law: str | None = Field(None, description="the document designation as written, e.g. 'des Atomgesetzes'")
    self_reference: bool = Field(False, description="'dieses Gesetzes', 'dieser Verordnung', 'this Regulation'")
    external: str | None = Field(None, description="names an act the parser knows is outside any KB (EU acts, repealed versions)")


class RegistryEntry(_Model):
    """What the resolver knows about one document to recognise it when cited."""

    doc_id: str
    file_name: str
    title: str
    short_name: str | None = None
    aliases: list[str] = Field(default_factory=list)
    issued: str | None = None


class SectionLocation(_Model):
    doc_id: str
    file_name: str
    section: str
    title: str | None
    page: int
    chunk_ids: list[str] = Field(default_factory=list)


class ResolvedTarget(_Model):
    doc: str | None = Field(description="file name")
    doc_id: str | None = None
    page: int | None = None
    section: str | None = None
    chunk_ids: list[str] = Field(default_factory=list)

    def contract(self) -> dict[str, object]:
        return {"doc": self.doc, "page": self.page, "section": self.section}


class ResolvedReference(_Model):
    reference: Reference
    status: Literal["resolved", "external", "not_found"]
    reason: str | None = None
    targets: list[ResolvedTarget] = Field(default_factory=list)

    @property
    def target(self) -> ResolvedTarget | None:
        return self.targets[0] if self.targets else None
