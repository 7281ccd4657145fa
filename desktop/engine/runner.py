"""The runner: drives a run step by step, persists after every step, publishes events, and takes the
user's commands at the checkpoints. The service's ``Session`` owns it and commands it for the CLI
and the window's bridge. It lives on one event loop, with the
knowledge bases it reads (``KnowledgeBases``) and the LLM client."""

from __future__ import annotations

import asyncio
import logging
import time
import uuid
from collections.abc import Awaitable, Callable
from contextlib import suppress

from desktop.engine import events as ev
from desktop.engine import review
from desktop.engine.estimate import research_estimate
from desktop.engine.narrate import Value, said
from desktop.engine.resources import RUN_STORE, KnowledgeBases
from desktop.engine.state import RunState, now
from desktop.engine.step_context import CALLS, StepContext, collect_call
from desktop.engine.steps import clarify, drift, gathering, plan, quality, report, research, synthesis
from desktop.engine.store import RunStore, RunSummary
from desktop.kb.errors import KbError
from desktop.llm.protocol import LlmBackend
from desktop.llm.types import LlmError, LlmUnavailable
from desktop.report.model import ReviewStatus
from desktop.settings import ResearchSettings

StepFn = Callable[[StepContext], Awaitable[str]]
StateWatcher = Callable[[RunState, list[ev.Event]], None]

STEPS: dict[str, StepFn] = {
    "clarify.start": clarify.start,
    "clarify.queries": clarify.queries,
    "clarify.retrieve": clarify.retrieve,
    "clarify.analyze": clarify.analyze,
    "clarify.questions": clarify.questions,
    "clarify.finalize": clarify.finalize,
    "plan.propose": plan.propose,
    "plan.replan": plan.replan,
    "research.start": research.start,
    "research.next_task": gathering.gather_pending,
    "research.extract": research.extract_batch,
    "research.summarize": research.summarize,
    "drift.filter": drift.filter_drift,
    "synthesis.write": synthesis.write,
    "synthesis.quality": quality.quality,
    "synthesis.revise": synthesis.revise,
    "report.build": report.build,
}
FINAL = "done"
log = logging.getLogger(__name__)


class CommandError(ValueError):
    """A command that does not fit the run's state; the message says why."""


class ResearchEngine:
    def __init__(self, store: RunStore, llm: LlmBackend, kbs: KnowledgeBases, settings: ResearchSettings) -> None:
        """``kbs``: the knowledge bases of the engine's loop; their owner (the service's ``Session``) opens
        and closes them, and the LLM client."""
        self.store = store
        self.llm = llm
        self.kbs = kbs
        self.settings = settings
        self._subscribers: list[ev.Subscriber] = []
        self._watchers: list[StateWatcher] = []
        self._running: dict[str, asyncio.Task[str]] = {}
        self._driving: set[asyncio.Task[object]] = set()  # the commands driving a run right now
        self._cancelled: set[str] = set()
        self._skips: dict[str, set[int]] = {}
        previous = llm.audit
        llm.audit = collect_call if previous is None else (lambda r: (previous(r), collect_call(r)))

    # --- observation ---------------------------------------------------------------------------

    def subscribe(self, subscriber: ev.Subscriber) -> Callable[[], None]:
        self._subscribers.append(subscriber)
        return lambda: self._subscribers.remove(subscriber)

    def watch(self, watcher: StateWatcher) -> Callable[[], None]:
        """``watcher(state, events)`` after every save, on the engine's loop: the run as saved, with the events
        saved with it. The state is the engine's snapshot: never changed after it is handed out, and not to be
        changed by a watcher (the window builds its views from it instead of reloading the run)."""
        self._watchers.append(watcher)
        return lambda: self._watchers.remove(watcher)

    def runs(self) -> list[RunSummary]:
        return self.store.runs()

    def load(self, run_id: str) -> RunState:
        return self.store.load(run_id)

    def events(self, run_id: str) -> list[ev.Event]:
        """Everything the run recorded, in order: its audit trail."""
        return self.store.events(run_id)

    # --- starting and continuing -----------------------------------------------------------------

    async def create(self, question: str, database: str, *, auto: bool = False, setup_s: float = 0.0) -> RunState:
        """A new run, saved and not yet started (``resume`` drives it): its id is known at once. ``auto``
        (headless) skips the questions nobody would answer. ``setup_s``: what the caller took before the run
        (a command's start-up: loading the program, opening the knowledge base), counted in the run's time
        like a phase (``timings["start"]``), so the time budget is the whole command's."""
        if not question.strip():
            raise CommandError("the research question is empty")
        await self.kbs.get(database)  # a missing database fails here, before a run exists
        state = RunState(run_id=uuid.uuid4().hex[:12], question=question.strip(), database=database,
                         settings=self.settings, model=self.llm.model, auto=auto)
        if setup_s > 0:
            state.later.timings["start"] = setup_s
        await self._save(state, [])
        return state

    async def start(self, question: str, database: str, *, auto: bool = False) -> RunState:
        """A new run, driven to its first checkpoint (``create``, then the steps)."""
        return await self._drive(await self.create(question, database, auto=auto))

    async def resume(self, run_id: str) -> RunState:
        state = self.store.load(run_id)
        self._cancelled.discard(state.run_id)
        if state.status in ("running", "paused", "cancelled", "failed"):
            # the message said why it stopped: that is past once it goes on
            state.status, state.message, state.message_key, state.message_values = "running", None, "", {}
        return await self._drive(state)

    async def skip_task(self, run_id: str, task_id: int) -> RunState | None:
        """Skip a research task; a running run drops what it has left to read after the batches in flight
        (they read for several tasks at once) and goes on."""
        if run_id in self._running:
            self._skips.setdefault(run_id, set()).add(task_id)
            return None
        ctx = await self._context(self.store.load(run_id))
        try:
            research.request_skip(ctx, task_id)
        except ValueError as exc:
            raise CommandError(str(exc)) from None
        await self._save(ctx.state, ctx.events)
        return ctx.state

    async def review(self, run_id: str, target: str, status: ReviewStatus | None, note: str, by: str) -> RunState:
        """A reviewer's mark on a claim or finding of the run's report (``review.mark``), saved at once."""
        state = await self.kbs.threads.run(self.store.load, run_id, uses=RUN_STORE)
        try:
            event = review.mark(state, target, status, note, by)
        except ValueError as exc:
            raise CommandError(str(exc)) from None
        await self._save(state, [event])
        return state

    def cancel(self, run_id: str) -> None:
        """Stop at once; the step in flight is abandoned and the run stays resumable from before it."""
        self._cancelled.add(run_id)
        task = self._running.get(run_id)
        if task is not None:
            task.cancel()

    def cancel_all(self) -> None:
        """Cancel every run in flight (on closing the window); each stays resumable."""
        for run_id in list(self._running):
            self.cancel(run_id)

    async def stop(self) -> None:
        """Cancel every run in flight and wait until each has saved where it stopped and no worker
        thread of a step still reads a knowledge base: then settings may change and resources close."""
        self.cancel_all()
        if self._driving:
            await asyncio.wait(set(self._driving))
        await self.kbs.threads.drain()

    # --- commands at the checkpoints -------------------------------------------------------------

    async def answer(self, run_id: str, text: str | None, end: bool = False) -> RunState:
        """Answer the round's questions; ``end`` (or a last line '/end') also ends clarification."""
        text, end = _split_end(text, end)
        return await self._command(run_id, "answer", lambda ctx: clarify.take_answer(ctx, text, end))

    async def end_clarification(self, run_id: str, answer: str | None = None) -> RunState:
        return await self.answer(run_id, answer, end=True)

    async def add_todo(self, run_id: str, task: str, context: str = "", subtasks: list[str] | None = None) -> RunState:
        return await self._edit(run_id, lambda ctx: plan.add(ctx, task, context, subtasks))

    async def edit_todo(self, run_id: str, todo_id: int, task: str | None = None, context: str | None = None,
                        subtasks: list[str] | None = None) -> RunState:
        return await self._edit(run_id, lambda ctx: plan.edit(ctx, todo_id, task, context, subtasks))

    async def remove_todo(self, run_id: str, todo_id: int) -> RunState:
        return await self._edit(run_id, lambda ctx: plan.remove(ctx, todo_id))

    async def move_todo(self, run_id: str, todo_id: int, position: int) -> RunState:
        return await self._edit(run_id, lambda ctx: plan.move(ctx, todo_id, position))

    async def replan(self, run_id: str, feedback: str) -> RunState:
        return await self._command(run_id, "approve_plan", lambda ctx: plan.request_replan(ctx, feedback))

    async def approve(self, run_id: str) -> RunState:
        return await self._command(run_id, "approve_plan", plan.approve)

    async def _edit(self, run_id: str, change: Callable[[StepContext], None]) -> RunState:
        def apply(ctx: StepContext) -> str:
            change(ctx)
            return ctx.state.next_step  # edits keep the run waiting for approval

        return await self._command(run_id, "approve_plan", apply)

    async def _command(self, run_id: str, expected: str, apply: Callable[[StepContext], str]) -> RunState:
        state = self.store.load(run_id)
        if state.pending is None or state.pending.kind != expected:
            waiting = state.pending.kind if state.pending else state.status
            raise CommandError(f"run {state.run_id} is not waiting for that (it is {waiting.replace('_', ' ')})")
        ctx = await self._context(state)
        try:
            nxt = apply(ctx)
        except plan.PlanEditError as exc:
            raise CommandError(str(exc)) from None
        ctx.state.next_step = nxt
        ctx.state.status = "waiting" if nxt.endswith(".wait") else "running"
        ctx.state.updated_at = now()
        if nxt.endswith(".wait") and ctx.state.pending is not None and ctx.state.pending.kind == "approve_plan":
            if (estimate := await research_estimate(ctx, "plan")) is not None:
                ctx.emit(estimate)  # an edited plan takes another time: the estimate shown follows it
        await self._save(ctx.state, ctx.events)
        return await self._drive(ctx.state)

    # --- the loop ------------------------------------------------------------------------------

    async def _drive(self, state: RunState) -> RunState:
        me = asyncio.current_task()
        if me is not None:
            self._driving.add(me)
        try:
            return await self._steps(state)
        finally:
            self._driving.discard(me)  # type: ignore[arg-type]

    async def _steps(self, state: RunState) -> RunState:
        while True:
            if state.next_step == FINAL:
                return state
            if state.next_step.endswith(".wait"):
                if state.status != "waiting":
                    state = state.model_copy(update={"status": "waiting", "updated_at": now()})
                    await self._save(state, [])
                return state
            if state.run_id in self._cancelled:
                return await self._halt(state, "cancelled", "run_cancelled")
            state = await self._step(state)
            if state.status in ("paused", "cancelled", "failed"):
                return state

    async def _step(self, state: RunState) -> RunState:
        fn = STEPS.get(state.next_step)
        if fn is None:
            return await self._halt(state, "failed", "run_unknown_step", step=state.next_step)
        ctx = await self._context(state)
        ctx.state.status = "running"
        self._apply_skips(ctx)
        started = time.monotonic()
        token = CALLS.set(ctx.calls)  # the step's task (and the tasks it starts) record their LLM calls here
        task = asyncio.ensure_future(fn(ctx))
        CALLS.reset(token)
        self._running[state.run_id] = task
        try:
            nxt = await task
        except asyncio.CancelledError:
            if state.run_id in self._cancelled:
                return await self._halt(state, "cancelled", "run_cancelled")
            if self._skips.get(state.run_id):
                return await self._skipped(state)  # the task being read was skipped: go on without it
            raise  # cancelled from outside (shutdown): nothing to record
        except LlmUnavailable as exc:
            return await self._halt(state, "paused", "run_server_down", ctx.failed_requests(), error=str(exc))
        except (LlmError, KbError) as exc:
            return await self._halt(state, "failed", "run_failed", ctx.failed_requests(), error=str(exc))
        finally:
            self._running.pop(state.run_id, None)
        new = ctx.state
        # the phase the step worked in: each phase's first step names it as it starts (steps/*.py)
        timings = new.later.timings
        timings[new.phase] = timings.get(new.phase, 0.0) + time.monotonic() - started
        if new.status == "running" and nxt.endswith(".wait"):
            new.status = "waiting"
        new.next_step, new.steps, new.updated_at = nxt, new.steps + 1, now()
        await self._save(new, [*ctx.failed_requests(), *ctx.events])
        return new

    def _apply_skips(self, ctx: StepContext) -> None:
        for task_id in self._skips.pop(ctx.state.run_id, set()):
            with suppress(ValueError):  # already done: nothing to skip
                research.request_skip(ctx, task_id)

    async def _skipped(self, state: RunState) -> RunState:
        ctx = await self._context(state)
        self._apply_skips(ctx)
        await self._save(ctx.state, ctx.events)
        return ctx.state

    async def _halt(self, state: RunState, status: str, key: str, audit: list[ev.Event] | None = None,
              **values: Value) -> RunState:
        """Stop the run with ``status``, saying why by a key of ``narrate.ENGLISH``."""
        line = (said(ev.Error, key, values) if status == "failed"
                else said(ev.RunStopped, key, values, status=status))
        halted = state.model_copy(update={"status": status, "message": line.message, "message_key": key,
                                          "message_values": values, "updated_at": now()})
        await self._save(halted, [*(audit or []), line.model_copy(update={"run_id": state.run_id})])
        return halted

    async def _save(self, state: RunState, events: list[ev.Event]) -> None:
        """Write the state and its events (an fsync'd SQLite transaction) in a worker thread, then hand
        them to the watchers and subscribers on the loop. Closing the session waits for the write."""
        await self.kbs.threads.run(self.store.save, state, events, uses=RUN_STORE)
        for watcher in list(self._watchers):
            try:
                watcher(state, events)
            except Exception:  # as for subscribers below
                log.exception("a state watcher failed on run %s", state.run_id)
        for event in events:
            for subscriber in list(self._subscribers):
                try:
                    subscriber(event)
                except Exception:  # a failing observer must not break the run, but is not hidden
                    log.exception("an event subscriber failed on %s", event.type)

    async def _context(self, state: RunState) -> StepContext:
        """A step's context: a private copy of the state, the run's knowledge base, the LLM."""
        kb = await self.kbs.get(state.database)
        return StepContext(state.model_copy(deep=True), kb, self.llm, self.kbs.threads)


def _split_end(text: str | None, end: bool) -> tuple[str | None, bool]:
    """'/end' alone ends clarification; at the end of an answer ("Adults only. /end", or on its own
    last line) it ends it after that answer, which still counts."""
    if text is None:
        return None, end
    stripped = text.rstrip()
    if stripped.lower().endswith("/end"):
        return stripped[: -len("/end")].strip() or None, True
    return text, end
