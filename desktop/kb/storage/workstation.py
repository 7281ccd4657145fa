"""A knowledge base on this workstation: its catalog in one SQLite file, with the FTS5 lexical index beside
the chunks and the vectors in Chroma in the database's folder (``SqlCatalog`` holds the SQL this shares with
the team server's catalog)."""

from __future__ import annotations

import json
import sqlite3
import threading
from collections.abc import Iterable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import TYPE_CHECKING

from desktop.kb.models import Chunk
from desktop.kb.storage.catalog import _ADDED_COLUMNS, _CHUNK_COLUMNS, _SCHEMA, SCHEMA_VERSION, SqlCatalog, Writer, _now

if TYPE_CHECKING:
    from desktop.kb.storage.catalog import VectorIndex


class WorkstationCatalog(SqlCatalog):
    """A knowledge base on this workstation: its SQLite file (one connection, one lock)."""

    shared = False

    def __init__(self, file: Path) -> None:
        file.parent.mkdir(parents=True, exist_ok=True)
        self.file = file
        self._db = sqlite3.connect(file, check_same_thread=False, timeout=30, isolation_level=None)
        self._db.row_factory = sqlite3.Row
        self._lock = threading.RLock()
        self.generation = 0
        self._db.execute("PRAGMA journal_mode=WAL")
        self._db.execute("PRAGMA synchronous=NORMAL")
        self._db.execute("PRAGMA foreign_keys=ON")
        with self.transaction():
            for statement in _SCHEMA.split(";\n"):
                if statement.strip():
                    self._db.execute(statement)
            self._add_columns()
            if self.get_meta("schema_version") is None:
                self.set_meta("schema_version", str(SCHEMA_VERSION))
                self.set_meta("created_at", _now())

    def _add_columns(self) -> None:
        """Columns a file written by an older version lacks (``CREATE TABLE IF NOT EXISTS`` keeps its table)."""
        for table, columns in _ADDED_COLUMNS.items():
            have = {r["name"] for r in self._db.execute(f"PRAGMA table_info({table})")}
            for name, definition in columns.items():
                if name not in have:
                    self._db.execute(f"ALTER TABLE {table} ADD COLUMN {name} {definition}")

    def close(self) -> None:
        with self._lock:
            self._db.close()

    @contextmanager
    def transaction(self) -> Iterator[sqlite3.Connection]:
        """One atomic unit of work; nested use joins the outer transaction."""
        with self._lock:
            if self._db.in_transaction:
                yield self._db
                return
            self._db.execute("BEGIN IMMEDIATE")
            try:
                yield self._db
            except BaseException:
                self._db.execute("ROLLBACK")
                raise
            self._db.execute("COMMIT")
            self.generation += 1

    def query(self, sql: str, params: Iterable[object] = ()) -> list[sqlite3.Row]:
        with self._lock:
            return self._db.execute(sql, tuple(params)).fetchall()

    def set_meta(self, key: str, value: str) -> None:
        with self.transaction() as db:
            db.execute("INSERT OR REPLACE INTO meta VALUES (?, ?)", (key, value))

    def insert_page(self, db: Writer, doc_id: str, page: int, text: str, ocr: bool) -> None:
        db.execute("INSERT OR REPLACE INTO pages VALUES (?, ?, ?, ?)", (doc_id, page, text, int(ocr)))

    def insert_chunk(self, db: Writer, chunk: Chunk, head_terms: str, body_terms: str) -> None:
        values = chunk.model_dump()
        values["box"] = json.dumps(values["box"]) if values["box"] else None
        cur = db.execute(
            f"INSERT INTO chunks ({_CHUNK_COLUMNS}) VALUES ({', '.join('?' * len(values))})",
            tuple(values[k] for k in _CHUNK_COLUMNS.split(", ")),
        )
        db.execute("INSERT INTO chunks_fts (rowid, head, body) VALUES (?, ?, ?)", (cur.lastrowid, head_terms, body_terms))

    def insert_section(self, db: Writer, doc_id: str, section: str, title: str | None, page: int, ordinal: int) -> None:
        db.execute("INSERT OR IGNORE INTO sections VALUES (?, ?, ?, ?, ?)", (doc_id, section, title, page, ordinal))

    def store_file(self, db: Writer, doc_id: str, path: Path) -> None:
        """Keep the PDF itself where every reader of the catalog can open it: here, on this workstation,
        it stays where it is (the server's catalog stores it)."""

    def delete_document(self, doc_id: str) -> int:
        """Remove a document; its vectors are queued for deletion. Returns the number of chunks."""
        with self.transaction() as db:
            db.execute("INSERT OR IGNORE INTO vector_deletes SELECT chunk_id FROM chunks WHERE doc_id = ?", (doc_id,))
            db.execute("DELETE FROM chunks_fts WHERE rowid IN (SELECT rowid FROM chunks WHERE doc_id = ?)", (doc_id,))
            n = db.execute("DELETE FROM chunks WHERE doc_id = ?", (doc_id,)).rowcount
            db.execute("DELETE FROM pages WHERE doc_id = ?", (doc_id,))
            db.execute("DELETE FROM sections WHERE doc_id = ?", (doc_id,))
            db.execute("DELETE FROM documents WHERE doc_id = ?", (doc_id,))
            return n

    def version(self) -> tuple[int, int]:
        """Changes whenever this connection or another process commits: a key for caches."""
        return self.generation, int(self.query("PRAGMA data_version")[0][0])

    def mark_embedded(self, ids: list[str]) -> None:
        with self.transaction() as db:
            db.executemany("UPDATE chunks SET embedded = 1 WHERE chunk_id = ?", [(i,) for i in ids])

    def pending_vector_deletes(self) -> list[str]:
        return [r["chunk_id"] for r in self.query("SELECT chunk_id FROM vector_deletes")]


    def file_bytes(self, doc_id: str) -> bytes | None:
        return None  # the PDF stays where it was ingested (DocumentInfo.path)

    def lexical(self, terms: list[tuple[str, ...]], limit: int, where: str, params: list[object],
                doc_ids: list[str] | None) -> list[tuple[str, float]]:
        from desktop.kb.search import fts  # the FTS5 index of this file (fts reads the catalog's tables)

        return fts.search(self, terms, limit, where, params, doc_ids)

    def vector_store(self, name: str, embedder: str, host: str) -> VectorIndex:
        """Chroma in the database's folder: in a child process where the platform allows it."""
        from desktop.kb.search.vector_process import VectorStoreProcess, child_process_enabled
        from desktop.kb.search.vectors import VectorStore, describe, make_client

        folder = self.file.parent
        if child_process_enabled():
            return VectorStoreProcess(folder, name, embedder, host, describe(folder))
        return VectorStore(make_client(folder), name, embedder, host, where=describe(folder))

    def check(self) -> list[str]:
        return []  # the FTS5 index is kept in the same transactions as the chunks
