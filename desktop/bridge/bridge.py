"""EngineBridge: the one QObject between the window and the service's ``Session``.

The session lives on the engine's event loop thread and does everything slow there (or in its worker
threads); results, engine events, the runs' saved states and ingestion progress come back as Qt signals on
the GUI thread, as views (bridge/views.py, bridge/kb_views.py) the widgets read instead of the engine's own
types; failures become a message, never a dead window.
"""

from __future__ import annotations

import logging
import traceback
from collections.abc import Callable
from pathlib import Path
from typing import Any

from PySide6.QtCore import QObject, Signal

from desktop.bridge.kb_views import (
    document_view, health_view, model_view, progress_view, pull_view, report_view, server_health_view,
)
from desktop.bridge.views import RunSummaryView, estimate_view, log_line, run_view, summary_view
from desktop.bridge.worker import Handler, LoopThread, Op
from desktop.paths import AppPaths
from desktop.service import (
    SAMPLE_DB, CancelToken, CommandError, IngestReport, KbError, LlmError, RunNotFound, RunState, Session,
    local_databases,
)
from desktop.service import events as ev
from desktop.settings import LlmSettings, ServerSettings, Settings, save_settings

log = logging.getLogger(__name__)
EXPECTED = (KbError, LlmError, CommandError, RunNotFound, OSError, ValueError)
# Events after which the run's saved state has changed in a way the window shows (tasks, phase, plan, a
# clarification round's searches and chunks: seen, a round's queries and chunks stood unshown for the minute its
# analysis took on a 1.5B model)
_SHOWN_ON = (ev.TaskStarted, ev.TaskDone, ev.PhaseStarted, ev.QueriesGenerated, ev.ChunksRetrieved, ev.CoverageUpdated,
             ev.QuestionsAsked, ev.TodosProposed)


def user_message(exc: BaseException) -> str:
    """What the user reads: our errors speak for themselves; anything else is named and logged."""
    if isinstance(exc, EXPECTED):
        return str(exc)
    log.error("unexpected error\n%s", "".join(traceback.format_exception(exc)))
    return f"Unexpected error ({type(exc).__name__}): {exc}. Details are in the log file."


class EngineBridge(QObject):
    engineEvent = Signal(object)  # an engine event, from the loop to the GUI thread (the bridge's own use)
    runSaved = Signal(str, object)  # a run's id and the RunView of its saved state, from the loop (the bridge's own)
    runCreated = Signal(str)  # a new run's id, from the loop before its first event (the bridge's own)
    runChanged = Signal(object)  # RunView after a command, a step the window shows, or a stop
    logLine = Signal(object)  # LogLine for the run's log
    runLog = Signal(str, object)  # a run the window now shows, and its log so far (list[LogLine])
    phaseStarted = Signal(str)
    tokensUsed = Signal(int)  # the run's tokens so far
    draftText = Signal(str, int)  # a piece of the answer being written, and which attempt it belongs to
    estimateReady = Signal(object)  # EstimateView
    ingestProgress = Signal(object)  # IngestProgressView
    ingestFinished = Signal(object)  # IngestReportView
    documentsChanged = Signal(str, object)  # database, list[DocumentView]
    backlogChanged = Signal(object)  # dict[str, int]: chunks still to embed, by database (those with some)
    databasesChanged = Signal(object)  # list[str]
    llmHealth = Signal(object)  # HealthView
    error = Signal(str)  # a message for the user
    busy = Signal(str, bool)  # what is running, and whether it still is

    sample_database = SAMPLE_DB

    def __init__(self, paths: AppPaths, settings: Settings) -> None:
        super().__init__()
        self.paths = paths
        self.settings = settings  # what the window shows and edits; the session has its own reference
        self.loop = LoopThread()
        # The knowledge bases, the run store, the LLM client and the engine belong to the session on the
        # loop: the bridge only asks it, from coroutines on that loop.
        self._session = Session(paths, settings)
        self._session.subscribe(self.engineEvent.emit)
        self._session.watch(self._saved)
        self.engineEvent.connect(self._deliver)  # queued: runs on the GUI thread
        self.runSaved.connect(self._show_saved)
        self.runCreated.connect(self._created)
        self._ingest_cancel: CancelToken | None = None
        self._server_databases: list[str] = []  # the team server's, as last fetched
        self.current_run: str | None = None  # the run the window shows

    def _saved(self, state: RunState, events: list[ev.Event]) -> None:
        """On the loop: a run saved with an event the window shows gets its view built here, from the engine's
        snapshot, and sent to the GUI thread (the window never reloads a run to show it)."""
        if any(isinstance(e, _SHOWN_ON) for e in events):
            self.runSaved.emit(state.run_id, run_view(state))

    def _show_saved(self, run_id: str, view: object) -> None:
        if run_id == self.current_run:
            self.runChanged.emit(view)

    def _created(self, run_id: str) -> None:
        self.current_run = run_id

    def _deliver(self, event: ev.Event) -> None:
        """An engine event of the shown run as the views the window reads (another run's, still driven in
        the background, is in its own log when that run is shown)."""
        if event.run_id and event.run_id != self.current_run:
            return
        if (line := log_line(event)) is not None:
            self.logLine.emit(line)
        if isinstance(event, ev.PhaseStarted):
            self.phaseStarted.emit(event.phase)
        elif isinstance(event, ev.TokenUsage):
            self.tokensUsed.emit(event.total.total_tokens)
        elif isinstance(event, ev.SynthesisTokens):
            self.draftText.emit(event.text, event.attempt)
        elif isinstance(event, ev.EstimateReady):
            self.estimateReady.emit(estimate_view(event))

    def _emit_run(self, state: RunState) -> None:
        self.current_run = state.run_id
        self.runChanged.emit(run_view(state))

    # --- plumbing -------------------------------------------------------------------------------

    def _fail(self, what: str) -> Handler:
        def handle(exc: object) -> None:
            self.busy.emit(what, False)
            self.error.emit(user_message(exc) if isinstance(exc, BaseException) else str(exc))

        return handle

    def shutdown(self) -> None:
        """Close everything on the loop (runs stay resumable), then stop it; the GUI thread only waits
        here, when the window is gone."""
        if self._ingest_cancel:
            self._ingest_cancel.cancel()
        try:
            self.loop.call(self._session.aclose, timeout=15)
        except Exception:  # closing is best effort; the process ends anyway
            log.exception("closing the session")
        self.loop.stop()

    # --- knowledge bases ------------------------------------------------------------------------

    @property
    def on_server(self) -> bool:
        return self.settings.kb.mode == "server"

    def databases(self) -> list[str]:
        """The knowledge bases. A workstation's are listed at once; the team server's are the last list
        fetched (the GUI thread never waits on the network): ``refresh_databases`` fetches it anew."""
        if self.on_server:
            return list(self._server_databases)
        return local_databases(self.paths)

    def _listed(self, names: list[str]) -> None:
        """A list fetched in a worker thread, remembered for ``databases`` here on the GUI thread (the
        only one that reads or writes it)."""
        if self.on_server:
            self._server_databases = names
        self.databasesChanged.emit(names)

    def refresh_databases(self) -> Op:
        return self.loop.run(self._session.library.names, self._listed, self._fail("list databases"))

    def wants_sample(self) -> bool:
        """Whether a first start builds the sample here (never on a team server, which holds the team's)."""
        return not self.on_server and self.sample_database not in self.databases()

    def load_documents(self, name: str) -> Op:
        """A database's documents, and with them what every database still has to embed (documents are
        loaded when a database is chosen, filled or changed)."""
        async def documents() -> tuple[list[Any], dict[str, int]]:
            library = self._session.library
            return [document_view(d) for d in await library.documents(name)], await library.backlog()

        def loaded(result: tuple[list[Any], dict[str, int]]) -> None:
            self.documentsChanged.emit(name, result[0])
            self.backlogChanged.emit(result[1])

        return self.loop.run(documents, loaded, self._fail("documents"))

    def refresh_backlog(self) -> Op:
        return self.loop.run(self._session.library.backlog, self.backlogChanged.emit, self._fail("embedding backlog"))

    def create_database(self, name: str, embedder: str | None = None) -> Op:
        return self.loop.run(lambda: self._session.library.create(name, embedder), self._listed,
                             self._fail("create database"))

    def delete_database(self, name: str) -> Op:
        return self.loop.run(lambda: self._session.library.delete(name), self._listed, self._fail("delete database"))

    def ingest(self, name: str, files: list[Path]) -> Op:
        """Add files or folders; progress and the report arrive as signals; cancel with cancel_ingest."""
        token = self._ingest_cancel = CancelToken()
        self.busy.emit("ingest", True)
        progress = lambda p: self.ingestProgress.emit(progress_view(p))  # noqa: E731 - from a worker thread

        async def work() -> IngestReport:
            return await self._session.library.ingest(name, files, progress, token)

        def done(report: IngestReport) -> None:
            self.busy.emit("ingest", False)
            self.ingestFinished.emit(report_view(report))
            if self.on_server:
                self.refresh_databases()  # a first ingest creates the database
            else:
                self.databasesChanged.emit(self.databases())
            self.load_documents(name)

        return self.loop.run(work, done, self._fail("ingest"))

    def cancel_ingest(self) -> None:
        if self._ingest_cancel is not None:
            self._ingest_cancel.cancel()

    def remove_document(self, name: str, doc_id: str) -> Op:
        return self.loop.run(lambda: self._session.library.remove_document(name, doc_id),
                             lambda _: self.load_documents(name), self._fail("remove document"))

    def fetch_pdf(self, name: str, doc_id: str, on_done: Callable[[Path], None]) -> Op:
        """The local copy of a document's PDF (fetched from the team server when it is not here yet)."""
        return self.loop.run(lambda: self._session.library.pdf_file(name, doc_id), on_done, self._fail("open PDF"))

    def set_meta(self, name: str, doc_id: str, key: str, value: str) -> Op:
        return self.loop.run(lambda: self._session.library.set_meta(name, doc_id, key, value),
                             lambda _: self.load_documents(name), self._fail("set metadata"))

    # --- the LLM --------------------------------------------------------------------------------

    def check_kb_server(self, server: ServerSettings, on_done: Handler, on_error: Handler) -> Op:
        """What the team's knowledge-base server says to these settings (as typed in the dialog)."""
        async def health() -> Any:
            return server_health_view(await self._session.library.server_health(server))

        return self.loop.run(health, on_done, on_error)

    def check_llm(self, llm: LlmSettings | None = None, on_done: Handler | None = None,
                  on_error: Handler | None = None) -> Op:
        """Health of the configured server, or of ``llm`` (settings being edited); also as llmHealth
        when it is the configured one."""

        async def health() -> Any:
            return health_view(await self._session.llm_health(llm))

        return self.loop.run(health, on_done or self.llmHealth.emit, on_error or self._fail("LLM check"))

    def list_models(self, on_done: Handler, llm: LlmSettings | None = None, on_error: Handler | None = None) -> Op:
        async def models() -> Any:
            return [model_view(m) for m in await self._session.models(llm)]

        return self.loop.run(models, on_done, on_error or self._fail("model list"))

    def pull_model(self, model: str, on_progress: Handler, on_done: Handler, on_error: Handler,
                   llm: LlmSettings | None = None) -> Op:
        """Download a model to the server; progress (PullProgress) on the GUI thread; cancel the Op to stop."""
        progress = self.loop.gui(on_progress)

        async def pull() -> str:
            async for step in self._session.pull(model, llm):
                progress(pull_view(step))
            return model

        return self.loop.run(pull, on_done, lambda exc: on_error(user_message(exc)))

    def apply_settings(self, settings: Settings) -> Op:
        """Save and use new settings. On the loop, a running step is cancelled and awaited (the run
        stays resumable) and an ingestion stopped before the LLM client and the knowledge bases close;
        they reopen with the new settings on their next use."""
        save_settings(self.paths, settings)
        self.settings = settings
        self.cancel_ingest()

        def applied(_: object) -> None:
            if self.current_run:
                self.refresh_run(self.current_run)  # a run that was stopped shows as resumable
            self.check_llm()

        return self.loop.run(lambda: self._session.apply(settings), applied, self._fail("apply settings"))

    # --- research runs ----------------------------------------------------------------------------

    def list_runs(self, on_done: Callable[[list[RunSummaryView]], None]) -> Op:
        async def runs() -> list[RunSummaryView]:
            return [summary_view(s) for s in await self._session.runs()]

        return self.loop.run(runs, on_done, self._fail("list runs"))

    def refresh_run(self, run_id: str) -> Op:
        """Show a run: its latest saved state and its log so far, read off the GUI thread (a long run's
        state can be large)."""

        async def opened() -> RunState:
            state = await self._session.load(run_id)
            await self._send_log(run_id)
            return state

        self.current_run = run_id  # from now on its events are the ones shown
        return self.loop.run(opened, self._emit_run, self._fail("load run"))

    async def _send_log(self, run_id: str) -> None:
        """On the loop: the run's log so far, queued to the window before any event that follows it."""
        lines = [line for e in await self._session.events(run_id) if (line := log_line(e)) is not None]
        self.runLog.emit(run_id, lines)

    def _run_command(self, what: str, command: Callable[[Session], Any]) -> Op:
        self.busy.emit(what, True)

        async def work() -> Any:
            return await command(self._session)

        def done(state: object) -> None:
            self.busy.emit(what, False)
            if isinstance(state, RunState) and state.run_id == self.current_run:  # not a run left meanwhile
                self.runChanged.emit(run_view(state))

        return self.loop.run(work, done, self._fail(what))

    def start_research(self, question: str, database: str) -> Op:
        async def start(session: Session) -> RunState:
            run_id = await session.start(question, database)
            self.runCreated.emit(run_id)  # queued before the run's first event: from then on it is the shown run
            return await session.resume(run_id)

        return self._run_command("research", start)

    def resume(self, run_id: str) -> Op:
        switched, self.current_run = self.current_run != run_id, run_id

        async def resume(session: Session) -> RunState:
            if switched:  # resumed from History: its log so far first
                await self._send_log(run_id)
            return await session.resume(run_id)

        return self._run_command("research", resume)

    def answer(self, run_id: str, text: str | None, end: bool = False) -> Op:
        return self._run_command("research", lambda e: e.answer(run_id, text, end=end))

    def add_todo(self, run_id: str, task: str, context: str = "") -> Op:
        return self._run_command("plan", lambda e: e.add_todo(run_id, task, context))

    def edit_todo(self, run_id: str, todo_id: int, task: str | None = None, context: str | None = None) -> Op:
        return self._run_command("plan", lambda e: e.edit_todo(run_id, todo_id, task, context))

    def remove_todo(self, run_id: str, todo_id: int) -> Op:
        return self._run_command("plan", lambda e: e.remove_todo(run_id, todo_id))

    def move_todo(self, run_id: str, todo_id: int, position: int) -> Op:
        return self._run_command("plan", lambda e: e.move_todo(run_id, todo_id, position))

    def replan(self, run_id: str, feedback: str) -> Op:
        return self._run_command("research", lambda e: e.replan(run_id, feedback))

    def approve(self, run_id: str) -> Op:
        return self._run_command("research", lambda e: e.approve(run_id))

    def skip_task(self, run_id: str, task_id: int) -> Op:
        return self._run_command("skip", lambda e: e.skip_task(run_id, task_id))

    def cancel_run(self, run_id: str) -> None:
        async def cancel() -> None:
            self._session.cancel(run_id)

        self.loop.run(cancel, None, self._fail("cancel"))

    def export_report(self, run_id: str, out_dir: Path, on_done: Handler, fmt: str = "all",
                      stem: str = "report", accepted_only: bool = False) -> Op:
        """Write the report (one format, or "all" with the audit trail) into ``out_dir``, the files named
        ``stem`` + extension; ``accepted_only``: only the claims the reviewer accepted."""
        return self.loop.run(lambda: self._session.export(run_id, out_dir, fmt, stem, accepted_only), on_done,
                             self._fail("export"))

    def review(self, run_id: str, target: str, status: str | None, note: str = "") -> Op:
        """Mark a claim or finding of the report; the run comes back with the mark (runChanged)."""
        return self._run_command("review", lambda e: e.review(run_id, target, status, note))
