"""The resources one event loop owns: the open knowledge bases and the worker threads that use them.

Everything here is called on that loop, so its maps need no lock and no other thread ever waits on
one. Blocking work (opening or closing a knowledge base, an ingest, a search) runs in a worker thread
and is counted: cancelling the coroutine that waits for it does not stop the thread, so whoever closes
a knowledge base first waits until no thread still uses it (Anki gives its collection one owner the
same way).
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import contextvars
import os
from collections.abc import Callable
from typing import Any, TypeVar

from desktop.kb.database import KnowledgeBase

T = TypeVar("T")


# ``uses`` of the run store's writes: not a database name (those start with a letter or digit)
RUN_STORE = ":runs"


class ThreadCalls:
    """Blocking calls in worker threads, awaited on the loop, and known until they have really ended."""

    def __init__(self, workers: int | None = None) -> None:
        self._executor = concurrent.futures.ThreadPoolExecutor(
            max_workers=workers or min(32, (os.cpu_count() or 1) + 4), thread_name_prefix="rabbithole-work")
        self._pending: dict[concurrent.futures.Future[Any], str] = {}  # call -> what it uses ("" unnamed)

    async def run(self, fn: Callable[..., T], *args: Any, uses: str = "") -> T:
        """``fn(*args)`` in a worker thread, with the caller's context variables (a step's audit list);
        ``uses`` names the knowledge base it works on, so closing that one waits for it."""
        self._pending = {f: u for f, u in self._pending.items() if not f.done()}
        future = self._executor.submit(contextvars.copy_context().run, fn, *args)
        self._pending[future] = uses
        return await asyncio.wrap_future(future)

    def busy(self, uses: str | None = None) -> int:
        """Calls still running or queued (a cancelled await leaves its thread running: it counts)."""
        return len(self._running(uses))

    def _running(self, uses: str | None) -> list[concurrent.futures.Future[Any]]:
        return [f for f, u in self._pending.items() if not f.done() and (uses is None or u == uses)]

    async def drain(self, uses: str | None = None) -> None:
        """Wait until every call made so far (on ``uses``, or all) has ended, whoever stopped waiting."""
        while running := self._running(uses):
            await asyncio.wait([asyncio.wrap_future(f) for f in running])

    def shutdown(self) -> None:
        self._executor.shutdown(wait=False, cancel_futures=True)


class KnowledgeBases:
    """The open knowledge bases by name: each opened once, on demand, in a worker thread."""

    def __init__(self, open_kb: Callable[[str], KnowledgeBase], threads: ThreadCalls | None = None) -> None:
        self._open_kb = open_kb
        self.threads = threads or ThreadCalls()
        self._open: dict[str, KnowledgeBase] = {}
        self._locks: dict[str, asyncio.Lock] = {}

    def _lock(self, name: str) -> asyncio.Lock:
        return self._locks.setdefault(name, asyncio.Lock())

    async def get(self, name: str) -> KnowledgeBase:
        async with self._lock(name):
            kb = self._open.get(name)
            if kb is None:
                kb = self._open[name] = await self.threads.run(self._open_kb, name)
            return kb

    async def use(self, name: str, fn: Callable[[KnowledgeBase], T]) -> T:
        """``fn(kb)`` in a worker thread: a search, a listing, an ingest."""
        kb = await self.get(name)
        return await self.threads.run(fn, kb, uses=name)

    async def without(self, name: str, fn: Callable[[], T]) -> T:
        """``fn()`` in a worker thread with the database closed here and opened by no one meanwhile
        (deleting it, or building it with a handle of its own)."""
        async with self._lock(name):
            await self._close(name)
            return await self.threads.run(fn)

    async def close_all(self) -> None:
        """Close every open knowledge base once no thread uses it any more."""
        for name in list(self._open):
            async with self._lock(name):
                await self._close(name)

    async def _close(self, name: str) -> None:
        kb = self._open.pop(name, None)
        if kb is not None:
            await self.threads.drain(name)
            await self.threads.run(kb.close)  # a vector child process is joined off the loop's thread
