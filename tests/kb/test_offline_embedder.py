"""The bundled offline embedder: multilingual, normalised, cached, and well-behaved under CPU load."""

from __future__ import annotations

from pathlib import Path

import numpy as np

from desktop.kb.search.embedcache import CachedEmbedder, EmbeddingCache
from desktop.kb.search.embeddings import EmbeddingServer, OfflineEmbedder, make_embedder


def test_vectors_are_normalised_and_multilingual() -> None:
    e = OfflineEmbedder()
    passages = e.embed_passages([
        "Der Grenzwert der effektiven Dosis beträgt 20 Millisievert im Kalenderjahr.",
        "Revenue from cloud services grew by 23 percent in fiscal 2023.",
    ])
    assert passages.shape == (2, e.dim) and np.allclose(np.linalg.norm(passages, axis=1), 1.0, atol=1e-4)
    de = e.embed_query("Wie hoch ist der Dosisgrenzwert pro Jahr?")
    en = e.embed_query("What is the annual dose limit?")
    for q in (de, en):  # a German and an English question both find the German passage
        assert float(passages[0] @ q) > float(passages[1] @ q)


def test_cache_serves_repeated_texts(tmp_path: Path) -> None:
    cached = CachedEmbedder(make_embedder("offline", EmbeddingServer("")), EmbeddingCache(tmp_path / "cache.sqlite"))
    first = cached.embed_passages(["eins zwei drei", "vier fünf"])
    again = cached.embed_passages(["vier fünf", "sechs", "eins zwei drei"])
    assert cached.cache_hits == 2
    assert np.array_equal(again[0], first[1]) and np.array_equal(again[2], first[0])
