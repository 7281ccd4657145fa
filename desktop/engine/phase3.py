"""Phase 3 — deep extraction (DESIGN §5). Per approved task: hybrid search with the task and its
queries; each chunk read closely (extraction.py), independent ones concurrently; references in what
was read followed through the resolver, recursively (visited set, depth, token budget, a document
followed too often stops); each task ends with a structured summary. A step reads one batch, so a
stopped or killed run loses at most that batch."""

from __future__ import annotations

import asyncio

from desktop.engine import events as ev
from desktop.engine import prompts as P
from desktop.engine.checks import language_check
from desktop.engine.estimate import allowances, cost_model, research_estimate
from desktop.engine.evidence import Aim, Gatherer, Limits
from desktop.engine.extraction import read_batch
from desktop.engine.research_state import Finding, TaskRun, TaskSummary, WorkItem
from desktop.engine.schemas import TaskSummaryAnswer
from desktop.engine.state import Todo
from desktop.engine.step import StepContext
from desktop.llm.types import BadOutput, PromptTooLong

SUMMARY_MIN_FINDINGS = 3  # fewer findings are their own summary


def _todo(ctx: StepContext, task_id: int) -> Todo:
    assert ctx.state.plan is not None
    return next(t for t in ctx.state.plan.items if t.id == task_id)


async def start(ctx: StepContext) -> str:
    state = ctx.state
    assert state.plan is not None and state.plan.approved
    state.phase = "research"
    research = state.later.research
    if not research.tasks:
        research.tasks = [TaskRun(task_id=t.id) for t in state.plan.items]
    ctx.emit(ev.PhaseStarted(phase="research"))
    planned = allowances(ctx, cost_model(ctx))
    for run in research.tasks:
        if run.task_id in planned:
            run.allowance = planned[run.task_id]
    if (estimate := research_estimate(ctx, "research")) is not None:
        ctx.emit(estimate)
        if estimate.excerpts < estimate.excerpts_allowed:
            ctx.warn("warn_time_budget", excerpts=estimate.excerpts, allowed=estimate.excerpts_allowed,
                     duration=ctx.settings.time_budget_s)
    return "research.next_task"


async def next_task(ctx: StepContext) -> str:
    """Start the next pending task: gather its evidence (evidence.py: search, the best sentences of each
    chunk, references followed) in a worker thread, and queue it for reading."""
    research = ctx.state.later.research
    pending = [t for t in research.tasks if t.status == "pending"]
    if not pending:
        research.current = None
        return "drift.filter"
    run = pending[0]
    todo = _todo(ctx, run.task_id)
    queries = list(dict.fromkeys([todo.task, *todo.subtasks,
                                  *(ctx.state.clarification.research_queries if todo.id == 0 else [])]))
    s = ctx.settings
    aim = Aim.of(ctx.state.question, todo.task, queries[1:])
    room = _room(ctx, run)
    # gathered as the settings allow; under a time budget the best ``room`` of them are read
    limits = Limits(room=max(room, s.max_chunks_per_task - run.extracted), per_query=s.extract_k_per_query,
                    depth=s.reference_depth, per_doc=s.reference_max_per_doc, fusion_k=s.rrf_k)
    seen = research.gathered + [WorkItem(chunk_id=c) for c in research.visited]
    names = {d.doc_id: d.file_name for d in (await ctx.documents()).values()}
    gatherer = await ctx.in_thread(Gatherer, ctx.kb, aim, limits, seen, run.followed_units, names)
    found = await ctx.in_thread(gatherer.gather, queries)
    run.found += len(found.items)
    run.queue = found.items[:room]
    research.gathered += [item.model_copy(update={"task_id": run.task_id}) for item in run.queue]
    for f in (f for f in found.followed if f.item in run.queue):
        run.followed += 1
        run.followed_units.append(f.unit)
        run.doc_follows[f.doc_id] = run.doc_follows.get(f.doc_id, 0) + 1
        ctx.emit(ev.ReferenceFollowed(task_id=run.task_id, origin=f.item.origin or "", reference=f.reference,
                                      doc=f.doc, page=f.page, section=f.section, depth=f.item.depth))
    for doc_id in (d for d in found.capped if d not in run.capped_docs):  # said once per task and document
        run.capped_docs.append(doc_id)
        ctx.warn("warn_reference_cap", doc=names.get(doc_id, doc_id), times=s.reference_max_per_doc, task_id=run.task_id)
    run.status = "running"
    research.current = run.task_id
    _plan_status(ctx, run.task_id, "running")
    ctx.emit(ev.TaskStarted(task_id=run.task_id, task=todo.task, chunks=len(run.queue), found=len(found.items),
                            followed=sum(1 for i in run.queue if i.depth)))
    return "research.extract"


def _room(ctx: StepContext, run: TaskRun) -> int:
    """Chunks the task may still queue: its allowance (or the setting) less what it read and queued."""
    limit = run.allowance if run.allowance is not None else ctx.settings.max_chunks_per_task
    return max(0, limit - run.extracted - len(run.queue))


def _plan_status(ctx: StepContext, task_id: int, status: str) -> None:
    _todo(ctx, task_id).status = status  # type: ignore[assignment]


def _stop_when_nothing_helps(ctx: StepContext, run: TaskRun, taken: list[WorkItem], found: list[Finding]) -> None:
    """Search results come best first: when a full batch of them helped nothing, the lower-ranked rest
    will not either — the task stops reading them (followed references stay queued)."""
    searched = {w.chunk_id for w in taken if w.depth == 0}
    if len(searched) < ctx.settings.extract_batch or any(f.chunk_id in searched for f in found):
        return
    rest = [w for w in run.queue if w.depth == 0]
    if rest:
        run.queue = [w for w in run.queue if w.depth > 0]
        run.skipped_unhelpful += len(rest)
        ctx.warn("warn_unhelpful", task_id=run.task_id, read=len(searched), skipped=len(rest))


def _where(f: Finding) -> str:
    return f"{f.doc}, p. {f.page}" + (f", {f.section}" if f.section else "")


async def extract_batch(ctx: StepContext) -> str:
    """One step: up to ``extract_concurrency`` batches of ``extract_batch`` chunks, read concurrently; a
    killed run loses at most this step's batches."""
    research = ctx.state.later.research
    assert research.current is not None
    run = research.task(research.current)
    if run.task_id in research.skip_requested:
        return "research.summarize"
    todo = _todo(ctx, run.task_id)
    s = ctx.settings
    size = s.extract_batch * s.extract_concurrency
    taken, run.queue = run.queue[:size], run.queue[size:]
    batches = [taken[i:i + s.extract_batch] for i in range(0, len(taken), s.extract_batch)]
    for item in taken:
        research.visited.append(item.chunk_id)
    origins = {f.id: _where(f) for f in research.findings}

    def new_id() -> str:
        research.issued += 1
        return f"F{research.issued}"

    async def read(batch: list[WorkItem]) -> list[Finding]:
        try:
            return await read_batch(ctx, todo, batch, new_id, origins)
        except (BadOutput, PromptTooLong) as exc:  # one unreadable answer costs this batch, not the run
            ctx.warn("warn_extract_failed", count=len(batch), error=str(exc))
            return []

    found = await asyncio.gather(*(read(b) for b in batches))
    run.extracted += len(taken)
    _stop_when_nothing_helps(ctx, run, taken, [f for batch in found for f in batch])
    for finding in (f for batch in found for f in batch):
        research.findings.append(finding)
        ctx.emit(ev.FindingAdded(task_id=run.task_id, finding_id=finding.id, tier=finding.tier, doc=finding.doc,
                                 page=finding.page, relevance=finding.relevance,
                                 quotes=len(finding.quotes), verified=len(finding.verified_quotes)))
    return "research.extract" if run.queue else "research.summarize"


def _findings_text(findings: list[Finding]) -> str:
    lines = []
    for f in findings:
        quotes = "".join(f'\n   "{q.display}"' for q in f.verified_quotes)
        lines.append(f"[{f.id}] ({f.doc}, p. {f.page}{', ' + f.section if f.section else ''}; tier {f.tier}) {f.heading}{quotes}")
    return "\n".join(lines) or "(no findings)"


async def summarize(ctx: StepContext) -> str:
    research = ctx.state.later.research
    assert research.current is not None
    run = research.task(research.current)
    todo = _todo(ctx, run.task_id)
    skipped = run.task_id in research.skip_requested
    findings = [f for f in research.findings if f.task_id == run.task_id]
    if findings and not skipped and (len(findings) < SUMMARY_MIN_FINDINGS or run.allowance is not None):
        # one or two findings say it themselves; under a binding time budget (an allowance) the time goes
        # to reading, not to restating what was read: no LLM call, the findings' own words
        run.summary = TaskSummary(summary=" ".join(f"{f.heading}: {f.said(200)}" for f in findings),
                                  key_points=[f.said() for f in findings], by_model=False)
    elif findings and not skipped:
        check = language_check(ctx.state.language, lambda v: [v.summary])  # type: ignore[attr-defined]
        answer = await ctx.ask_or(lambda: None, P.TASK_SUMMARY, TaskSummaryAnswer, check, lenient=True,  # type: ignore[arg-type, return-value]
                                  question=ctx.state.question, task=todo.task, findings=_findings_text(findings))
        run.summary = TaskSummary(**answer.model_dump()) if answer else None
    run.queue = []
    run.status = "skipped" if skipped else "done"
    research.current = None
    _plan_status(ctx, run.task_id, run.status)
    ctx.emit(ev.TaskDone(task_id=run.task_id, status=run.status, findings=len(findings),
                         summary=run.summary.summary if run.summary else None))
    return "research.next_task"


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
