"""The dense side on the server: the vector store's interface (desktop.kb.search.vectors.VectorStore) over the
``vectors`` table of the knowledge base's schema (pgvector, HNSW, cosine), on the catalog's own
connection, so a document and its vectors live and go in one database."""

from __future__ import annotations

from typing import Any

import numpy as np

from desktop.kb.server.catalog import ServerCatalog
from desktop.kb.server.schema import statements, vectors_ddl

EF_SEARCH_MAX = 1000  # pgvector's limit; the HNSW walk must see at least k candidates to return k
# Candidates the HNSW walk keeps: pgvector's default 40 found 98 % of the exact top 10 on LegalQuAD,
# 200 finds 99.8 % (the embedded Chroma store 99.4 %), for a fraction of a millisecond more.
EF_SEARCH_MIN = 200


def _where_sql(where: dict[str, Any] | None) -> tuple[str, list[object]]:
    """A Chroma-style filter (as Scope.chroma_where writes it) as SQL on the vectors table."""
    if not where:
        return "", []
    if "$and" in where:
        parts = [_where_sql(w) for w in where["$and"]]
        return " AND ".join(p for p, _ in parts), [v for _, vs in parts for v in vs]
    (field, cond), = where.items()
    if field not in ("doc_id", "page", "section"):
        raise ValueError(f"no filter on {field}")
    if not isinstance(cond, dict):
        return f"{field} = %s", [cond]
    (op, value), = cond.items()
    if op == "$in":
        return f"{field} = ANY(%s)", [list(value)]
    return f"{field} {({'$gte': '>=', '$lte': '<=', '$eq': '='})[op]} %s", [value]


def _array(value: Any) -> np.ndarray:
    """pgvector's value as numpy (its adapter returns a Vector; older ones an array)."""
    return np.asarray(value.to_numpy() if hasattr(value, "to_numpy") else value, dtype=np.float32)


class ServerVectorStore:
    def __init__(self, catalog: ServerCatalog) -> None:
        self.catalog = catalog
        self.where = f"the server {catalog.server.host}:{catalog.server.port}"
        self._ready = False

    def _table(self, dimensions: int | None = None) -> bool:
        """Whether the vector table exists; made (with its index) when ``dimensions`` are given."""
        if self._ready:
            return True
        exists = self.catalog.raw("SELECT to_regclass('vectors') IS NOT NULL AS e")[0]["e"]
        if not exists and dimensions:
            with self.catalog.transaction():  # (another workstation may make it first: the lock orders them)
                self.catalog.run("SELECT pg_advisory_xact_lock(hashtext('rabbithole-schema'))")
                for statement in statements(vectors_ddl(dimensions)):
                    self.catalog.run(statement)
                self.catalog.grant_readers()  # made by whichever writer came first: readers may read it too
            exists = True
        self._ready = bool(exists)
        return self._ready

    def upsert(self, ids: list[str], vectors: np.ndarray, texts: list[str], metadatas: list[dict[str, Any]]) -> None:
        if not ids:
            return
        self._table(int(np.asarray(vectors).shape[1]))
        rows = [(cid, m.get("doc_id"), m.get("page"), m.get("section") or None, np.asarray(v, dtype=np.float32))
                for cid, v, m in zip(ids, vectors, metadatas)]
        with self.catalog.transaction() as tx:
            with tx.conn.cursor() as cur:
                cur.executemany("INSERT INTO vectors VALUES (%s, %s, %s, %s, %s) ON CONFLICT (chunk_id) DO UPDATE "
                                "SET embedding = excluded.embedding", rows)

    def delete(self, ids: list[str]) -> None:
        if ids and self._table():
            self.catalog.run("DELETE FROM vectors WHERE chunk_id = ANY(%s)", (ids,))

    def count(self) -> int:
        return int(self.catalog.raw("SELECT COUNT(*) AS n FROM vectors")[0]["n"]) if self._table() else 0

    def all_ids(self) -> set[str]:
        return {r["chunk_id"] for r in self.catalog.raw("SELECT chunk_id FROM vectors")} if self._table() else set()

    def vectors(self, ids: list[str]) -> dict[str, np.ndarray]:
        if not ids or not self._table():
            return {}
        rows = self.catalog.raw("SELECT chunk_id, embedding FROM vectors WHERE chunk_id = ANY(%s)", (ids,))
        return {r["chunk_id"]: _array(r["embedding"]) for r in rows}

    def query(self, vector: np.ndarray, k: int, where: dict[str, Any] | None = None) -> list[tuple[str, float]]:
        """(chunk id, cosine similarity), best first."""
        if k <= 0 or not self._table():
            return []
        self.catalog.setting("hnsw.ef_search", str(min(EF_SEARCH_MAX, max(EF_SEARCH_MIN, 2 * k))))
        clause, params = _where_sql(where)
        rows = self.catalog.raw(
            f"SELECT chunk_id, 1 - (embedding <=> %s) AS score FROM vectors {'WHERE ' + clause if clause else ''} "
            "ORDER BY embedding <=> %s LIMIT %s",
            (np.asarray(vector, dtype=np.float32), *params, np.asarray(vector, dtype=np.float32), k))
        return [(r["chunk_id"], float(r["score"])) for r in rows]

    def drop(self) -> None:
        if self._table():
            self.catalog.run("DROP TABLE vectors")
        self._ready = False
