"""Phase 4 — synthesis (docs/architecture.md §4): the answer in the question's language from the tiered findings.

Citations are structure, not hoped-for text: the model returns statements, each with the numbers of
the sources it rests on (``SynthesisAnswer``), and Rabbithole renders them to Markdown with ``[n]``
markers. A statement without a valid source is left out, never made a citation. Quotes in the answer
that are not in their sources lose their quotation marks, and statements that may not stand in an answer
(a fragment, a garbled word, one off the question) are left out (``answer.py``). The quality section
follows (``quality.py``) and, after a low self-rating, one focused revision. Under a binding time budget a
question planned by its parts is answered part by part with the evidence ``coverage.py`` picks, and no model
writes it (``by_evidence``): on a slow server those minutes read more. When the model cannot write
a usable answer, each task is answered the same way, under a heading that says so (``_without_model``); where
no task has a line, the run still ends in a report: phase 5 builds an evidence report from the verified
findings (``Synthesis.fallback``)."""

from __future__ import annotations

from desktop.engine import events as ev
from desktop.engine import prompts_synthesis as PS
from desktop.engine.answer import Rendered, cited_numbers, plain, render, unquote_unverified
from desktop.engine.checks import foreign, some_in_language
from desktop.engine.coverage import completed, meaning
from desktop.engine.estimate import brief_answer_tokens, remaining_budget
from desktop.engine.findings import BRIEF_SOURCE_CHARS, SOURCE_CHARS, kept_findings, source_block, tasks_text
from desktop.engine.research_state import Finding
from desktop.engine.state import by_parts
from desktop.engine.schemas import SynthesisAnswer, brief_answer
from desktop.engine.step_context import StepContext
from desktop.engine.citation_support import supporting
from desktop.llm.types import BadOutput, PromptTooLong


def brief(ctx: StepContext) -> bool:
    """Whether the answer takes its brief shape (``PS.SYNTHESIS_BRIEF``): under a binding time budget, whose
    minutes go to reading."""
    return ctx.state.later.research.budget_binds


def by_evidence(ctx: StepContext) -> bool:
    """Whether the engine answers the question part by part with the evidence found for each, and no model
    writes the answer: under a binding time budget, in a plan by the question's parts. Measured (RESULTS §21,
    1.5B model, 2 cores): the brief answer's call took 70-200 s of the 300 (its 2,200-2,800 prompt tokens read at
    ~34 tokens/s), while the parts' evidence lines alone, replayed on those runs' evidence, held 38 of the 39
    facts the answers stated; those minutes go to reading instead (``estimate.CostModel.written``)."""
    return brief(ctx) and by_parts(ctx.state)


def _chars(ctx: StepContext) -> int:
    return BRIEF_SOURCE_CHARS if brief(ctx) else SOURCE_CHARS


def numbered_sources(ctx: StepContext, budget: int) -> list[Finding]:
    """The findings the synthesis may cite, strongest first, within ``budget`` tokens."""
    chosen, used = [], 0
    for f in kept_findings(ctx):
        cost = ctx.llm.count_tokens(source_block(len(chosen) + 1, f, _chars(ctx)))
        if used + cost > budget:
            break
        chosen.append(f)
        used += cost
    return chosen


def _values(ctx: StepContext, sources: list[Finding]) -> dict[str, object]:
    anchor = ctx.state.anchor
    return {
        "question": ctx.state.question,
        "summary": ctx.state.clarification.summary if ctx.state.clarification.summary not in (None, ctx.state.question) else "-",
        "scope": anchor.scope if anchor and anchor.scope else "-",
        "avoid": "; ".join(anchor.avoid) if anchor and anchor.avoid else "-",
        "tasks": tasks_text(ctx, sources),
        "sources": "\n".join(source_block(i, f, _chars(ctx)) for i, f in enumerate(sources, 1)) or "(none)",
    }


def _check(sources: list[str], language: str):  # noqa: ANN202
    # a statement in another language is left out at rendering (``statements.why_left_out``); the answer is asked
    # for again only where none is in the run's language
    in_language = some_in_language(language, lambda v: [s.text for s in v.answer + v.details])  # type: ignore[attr-defined]

    def check(value: object) -> str | None:
        answer: SynthesisAnswer = value  # type: ignore[assignment]
        if problem := in_language(value):  # words of another language cannot match the sources' either
            return problem
        statements = [s for s in answer.answer + answer.details if not foreign(s.text, language)]
        if not any(cited_numbers(s, len(sources)) for s in statements):
            return PS.NO_CITED_STATEMENT.format(n=len(sources))
        if not any(supporting(plain(s.text), cited_numbers(s, len(sources)), sources, language) for s in statements):
            return PS.NOT_SUPPORTED
        return None

    return check


def synthesis_budget(ctx: StepContext, context: int) -> int:
    """Tokens of sources the synthesis may read: the setting, within the model's context after the
    instructions and the longest answer."""
    return max(500, min(ctx.settings.synthesis_context_tokens, context - PS.SYNTHESIS.max_tokens - 1500))


async def _compose(ctx: StepContext, sources: list[Finding], feedback: str) -> SynthesisAnswer:
    """The model's answer; one cut off at the token limit keeps its complete statements (a small model repeats
    a statement until the limit: the statements before are the answer, a retry costs half a minute). Under a
    time budget it is asked again only where the budget has room for another try (``CallOptions.time_left_s``);
    else the tasks are answered by their evidence (``_without_model``)."""
    check = _check([_support_text(f) for f in sources], ctx.state.language)
    left = remaining_budget(ctx)
    if not brief(ctx):
        return await ctx.ask(PS.SYNTHESIS, SynthesisAnswer, check, feedback=feedback, keep_cut=True,
                             time_left_s=left, **_values(ctx, sources))
    n = _statements(ctx, sources)
    answer = await ctx.ask(PS.SYNTHESIS_BRIEF, brief_answer(n), lambda v: check(v.full()), feedback=feedback,  # type: ignore[attr-defined]
                           keep_cut=True, answer_tokens=brief_answer_tokens(n), time_left_s=left,
                           n=n, **_values(ctx, sources))
    return answer.full()


def _statements(ctx: StepContext, sources: list[Finding]) -> int:
    """The brief answer's statements: one for each task that found something, the question itself not
    counted where its parts are tasks (their statements answer it)."""
    tasks = {f.task_id for f in sources}
    plan = ctx.state.plan
    return max(2, len(plan.answered(tasks) if plan is not None else tasks))


async def _quote_sources(ctx: StepContext, sources: list[Finding]) -> list[str]:
    """The texts a quotation in the answer may stand in: the sources' chunks and verified quotes, and a quoted
    sentence with its rest from the next page."""
    chunks = await ctx.in_thread(ctx.kb.catalog.chunks_by_id, [f.chunk_id for f in sources if f.chunk_id])
    texts = []
    for f in sources:
        texts += [chunks[f.chunk_id].text] if f.chunk_id in chunks else []
        texts += [q.display for q in f.verified_quotes if q.display] + f.across_pages()
    return texts


def _support_text(f: Finding) -> str:
    """What a finding says: its information and its verified quotes (not the whole chunk, where any "nicht"
    would seem to support any denial)."""
    return "\n".join([f.info, f.quoted])


def aims(ctx: StepContext) -> list[str]:
    """What the answer's statements must address: the question, its research queries, the plan's tasks and
    their queries (in the documents' language: an English question over German statutes)."""
    state = ctx.state
    tasks = [x for t in (state.plan.items if state.plan else []) for x in (t.task, *t.subtasks)]
    return [state.question, *state.clarification.research_queries, *tasks,
            *(state.anchor.key_entities if state.anchor else [])]


def _restated(ctx: StepContext) -> list[str]:
    """Texts an open point may not merely repeat: the scope, the refined question, the question, the tasks."""
    state = ctx.state
    tasks = [x for t in (state.plan.items if state.plan else []) for x in (t.task, t.context)]
    return [state.question, state.clarification.summary or "", state.anchor.scope if state.anchor else "", *tasks]


async def _settle(ctx: StepContext, answer: str) -> None:
    """``answer`` as the run's, its quotations counted: one that stands in none of its sources loses its marks."""
    syn = ctx.state.later.synthesis
    by_id = {f.id: f for f in ctx.state.later.research.findings}
    syn.answer, syn.quotations, syn.quotations_verified = unquote_unverified(
        answer, await _quote_sources(ctx, [by_id[i] for i in syn.sources]))


async def _adopt(ctx: StepContext, draft: SynthesisAnswer, sources: list[Finding], attempt: int) -> bool:
    """The draft as the run's answer; whether any of the model's statements stood."""
    syn = ctx.state.later.synthesis
    shown: Rendered = render(draft, [_support_text(f) for f in sources], ctx.state.language, aims(ctx), _restated(ctx),
                             documents=[f.quoted for f in sources])
    answer, syn.sources, syn.lined = completed(ctx, shown.markdown, [f.id for f in sources],  # every task that found something
                                               await meaning(ctx))
    await _settle(ctx, answer)
    syn.uncited = shown.uncited
    syn.left_out = [f"{why}: {text}" for why, text in shown.left_out]
    if shown.uncited:
        ctx.warn("warn_uncited", count=len(shown.uncited))
    if shown.left_out:
        ctx.warn("warn_left_out", count=len(shown.left_out), reasons=", ".join(sorted({w for w, _ in shown.left_out})))
    ctx.emit(ev.SynthesisTokens(text=syn.answer, attempt=attempt))  # the window shows the draft as it is written
    return bool(shown.markdown.strip())


async def _answer_by_evidence(ctx: StepContext, heading: str) -> bool:
    """Each task (each part of the question) with the sentence of the documents found for it
    (``coverage.completed`` with no statement of a model), under ``heading``, a key of ``LABELS`` that says who chose
    the lines and why no model wrote them (its ``_readings`` form over documents in another language: a line may
    be the model's reading of the sentence); whether any task had one."""
    syn, state = ctx.state.later.synthesis, ctx.state
    heading += "" if state.language == state.doc_language else "_readings"
    answer, syn.sources, syn.lined = completed(ctx, "", [], await meaning(ctx), heading=heading)
    if not syn.lined:
        return False
    await _settle(ctx, answer)
    syn.by_evidence = True
    ctx.emit(ev.SynthesisTokens(text=syn.answer, attempt=1))
    return True


async def _answer_by_parts(ctx: StepContext) -> bool:
    """Under a binding time budget, each part of the question with its evidence (``by_evidence``)."""
    if not await _answer_by_evidence(ctx, "answer_by_parts"):
        return False
    ctx.warn("warn_answer_by_parts", parts=len(ctx.state.later.synthesis.lined))
    return True


async def _without_model(ctx: StepContext, error: str) -> str:
    """The model could not write a usable answer (``error`` says why): each task of the plan with the sentence
    of the documents found for it, as a plan by parts gets it under the budget; where no task has one, an
    evidence report (phase 5). Seen (RESULTS §23, laws-dev-07 and -08, a 1.5B model): the brief answer failed its
    check three times, and the report listed every finding by task and tier, the answer among twenty quotes."""
    syn = ctx.state.later.synthesis
    syn.fallback_detail = error
    if await _answer_by_evidence(ctx, "answer_model_failed"):
        ctx.warn("warn_answer_by_evidence", error=error, tasks=len(syn.lined))
        return "synthesis.quality"
    syn.fallback = "model_failed"
    ctx.warn("warn_synthesis_failed", error=error)
    return "report.build"


async def write(ctx: StepContext) -> str:
    state = ctx.state
    state.phase = "synthesis"
    ctx.emit(ev.PhaseStarted(phase="synthesis"))
    syn = state.later.synthesis
    syn.quality, syn.fallback, syn.fallback_detail, syn.by_evidence = None, None, None, False
    if not kept_findings(ctx):
        syn.fallback = "no_findings"
        return "report.build"
    # where no part has a line of its own (none of its findings kept), the model writes the brief answer
    if by_evidence(ctx) and await _answer_by_parts(ctx):
        return "synthesis.quality"
    sources = numbered_sources(ctx, synthesis_budget(ctx, await ctx.llm.context_length()))
    syn.sources = [f.id for f in sources]
    try:
        draft = await _compose(ctx, sources, feedback="")
    except (BadOutput, PromptTooLong) as exc:
        return await _without_model(ctx, str(exc))
    if not await _adopt(ctx, draft, sources, attempt=1):  # none of the model's statements could stand
        return await _without_model(ctx, PS.NOTHING_STOOD)
    return "synthesis.quality"


async def revise(ctx: StepContext) -> str:
    """One focused revision; if the model cannot write it, the first answer stands."""
    syn = ctx.state.later.synthesis
    assert syn.quality is not None
    by_id = {f.id: f for f in ctx.state.later.research.findings}
    sources = [by_id[i] for i in syn.sources]
    feedback = PS.REVISION_REQUEST.format(notes=syn.quality.notes or "(no notes)", answer=syn.answer)
    try:
        draft = await _compose(ctx, sources, feedback)
    except (BadOutput, PromptTooLong) as exc:
        ctx.warn("warn_revision_failed", error=str(exc))
        return "report.build"
    first = syn.model_copy(deep=True)
    if not await _adopt(ctx, draft, sources, attempt=2):  # none of the revision's statements stood
        ctx.state.later.synthesis = first
        ctx.warn("warn_revision_failed", error=PS.NOTHING_STOOD)
        return "report.build"
    return "synthesis.quality"
