"""The vector store served by a child process (the window's setting): the same answers and errors as
in-process, a knowledge base that ingests and searches through it, and no child left behind."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import textwrap
from collections.abc import Iterator
from pathlib import Path

import numpy as np
import psutil
import pytest
from support import pdfs

from desktop.kb.search import vector_process
from desktop.kb.database import KnowledgeBase
from desktop.kb.errors import VectorStoreUnavailable
from desktop.kb.search.vector_process import VectorStoreProcess
from desktop.kb.search.vectors import VectorStore, make_client
from desktop.paths import AppPaths
from desktop.settings import Settings

pytestmark = pytest.mark.slow


def _unit(rows: int, dim: int = 8, seed: int = 0) -> np.ndarray:
    v = np.random.default_rng(seed).normal(size=(rows, dim)).astype(np.float32)
    return v / np.linalg.norm(v, axis=1, keepdims=True)


@pytest.fixture
def child_store(tmp_path: Path) -> Iterator[VectorStoreProcess]:
    store = VectorStoreProcess(tmp_path, "T", "offline")
    yield store
    store.close()


def test_child_process_store_answers_like_the_in_process_one(child_store: VectorStoreProcess, tmp_path: Path) -> None:
    local = VectorStore(make_client(tmp_path / "local"), "T", "offline")
    vectors = _unit(40)
    ids = [f"c{i}" for i in range(40)]
    meta = [{"doc_id": "d1" if i < 20 else "d2", "page": i} for i in range(40)]
    for store in (child_store, local):
        store.upsert(ids, vectors, [f"text {i}" for i in range(40)], meta)
    assert child_store.count() == local.count() == 40
    assert child_store.all_ids() == local.all_ids() == set(ids)
    query = vectors[3]
    assert [c for c, _ in child_store.query(query, 5)] == [c for c, _ in local.query(query, 5)]
    filtered, expected = child_store.query(query, 3, {"doc_id": "d2"}), local.query(query, 3, {"doc_id": "d2"})
    assert [c for c, _ in filtered] == [c for c, _ in expected] and all(int(c[1:]) >= 20 for c, _ in filtered)
    assert [s for _, s in filtered] == pytest.approx([s for _, s in expected])
    got = child_store.vectors(["c1", "c7", "missing"])
    assert set(got) == {"c1", "c7"} and np.allclose(got["c7"], vectors[7], atol=1e-6)
    child_store.delete(ids[:10])
    assert child_store.count() == 30


def test_errors_arrive_as_the_stores_own(child_store: VectorStoreProcess) -> None:
    child_store.upsert(["a"], _unit(1), ["t"], [{"doc_id": "d", "page": 1}])
    with pytest.raises(VectorStoreUnavailable, match="failed to search"):
        child_store.query(np.ones(3, dtype=np.float32), 1)  # wrong dimension
    assert child_store.count() == 1  # and the store goes on serving


def test_a_closed_store_says_so(tmp_path: Path) -> None:
    store = VectorStoreProcess(tmp_path, "T", "offline")
    process = store._process
    store.close()
    assert not process.is_alive()
    with pytest.raises(VectorStoreUnavailable, match="closed"):
        store.count()


def test_knowledge_base_ingests_and_searches_through_the_child(app_paths: AppPaths, settings: Settings,
                                                              tmp_path: Path) -> None:
    vector_process.serve_vectors_from_child_process(True)  # (the conftest turns it off again)
    pdf = pdfs.report(tmp_path / "Merkblatt.pdf", ["Die Messstelle wertet die Dosimeter monatlich aus und meldet die Dosis."])
    with KnowledgeBase.open(app_paths, settings, "Child", create=True) as kb:
        report = kb.ingest([pdf])
        assert report.embedded >= 1 and not report.embed_error
        assert isinstance(kb.vectors, VectorStoreProcess)
        child = kb.vectors._process
        hits = kb.search("Dosimeter Auswertung", k=3, mode="dense")
        assert hits and hits[0].doc == "Merkblatt.pdf"
    assert not child.is_alive()  # closing the knowledge base ends its store's process
    vector_process.serve_vectors_from_child_process(False)
    with KnowledgeBase.open(app_paths, settings, "Child") as kb:  # what the child stored is on disk
        assert kb.vectors.count() == report.embedded
        assert kb.search("Dosimeter Auswertung", k=3, mode="dense")[0].doc == "Merkblatt.pdf"


def test_the_child_ends_when_its_parent_is_killed(tmp_path: Path) -> None:
    script = textwrap.dedent(f"""
        import sys, time
        from pathlib import Path
        from desktop.kb.search.vector_process import VectorStoreProcess
        if __name__ == "__main__":
            store = VectorStoreProcess(Path({str(tmp_path)!r}), "T", "offline")
            print(store._process.pid, flush=True)
            time.sleep(600)
    """)
    parent = subprocess.Popen([sys.executable, "-c", script], stdout=subprocess.PIPE, text=True)
    try:
        child = psutil.Process(int(parent.stdout.readline()))
        os.kill(parent.pid, signal.SIGKILL)
        parent.wait(30)
        child.wait(30)  # psutil.TimeoutExpired if it lingers
    finally:
        parent.kill()
