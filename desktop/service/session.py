"""The window's workspace: the one owner of the knowledge bases, the run store, the LLM client and the
research engine made of them, living on the engine's event loop. Every method is called on that loop;
anything else (the window's bridge) asks through it, so nothing is opened twice or closed while in use."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import TypeVar

from desktop.engine import events as ev
from desktop.engine.resources import KnowledgeBases, ThreadCalls
from desktop.engine.runner import ResearchEngine
from desktop.engine.state import RunState
from desktop.engine.store import RunStore, RunSummary
from desktop.kb.database import KnowledgeBase
from desktop.llm.factory import make_backend
from desktop.llm.protocol import LlmBackend
from desktop.paths import AppPaths
from desktop.settings import Settings

T = TypeVar("T")


class Workspace:
    def __init__(self, paths: AppPaths, settings: Settings, runs_file: Path | None = None) -> None:
        self.paths = paths
        self.settings = settings
        self.store = RunStore(runs_file or paths.runs_file)
        self.threads = ThreadCalls()
        self.kbs = KnowledgeBases(self._open_kb, self.threads)
        self._llm: LlmBackend | None = None
        self._engine: ResearchEngine | None = None
        self._subscribers: list[ev.Subscriber] = []

    def _open_kb(self, name: str) -> KnowledgeBase:
        return KnowledgeBase.open(self.paths, self.settings, name)

    def subscribe(self, subscriber: ev.Subscriber) -> None:
        """Engine events for ``subscriber``, from this engine and every one made after a settings change."""
        self._subscribers.append(subscriber)
        if self._engine is not None:
            self._engine.subscribe(subscriber)

    def engine(self) -> ResearchEngine:
        """The research engine, made on first use with the LLM client of the current settings."""
        if self._engine is None:
            self._llm = make_backend(self.settings.llm)
            self._engine = ResearchEngine(self.store, self._llm, self.kbs, self.settings.research)
            for subscriber in self._subscribers:
                self._engine.subscribe(subscriber)
        return self._engine

    async def runs(self) -> list[RunSummary]:
        return await self.threads.run(self.engine().runs)

    async def load(self, run_id: str) -> RunState:
        """A run's saved state, read in a worker thread (a long run's state is large)."""
        return await self.threads.run(self.engine().load, run_id)

    async def in_thread(self, fn: Callable[[], T]) -> T:
        return await self.threads.run(fn)

    async def run(self, database: str, fn: Callable[[KnowledgeBase], T]) -> T:
        """``fn(kb)`` in a worker thread on the named knowledge base (opened once, here)."""
        return await self.kbs.use(database, fn)

    async def without(self, database: str, fn: Callable[[], T]) -> T:
        """``fn()`` in a worker thread while the named database is closed here (deleting or building it)."""
        return await self.kbs.without(database, fn)

    async def apply(self, settings: Settings) -> None:
        """Use new settings: a running step is cancelled and awaited (its run stays resumable) before the
        LLM client and the knowledge bases close; the next use opens them with the new settings."""
        await self._close()
        self.settings = settings

    async def aclose(self) -> None:
        await self._close()
        self.threads.shutdown()
        self.store.close()

    async def _close(self) -> None:
        engine, llm, self._engine, self._llm = self._engine, self._llm, None, None
        if engine is not None:
            await engine.stop()
        if llm is not None:
            await llm.aclose()
        await self.kbs.close_all()
