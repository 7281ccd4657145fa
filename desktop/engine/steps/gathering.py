"""The research's first step: the engine gathers the evidence of every pending task at once, without the
model (``evidence.py``), so that the model then reads it in full batches whatever task it is for — a task
of two excerpts costs no call of its own (on a CPU each call's question, task and answer frame cost
seconds). Each task gathers what the settings allow; the reading takes each task's best first and stops
where the time budget does (``research``)."""

from __future__ import annotations

from desktop.engine import events as ev
from desktop.engine.evidence import Aim, Gatherer, Limits
from desktop.engine.research_state import TaskRun, WorkItem
from desktop.engine.state import Todo, by_parts
from desktop.engine.step_context import StepContext


def todo(ctx: StepContext, task_id: int) -> Todo:
    assert ctx.state.plan is not None
    return next(t for t in ctx.state.plan.items if t.id == task_id)


def room(ctx: StepContext, run: TaskRun) -> int:
    """Excerpts the task may still queue: its allowance (or the setting) less what it read and queued."""
    limit = run.allowance if run.allowance is not None else ctx.settings.max_chunks_per_task
    return max(0, limit - run.extracted - len(run.queue))


async def gather_pending(ctx: StepContext) -> str:
    """Gather the evidence of every pending task; then read it, or go on when nothing is left to read."""
    research = ctx.state.later.research
    names = {d.doc_id: d.file_name for d in (await ctx.documents()).values()}
    for run in _in_order(ctx, [t for t in research.tasks if t.status == "pending"]):
        await _gather(ctx, run, names)
    running = [t for t in research.tasks if t.status == "running"]
    research.current = None
    if any(t.queue for t in running):
        return "research.extract"
    return "research.summarize" if running else "drift.filter"


def _in_order(ctx: StepContext, runs: list[TaskRun]) -> list[TaskRun]:
    """The order tasks gather in: what one gathered, the next does not gather again. The question itself comes
    first when a few side tasks add to it; when the tasks are the question's parts it comes last, so that each
    part gets its own best evidence and the whole question what is left."""
    parts = by_parts(ctx.state)
    return sorted(runs, key=lambda r: parts and r.task_id == 0)


def aim(ctx: StepContext, task: Todo, queries: list[str]) -> Aim:
    """What a task's evidence should answer: the question, the task and its queries — a part of the question its
    own words and searches. The whole question holds every part's words, so each chunk was cut to the sentences
    of whichever part shares most of them (seen, laws-research-09: the chunk gathered for the part on the
    records of acceptance and constancy tests showed the acceptance test's sentences, and the constancy test's
    "zehn Jahre" was never read)."""
    if by_parts(ctx.state) and task.id != 0:
        return Aim.of(task.task, task.task, queries)
    return Aim.of(ctx.state.question, task.task, queries)


async def _gather(ctx: StepContext, run: TaskRun, names: dict[str, str]) -> None:
    research, s = ctx.state.later.research, ctx.settings
    task = todo(ctx, run.task_id)
    queries = list(dict.fromkeys([task.task, *task.subtasks,
                                  *(ctx.state.clarification.research_queries if task.id == 0 else [])]))
    reading = room(ctx, run)
    limits = Limits(room=max(reading, s.max_chunks_per_task - run.extracted), per_query=s.extract_k_per_query,
                    depth=s.reference_depth, per_doc=s.reference_max_per_doc, fusion_k=s.rrf_k)
    gathered = {w.chunk_id for w in research.gathered}  # an older run read whole chunks it did not gather
    seen = research.gathered + [WorkItem(chunk_id=c) for c in research.visited if c not in gathered]
    gatherer = await ctx.in_thread(Gatherer, ctx.kb, aim(ctx, task, queries[1:]), limits, seen, run.followed_units,
                                   names, ctx.state.doc_language, ctx.state.language)
    found = await ctx.in_thread(gatherer.gather, queries)
    run.found += len(found.items)
    run.queue = [item.model_copy(update={"task_id": run.task_id}) for item in found.items[:reading]]
    research.gathered += run.queue
    queued = {i.chunk_id for i in run.queue}
    for f in (f for f in found.followed if f.item.chunk_id in queued):
        run.followed += 1
        run.followed_units.append(f.unit)
        run.doc_follows[f.doc_id] = run.doc_follows.get(f.doc_id, 0) + 1
        ctx.emit(ev.ReferenceFollowed(task_id=run.task_id, origin=f.item.origin or "", reference=f.reference,
                                      doc=f.doc, page=f.page, section=f.section, depth=f.item.depth))
    for doc_id in (d for d in found.capped if d not in run.capped_docs):  # said once per task and document
        run.capped_docs.append(doc_id)
        ctx.warn("warn_reference_cap", doc=names.get(doc_id, doc_id), times=s.reference_max_per_doc, task_id=run.task_id)
    run.status = "running"
    task.status = "running"
    ctx.emit(ev.TaskStarted(task_id=run.task_id, task=task.task, chunks=len(run.queue), found=len(found.items),
                            followed=sum(1 for i in run.queue if i.depth)))
