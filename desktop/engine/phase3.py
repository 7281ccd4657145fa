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
from desktop.engine.extraction import read_batch
from desktop.engine.research_state import Finding, TaskRun, TaskSummary, WorkItem
from desktop.engine.schemas import TaskSummaryAnswer
from desktop.engine.state import Todo
from desktop.engine.step import StepContext
from desktop.kb.search import rrf
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
    research = ctx.state.later.research
    pending = [t for t in research.tasks if t.status == "pending"]
    if not pending:
        research.current = None
        return "drift.filter"
    run = pending[0]
    todo = _todo(ctx, run.task_id)
    queries = [todo.task] + todo.subtasks
    if todo.id == 0:
        queries += ctx.state.clarification.research_queries
    results = await ctx.search(list(dict.fromkeys(queries)), ctx.settings.extract_k_per_query)
    visited = set(research.visited)
    scores = rrf([[h.chunk_id for h in hits] for hits in results], ctx.settings.rrf_k)
    ranked = [c for c in sorted(scores, key=scores.__getitem__, reverse=True) if c not in visited]
    run.queue = [WorkItem(chunk_id=c) for c in ranked[: _room(ctx, run)]]
    run.status = "running"
    research.current = run.task_id
    _plan_status(ctx, run.task_id, "running")
    ctx.emit(ev.TaskStarted(task_id=run.task_id, task=todo.task, chunks=len(run.queue)))
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
    tokens_before = ctx.state.usage.total_tokens
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
    if any(item.depth for item in taken):
        run.reference_tokens += ctx.state.usage.total_tokens - tokens_before
    for finding in (f for batch in found for f in batch):
        research.findings.append(finding)
        ctx.emit(ev.FindingAdded(task_id=run.task_id, finding_id=finding.id, tier=finding.tier, doc=finding.doc,
                                 page=finding.page, relevance=finding.relevance,
                                 quotes=len(finding.quotes), verified=len(finding.verified_quotes)))
        await _follow(ctx, run, finding)
    return "research.extract" if run.queue else "research.summarize"


async def _follow(ctx: StepContext, run: TaskRun, finding: Finding) -> None:
    """Queue the chunks that the finding's references point to, within depth, budget and per-document
    limits. The references followed are those the model named and those in the sentences it quoted (not
    every reference of the chunk: a statute section cites a dozen others); each unit is followed once
    per task, and never back into the finding's own unit (its neighbours can be asked for instead)."""
    s, research = ctx.settings, ctx.state.later.research
    if finding.depth >= s.reference_depth or run.reference_tokens >= s.reference_budget_tokens:
        return
    text = "\n".join([q.display or q.proposed for q in finding.verified_quotes] + finding.references)
    if not text.strip():
        return
    resolved = await ctx.in_thread(ctx.kb.references, text, finding.doc_id)
    queued = {w.chunk_id for w in run.queue} | set(research.visited)
    for ref in resolved:
        for target in ref.targets:
            if not target.chunk_ids or target.doc_id is None:
                continue
            if run.allowance is not None and _room(ctx, run) == 0:
                return  # the time budget is spent on this task
            unit = f"{target.doc_id}|{target.section}"
            if unit in run.followed_units or (target.doc_id, target.section) == (finding.doc_id, finding.section):
                continue
            if run.doc_follows.get(target.doc_id, 0) >= s.reference_max_per_doc:
                if target.doc_id not in run.capped_docs:  # said once per task and document
                    run.capped_docs.append(target.doc_id)
                    ctx.warn("warn_reference_cap", doc=target.doc, times=s.reference_max_per_doc, task_id=run.task_id)
                continue
            best = await ctx.rank(f"{_todo(ctx, run.task_id).task} {finding.info}", target.chunk_ids)
            chunk_id = next((c for c in best if c not in queued), None)
            if chunk_id is None:
                continue
            queued.add(chunk_id)
            run.followed_units.append(unit)
            run.doc_follows[target.doc_id] = run.doc_follows.get(target.doc_id, 0) + 1
            run.followed += 1
            run.queue.append(WorkItem(chunk_id=chunk_id, depth=finding.depth + 1, referenced_from=finding.id,
                                      via=ref.reference.text))
            ctx.emit(ev.ReferenceFollowed(task_id=run.task_id, finding_id=finding.id, reference=ref.reference.text,
                                          doc=target.doc or "", page=target.page or 0, section=target.section,
                                          depth=finding.depth + 1))


def _findings_text(findings: list[Finding]) -> str:
    lines = []
    for f in findings:
        quotes = "".join(f'\n   "{q.display}"' for q in f.verified_quotes)
        lines.append(f"[{f.id}] ({f.doc}, p. {f.page}{', ' + f.section if f.section else ''}; tier {f.tier}) {f.info}{quotes}")
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
        # to reading, not to restating what was read: no LLM call
        run.summary = TaskSummary(summary=" ".join(" ".join(f.info.split()) for f in findings),
                                  key_points=[f.info for f in findings])
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
