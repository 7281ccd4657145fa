"""A database's catalog: documents, page texts, chunks, sections, the lexical index and the bookkeeping
that keeps the vector store consistent with them.

``SqlCatalog`` is what a knowledge base, its ingestion and its search use of a catalog, with two
implementations: ``WorkstationCatalog`` (workstation.py: a SQLite file with an FTS5 index, vectors in Chroma beside it)
and ``desktop.kb.server.catalog.ServerCatalog`` (one schema on the team's PostgreSQL server, vectors in
pgvector). The SQL both dialects read alike is written once here; each writes its own where they differ.

A document is written with all its pages, chunks and sections in one transaction, so after a crash
it is either wholly there or not at all. Vectors follow: a chunk is marked ``embedded`` only after
its vector is stored, and removed chunks are queued in ``vector_deletes`` until the vector store has
dropped them — so an interrupted run is finished, not repeated, by the next one.
"""

from __future__ import annotations

import json
import sqlite3
from abc import ABC, abstractmethod
from collections.abc import Iterable, Mapping, Sequence
from contextlib import AbstractContextManager
from datetime import datetime, timezone
from pathlib import Path
from typing import TYPE_CHECKING, Any, Protocol

from pydantic import BaseModel

from desktop.kb.search.lexical import FTS_TOKENIZER
from desktop.kb.models import Chunk, DocumentInfo
from desktop.kb.ingestion.notices import stored

if TYPE_CHECKING:
    from desktop.kb.search.vector_process import VectorStoreProcess
    from desktop.kb.search.vectors import VectorStore
    from desktop.kb.server.vectors import ServerVectorStore

    VectorIndex = VectorStore | VectorStoreProcess | ServerVectorStore

SCHEMA_VERSION = 1

_SCHEMA = f"""
CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS documents (
    doc_id TEXT PRIMARY KEY, file_name TEXT NOT NULL, path TEXT NOT NULL, title TEXT NOT NULL,
    short_name TEXT, aliases TEXT NOT NULL DEFAULT '[]', language TEXT NOT NULL, pages INTEGER NOT NULL,
    size_bytes INTEGER NOT NULL, mtime REAL NOT NULL, issued TEXT, warnings TEXT NOT NULL DEFAULT '[]',
    meta TEXT NOT NULL DEFAULT '{{}}', tags TEXT NOT NULL DEFAULT '[]', ingested_at TEXT NOT NULL,
    scanned_pages INTEGER NOT NULL DEFAULT 0);
CREATE INDEX IF NOT EXISTS documents_path ON documents(path);
CREATE TABLE IF NOT EXISTS pages (
    doc_id TEXT NOT NULL, page INTEGER NOT NULL, text TEXT NOT NULL, ocr INTEGER NOT NULL DEFAULT 0,
    PRIMARY KEY (doc_id, page)) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS chunks (
    rowid INTEGER PRIMARY KEY, chunk_id TEXT NOT NULL UNIQUE, doc_id TEXT NOT NULL, page INTEGER NOT NULL,
    ordinal INTEGER NOT NULL, char_start INTEGER NOT NULL, char_end INTEGER NOT NULL, section TEXT,
    section_title TEXT, heading_path TEXT, language TEXT NOT NULL, text TEXT NOT NULL,
    embedded INTEGER NOT NULL DEFAULT 0, kind TEXT NOT NULL DEFAULT 'text', box TEXT);
CREATE INDEX IF NOT EXISTS chunks_doc ON chunks(doc_id, ordinal);
CREATE INDEX IF NOT EXISTS chunks_page ON chunks(doc_id, page);
CREATE INDEX IF NOT EXISTS chunks_section ON chunks(doc_id, section);
CREATE INDEX IF NOT EXISTS chunks_todo ON chunks(embedded) WHERE embedded = 0;
CREATE TABLE IF NOT EXISTS sections (
    doc_id TEXT NOT NULL, section TEXT NOT NULL, title TEXT, page INTEGER NOT NULL, ordinal INTEGER NOT NULL,
    PRIMARY KEY (doc_id, section, ordinal)) WITHOUT ROWID;
CREATE VIRTUAL TABLE IF NOT EXISTS chunks_fts USING fts5(head, body, tokenize="{FTS_TOKENIZER}");
CREATE VIRTUAL TABLE IF NOT EXISTS chunks_vocab USING fts5vocab(chunks_fts, 'row');
CREATE TABLE IF NOT EXISTS vector_deletes (chunk_id TEXT PRIMARY KEY) WITHOUT ROWID;
"""

_CHUNK_COLUMNS = ("chunk_id, doc_id, page, ordinal, char_start, char_end, section, section_title, heading_path, language, "
                  "text, kind, box")
# Columns later versions added to a table, with their definition: added when an older file is opened.
_ADDED_COLUMNS = {"chunks": {"kind": "TEXT NOT NULL DEFAULT 'text'", "box": "TEXT"}}


def _now() -> str:
    return datetime.now(timezone.utc).isoformat(timespec="seconds")


def row_to_chunk(row: sqlite3.Row) -> Chunk:
    values = {k: row[k] for k in _CHUNK_COLUMNS.split(", ")}
    values["box"] = json.loads(values["box"]) if values["box"] else None
    return Chunk(**values)


def _json(value: object) -> str:
    """A column's JSON; notices are stored as their key and values, so they stay translatable."""
    return json.dumps(value, ensure_ascii=False, default=_model_dict)


def _model_dict(value: object) -> object:
    if isinstance(value, BaseModel):
        return value.model_dump()
    raise TypeError(f"cannot store {type(value).__name__} as JSON")


class Writer(Protocol):
    """What a catalog's ``transaction`` yields: statements with ``?`` placeholders, in its own dialect."""

    def execute(self, statement: str, params: Sequence[object] = ()) -> Any: ...

    def executemany(self, statement: str, rows: Iterable[Sequence[object]]) -> Any: ...


class SqlCatalog(ABC):
    """One knowledge base's catalog, thread-safe. Rows read as mappings by column name."""

    # Whether other workstations write this catalog too (a team server): then a document's path is
    # where one of them read it, and a file missing on this computer says nothing about the document.
    shared: bool
    generation: int  # counts this connection's commits: caches of derived data compare it

    @abstractmethod
    def close(self) -> None: ...

    @abstractmethod
    def transaction(self) -> AbstractContextManager[Writer]:
        """One atomic unit of work; nested use joins the outer transaction."""

    @abstractmethod
    def query(self, sql: str, params: Iterable[object] = ()) -> list[Any]: ...

    @abstractmethod
    def set_meta(self, key: str, value: str) -> None: ...

    @abstractmethod
    def insert_page(self, db: Writer, doc_id: str, page: int, text: str, ocr: bool) -> None: ...

    @abstractmethod
    def insert_chunk(self, db: Writer, chunk: Chunk, head_terms: str, body_terms: str) -> None:
        """The chunk with its lexical terms (``index_terms`` of its header and of its text)."""

    @abstractmethod
    def insert_section(self, db: Writer, doc_id: str, section: str, title: str | None, page: int,
                       ordinal: int) -> None: ...

    @abstractmethod
    def store_file(self, db: Writer, doc_id: str, path: Path) -> None:
        """Keep the PDF itself where every reader of the catalog can open it."""

    @abstractmethod
    def file_bytes(self, doc_id: str) -> bytes | None:
        """The PDF as the catalog keeps it (None where the file stays in its folder)."""

    @abstractmethod
    def delete_document(self, doc_id: str) -> int:
        """Remove a document; returns the number of its chunks."""

    @abstractmethod
    def version(self) -> tuple[int, int]:
        """Changes whenever this connection or another writer commits: a key for caches."""

    @abstractmethod
    def mark_embedded(self, ids: list[str]) -> None: ...

    @abstractmethod
    def pending_vector_deletes(self) -> list[str]: ...

    @abstractmethod
    def lexical(self, terms: list[tuple[str, ...]], limit: int, where: str, params: list[object],
                doc_ids: list[str] | None) -> list[tuple[str, float]]:
        """BM25 search over the chunks' terms (each query term with its alternatives), in scope ``where``."""

    @abstractmethod
    def vector_store(self, name: str, embedder: str, host: str) -> VectorIndex:
        """The store of this knowledge base's vectors."""

    @abstractmethod
    def check(self) -> list[str]:
        """Problems of the catalog's own bookkeeping (none found: empty)."""

    # --- meta -----------------------------------------------------------------------------------

    def get_meta(self, key: str) -> str | None:
        rows = self.query("SELECT value FROM meta WHERE key = ?", (key,))
        return rows[0]["value"] if rows else None

    # --- documents ------------------------------------------------------------------------------

    def insert_document(self, db: Writer, doc: dict[str, object]) -> None:
        doc = {**doc, "ingested_at": _now()}
        for key in ("aliases", "warnings", "meta", "tags"):
            doc[key] = _json(doc.get(key) or ([] if key != "meta" else {}))
        cols = ", ".join(doc)
        db.execute(f"INSERT INTO documents ({cols}) VALUES ({', '.join('?' * len(doc))})", tuple(doc.values()))

    def update_document(self, db: Writer, doc_id: str, **fields: object) -> None:
        for key in ("aliases", "warnings", "meta", "tags"):
            if key in fields:
                fields[key] = _json(fields[key])
        sets = ", ".join(f"{k} = ?" for k in fields)
        db.execute(f"UPDATE documents SET {sets} WHERE doc_id = ?", (*fields.values(), doc_id))

    def documents(self, counts: bool = True) -> list[DocumentInfo]:
        """All documents; ``counts=False`` skips counting chunks (a scan of every chunk at 100k)."""
        if counts:
            rows = self.query(
                """SELECT d.*, COUNT(c.chunk_id) AS chunks, COALESCE(SUM(CASE WHEN c.embedded = 0 THEN 1 ELSE 0 END), 0) AS pending
                   FROM documents d LEFT JOIN chunks c ON c.doc_id = d.doc_id
                   GROUP BY d.doc_id ORDER BY d.file_name"""
            )
        else:
            rows = self.query("SELECT d.*, 0 AS chunks, 0 AS pending FROM documents d ORDER BY d.file_name")
        return [self._to_info(r) for r in rows]

    def document(self, doc_id: str) -> DocumentInfo | None:
        return next((d for d in self.documents() if d.doc_id == doc_id), None)

    @staticmethod
    def _to_info(r: Mapping[str, Any]) -> DocumentInfo:
        return DocumentInfo(
            doc_id=r["doc_id"], file_name=r["file_name"], path=r["path"], title=r["title"], short_name=r["short_name"],
            aliases=json.loads(r["aliases"]), language=r["language"], pages=r["pages"], chunks=r["chunks"],
            size_bytes=r["size_bytes"], issued=r["issued"], warnings=[stored(w) for w in json.loads(r["warnings"])],
            meta=json.loads(r["meta"]), tags=json.loads(r["tags"]),
            ingested_at=datetime.fromisoformat(r["ingested_at"]), pending_embeddings=r["pending"],
        )

    def document_names(self) -> dict[str, tuple[str | None, str]]:
        """(short name, title) by doc id: what a chunk's header and embedding text name it by."""
        return {r["doc_id"]: (r["short_name"], r["title"]) for r in self.query(
            "SELECT doc_id, short_name, title FROM documents")}

    _DOC_ROW = "SELECT doc_id, path, file_name, size_bytes, mtime, scanned_pages FROM documents"

    def doc_rows(self) -> list[Any]:
        """Light rows for change detection: id, path, size, mtime."""
        return self.query(self._DOC_ROW)

    def doc_row(self, *, path: str | None = None, doc_id: str | None = None) -> Any | None:
        """The light row of the document at ``path`` or with ``doc_id`` (both indexed)."""
        where, value = ("path", path) if path is not None else ("doc_id", doc_id)
        rows = self.query(f"{self._DOC_ROW} WHERE {where} = ? LIMIT 1", (value,))
        return rows[0] if rows else None

    # --- chunks and pages -----------------------------------------------------------------------

    def chunks_by_id(self, ids: list[str]) -> dict[str, Chunk]:
        out: dict[str, Chunk] = {}
        for i in range(0, len(ids), 500):
            part = ids[i : i + 500]
            rows = self.query(f"SELECT {_CHUNK_COLUMNS} FROM chunks WHERE chunk_id IN ({','.join('?' * len(part))})", part)
            out.update((r["chunk_id"], row_to_chunk(r)) for r in rows)
        return out

    def chunks_where(self, where: str, params: Iterable[object] = (), limit: int | None = None) -> list[Chunk]:
        sql = f"SELECT {_CHUNK_COLUMNS} FROM chunks WHERE {where} ORDER BY doc_id, ordinal"
        if limit:
            sql += f" LIMIT {int(limit)}"
        return [row_to_chunk(r) for r in self.query(sql, params)]

    def page_text(self, doc_id: str, page: int) -> str | None:
        rows = self.query("SELECT text FROM pages WHERE doc_id = ? AND page = ?", (doc_id, page))
        return rows[0]["text"] if rows else None

    def to_embed(self, limit: int) -> list[Chunk]:
        return self.chunks_where("embedded = 0", limit=limit)

    def count_to_embed(self) -> int:
        return int(self.query("SELECT COUNT(*) AS n FROM chunks WHERE embedded = 0")[0]["n"])

    def count_embedded(self) -> int:
        return int(self.query("SELECT COUNT(*) AS n FROM chunks WHERE embedded = 1")[0]["n"])

    def has_embedded(self) -> bool:
        """Whether any chunk has a vector (stops at the first; counting scans them all)."""
        return bool(self.query("SELECT EXISTS(SELECT 1 FROM chunks WHERE embedded = 1) AS e")[0]["e"])

    def embedded_ids_in(self, where: str, params: list[object], cap: int) -> list[str] | None:
        """Ids of embedded chunks matching ``where`` (aliased ``c``), or None when there are more than ``cap``."""
        rows = self.query(f"SELECT c.chunk_id FROM chunks c WHERE c.embedded = 1 AND {where} LIMIT ?", (*params, cap + 1))
        return None if len(rows) > cap else [r["chunk_id"] for r in rows]

    def admitted(self, ids: list[str], where: str, params: list[object]) -> set[str]:
        """Which of these chunk ids lie in the scope ``where`` (aliased ``c``)."""
        out: set[str] = set()
        for i in range(0, len(ids), 500):
            part = ids[i : i + 500]
            rows = self.query(f"SELECT c.chunk_id FROM chunks c WHERE c.chunk_id IN ({','.join('?' * len(part))}) "
                              f"AND {where}", (*part, *params))
            out.update(r["chunk_id"] for r in rows)
        return out

    def clear_vector_deletes(self, ids: list[str]) -> None:
        with self.transaction() as db:
            db.executemany("DELETE FROM vector_deletes WHERE chunk_id = ?", [(i,) for i in ids])

    def all_chunk_ids(self, embedded_only: bool = False) -> set[str]:
        where = "WHERE embedded = 1" if embedded_only else ""
        return {r["chunk_id"] for r in self.query(f"SELECT chunk_id FROM chunks {where}")}
