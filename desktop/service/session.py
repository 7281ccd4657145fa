"""The session: the one owner of the knowledge bases, the run store, the LLM client and the research engine
made of them, living on one event loop (docs/architecture.md §5). The window's bridge and the command line
are adapters over it: every method is a coroutine called on that loop, and blocking work runs in the
session's counted worker threads, so nothing is opened twice, read from a thread nobody waits for, or
closed while in use."""

from __future__ import annotations

from collections.abc import AsyncIterator, Callable
from contextlib import asynccontextmanager
from pathlib import Path
from typing import TypeVar

from desktop.engine import events as ev
from desktop.engine.resources import RUN_STORE, KnowledgeBases, ThreadCalls
from desktop.engine.runner import ResearchEngine, StateWatcher
from desktop.engine.state import RunState
from desktop.engine.store import RunStore, RunSummary
from desktop.kb.database import KnowledgeBase
from desktop.llm.factory import make_backend
from desktop.llm.protocol import LlmBackend
from desktop.llm.types import Health, ModelInfo, PullProgress
from desktop.paths import AppPaths
from desktop.report.export import export_all
from desktop.report.model import ReviewStatus
from desktop.report.review import accepted_only as accepted_claims
from desktop.service.environment import reviewer
from desktop.service.library import Library
from desktop.settings import LlmSettings, Settings

T = TypeVar("T")


class Session:
    def __init__(self, paths: AppPaths, settings: Settings, runs_file: Path | None = None) -> None:
        self.paths = paths
        self._settings = settings
        self._runs_file = runs_file or paths.runs_file
        self._store: RunStore | None = None
        self.threads = ThreadCalls()
        self.kbs = KnowledgeBases(self._open_kb, self.threads)
        self.library = Library(paths, lambda: self._settings, self.kbs)
        self._llm: LlmBackend | None = None
        self._engine: ResearchEngine | None = None
        self._subscribers: list[ev.Subscriber] = []
        self._watchers: list[StateWatcher] = []

    async def __aenter__(self) -> Session:
        return self

    async def __aexit__(self, *exc: object) -> None:
        await self.aclose()

    @property
    def store(self) -> RunStore:
        """The run store, opened on first use (listing models or databases creates no runs file)."""
        if self._store is None:
            self._store = RunStore(self._runs_file)
        return self._store

    @property
    def settings(self) -> Settings:
        """The settings in use: a value replaced whole by ``apply``, never changed in place."""
        return self._settings

    def _open_kb(self, name: str) -> KnowledgeBase:
        return KnowledgeBase.open(self.paths, self._settings, name)

    # --- observation -----------------------------------------------------------------------------

    def subscribe(self, subscriber: ev.Subscriber) -> None:
        """Engine events for ``subscriber``, from this engine and every one made after a settings change."""
        self._subscribers.append(subscriber)
        if self._engine is not None:
            self._engine.subscribe(subscriber)

    def watch(self, watcher: StateWatcher) -> None:
        """Each run's state as saved, with its events (``ResearchEngine.watch``), from every engine."""
        self._watchers.append(watcher)
        if self._engine is not None:
            self._engine.watch(watcher)

    def engine(self) -> ResearchEngine:
        """The research engine, made on first use with the LLM client of the current settings."""
        if self._engine is None:
            self._llm = make_backend(self._settings.llm)
            self._engine = ResearchEngine(self.store, self._llm, self.kbs, self._settings.research)
            for subscriber in self._subscribers:
                self._engine.subscribe(subscriber)
            for watcher in self._watchers:
                self._engine.watch(watcher)
        return self._engine

    # --- runs --------------------------------------------------------------------------------------

    async def runs(self) -> list[RunSummary]:
        return await self.threads.run(self.store.runs)

    async def load(self, run_id: str) -> RunState:
        """A run's saved state, read in a worker thread (a long run's state is large)."""
        return await self.threads.run(self.store.load, run_id)

    async def events(self, run_id: str) -> list[ev.Event]:
        """Everything the run recorded, in order: its audit trail."""
        return await self.threads.run(self.store.events, run_id)

    async def start(self, question: str, database: str, *, auto: bool = False, setup_s: float = 0.0) -> str:
        """A new run, saved and not yet started: its id at once (``resume`` drives it). ``setup_s``: the
        caller's start-up, counted in the run's time (``Engine.create``)."""
        return (await self.engine().create(question, database, auto=auto, setup_s=setup_s)).run_id

    async def resume(self, run_id: str) -> RunState:
        """Drive a run (a new one, or one stopped, failed or cancelled) to its next checkpoint."""
        return await self.engine().resume(run_id)

    async def answer(self, run_id: str, text: str | None, end: bool = False) -> RunState:
        return await self.engine().answer(run_id, text, end=end)

    async def add_todo(self, run_id: str, task: str, context: str = "") -> RunState:
        return await self.engine().add_todo(run_id, task, context)

    async def edit_todo(self, run_id: str, todo_id: int, task: str | None = None,
                        context: str | None = None) -> RunState:
        return await self.engine().edit_todo(run_id, todo_id, task, context)

    async def remove_todo(self, run_id: str, todo_id: int) -> RunState:
        return await self.engine().remove_todo(run_id, todo_id)

    async def move_todo(self, run_id: str, todo_id: int, position: int) -> RunState:
        return await self.engine().move_todo(run_id, todo_id, position)

    async def replan(self, run_id: str, feedback: str) -> RunState:
        return await self.engine().replan(run_id, feedback)

    async def approve(self, run_id: str) -> RunState:
        return await self.engine().approve(run_id)

    async def skip_task(self, run_id: str, task_id: int) -> RunState | None:
        return await self.engine().skip_task(run_id, task_id)

    async def review(self, run_id: str, target: str, status: ReviewStatus | None, note: str = "") -> RunState:
        """Mark a claim ("claim:N") or finding ("finding:GROUP.N") of the run's report accepted, rejected or
        to check (None: take the mark back), signed with the account that is signed in."""
        return await self.engine().review(run_id, target, status, note, reviewer())

    def cancel(self, run_id: str) -> None:
        """Stop a run at once; it stays resumable from before the step in flight."""
        if self._engine is not None:
            self._engine.cancel(run_id)

    async def export(self, run_id: str, out_dir: Path, fmt: str = "all", stem: str = "report",
                     accepted_only: bool = False) -> dict[str, Path]:
        """Write a run's report (one format, or "all" with the audit trail) into ``out_dir``, the files named
        ``stem`` + extension, in a worker thread; ``accepted_only``: its answer with only the claims the
        reviewer accepted."""
        store = self.store

        def export() -> dict[str, Path]:
            state = store.load(run_id)
            report = state.later.report
            if report is None:
                raise ValueError("this run has no report yet")
            report = accepted_claims(report) if accepted_only else report
            if fmt != "all":
                return export_all(report, out_dir, formats=[fmt], stem=stem)
            return export_all(report, out_dir, ev.audit_records(store.events(run_id)), stem=stem)

        return await self.threads.run(export)

    # --- the LLM server ----------------------------------------------------------------------------

    @asynccontextmanager
    async def _server(self, llm: LlmSettings | None) -> AsyncIterator[LlmBackend]:
        """A client of its own for one server call (``llm`` as typed in the settings, or the configured
        one), closed after it: the engine's client stays with the engine."""
        backend = make_backend(llm or self._settings.llm)
        try:
            yield backend
        finally:
            await backend.aclose()

    async def llm_health(self, llm: LlmSettings | None = None) -> Health:
        async with self._server(llm) as backend:
            return await backend.health()

    async def models(self, llm: LlmSettings | None = None) -> list[ModelInfo]:
        async with self._server(llm) as backend:
            return await backend.list_models()

    async def pull(self, model: str, llm: LlmSettings | None = None) -> AsyncIterator[PullProgress]:
        """Download a model to the server, step by step; closing the iterator stops it."""
        async with self._server(llm) as backend:
            async for step in backend.pull(model):
                yield step

    # --- settings and closing ------------------------------------------------------------------------

    async def in_thread(self, fn: Callable[[], T]) -> T:
        return await self.threads.run(fn)

    async def apply(self, settings: Settings) -> None:
        """Use new settings: a running step is cancelled and awaited (its run stays resumable) before the
        LLM client and the knowledge bases close; the next use opens them with the new settings."""
        await self._close()
        self._settings = settings

    async def aclose(self) -> None:
        await self._close()
        await self.threads.drain(RUN_STORE)  # a run's last state is written before the store closes
        self.threads.shutdown()
        if self._store is not None:
            self._store.close()

    async def _close(self) -> None:
        engine, llm, self._engine, self._llm = self._engine, self._llm, None, None
        if engine is not None:
            await engine.stop()
        if llm is not None:
            await llm.aclose()
        await self.kbs.close_all()
