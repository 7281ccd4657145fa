"""The vector store in a child process, for the desktop window.

Chroma's embedded client holds Python's global interpreter lock through each call (an upsert of 16
vectors keeps it 30-100 ms, most of it its own commit), so in the window's process every write
during an ingestion froze the GUI thread for as long. Here one child process per database owns the
embedded Chroma store; the window's process sends it calls over a pipe and waits on the pipe, which
leaves the lock free. Same interface as ``VectorStore``; its errors arrive as the same exceptions.
The child ends with its pipe: when the window closes the store, or when the window's process dies.
"""

from __future__ import annotations

import multiprocessing
import multiprocessing.connection
import pickle
import threading
from pathlib import Path
from typing import Any

import numpy as np

from desktop.kb.errors import VectorStoreUnavailable

_START_TIMEOUT_S = 120  # importing chromadb and opening a large store on a slow disk


def _serve(conn: multiprocessing.connection.Connection, folder: str, database: str, embedder_spec: str, host: str,
           where: str) -> None:
    from desktop.kb.search.vectors import VectorStore, make_client

    try:
        store = VectorStore(make_client(Path(folder)), database, embedder_spec, host, where)
    except Exception as exc:  # noqa: BLE001 - reported to the parent, which raises it
        _reply(conn, False, exc)
        return
    _reply(conn, True, None)
    while True:
        try:
            request = conn.recv()
        except (EOFError, OSError):
            return  # the parent closed the store or died
        if request is None:
            return
        method, args = request
        try:
            _reply(conn, True, getattr(store, method)(*args))
        except Exception as exc:  # noqa: BLE001
            _reply(conn, False, exc)


def _reply(conn: multiprocessing.connection.Connection, ok: bool, value: Any) -> None:
    if not ok and not _picklable(value):
        value = VectorStoreUnavailable(f"the vector store failed: {value}")
    try:
        conn.send((ok, value))
    except (BrokenPipeError, OSError):
        pass


def _picklable(value: Any) -> bool:
    try:
        pickle.loads(pickle.dumps(value))
    except Exception:  # noqa: BLE001
        return False
    return True


class VectorStoreProcess:
    """``VectorStore`` served by a child process; calls from several threads are taken in turn."""

    def __init__(self, folder: Path, database: str, embedder_spec: str, host: str = "", where: str = "") -> None:
        self.where = where or "the local database"
        ctx = multiprocessing.get_context("spawn")
        self._conn, child = ctx.Pipe()
        self._process = ctx.Process(target=_serve, name=f"rabbithole-vectors-{database}", daemon=True,
                                    args=(child, str(folder), database, embedder_spec, host, self.where))
        self._process.start()
        child.close()
        self._lock = threading.Lock()
        if not self._conn.poll(_START_TIMEOUT_S):
            self.close()
            raise VectorStoreUnavailable(f"the vector store at {self.where} did not start in {_START_TIMEOUT_S} s")
        self._result()

    def _result(self) -> Any:
        try:
            ok, value = self._conn.recv()
        except (EOFError, OSError) as exc:
            raise VectorStoreUnavailable(f"the vector store process for {self.where} ended unexpectedly "
                                         f"(exit code {self._process.exitcode})") from exc
        if not ok:
            raise value
        return value

    def _call(self, method: str, *args: Any) -> Any:
        with self._lock:
            if self._conn.closed:
                raise VectorStoreUnavailable(f"the vector store at {self.where} is closed")
            try:
                self._conn.send((method, args))
            except (BrokenPipeError, OSError) as exc:
                raise VectorStoreUnavailable(f"the vector store process for {self.where} is gone") from exc
            return self._result()

    def upsert(self, ids: list[str], vectors: np.ndarray, texts: list[str], metadatas: list[dict[str, Any]]) -> None:
        if ids:
            self._call("upsert", ids, np.asarray(vectors, dtype=np.float32), texts, metadatas)

    def delete(self, ids: list[str]) -> None:
        self._call("delete", ids)

    def count(self) -> int:
        return self._call("count")

    def all_ids(self) -> set[str]:
        return self._call("all_ids")

    def vectors(self, ids: list[str]) -> dict[str, np.ndarray]:
        return self._call("vectors", ids)

    def query(self, vector: np.ndarray, k: int, where: dict[str, Any] | None = None) -> list[tuple[str, float]]:
        return self._call("query", np.asarray(vector, dtype=np.float32), k, where)

    def drop(self) -> None:
        self._call("drop")

    def close(self) -> None:
        with self._lock:
            if not self._conn.closed:
                try:
                    self._conn.send(None)
                except (BrokenPipeError, OSError):
                    pass
                self._conn.close()
        self._process.join(timeout=10)
        if self._process.is_alive():
            self._process.kill()


_enabled = False


def serve_vectors_from_child_process(enabled: bool = True) -> None:
    """Process-wide choice of the composition root: the window turns it on; the command line, whose
    only thread is the one waiting anyway, keeps Chroma in-process."""
    global _enabled
    _enabled = enabled


def child_process_enabled() -> bool:
    return _enabled
