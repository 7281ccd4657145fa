"""`rabbithole` without a command opens the window — the README's `make run` — and on a first start
builds the sample database while the window runs, without an LLM server."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import psutil
import pytest

pytestmark = pytest.mark.slow


def test_the_window_starts_and_builds_the_sample(tmp_path: Path) -> None:
    env = {**os.environ, "QT_QPA_PLATFORM": "offscreen", "RABBITHOLE_DATA_DIR": str(tmp_path),
           "OLLAMA_HOST": "http://127.0.0.1:9"}  # nobody listens: the window must say so, not fail
    proc = subprocess.Popen([sys.executable, "-m", "desktop"], env=env, stdout=subprocess.PIPE,
                            stderr=subprocess.STDOUT, text=True)
    catalog = tmp_path / "databases" / "Sample" / "catalog.sqlite"
    try:
        deadline = time.monotonic() + 180
        while not (catalog.exists() and _sample_complete(catalog)):
            assert proc.poll() is None, f"the window exited ({proc.returncode}):\n{proc.stdout.read()[-3000:]}"
            assert time.monotonic() < deadline, "the sample database was not ready in time"
            time.sleep(0.5)
        time.sleep(1)
        assert proc.poll() is None  # still running: no crash after the first start's work
        children = psutil.Process(proc.pid).children(recursive=True)
    finally:
        proc.send_signal(signal.SIGTERM)
        proc.wait(30)
    _, alive = psutil.wait_procs(children, timeout=20)
    assert not alive, "child processes outlived the window"
    log = (tmp_path / "logs" / "rabbithole.log").read_text(encoding="utf-8")
    assert "Traceback" not in log


def _sample_complete(catalog: Path) -> bool:
    import sqlite3

    try:
        with sqlite3.connect(f"file:{catalog}?mode=ro", uri=True, timeout=1) as db:
            docs, pending = db.execute("SELECT (SELECT COUNT(*) FROM documents), "
                                       "(SELECT COUNT(*) FROM chunks WHERE embedded = 0)").fetchone()
    except sqlite3.Error:
        return False
    return docs == 5 and pending == 0
