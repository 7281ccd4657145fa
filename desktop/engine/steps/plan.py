"""Phase 2 — the research plan (docs/architecture.md §3): a to-do list whose task 0 is the original question, 3–5
tasks to start and at most 15, each with context and subtasks. The user edits it, asks for a re-plan
with feedback, and approves it. When the knowledge base cannot answer the question, the plan says so."""

from __future__ import annotations

from pydantic import BaseModel

from desktop.engine import events as ev
from desktop.engine import prompts as P
from desktop.engine import question_parts
from desktop.engine.checks import (all_of, distinct, is_search, language_check, names_nothing, queries_in, same_text,
                                   search_check, subject_overlap, written_in)
from desktop.engine.excerpts import budgeted_excerpts, bullet_list, excerpt_budget
from desktop.engine.estimate import research_estimate
from desktop.engine.evidence import Aim, cut_text
from desktop.engine.prompts import Prompt
from desktop.engine.schemas import PlanItem, PlanProposal, plan_outline, search_queries
from desktop.engine.state import Pending, Plan, RetrievedChunk, Todo
from desktop.engine.step_context import StepContext


class PlanEditError(ValueError):
    """An edit the plan cannot take; the message says why."""


def _check(language: str):  # noqa: ANN202
    # the tasks are what the user reads and edits; a reason in the wrong language is not worth a minute's retry
    return language_check(language, lambda v: [i.task for i in v.items])  # type: ignore[attr-defined]


async def _excerpts(ctx: StepContext, prompt: Prompt, schema: type[BaseModel], *, compact: bool = False,
                    **values: object) -> tuple[str, list[str]]:
    """What the clarification found plus a fresh search for the research queries, most relevant first,
    within the plan's budget; ``compact``: each cut to its best sentences for the question (evidence.py),
    so that many more fit. Returns the excerpt block and the texts shown."""
    state, cl = ctx.state, ctx.state.clarification
    pool = dict(cl.chunks)
    queries = cl.research_queries or [state.question]
    for query, hits in zip(queries, await ctx.search(queries, ctx.settings.k_per_query)):
        for rank, hit in enumerate(hits, start=1):
            pool.setdefault(hit.chunk_id, RetrievedChunk(
                chunk_id=hit.chunk_id, doc_id=hit.doc_id, doc=hit.doc, page=hit.page, section=hit.section,
                text=hit.text, query=query, round=0, rank=rank))
    order = await ctx.rank(" ".join([state.question, cl.summary or ""] + queries), list(pool))
    if compact:
        aim = Aim.of(state.question, state.question, queries)
        pool = {c: r.model_copy(update={"text": cut_text(r.text, aim, state.doc_language)}) for c, r in pool.items()}
    budget = await excerpt_budget(ctx, prompt, schema, ctx.settings.plan_context_tokens, excerpts="", **values)
    text, shown = budgeted_excerpts([pool[c] for c in order], budget, ctx.llm.count_tokens)
    return text, [pool[c].text for c in shown]


def _values(ctx: StepContext) -> dict[str, object]:
    state = ctx.state
    anchor = state.anchor
    return {
        "question": state.question,
        "summary": state.clarification.summary or state.question,
        "scope": anchor.scope if anchor else "-",
        "avoid": "; ".join(anchor.avoid) if anchor and anchor.avoid else "-",
        "p_min": ctx.settings.plan_min_items,
        "p_max": ctx.settings.plan_max_initial,
    }


def _no_plan() -> PlanProposal:
    return PlanProposal(answerable=True, reason="", items=[])


def merged(question: str, items: list[PlanItem], own_words: bool = False) -> tuple[list[PlanItem], list[str]]:
    """The proposed to-dos without near-identical repeats (seen: a 1.5B model's plan with tasks 1, 2 and 3 of
    the same title, text and queries, each researched and shown three times), and the queries of the ones
    that only stand for the question, which is task 0 already: a restatement of it, or a task of research
    words alone ("Anwendung der relevanten Gesetze": ``checks.names_nothing``). A repeat's queries join the
    first of its kind; the queries of a task that stands for the question join the question's. Tasks in the
    question's ``own_words`` (its parts) are the user's: one of research words alone stays."""
    kept: list[PlanItem] = []
    for_question: list[str] = []
    for item in items:
        task = " ".join(item.task.split())
        if not task or same_text(task, question) or (not own_words and names_nothing(task)):
            for_question += item.subtasks
            continue
        first = next((k for k in kept if same_text(k.task, task)), None)
        if first is None:
            kept.append(item.model_copy(update={"task": task}))
        else:
            first.subtasks = distinct([*first.subtasks, *item.subtasks])
    return kept, distinct(for_question)


async def _adopt(ctx: StepContext, proposal: PlanProposal, revision: int, shown: list[str], keep: int | None = None,
           by_parts: bool = False) -> str:
    """The proposal as the plan awaiting approval: at most ``keep`` tasks besides the question itself (what the
    prompt asked for: ``plan_max_initial``)."""
    state = ctx.state
    keep = keep or min(ctx.settings.plan_max_initial, ctx.settings.plan_max_items - 1)
    distinct_items, for_question = merged(state.question, proposal.items, own_words=by_parts)
    summary = state.clarification.summary or ""  # the question itself where the user said nothing: not shown twice
    task0 = Todo(id=0, task=state.question, context="" if same_text(summary, state.question) else summary,
                 subtasks=for_question)
    if len(distinct_items) < len(proposal.items):
        ctx.warn("warn_plan_merged", proposed=len(proposal.items), kept=len(distinct_items))
    if len(distinct_items) > keep:
        ctx.warn("warn_plan_trimmed", proposed=len(distinct_items), kept=keep)
    items = [task0] + [
        Todo(id=i, task=item.task.strip(), context=item.context.strip(), subtasks=[s.strip() for s in item.subtasks if s.strip()])
        for i, item in enumerate(distinct_items[:keep], start=1)
    ]
    answerable = proposal.answerable
    if not answerable and (hit := subject_overlap(state.question, shown)) is not None:
        # the model kept saying "nothing relevant" with an excerpt on the question's subject in view
        answerable = True
        ctx.warn("warn_plan_overruled", excerpt=hit[0], terms=", ".join(hit[1][:5]))
    note = None if answerable else (proposal.reason or "The knowledge base does not seem to hold the answer.")
    state.plan = Plan(items=items, revision=revision, answerable=answerable, note=note, by_parts=by_parts)
    state.pending = Pending(kind="approve_plan")
    ctx.emit(ev.TodosProposed(revision=revision, items=[t.model_dump() for t in items],
                              answerable=answerable, note=note))
    if (estimate := await research_estimate(ctx, "plan")) is not None:
        ctx.emit(estimate)  # before approving: how long the research of this plan will take here
    ctx.emit(ev.CheckpointReached(kind="approve_plan"))
    return "plan.wait"


async def propose(ctx: StepContext) -> str:
    if ctx.state.phase != "plan":
        ctx.state.phase = "plan"
        ctx.emit(ev.PhaseStarted(phase="plan"))
    asked = question_parts.parts(ctx.state.question)
    if len(asked) >= 2:  # in the window too: the user edits the parts (``_by_parts``)
        return await _by_parts(ctx, asked[: ctx.settings.plan_max_items - 1])
    if ctx.state.auto:
        return await _outline(ctx)
    values = _values(ctx)
    excerpts, shown = await _excerpts(ctx, P.PLAN, PlanProposal, **values)
    proposal = await ctx.ask_or(_no_plan, P.PLAN, PlanProposal, _check(ctx.state.language),
                                lenient=True, keep_cut=True, excerpts=excerpts, **values)
    return await _adopt(ctx, proposal, 1, shown)


async def _outline(ctx: StepContext) -> str:
    """--auto, a question that asks one thing: a plan of titles and search queries — nobody reads it before it
    runs, so the model writes no prose; it proposes the to-dos from excerpts cut to their best sentences."""
    state, s = ctx.state, ctx.settings
    values = {"question": state.question, "doc_language": state.doc_language, "p_min": s.plan_min_items,
              "p_max": s.plan_max_initial}
    schema = plan_outline(s.plan_max_initial)
    excerpts, shown = await _excerpts(ctx, P.PLAN_OUTLINE, schema, compact=True, **values)
    # a sub-query that is no search is dropped below, its to-do kept; it is not asked for again (seen, laws-dev-10
    # and -08 with a 1.5B model: single words, "Strahlenschutzkontrolle"; the second try wrote them again, 31 s and
    # 14 s of a five-minute budget, and the lenient call kept it all the same)
    check = _check(state.language)
    # a plan cut off at its token limit keeps its complete to-dos (seen, laws-dev-08 with a 1.5B model: the
    # outline repeated one to-do until the limit for 53 s, and the second try took 22 s more)
    outline = await ctx.ask_or(lambda: schema(answerable=True, items=[]), P.PLAN_OUTLINE, schema, check,
                               lenient=True, keep_cut=True, excerpts=excerpts, **values)
    proposal = PlanProposal(answerable=outline.answerable, items=[
        PlanItem(task=i.task, subtasks=[q for q in i.subtasks if is_search(q)]) for i in outline.items])
    return await _adopt(ctx, proposal, 1, shown)


async def replan(ctx: StepContext) -> str:
    plan = ctx.state.plan
    assert plan is not None and plan.feedback
    current = "\n".join(f"{t.id}. {t.task}" + (f" — {t.context}" if t.context else "") for t in plan.items)
    values = {**_values(ctx), "plan": current, "feedback": plan.feedback}
    excerpts, shown = await _excerpts(ctx, P.REPLAN, PlanProposal, **values)
    proposal = await ctx.ask_or(_no_plan, P.REPLAN, PlanProposal, _check(ctx.state.language),
                                lenient=True, keep_cut=True, excerpts=excerpts, **values)
    return await _adopt(ctx, proposal, plan.revision + 1, shown)


async def _by_parts(ctx: StepContext, asked: list[str]) -> str:
    """The question's parts as the plan's tasks, in --auto and in the window, where the user edits them like any
    plan (seen in the window with a 1.5B model: "A German airline asks …: above what annual effective dose must
    the operation of an aircraft be notified, and which federal authority examines the notification?" was
    planned as "Check the specific radiation protection rules and their conditions" and "Identify the federal
    authority responsible for radiation protection", a plan call of about a minute of the five-minute budget;
    the research read 7 excerpts and found neither the dose nor the authority). In the documents' language
    each is searched with its own words (and the part before it where it names its subject by a pronoun): no
    model call. Over documents in another language the model writes a search for each in the documents'
    language."""
    state = ctx.state
    if state.language == state.doc_language:
        proposal = PlanProposal(answerable=True, items=[
            PlanItem(task=part, subtasks=[search] if search != part else []) for part, search in
            zip(asked, question_parts.searches(asked))])
        return await _adopt(ctx, proposal, 1, [], keep=len(asked), by_parts=True)
    schema = search_queries(len(asked), exact=True)
    numbered = "\n".join(f"{i}. {part}" for i, part in enumerate(asked, start=1))
    check = all_of(search_check(lambda v: v.queries), queries_in(state.doc_language))  # type: ignore[attr-defined]
    answer = await ctx.ask_or(lambda: schema.model_construct(queries=[]), P.PLAN_PARTS, schema, check, lenient=True,
                              parts=numbered, n=len(asked), doc_language=state.doc_language)
    queries = [q if is_search(q) and written_in(q, state.doc_language) else "" for q in answer.queries]
    proposal = PlanProposal(answerable=True, items=[
        PlanItem(task=part, subtasks=[q] if q else []) for part, q in zip(asked, [*queries, *[""] * len(asked)])])
    return await _adopt(ctx, proposal, 1, [], keep=len(asked), by_parts=True)


# --- edits: commands of the user, no LLM involved ------------------------------------------------------


def _item(plan: Plan, todo_id: int) -> Todo:
    for t in plan.items:
        if t.id == todo_id:
            return t
    raise PlanEditError(f"there is no to-do {todo_id}; the plan has {', '.join(str(t.id) for t in plan.items)}")


def add(ctx: StepContext, task: str, context: str = "", subtasks: list[str] | None = None) -> None:
    plan = ctx.state.plan
    assert plan is not None
    if not task.strip():
        raise PlanEditError("a to-do needs a task")
    if len(plan.items) >= ctx.settings.plan_max_items:
        raise PlanEditError(f"a plan holds at most {ctx.settings.plan_max_items} to-dos; remove one first")
    todo = Todo(id=plan.next_id(), task=task.strip(), context=context.strip(), subtasks=subtasks or [])
    plan.items.append(todo)
    ctx.emit(ev.PlanEdited(operation="add", detail=todo.model_dump()))


def edit(ctx: StepContext, todo_id: int, task: str | None = None, context: str | None = None,
         subtasks: list[str] | None = None) -> None:
    plan = ctx.state.plan
    assert plan is not None
    todo = _item(plan, todo_id)
    if task is not None and not task.strip():
        raise PlanEditError("a to-do needs a task")
    todo.task = task.strip() if task is not None else todo.task
    todo.context = context.strip() if context is not None else todo.context
    todo.subtasks = subtasks if subtasks is not None else todo.subtasks
    ctx.emit(ev.PlanEdited(operation="edit", detail=todo.model_dump()))


def remove(ctx: StepContext, todo_id: int) -> None:
    plan = ctx.state.plan
    assert plan is not None
    if todo_id == 0:
        raise PlanEditError("to-do 0 is the research question itself; edit it instead of removing it")
    plan.items.remove(_item(plan, todo_id))
    ctx.emit(ev.PlanEdited(operation="remove", detail={"id": todo_id}))


def move(ctx: StepContext, todo_id: int, position: int) -> None:
    """Put a to-do at ``position`` (1-based among the tasks after task 0)."""
    plan = ctx.state.plan
    assert plan is not None
    if todo_id == 0:
        raise PlanEditError("to-do 0, the research question, stays first")
    todo = _item(plan, todo_id)
    plan.items.remove(todo)
    plan.items.insert(max(1, min(position, len(plan.items))), todo)
    ctx.emit(ev.PlanEdited(operation="move", detail={"id": todo_id, "position": position}))


def request_replan(ctx: StepContext, feedback: str) -> str:
    plan = ctx.state.plan
    assert plan is not None
    if not feedback.strip():
        raise PlanEditError("say what the new plan should do differently")
    plan.feedback = feedback.strip()
    ctx.state.pending = None
    ctx.emit(ev.PlanEdited(operation="replan", detail={"feedback": plan.feedback}))
    return "plan.replan"


def approve(ctx: StepContext) -> str:
    plan = ctx.state.plan
    assert plan is not None
    plan.approved, plan.feedback = True, None
    ctx.state.pending = None
    ctx.emit(ev.PlanApproved(items=len(plan.items)))
    return "research.start"


def show(plan: Plan) -> str:
    lines = []
    for t in plan.items:
        lines.append(f"{t.id}. {t.task}")
        if t.context:
            lines.append(f"   {t.context}")
        lines += [f"   - {s}" for s in t.subtasks]
    return "\n".join(lines) or bullet_list([])
