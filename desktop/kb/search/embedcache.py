"""A persistent cache of passage embeddings keyed by model and text, so the same text is never
embedded twice: not after a changed file, not after an interrupted ingest, not in a second database."""

from __future__ import annotations

import hashlib
import sqlite3
import threading
from pathlib import Path

import numpy as np

from desktop.kb.search.embeddings import Embedder


class EmbeddingCache:
    def __init__(self, file: Path) -> None:
        file.parent.mkdir(parents=True, exist_ok=True)
        self._db = sqlite3.connect(file, check_same_thread=False, timeout=30)
        self._lock = threading.Lock()
        with self._lock, self._db:
            self._db.execute("PRAGMA journal_mode=WAL")
            self._db.execute(
                "CREATE TABLE IF NOT EXISTS vectors (model TEXT, key BLOB, vec BLOB, PRIMARY KEY (model, key)) WITHOUT ROWID"
            )

    @staticmethod
    def key(text: str) -> bytes:
        return hashlib.sha1(text.encode("utf-8")).digest()

    def get_many(self, model: str, texts: list[str]) -> dict[int, np.ndarray]:
        """Cached vectors by position in ``texts``."""
        keys = [self.key(t) for t in texts]
        found: dict[bytes, np.ndarray] = {}
        with self._lock:
            for i in range(0, len(keys), 500):
                part = keys[i : i + 500]
                rows = self._db.execute(
                    f"SELECT key, vec FROM vectors WHERE model = ? AND key IN ({','.join('?' * len(part))})",
                    [model, *part],
                ).fetchall()
                found.update((k, np.frombuffer(v, dtype=np.float32)) for k, v in rows)
        return {i: found[k] for i, k in enumerate(keys) if k in found}

    def put_many(self, model: str, texts: list[str], vectors: np.ndarray) -> None:
        self.put_keys(model, [self.key(t) for t in texts], vectors)

    def put_keys(self, model: str, keys: list[bytes], vectors: np.ndarray) -> None:
        rows = [(model, k, np.asarray(v, dtype=np.float32).tobytes()) for k, v in zip(keys, vectors)]
        with self._lock, self._db:
            self._db.executemany("INSERT OR REPLACE INTO vectors VALUES (?, ?, ?)", rows)

    def close(self) -> None:
        with self._lock:
            self._db.close()


_RECENT_QUERIES = 512


class CachedEmbedder:
    """Wraps an embedder; passages come from the cache when they can. Safe for several threads: the
    engine's searches run in its worker threads at once, and the recent queries are shared by them."""

    def __init__(self, inner: Embedder, cache: EmbeddingCache) -> None:
        self.inner = inner
        self.cache = cache
        self.spec = inner.spec
        self.model_id = inner.model_id
        self.cache_hits = 0
        self._recent: dict[str, np.ndarray] = {}
        self._lock = threading.Lock()  # guards _recent and cache_hits; never held while embedding

    @property
    def dim(self) -> int:
        return self.inner.dim

    def embed_passages(self, texts: list[str]) -> np.ndarray:
        if not texts:
            return self.inner.embed_passages([])
        cached = self.cache.get_many(self.model_id, texts)
        missing = [i for i in range(len(texts)) if i not in cached]
        fresh = self.inner.embed_passages([texts[i] for i in missing]) if missing else None
        if fresh is not None:
            self.cache.put_many(self.model_id, [texts[i] for i in missing], fresh)
        with self._lock:
            self.cache_hits += len(cached)
        dim = fresh.shape[1] if fresh is not None else len(next(iter(cached.values())))
        out = np.empty((len(texts), dim), dtype=np.float32)
        for i, vec in cached.items():
            out[i] = vec
        for j, i in enumerate(missing):
            out[i] = fresh[j]  # type: ignore[index]
        return out

    def embed_query(self, text: str) -> np.ndarray:
        return self.embed_queries([text])[0]

    def embed_queries(self, texts: list[str]) -> np.ndarray:
        """Queries repeat (a re-plan searches the plan's queries again): the recent ones stay in memory.
        The answer is built from this call's own copy, so another thread's eviction cannot take a vector
        from under it."""
        with self._lock:
            known = {t: self._recent[t] for t in texts if t in self._recent}
        missing = list(dict.fromkeys(t for t in texts if t not in known))
        if missing:
            fresh = dict(zip(missing, self.inner.embed_queries(missing)))
            known.update(fresh)
            with self._lock:
                self._recent.update(fresh)
                while len(self._recent) > _RECENT_QUERIES:
                    self._recent.pop(next(iter(self._recent)))
        return np.stack([known[t] for t in texts])
