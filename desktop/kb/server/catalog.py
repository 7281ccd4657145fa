"""A knowledge base's catalog on PostgreSQL: the team server's implementation of ``SqlCatalog``
(desktop.kb.storage.catalog) over one schema of the server, so ingestion, sections, retrieval and search
run unchanged.

The SQL both dialects share runs here too (its ``?`` placeholders become psycopg's); what differs
is written here: the upserts, the lexical terms of a chunk (kept for BM25, see server/lexical.py),
the document frequencies they add up to, and a generation counter every workstation's caches
compare. Frequencies are summed in memory during a transaction and written in term order at its
end, so two workstations ingesting at once never wait on each other mid-document nor deadlock.
"""

from __future__ import annotations

import json
import threading
from collections import Counter
from collections.abc import Iterable, Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path
from typing import TYPE_CHECKING, Any

import psycopg
from pgvector.psycopg import register_vector
from psycopg import sql

from desktop.kb.storage.catalog import _CHUNK_COLUMNS, SqlCatalog, _now
from desktop.kb.errors import ServerUnavailable
from desktop.kb.models import Chunk
from desktop.kb.server.connect import connect, guarded, where
from desktop.kb.server.schema import KB_DDL, READER_ROLE, REGISTRY_DDL, REGISTRY_SCHEMA, schema_name, statements
from desktop.settings import ServerSettings

if TYPE_CHECKING:
    from desktop.kb.storage.catalog import VectorIndex

SCHEMA_VERSION = "1"
HEAD_WEIGHT = 2  # a term in the chunk's header (document, section, title) counts twice, as in the FTS5 index


def to_psycopg(statement: str) -> str:
    """The catalog's SQLite placeholders (?) as psycopg's (%s); a literal % is escaped."""
    return statement.replace("%", "%%").replace("?", "%s")


def term_weights(head_terms: str, body_terms: str) -> tuple[dict[str, int], int]:
    """(weighted frequency of each term, token count) of a chunk, as FTS5's bm25() weighs its columns."""
    head, body = head_terms.split(), body_terms.split()
    tf: Counter[str] = Counter(body)
    for term in head:
        tf[term] += HEAD_WEIGHT
    return dict(tf), len(head) + len(body)


class _Transaction:
    """What ``transaction`` yields (a ``Writer``): ``execute``/``executemany`` with the catalog's SQL."""

    def __init__(self, conn: psycopg.Connection[dict[str, Any]]) -> None:
        self.conn = conn

    def execute(self, statement: str, params: Sequence[object] = ()) -> psycopg.Cursor[dict[str, Any]]:
        return self.conn.execute(to_psycopg(statement), tuple(params))

    def executemany(self, statement: str, rows: Iterable[Sequence[object]]) -> None:
        with self.conn.cursor() as cur:
            cur.executemany(to_psycopg(statement), list(rows))


class ServerCatalog(SqlCatalog):
    """One knowledge base on the server. Thread-safe: one connection, one lock."""

    shared = True

    def __init__(self, server: ServerSettings, database: str, *, create: bool = False) -> None:
        self.server = server
        self.database = database
        self.schema = schema_name(database)
        self._lock = threading.RLock()
        self.generation = 0
        self._depth = 0
        self._df: Counter[str] = Counter()
        self._sizes = [0, 0]  # chunks, tokens added (negative: removed) in the open transaction
        self._session: dict[str, str] = {}  # settings of this connection's session (SET), as last set
        self._db = connect(server)
        try:
            with guarded(server):
                if create:
                    self._create()
                self._prepare_session()
                if not self._db.execute("SELECT has_schema_privilege(%s, 'USAGE') AS ok", (self.schema,)).fetchone()["ok"]:
                    raise ServerUnavailable(
                        f"the account '{server.user}' may not read the knowledge base '{database}' on {where(server)}: "
                        f"it belongs to another account; IT grants access with a shared writer role or the readers' "
                        f"role (docs/server.md)")
        except BaseException:
            self._db.close()
            raise

    def _prepare_session(self) -> None:
        self._session.clear()
        self._db.execute(sql.SQL("SET search_path TO {}, public").format(sql.Identifier(self.schema)))
        register_vector(self._db)  # numpy arrays in and out of pgvector's columns

    def _reconnect(self) -> None:
        """A new connection after the server dropped this one (restarted, or its connection was ended)."""
        self._db.close()
        self._db = connect(self.server)
        self._prepare_session()

    def _execute(self, statement: str | sql.Composable, params: Sequence[object], fetch: bool) -> list[dict[str, Any]]:
        """One statement; outside a transaction, once more on a new connection when the old one broke."""
        with self._lock, guarded(self.server):
            try:
                cursor = self._db.execute(statement, tuple(params))
            except psycopg.OperationalError:
                if self._depth or not self._db.broken:
                    raise
                self._reconnect()
                cursor = self._db.execute(statement, tuple(params))
            return cursor.fetchall() if fetch else []

    def setting(self, name: str, value: str) -> None:
        """SET a session setting unless this connection has it already (a new connection starts afresh)."""
        with self._lock:
            if self._session.get(name) != value:
                self._execute(sql.SQL("SET {} = {}").format(sql.Identifier(*name.split(".")), sql.Literal(value)),
                              (), fetch=False)
                self._session[name] = value

    def _create(self) -> None:
        """The registry, the schema and its tables, once; an advisory lock orders workstations creating
        at the same moment (concurrent CREATE ... IF NOT EXISTS can still collide in PostgreSQL)."""
        with self._db.transaction():
            self._db.execute("SELECT pg_advisory_xact_lock(hashtext('rabbithole-schema'))")
            self._require_pgvector()
            for statement in statements(REGISTRY_DDL):
                self._db.execute(statement)
            schema = sql.Identifier(self.schema)
            self._db.execute(sql.SQL("CREATE SCHEMA IF NOT EXISTS {}").format(schema))
            self._db.execute(sql.SQL("SET LOCAL search_path TO {}, public").format(schema))
            for statement in statements(KB_DDL):
                self._db.execute(statement)
            self._db.execute(f"INSERT INTO {REGISTRY_SCHEMA}.databases (name, schema_name) VALUES (%s, %s) "
                             "ON CONFLICT DO NOTHING", (self.database, self.schema))
            self._db.execute("INSERT INTO meta VALUES ('schema_version', %s), ('created_at', %s) ON CONFLICT DO NOTHING",
                             (SCHEMA_VERSION, _now()))
            self.grant_readers()

    def _require_pgvector(self) -> None:
        """pgvector in this database: there already (IT's job), or created when this account may."""
        if self._db.execute("SELECT 1 FROM pg_extension WHERE extname = 'vector'").fetchone():
            return
        try:
            with self._db.transaction():  # a savepoint: the outer transaction survives a refusal
                self._db.execute("CREATE EXTENSION vector")
        except psycopg.Error as exc:
            raise ServerUnavailable(f"the database {where(self.server)} lacks the pgvector extension and this "
                                    f"account may not add it: IT runs CREATE EXTENSION vector in it (docs/server.md) "
                                    f"({str(exc).strip().splitlines()[0]})") from exc

    def grant_readers(self) -> None:
        """Let the reviewers' role (when IT made it) read this knowledge base, and what is added to it later."""
        if self._db.execute("SELECT 1 FROM pg_roles WHERE rolname = %s", (READER_ROLE,)).fetchone():
            schema, role = sql.Identifier(self.schema), sql.Identifier(READER_ROLE)
            for grant in ("GRANT USAGE ON SCHEMA {s} TO {r}", "GRANT SELECT ON ALL TABLES IN SCHEMA {s} TO {r}",
                          "ALTER DEFAULT PRIVILEGES IN SCHEMA {s} GRANT SELECT ON TABLES TO {r}",
                          f"GRANT USAGE ON SCHEMA {REGISTRY_SCHEMA} TO {{r}}",
                          f"GRANT SELECT ON {REGISTRY_SCHEMA}.databases TO {{r}}"):
                self._db.execute(sql.SQL(grant).format(s=schema, r=role))

    def close(self) -> None:
        with self._lock:
            self._db.close()

    @contextmanager
    def transaction(self) -> Iterator[_Transaction]:
        with self._lock, guarded(self.server):
            if self._depth:
                self._depth += 1
                try:
                    yield _Transaction(self._db)
                finally:
                    self._depth -= 1
                return
            if self._db.broken:  # dropped since the last statement: start on a new connection
                self._reconnect()
            self._depth = 1
            self._df.clear()
            self._sizes = [0, 0]
            try:
                with self._db.transaction():
                    yield _Transaction(self._db)
                    self._write_sizes()
            finally:
                self._depth = 0
            self.generation += 1

    def _write_sizes(self) -> None:
        """Document frequencies and sizes this transaction changed, in term order (see the module)."""
        changed = sorted((t, n) for t, n in self._df.items() if n)
        if changed:
            terms, deltas = [t for t, _ in changed], [n for _, n in changed]
            self._db.execute("INSERT INTO lexicon AS l (term, df) SELECT t, d FROM unnest(%s::text[], %s::int[]) AS u(t, d) "
                             "ORDER BY t ON CONFLICT (term) DO UPDATE SET df = l.df + excluded.df", (terms, deltas))
            self._db.execute("DELETE FROM lexicon WHERE term = ANY(%s) AND df <= 0", ([t for t, n in changed if n < 0],))
        self._db.execute("UPDATE counters SET n = n + CASE name WHEN 'chunks' THEN %s WHEN 'tokens' THEN %s ELSE 1 END "
                         "WHERE name IN ('chunks', 'tokens', 'generation')", tuple(self._sizes))

    def query(self, statement: str, params: Iterable[object] = ()) -> list[dict[str, Any]]:
        return self._execute(to_psycopg(statement), tuple(params), fetch=True)

    def raw(self, statement: str | sql.Composable, params: Sequence[object] = ()) -> list[dict[str, Any]]:
        """Rows of SQL written for PostgreSQL (psycopg placeholders), for the lexical and vector sides."""
        return self._execute(statement, params, fetch=True)

    def run(self, statement: str | sql.Composable, params: Sequence[object] = ()) -> None:
        """SQL written for PostgreSQL that returns no rows."""
        self._execute(statement, params, fetch=False)

    # --- what differs from SQLite ---------------------------------------------------------------

    def set_meta(self, key: str, value: str) -> None:
        with self.transaction() as db:
            db.execute("INSERT INTO meta VALUES (?, ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value", (key, value))

    def insert_page(self, db: _Transaction, doc_id: str, page: int, text: str, ocr: bool) -> None:
        db.execute("INSERT INTO pages VALUES (?, ?, ?, ?) ON CONFLICT (doc_id, page) DO UPDATE SET text = excluded.text, "
                   "ocr = excluded.ocr", (doc_id, page, text.replace("\x00", ""), int(ocr)))

    def insert_chunk(self, db: _Transaction, chunk: Chunk, head_terms: str, body_terms: str) -> None:
        values = chunk.model_dump()
        values["box"] = json.dumps(values["box"]) if values["box"] else None
        values["text"] = values["text"].replace("\x00", "")  # PostgreSQL text holds no NUL
        tf, ntok = term_weights(head_terms, body_terms)
        columns = _CHUNK_COLUMNS.split(", ")
        db.execute(f"INSERT INTO chunks ({_CHUNK_COLUMNS}, terms, tf, ntok) VALUES "
                   f"({', '.join('?' * len(columns))}, array_to_tsvector(?::text[]), ?::jsonb, ?)",
                   (*(values[k] for k in columns), list(tf), json.dumps(tf, ensure_ascii=False), ntok))
        self._df.update(tf.keys())
        self._sizes[0] += 1
        self._sizes[1] += ntok

    def insert_section(self, db: _Transaction, doc_id: str, section: str, title: str | None, page: int,
                       ordinal: int) -> None:
        db.execute("INSERT INTO sections VALUES (?, ?, ?, ?, ?) ON CONFLICT DO NOTHING", (doc_id, section, title, page, ordinal))

    def store_file(self, db: _Transaction, doc_id: str, path: Path) -> None:
        """The PDF goes to the server by its content hash (the doc id), so a citation opens everywhere."""
        data = path.read_bytes()
        db.execute("INSERT INTO files VALUES (?, ?, ?) ON CONFLICT DO NOTHING", (doc_id, len(data), data))

    def file_bytes(self, doc_id: str) -> bytes | None:
        rows = self.raw("SELECT content FROM files WHERE sha256 = %s", (doc_id,))
        return bytes(rows[0]["content"]) if rows else None

    def delete_document(self, doc_id: str) -> int:
        """Remove a document with its pages, chunks, sections and vectors (foreign keys cascade)."""
        with self.transaction() as db:
            rows = db.execute("SELECT tf, ntok FROM chunks WHERE doc_id = ?", (doc_id,)).fetchall()
            for row in rows:
                self._df.subtract(row["tf"].keys())
                self._sizes[1] -= row["ntok"]
            self._sizes[0] -= len(rows)
            db.execute("DELETE FROM documents WHERE doc_id = ?", (doc_id,))
            db.execute("DELETE FROM files WHERE sha256 = ?", (doc_id,))
            return len(rows)

    def version(self) -> tuple[int, int]:
        """Changes whenever any workstation commits (the generation counter)."""
        return self.generation, int(self.raw("SELECT n FROM counters WHERE name = 'generation'")[0]["n"])

    def mark_embedded(self, ids: list[str]) -> None:
        with self.transaction() as db:
            db.execute("UPDATE chunks SET embedded = 1 WHERE chunk_id = ANY(?)", (ids,))

    def pending_vector_deletes(self) -> list[str]:
        return []  # a chunk's vector goes with it (foreign key)

    def check(self) -> list[str]:
        """Problems of the lexical bookkeeping: sizes and document frequencies against a recount."""
        problems = []
        row = self.raw("SELECT (SELECT n FROM counters WHERE name = 'chunks') AS counted, COUNT(*) AS chunks, "
                       "(SELECT n FROM counters WHERE name = 'tokens') AS tokens_counted, "
                       "COALESCE(SUM(ntok), 0) AS tokens FROM chunks")[0]
        if (row["counted"], row["tokens_counted"]) != (row["chunks"], row["tokens"]):
            problems.append(f"the lexical index counts {row['counted']} chunks and {row['tokens_counted']} terms, "
                            f"the catalog holds {row['chunks']} and {row['tokens']}")
        wrong = self.raw("SELECT COUNT(*) AS n FROM (SELECT term, COUNT(*) AS df FROM chunks, jsonb_object_keys(tf) AS term "
                         "GROUP BY term) t FULL JOIN lexicon l USING (term) WHERE t.df IS DISTINCT FROM l.df")[0]["n"]
        if wrong:
            problems.append(f"{wrong} terms with a wrong document frequency")
        return problems

    def lexical(self, terms: list[tuple[str, ...]], limit: int, where: str, params: list[object],
                doc_ids: list[str] | None) -> list[tuple[str, float]]:
        from desktop.kb.server import lexical  # BM25 over the chunks' term vectors (lexical reads this catalog)

        return lexical.search(self, terms, limit, where, params)

    def vector_store(self, name: str, embedder: str, host: str) -> VectorIndex:
        """The vectors live in this schema beside the chunks (pgvector)."""
        from desktop.kb.server.vectors import ServerVectorStore

        return ServerVectorStore(self)

    def sizes(self) -> tuple[int, int]:
        """(chunks, tokens) in the whole knowledge base, for BM25."""
        rows = {r["name"]: int(r["n"]) for r in self.raw("SELECT name, n FROM counters")}
        return rows.get("chunks", 0), rows.get("tokens", 0)


def list_server_databases(server: ServerSettings) -> list[str]:
    """The knowledge bases on the server (none when it holds no registry yet)."""
    conn = connect(server)
    try:
        with guarded(server):
            try:
                if conn.execute("SELECT to_regclass(%s) AS t", (f"{REGISTRY_SCHEMA}.databases",)).fetchone()["t"] is None:
                    return []
                rows = conn.execute(f"SELECT name FROM {REGISTRY_SCHEMA}.databases ORDER BY name").fetchall()
            except psycopg.errors.InsufficientPrivilege as exc:
                raise ServerUnavailable(
                    f"the account '{server.user}' may not read the knowledge bases on {where(server)}: they belong to "
                    f"another account; IT grants access with a shared writer role or the readers' role "
                    f"(docs/server.md)") from exc
            return [r["name"] for r in rows]
    finally:
        conn.close()


def drop_server_database(server: ServerSettings, database: str) -> None:
    conn = connect(server)
    try:
        with guarded(server), conn.transaction():
            conn.execute(sql.SQL("DROP SCHEMA IF EXISTS {} CASCADE").format(sql.Identifier(schema_name(database))))
            conn.execute(f"DELETE FROM {REGISTRY_SCHEMA}.databases WHERE name = %s", (database,))
    finally:
        conn.close()
