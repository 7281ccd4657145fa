"""The bundled offline embedder: multilingual, normalised, cached, and well-behaved under CPU load."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import numpy as np

from desktop.kb.search.embedcache import CachedEmbedder, EmbeddingCache
from desktop.kb.search.embeddings import OfflineEmbedder, make_embedder


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
    cached = CachedEmbedder(make_embedder("offline", ""), EmbeddingCache(tmp_path / "cache.sqlite"))
    first = cached.embed_passages(["eins zwei drei", "vier fünf"])
    again = cached.embed_passages(["vier fünf", "sechs", "eins zwei drei"])
    assert cached.cache_hits == 2
    assert np.array_equal(again[0], first[1]) and np.array_equal(again[2], first[0])


def test_openmp_threads_wait_passively_unless_the_user_chose() -> None:
    code = ("import os\nfrom desktop.kb.search.embeddings import OfflineEmbedder\nOfflineEmbedder().embed_query('x')\n"
            "print(os.environ.get('OMP_WAIT_POLICY'))")
    env = {k: v for k, v in os.environ.items() if k != "OMP_WAIT_POLICY"}
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env, timeout=120)
    assert out.stdout.strip() == "PASSIVE", out.stderr
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120,
                         env={**env, "OMP_WAIT_POLICY": "ACTIVE"})
    assert out.stdout.strip() == "ACTIVE"
