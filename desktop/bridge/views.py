"""What the window shows of a research run: immutable views the bridge builds from the engine's state
and typed events. Widgets read these and the report model, never the engine's own types, so the
engine can change its state without the window noticing (napari's Qt layer reads evented models the
same way)."""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime

from desktop.service import ENGLISH, IN_LOG, ClarifyRound, RunState, RunSummary, narrate
from desktop.service import events as ev
from desktop.report.model import Report

Value = str | int | float | bool | tuple[str, ...]


@dataclass(frozen=True)
class ChunkView:
    """A passage retrieved while clarifying."""

    chunk_id: str
    doc: str
    page: int
    text: str
    doc_id: str = ""


@dataclass(frozen=True)
class RoundView:
    index: int
    queries: tuple[str, ...]
    new_chunks: tuple[ChunkView, ...]
    duplicates: int
    coverage: float | None  # None until the round's retrieval was analysed
    gaps: tuple[str, ...]
    questions: tuple[str, ...]
    suggest_end: bool
    answer: str | None


@dataclass(frozen=True)
class TodoView:
    """A task of the plan, with how far its research got."""

    id: int
    task: str
    context: str
    subtasks: tuple[str, ...]
    status: str  # pending, running, done, skipped
    read: int = 0  # excerpts read
    references: int = 0  # references followed


@dataclass(frozen=True)
class PlanView:
    items: tuple[TodoView, ...]
    note: str | None  # why the knowledge base may not answer the question
    approved: bool


@dataclass(frozen=True)
class RunView:
    run_id: str
    question: str
    database: str
    status: str  # running, waiting, done, failed, cancelled, stopped
    phase: str
    message: str | None
    message_line: LogLine | None  # the message by its narration key, for the window to word it
    waiting_for: str | None  # "answer", "approve_plan", or None
    max_rounds: int
    rounds: tuple[RoundView, ...]
    refined_question: str | None
    plan: PlanView | None
    report: Report | None
    tokens: int

    @property
    def current_round(self) -> RoundView | None:
        return self.rounds[-1] if self.rounds else None

    @property
    def running(self) -> bool:
        return self.status == "running"

    @property
    def resumable(self) -> bool:
        return self.status in ("paused", "cancelled", "failed")

    @property
    def finished(self) -> bool:
        """No command of this run is pending: a new question may start."""
        return self.status in ("done", "paused", "cancelled", "failed")


@dataclass(frozen=True)
class RunSummaryView:
    run_id: str
    question: str
    database: str
    status: str
    phase: str
    updated_at: str


@dataclass(frozen=True)
class EstimateView:
    seconds: float
    llm_calls: int
    read_tps: float
    write_tps: float
    excerpts: int
    excerpts_allowed: int


@dataclass(frozen=True)
class LogLine:
    """A line of the run's log: ``key`` names the template the window translates, ``values`` fill it."""

    at: datetime
    key: str
    values: dict[str, Value] = field(default_factory=dict)


# --- building them ----------------------------------------------------------------------------------


def run_view(state: RunState) -> RunView:
    clar = state.clarification
    return RunView(
        run_id=state.run_id, question=state.question, database=state.database, status=state.status,
        phase=state.phase, message=state.message, waiting_for=state.pending.kind if state.pending else None,
        message_line=LogLine(state.updated_at, state.message_key, dict(state.message_values))
        if state.message_key in ENGLISH else None,
        max_rounds=state.settings.max_rounds, rounds=tuple(_round(r, state) for r in clar.rounds),
        refined_question=clar.summary, plan=_plan(state), report=state.later.report,
        tokens=state.usage.total_tokens)


def _round(rnd: ClarifyRound, state: RunState) -> RoundView:
    chunks = state.clarification.chunks
    return RoundView(
        index=rnd.index, queries=tuple(rnd.queries),
        new_chunks=tuple(ChunkView(c.chunk_id, c.doc, c.page, c.text, c.doc_id)
                         for cid in rnd.new_chunks if (c := chunks.get(cid))),
        duplicates=rnd.duplicates, coverage=rnd.analysis.coverage if rnd.analysis else None,
        gaps=tuple(rnd.analysis.knowledge_gaps) if rnd.analysis else (), questions=tuple(rnd.questions),
        suggest_end=rnd.suggest_end, answer=rnd.answer)


def _plan(state: RunState) -> PlanView | None:
    if state.plan is None:
        return None
    runs = {t.task_id: t for t in state.later.research.tasks}
    items = []
    for todo in state.plan.items:
        run = runs.get(todo.id)
        items.append(TodoView(id=todo.id, task=todo.task, context=todo.context, subtasks=tuple(todo.subtasks),
                              status=run.status if run else todo.status, read=run.extracted if run else 0,
                              references=run.followed if run else 0))
    return PlanView(items=tuple(items), note=state.plan.note, approved=state.plan.approved)


def summary_view(summary: RunSummary) -> RunSummaryView:
    return RunSummaryView(summary.run_id, summary.question, summary.database, summary.status, summary.phase,
                          summary.updated_at)


def estimate_view(event: ev.EstimateReady) -> EstimateView:
    return EstimateView(event.seconds, event.llm_calls, event.prompt_tps, event.answer_tps, event.excerpts,
                        event.excerpts_allowed)


def log_line(event: ev.Event) -> LogLine | None:
    """The event as a line of the window's log, or None when the log does not show it."""
    line = narrate(event)
    if line is None or line.key not in IN_LOG:
        return None
    return LogLine(at=event.at.astimezone(), key=line.key, values=dict(line.values))
