"""Phase 3 — deep extraction (docs/architecture.md §4). The engine gathers each approved task's evidence without the
model (``gathering.py``, ``evidence.py``: search, each chunk's best sentences, references followed); the
model reads it in batches across tasks (``extraction.py``), independent batches concurrently; a task with
nothing left to read ends with its summary. A step reads one round of batches, so a stopped or killed run
loses at most that."""

from __future__ import annotations

import asyncio

from desktop.engine import events as ev
from desktop.engine import prompts as P
from desktop.engine.checks import language_check
from desktop.engine.estimate import TASK0_LEADS, allowances, cost_model, readable, research_estimate
from desktop.engine.extraction import read_batch
from desktop.engine.research_state import Finding, TaskRun, TaskSummary, WorkItem
from desktop.engine.state import by_parts
from desktop.engine.schemas import TaskSummaryAnswer
from desktop.engine.step_context import StepContext
from desktop.engine.steps.gathering import todo
from desktop.llm.types import BadOutput, PromptTooLong

SUMMARY_MIN_FINDINGS = 3  # fewer findings are their own summary


async def start(ctx: StepContext) -> str:
    state = ctx.state
    assert state.plan is not None and state.plan.approved
    state.phase = "research"
    research = state.later.research
    if not research.tasks:
        research.tasks = [TaskRun(task_id=t.id) for t in state.plan.items]
    ctx.emit(ev.PhaseStarted(phase="research"))
    # with a binding time budget the reading stops where the budget does (``estimate.readable``), the best
    # excerpts of every task first, and no LLM writes task summaries
    research.budget_binds = bool(allowances(ctx, await cost_model(ctx)))
    if (estimate := await research_estimate(ctx, "research")) is not None:
        ctx.emit(estimate)
        if estimate.excerpts < estimate.excerpts_allowed:
            ctx.warn("warn_time_budget", excerpts=estimate.excerpts, allowed=estimate.excerpts_allowed,
                     duration=ctx.settings.time_budget_s)
    return "research.next_task"


def _plan_status(ctx: StepContext, task_id: int, status: str) -> None:
    todo(ctx, task_id).status = status  # type: ignore[assignment]


def _stop_when_nothing_helps(ctx: StepContext, run: TaskRun, found: list[Finding]) -> None:
    """Search results come best first: when a full batch's worth of a task's excerpts helped nothing, the
    lower-ranked rest will not either — the task stops reading them (followed references stay queued)."""
    research = ctx.state.later.research
    if run.extracted < ctx.settings.extract_batch or any(f.task_id == run.task_id for f in [*research.findings, *found]):
        return
    rest = [w for w in run.queue if w.depth == 0]
    if rest:
        run.queue = [w for w in run.queue if w.depth > 0]
        run.skipped_unhelpful += len(rest)
        ctx.warn("warn_unhelpful", task_id=run.task_id, read=run.extracted, skipped=len(rest))


def _where(f: Finding) -> str:
    return f"{f.doc}, p. {f.page}" + (f", {f.section}" if f.section else "")


def _take(ctx: StepContext, size: int) -> list[tuple[TaskRun, WorkItem]]:
    """The next ``size`` excerpts to read, whatever task they are for: each task's best first, in turns (the
    question itself takes two a turn where it leads a plan of a few side tasks, and comes last where the
    tasks are its parts), so that a reading the time budget stops early has the best of every task. A skipped
    task's are dropped, and so is an excerpt whose chunk an earlier conversation was served whole on request."""
    research = ctx.state.later.research
    running = [t for t in research.tasks if t.status == "running"]
    served = set(research.served)
    for run in running:
        if run.task_id in research.skip_requested:
            run.queue = []
        run.queue = [item for item in run.queue if item.chunk_id not in served]
    parts = by_parts(ctx.state)
    leads = not parts and len(running) <= TASK0_LEADS
    running.sort(key=lambda r: parts and r.task_id == 0)  # a question of parts: each part's best first
    taken: list[tuple[TaskRun, WorkItem]] = []
    while len(taken) < size and any(t.queue for t in running):
        for run in running:
            for _ in range(2 if leads and run.task_id == 0 else 1):
                if run.queue and len(taken) < size:
                    item = run.queue.pop(0)
                    taken.append((run, item if item.task_id is not None else
                                  item.model_copy(update={"task_id": run.task_id})))
    return taken


def _budget_spent(ctx: StepContext, room: int | None) -> bool:
    """Nothing more fits the time budget: what is left unread stays unread (the report says how much)."""
    research = ctx.state.later.research
    if room is None or room > 0:
        return False
    left = sum(len(t.queue) for t in research.tasks if t.status == "running")
    for run in research.tasks:
        run.queue = [] if run.status == "running" else run.queue
    if left:
        ctx.warn("warn_budget_spent", read=len(set(research.visited)), left=left)
    return True


async def extract_batch(ctx: StepContext) -> str:
    """One step: up to ``extract_concurrency`` batches of ``extract_batch`` excerpts, read concurrently, each
    batch across tasks; a killed run loses at most this step's batches. Under a binding time budget a step
    reads one batch: what fits is planned again after each answer, at the speed measured on the reading
    itself (seen: a plan made at the speed of clarification's short call — 10.5 answer tokens/s against 6–7
    on the reading's long prompts — took 16 excerpts in one step, and the run took 439 s of a 300 s budget); with
    any time budget the first step reads one batch, which measures that speed."""
    research, s = ctx.state.later.research, ctx.settings
    room = await readable(ctx)
    if _budget_spent(ctx, room):
        return "research.summarize"
    # before the reading has measured its own speed, a time budget's plan rests on clarification's short calls:
    # the first step reads one batch whether the budget binds or not (seen, §28 laws-research-03: 32 excerpts
    # planned in 230 s at their speed; four concurrent batches took 220 s, and the run 302 s of its 300)
    one = research.budget_binds or bool(s.time_budget_s and not research.visited)
    per_step = s.extract_batch * (1 if one else s.extract_concurrency)
    taken = _take(ctx, min(per_step, room if room is not None else 10**6))
    items = [item for _, item in taken]
    batches = [items[i:i + s.extract_batch] for i in range(0, len(items), s.extract_batch)]
    research.visited += [item.chunk_id for item in items]
    origins = {f.id: _where(f) for f in research.findings}
    todos = {t.id: t for t in ctx.state.plan.items} if ctx.state.plan else {}

    def new_id() -> str:
        research.issued += 1
        return f"F{research.issued}"

    async def read(batch: list[WorkItem]) -> list[Finding]:
        try:
            return await read_batch(ctx, todos, batch, new_id, origins)
        except (BadOutput, PromptTooLong) as exc:  # one unreadable answer costs this batch, not the run
            ctx.warn("warn_extract_failed", count=len(batch), error=str(exc))
            return []

    found = [f for batch in await asyncio.gather(*(read(b) for b in batches)) for f in batch]
    for run in {id(r): r for r, _ in taken}.values():
        run.extracted += sum(1 for r, _ in taken if r is run)
        _stop_when_nothing_helps(ctx, run, found)
    for finding in found:
        research.findings.append(finding)
        ctx.emit(ev.FindingAdded(task_id=finding.task_id, finding_id=finding.id, tier=finding.tier, doc=finding.doc,
                                 page=finding.page, relevance=finding.relevance,
                                 quotes=len(finding.quotes), verified=len(finding.verified_quotes)))
    running = [t for t in research.tasks if t.status == "running"]
    return "research.summarize" if any(not t.queue for t in running) or not taken else "research.extract"


def _findings_text(findings: list[Finding]) -> str:
    lines = []
    for f in findings:
        quotes = "".join(f'\n   "{q.display}"' for q in f.verified_quotes)
        lines.append(f"[{f.id}] ({f.doc}, p. {f.page}{', ' + f.section if f.section else ''}; tier {f.tier}) {f.heading}{quotes}")
    return "\n".join(lines) or "(no findings)"


async def summarize(ctx: StepContext) -> str:
    """Each running task with nothing left to read is done: its summary, then on to what is left."""
    research = ctx.state.later.research
    for run in [t for t in research.tasks if t.status == "running" and not t.queue]:
        await _summarize(ctx, run)
    if any(t.status == "running" for t in research.tasks):
        return "research.extract"
    return "research.next_task"  # a task added since, or on to the drift filter


async def _summarize(ctx: StepContext, run: TaskRun) -> None:
    research = ctx.state.later.research
    task = todo(ctx, run.task_id)
    skipped = run.task_id in research.skip_requested
    findings = [f for f in research.findings if f.task_id == run.task_id]
    if findings and not skipped and (len(findings) < SUMMARY_MIN_FINDINGS or research.budget_binds
                                     or run.allowance is not None):
        # one or two findings say it themselves; under a binding time budget (an allowance) the time goes
        # to reading, not to restating what was read: no LLM call, the findings' own words
        run.summary = TaskSummary(summary=" ".join(f"{f.heading}: {f.said(200)}" for f in findings),
                                  key_points=[f.said() for f in findings], by_model=False)
    elif findings and not skipped:
        check = language_check(ctx.state.language, lambda v: [v.summary])  # type: ignore[attr-defined]
        answer = await ctx.ask_or(lambda: None, P.TASK_SUMMARY, TaskSummaryAnswer, check, lenient=True,  # type: ignore[arg-type, return-value]
                                  question=ctx.state.question, task=task.task, findings=_findings_text(findings))
        run.summary = TaskSummary(**answer.model_dump()) if answer else None
    run.queue = []
    run.status = "skipped" if skipped else "done"
    _plan_status(ctx, run.task_id, run.status)
    ctx.emit(ev.TaskDone(task_id=run.task_id, status=run.status, findings=len(findings),
                         summary=run.summary.summary if run.summary else None))


def request_skip(ctx: StepContext, task_id: int) -> None:
    """Skip a task: a pending one is never started, a running one stops after its current batch."""
    research = ctx.state.later.research
    run = next((t for t in research.tasks if t.task_id == task_id), None)
    if run is None or run.status in ("done", "skipped"):
        raise ValueError(f"task {task_id} is {'not in the plan' if run is None else run.status}")
    if task_id not in research.skip_requested:
        research.skip_requested.append(task_id)
    if run.status == "pending":
        run.status = "skipped"
        _plan_status(ctx, task_id, "skipped")
        ctx.emit(ev.TaskDone(task_id=task_id, status="skipped", findings=0, summary=None))
