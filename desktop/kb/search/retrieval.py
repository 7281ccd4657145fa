"""Retrieval primitives the research engine asks for while reading: the text around a chunk, whole
pages, a keyword search inside one document, and a unit by its citation ("§ 5 StrlSchG")."""

from __future__ import annotations

from pydantic import BaseModel, ConfigDict

from desktop.kb.storage.catalog import SqlCatalog
from desktop.kb.models import Chunk


class PageText(BaseModel):
    model_config = ConfigDict(extra="forbid")

    doc_id: str
    page: int
    text: str
    ocr: bool


def neighbours(catalog: SqlCatalog, chunk_id: str, before: int = 1, after: int = 1) -> list[Chunk]:
    """The chunk with up to ``before``/``after`` chunks around it in reading order (same document)."""
    row = catalog.query("SELECT doc_id, ordinal FROM chunks WHERE chunk_id = ?", (chunk_id,))
    if not row:
        return []
    doc_id, ordinal = row[0]["doc_id"], row[0]["ordinal"]
    return catalog.chunks_where("doc_id = ? AND ordinal BETWEEN ? AND ?",
                                (doc_id, ordinal - max(0, before), ordinal + max(0, after)))


def pages(catalog: SqlCatalog, doc_id: str, first: int, last: int | None = None, max_pages: int = 20) -> list[PageText]:
    """Page texts of a range (1-based, inclusive), at most ``max_pages`` of them."""
    last = first if last is None else last
    last = min(last, first + max_pages - 1)
    rows = catalog.query("SELECT page, text, ocr FROM pages WHERE doc_id = ? AND page BETWEEN ? AND ? ORDER BY page",
                         (doc_id, first, last))
    return [PageText(doc_id=doc_id, page=r["page"], text=r["text"], ocr=bool(r["ocr"])) for r in rows]

