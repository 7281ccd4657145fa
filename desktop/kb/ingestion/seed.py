"""Precomputed embeddings for the bundled sample knowledge base.

Embedding the sample laws takes minutes on a laptop CPU; its vectors are computed once when the
sample changes (``scripts/build_sample_seed.py``) and shipped beside the PDFs. On first start they go
into the embedding cache, so building the sample database only reads the PDFs. A seed that no longer
matches the chunking just misses the cache, and those chunks are embedded as usual.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np

from desktop.kb.search.embedcache import EmbeddingCache
from desktop.kb.ingestion.ingest import embed_text

SEED_NAME = "sample-embeddings.npz"


def load_seed(cache: EmbeddingCache, file: Path, model_id: str) -> int:
    """Put the seed's vectors into the cache when they were made by ``model_id``; returns how many."""
    if not file.is_file():
        return 0
    with np.load(file, allow_pickle=False) as data:
        if str(data["model"]) != model_id:
            return 0
        keys = [bytes(k) for k in data["keys"]]
        vectors = data["vectors"].astype(np.float32)
    cache.put_keys(model_id, keys, vectors)
    return len(keys)


def write_seed(kb: "KnowledgeBase", file: Path) -> int:  # noqa: F821 - avoids a circular import
    """Store the vectors of every chunk of ``kb`` (computing the missing ones) as a seed file."""
    names = {d.doc_id: (d.short_name, d.title) for d in kb.documents()}
    chunks = kb.catalog.chunks_where("1 = 1")
    texts = [embed_text(*names[c.doc_id], c) for c in chunks]
    vectors = kb.embedder.embed_passages(texts)
    keys = np.array([EmbeddingCache.key(t) for t in texts], dtype="S20")
    np.savez_compressed(file, model=np.array(kb.embedder.model_id), keys=keys, vectors=vectors.astype(np.float16))
    return len(texts)
