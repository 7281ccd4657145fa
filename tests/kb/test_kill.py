"""SIGKILL in the middle of an ingest (a real ``rabbithole`` process) leaves a consistent database,
and running the same command again finishes the job."""

from __future__ import annotations

import os
import signal
import sqlite3
import subprocess
import sys
import time
from pathlib import Path

import psutil
import pytest
from support import pdfs

from desktop.kb.database import KnowledgeBase
from desktop.paths import resolve_paths
from desktop.settings import Settings

pytestmark = pytest.mark.slow


def _ingest_cmd(folder: Path, data_dir: Path) -> list[str]:
    return [sys.executable, "-m", "desktop", "kb", "ingest", str(folder), "--db", "K", "--data-dir", str(data_dir)]


def _count(data_dir: Path, sql: str) -> int:
    file = data_dir / "databases" / "K" / "catalog.sqlite"
    if not file.exists():
        return 0
    try:
        with sqlite3.connect(f"file:{file}?mode=ro", uri=True, timeout=5) as db:
            return int(db.execute(sql).fetchone()[0])
    except sqlite3.OperationalError:
        return 0  # tables not created yet


def _kill_when(proc: subprocess.Popen, ready, timeout: float = 120) -> None:  # noqa: ANN001
    deadline = time.monotonic() + timeout
    while not ready():
        if proc.poll() is not None:
            pytest.fail(f"the ingest ended before it could be killed:\n{proc.stderr.read().decode()[-2000:]}")
        if time.monotonic() > deadline:
            proc.kill()
            pytest.fail("the ingest never reached the point to kill it")
        time.sleep(0.05)
    workers = psutil.Process(proc.pid).children(recursive=True)
    os.kill(proc.pid, signal.SIGKILL)
    proc.wait(30)
    # its PDF-reading workers end with it instead of lingering as orphans
    gone, alive = psutil.wait_procs(workers, timeout=15)
    assert not alive, f"worker processes outlived the killed ingest: {[p.pid for p in alive]}"


def _finish(folder: Path, data_dir: Path) -> str:
    done = subprocess.run(_ingest_cmd(folder, data_dir), capture_output=True, timeout=600)
    assert done.returncode == 0, done.stderr.decode()[-2000:]
    return done.stdout.decode()


def _state(data_dir: Path) -> tuple[dict[str, int], list[str], int]:
    with KnowledgeBase.open(resolve_paths(data_dir), Settings(), "K") as kb:
        return {d.file_name: d.chunks for d in kb.documents()}, kb.verify(), kb.pending_embeddings()


def test_kill_during_embedding_then_resume(tmp_path: Path) -> None:
    folder = tmp_path / "docs"
    folder.mkdir()
    for i in range(4):
        pdfs.statute(folder / f"law{i}.pdf", abbreviation=f"Kill{i}G", sections=10, words=50)
    data = tmp_path / "data"
    proc = subprocess.Popen(_ingest_cmd(folder, data), stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    _kill_when(proc, lambda: _count(data, "SELECT COUNT(*) FROM chunks WHERE embedded = 1") >= 16)

    docs, problems, pending = _state(data)
    assert problems == []
    assert len(docs) == 4 and pending > 0  # killed half-way through the vectors

    out = _finish(folder, data)
    assert sum(line.startswith("unchanged") for line in out.splitlines()) == 4
    docs_after, problems, pending = _state(data)
    assert docs_after == docs and problems == [] and pending == 0


def test_kill_during_extraction_then_resume(tmp_path: Path) -> None:
    folder = tmp_path / "docs"
    folder.mkdir()
    for i in range(24):  # different files, the same §§: the rerun's embeddings come from the cache
        pdfs.statute(folder / f"law{i:02d}.pdf", abbreviation="KxG", sections=40, words=80, edition=f"2020-01-{i + 1:02d}")
    data = tmp_path / "data"
    proc = subprocess.Popen(_ingest_cmd(folder, data), stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    _kill_when(proc, lambda: _count(data, "SELECT COUNT(*) FROM documents") >= 3)

    docs, problems, _ = _state(data)
    assert problems == []
    assert 3 <= len(docs) < 24
    # every document that made it is whole: chunks of every page, nothing of a half-read file
    expected = next(iter(docs.values()))
    assert all(n == expected for n in docs.values())
    assert _count(data, "SELECT COUNT(*) FROM chunks WHERE doc_id NOT IN (SELECT doc_id FROM documents)") == 0
    assert _count(data, "SELECT COUNT(*) FROM pages WHERE doc_id NOT IN (SELECT doc_id FROM documents)") == 0

    _finish(folder, data)
    docs_after, problems, pending = _state(data)
    assert len(docs_after) == 24 and problems == [] and pending == 0
    assert all(n == expected for n in docs_after.values())
