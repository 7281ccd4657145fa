"""The dense side of a workstation's knowledge base: one embedded Chroma collection per database (a
team server keeps its vectors in PostgreSQL: desktop.kb.server.vectors). Vectors are always computed
by us and handed over explicitly; the collection still gets our own embedding function so Chroma
never falls back to its default, which downloads a model and fails offline."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import numpy as np

from desktop.kb.errors import VectorStoreUnavailable

try:  # chromadb is heavy; import once, at module load, with telemetry off
    import chromadb
    from chromadb.api.types import Documents, EmbeddingFunction, Embeddings
    from chromadb.config import Settings as ChromaSettings
    from chromadb.utils.embedding_functions import register_embedding_function
except ImportError as exc:  # pragma: no cover - a broken install
    raise VectorStoreUnavailable("the vector store (package chromadb) is not installed") from exc


@register_embedding_function
class RabbitholeEmbeddingFunction(EmbeddingFunction[Documents]):
    """Records which embedder made the vectors and can rebuild it when Chroma asks."""

    def __init__(self, spec: str = "offline", host: str = "") -> None:
        self.spec = spec
        self.host = host

    def __call__(self, input: Documents) -> Embeddings:
        from desktop.kb.search.embeddings import EmbeddingServer, make_embedder

        return list(make_embedder(self.spec, EmbeddingServer(self.host)).embed_passages(list(input)))

    @staticmethod
    def name() -> str:
        return "rabbithole"

    def get_config(self) -> dict[str, Any]:
        return {"spec": self.spec, "host": self.host}

    @staticmethod
    def build_from_config(config: dict[str, Any]) -> "RabbitholeEmbeddingFunction":
        return RabbitholeEmbeddingFunction(config.get("spec", "offline"), config.get("host", ""))

    def default_space(self) -> str:  # type: ignore[override]
        return "cosine"


def _collection_name(database: str) -> str:
    slug = re.sub(r"[^a-zA-Z0-9_-]+", "-", database).strip("-_").lower() or "db"
    return f"rabbithole-{slug}"[:60]


def describe(db_dir: Path) -> str:
    return str(db_dir / "chroma")


def make_client(db_dir: Path) -> Any:
    chroma_settings = ChromaSettings(anonymized_telemetry=False)
    try:
        return chromadb.PersistentClient(path=str(db_dir / "chroma"), settings=chroma_settings)
    except Exception as exc:
        raise VectorStoreUnavailable(f"cannot open the vector store at {describe(db_dir)}: {exc}") from exc


def _guard(what: str, where: str, call: Any) -> Any:
    """Run a vector-store call; its failures become one message the user can act on."""
    try:
        return call()
    except VectorStoreUnavailable:
        raise
    except Exception as exc:
        raise VectorStoreUnavailable(f"the vector store at {where} failed to {what}: {exc}") from exc


class VectorStore:
    def __init__(self, client: Any, database: str, embedder_spec: str, host: str = "", where: str = "") -> None:
        self.client = client
        self.where = where or "the local database"
        try:
            self.collection = client.get_or_create_collection(
                _collection_name(database),
                embedding_function=RabbitholeEmbeddingFunction(embedder_spec, host),
                configuration={"hnsw": {"space": "cosine"}},
            )
        except Exception as exc:
            raise VectorStoreUnavailable(f"cannot open the vector store at {self.where} for '{database}': {exc}") from exc

    def upsert(self, ids: list[str], vectors: np.ndarray, texts: list[str], metadatas: list[dict[str, Any]]) -> None:
        if ids:
            _guard("store vectors", self.where,
                   lambda: self.collection.upsert(ids=ids, embeddings=vectors, documents=texts, metadatas=metadatas))

    def delete(self, ids: list[str]) -> None:
        for i in range(0, len(ids), 1000):
            _guard("delete vectors", self.where, lambda: self.collection.delete(ids=ids[i : i + 1000]))

    def count(self) -> int:
        return int(_guard("count vectors", self.where, self.collection.count))

    def all_ids(self) -> set[str]:
        ids: set[str] = set()
        offset = 0
        while True:
            got = _guard("list vectors", self.where,
                         lambda: self.collection.get(include=[], limit=5000, offset=offset)["ids"])
            ids.update(got)
            if len(got) < 5000:
                return ids
            offset += len(got)

    def vectors(self, ids: list[str]) -> dict[str, np.ndarray]:
        """The stored vectors of these chunks (those that have one)."""
        out: dict[str, np.ndarray] = {}
        for i in range(0, len(ids), 1000):
            part = ids[i : i + 1000]
            got = _guard("read vectors", self.where, lambda: self.collection.get(ids=part, include=["embeddings"]))
            out.update(zip(got["ids"], np.asarray(got["embeddings"], dtype=np.float32)))
        return out

    def query(self, vector: np.ndarray, k: int, where: dict[str, Any] | None = None) -> list[tuple[str, float]]:
        """(chunk id, cosine similarity), best first."""
        if k <= 0:
            return []  # (an empty collection answers [[]]; asking it to count first costs 10 ms at 100k)
        result = _guard("search", self.where, lambda: self.collection.query(
            query_embeddings=[np.asarray(vector, dtype=np.float32)],
            n_results=k,
            where=where or None,
            include=["distances"],
        ))
        return [(cid, 1.0 - float(dist)) for cid, dist in zip(result["ids"][0], result["distances"][0])]

    def drop(self) -> None:
        _guard("delete the collection", self.where, lambda: self.client.delete_collection(self.collection.name))
