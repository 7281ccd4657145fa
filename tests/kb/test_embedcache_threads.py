"""The embedding cache's recent queries under many searching threads (the engine searches in several
worker threads at once): every thread gets the vector of its own text, and none fails on another's
eviction."""

from __future__ import annotations

import hashlib
import sys
import threading
import time
from pathlib import Path

import numpy as np
import pytest

from desktop.kb.search import embedcache
from desktop.kb.search.embedcache import CachedEmbedder, EmbeddingCache

DIM = 8


def vector(text: str) -> np.ndarray:
    seed = int.from_bytes(hashlib.sha1(text.encode()).digest()[:4], "little")
    return np.random.default_rng(seed).random(DIM, dtype=np.float32)


class SlowEmbedder:
    """Deterministic vectors, and a pause that lets other threads run while one embeds."""

    spec = "fake"
    model_id = "fake"
    dim = DIM

    def embed_queries(self, texts: list[str]) -> np.ndarray:
        time.sleep(0.0005)
        return np.stack([vector(t) for t in texts])

    def embed_passages(self, texts: list[str]) -> np.ndarray:
        return self.embed_queries(texts)


def test_recent_queries_under_many_threads(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(embedcache, "_RECENT_QUERIES", 6)  # evictions all the time
    cached = CachedEmbedder(SlowEmbedder(), EmbeddingCache(tmp_path / "cache.sqlite"))  # type: ignore[arg-type]
    errors: list[BaseException] = []
    wrong: list[str] = []

    def search(n: int) -> None:
        try:
            for i in range(150):
                texts = [f"query {(n + i + k) % 11}" for k in range(3)]
                got = cached.embed_queries(texts)
                wrong.extend(t for t, v in zip(texts, got) if not np.array_equal(v, vector(t)))
        except BaseException as exc:  # noqa: BLE001 - a thread's failure is what this test looks for
            errors.append(exc)

    interval = sys.getswitchinterval()
    sys.setswitchinterval(1e-6)  # threads interleave between every few bytecodes
    try:
        threads = [threading.Thread(target=search, args=(n,)) for n in range(16)]
        for t in threads:
            t.start()
        for t in threads:
            t.join(60)
    finally:
        sys.setswitchinterval(interval)
    assert errors == [] and wrong == []
    assert len(cached._recent) <= 6
