"""Phase 1 — iterative clarification with retrieval (DESIGN §5).

Each round: search queries → retrieval, de-duplicated against the whole run → an analysis of the
excerpts (concepts, entities, scope, gaps, coverage) → 2–3 questions in the user's language. The run
then waits for the answer. Clarification ends on the user's /end (the last answer still counts), at
the last round, when the token budget is spent; convergence only suggests ending. Finalising fixes
the research queries, the immutable query anchor and a summary for every later phase.
"""

from __future__ import annotations

from desktop.engine import events as ev
from desktop.engine import prompts as P
from desktop.engine.context import answers_block, budgeted_excerpts, bullet_list, dialogue, language_check
from desktop.engine.schemas import ClarificationResult, FollowUpQuestions, RetrievalAnalysis, SearchQueries
from desktop.engine.state import ClarifyRound, Pending, QueryAnchor, RetrievedChunk, RoundAnalysis, Termination, now
from desktop.engine.step import StepContext
from desktop.kb.language import detect_language


async def start(ctx: StepContext) -> str:
    state = ctx.state
    state.language = detect_language(state.question, default=state.language)
    state.clarification.rounds = [ClarifyRound(index=1)]
    ctx.emit(ev.PhaseStarted(phase="clarify"))
    return "clarify.queries"


def _count_check(n: int):  # noqa: ANN202
    def check(value: object) -> str | None:
        got = len(value.queries)  # type: ignore[attr-defined]
        return None if got >= n else f"Write exactly {n} queries, not {got}."

    return check


async def queries(ctx: StepContext) -> str:
    state, cl = ctx.state, ctx.state.clarification
    n = ctx.settings.queries_per_round
    rnd = cl.current
    assert rnd is not None
    if rnd.index == 1:
        angles = "; ".join(P.FIRST_ANGLES[: max(1, n)])
        answer = await ctx.ask_or(lambda: SearchQueries(queries=[state.question]), P.QUERIES_FIRST, SearchQueries,
                                  _count_check(n), question=state.question, n=n, angles=angles)
        found = [q.strip() for q in answer.queries if q.strip()]
        # the original question is always the first query, whatever the model wrote
        rnd.queries = [state.question] + [q for q in found if q.casefold() != state.question.casefold()][: n - 1]
    else:
        used = [q for r in cl.rounds[:-1] for q in r.queries]
        last = cl.rounds[-2].analysis
        gaps_as_queries = lambda: SearchQueries(queries=(last.knowledge_gaps if last else [])[:n] or [state.question])  # noqa: E731
        answer = await ctx.ask_or(
            gaps_as_queries, P.QUERIES_NEXT, SearchQueries, _count_check(n), question=state.question, n=n,
            answers=bullet_list([r.answer for r in cl.rounds if r.answer]),
            gaps=bullet_list(last.knowledge_gaps if last else []), used=bullet_list(used),
            angles="; ".join(P.NEXT_ANGLES[:n]),
        )
        seen = {q.casefold() for q in used}
        rnd.queries = [q.strip() for q in answer.queries if q.strip() and q.strip().casefold() not in seen][:n]
        if not rnd.queries:  # the model only repeated itself: keep going with the gaps as queries
            rnd.queries = (last.knowledge_gaps if last else [state.question])[:n]
    ctx.emit(ev.QueriesGenerated(round=rnd.index, queries=rnd.queries))
    return "clarify.retrieve"


async def retrieve(ctx: StepContext) -> str:
    cl = ctx.state.clarification
    rnd = cl.current
    assert rnd is not None
    results = await ctx.search(rnd.queries, ctx.settings.k_per_query)
    new: list[str] = []
    duplicates = 0
    for query, hits in zip(rnd.queries, results):
        for rank, hit in enumerate(hits, start=1):
            if hit.chunk_id in cl.chunks:
                duplicates += 1
                continue
            cl.chunks[hit.chunk_id] = RetrievedChunk(
                chunk_id=hit.chunk_id, doc_id=hit.doc_id, doc=hit.doc, page=hit.page, section=hit.section,
                text=hit.text, query=query, round=rnd.index, rank=rank,
            )
            new.append(hit.chunk_id)
    rnd.new_chunks, rnd.duplicates = new, duplicates
    ctx.emit(ev.ChunksRetrieved(round=rnd.index, new=len(new), duplicates=duplicates, chunk_ids=new))
    return "clarify.analyze"


async def _relevant_excerpts(ctx: StepContext, budget: int) -> str:
    """All chunks seen in the run, most similar to the question and answers first, within budget."""
    cl = ctx.state.clarification
    focus = " ".join([ctx.state.question] + [r.answer for r in cl.rounds if r.answer])
    order = await ctx.rank(focus, list(cl.chunks))
    text, _ = budgeted_excerpts([cl.chunks[c] for c in order], budget, ctx.llm.count_tokens)
    return text


async def analyze(ctx: StepContext) -> str:
    state, cl = ctx.state, ctx.state.clarification
    rnd = cl.current
    assert rnd is not None
    excerpts = await _relevant_excerpts(ctx, ctx.settings.analysis_context_tokens)
    analysis = await ctx.ask_or(lambda: RetrievalAnalysis(coverage=0.0), P.ANALYZE, RetrievalAnalysis,
                                question=state.question, answers=answers_block(cl.rounds), excerpts=excerpts)
    rnd.analysis = RoundAnalysis(**analysis.model_dump())
    s = ctx.settings
    rnd.suggest_end = (
        rnd.index > 1
        and analysis.coverage >= s.converge_coverage
        and rnd.duplicate_share >= s.converge_duplicate_share
        and len(analysis.knowledge_gaps) <= s.converge_max_gaps
    )
    ctx.emit(ev.CoverageUpdated(round=rnd.index, coverage=analysis.coverage, gaps=analysis.knowledge_gaps))
    return "clarify.questions"


def over_budget(ctx: StepContext) -> bool:
    return ctx.state.usage.total_tokens >= ctx.settings.clarify_token_budget


def _distinct(texts: list[str]) -> list[str]:
    """Stripped, in order, each once: a small model may ask the same question twice."""
    seen: set[str] = set()
    out = []
    for text in texts:
        text = " ".join(text.split())
        if text and text.casefold() not in seen:
            seen.add(text.casefold())
            out.append(text)
    return out


async def questions(ctx: StepContext) -> str:
    state, cl = ctx.state, ctx.state.clarification
    rnd = cl.current
    assert rnd is not None and rnd.analysis is not None
    if over_budget(ctx):
        return end(ctx, "token_budget")
    s = ctx.settings
    check = language_check(state.language, lambda v: v.questions)  # type: ignore[attr-defined]
    asked = await ctx.ask_or(lambda: FollowUpQuestions.model_construct(questions=[]), P.QUESTIONS, FollowUpQuestions,
                             check, question=state.question, answers=answers_block(cl.rounds),
                             scope=rnd.analysis.scope or "(unclear)", gaps=bullet_list(rnd.analysis.knowledge_gaps),
                             q_min=s.questions_min, q_max=s.questions_max)
    rnd.questions = _distinct(asked.questions)[: s.questions_max]
    if not rnd.questions:
        return end(ctx, "model_failed")  # nothing to ask: go on to the plan with what is known
    state.pending = Pending(kind="answer", round=rnd.index)
    ctx.emit(ev.QuestionsAsked(
        round=rnd.index, max_rounds=s.max_rounds, questions=rnd.questions, coverage=rnd.analysis.coverage,
        gaps=rnd.analysis.knowledge_gaps, new=len(rnd.new_chunks), duplicates=rnd.duplicates, suggest_end=rnd.suggest_end,
    ))
    ctx.emit(ev.CheckpointReached(kind="answer"))
    return "clarify.wait"


def end(ctx: StepContext, reason: Termination) -> str:
    ctx.state.clarification.termination = reason
    ctx.state.pending = None
    return "clarify.finalize"


def take_answer(ctx: StepContext, text: str | None, ends: bool) -> str:
    """The user's answer to the current round (a command, not an LLM step): go on, or finish."""
    cl = ctx.state.clarification
    rnd = cl.current
    assert rnd is not None
    rnd.answer = text.strip() if text and text.strip() else None
    ctx.state.pending = None
    ctx.emit(ev.AnswerReceived(round=rnd.index, answer=rnd.answer, ends=ends))
    if ends:
        return end(ctx, "user_end")
    if rnd.index >= ctx.settings.max_rounds:
        return end(ctx, "max_rounds")
    if over_budget(ctx):
        return end(ctx, "token_budget")
    cl.rounds.append(ClarifyRound(index=rnd.index + 1))
    return "clarify.queries"


async def finalize(ctx: StepContext) -> str:
    state, cl = ctx.state, ctx.state.clarification
    last = next((r.analysis for r in reversed(cl.rounds) if r.analysis), None) or RoundAnalysis()
    check = language_check(state.language, lambda v: [v.summary, v.scope])  # type: ignore[attr-defined]
    used = [q for r in cl.rounds for q in r.queries]
    fallback = lambda: ClarificationResult(  # noqa: E731 - what is known without the model's summary
        research_queries=used or [state.question], scope=last.scope, summary=state.question,
        refinements=[r.answer for r in cl.rounds if r.answer], key_entities=last.entities)
    result = await ctx.ask_or(
        fallback, P.FINALIZE, ClarificationResult, check, question=state.question, dialogue=dialogue(cl.rounds),
        concepts=", ".join(last.key_concepts) or "-", entities=", ".join(last.entities) or "-",
        scope=last.scope or "-", gaps=", ".join(last.knowledge_gaps) or "-",
    )
    cl.research_queries = list(dict.fromkeys(q.strip() for q in result.research_queries if q.strip()))
    cl.summary = result.summary.strip()
    state.anchor = QueryAnchor(
        original_query=state.question, language=state.language, key_entities=result.key_entities,
        scope=result.scope, refinements=result.refinements, avoid=result.avoid, created_at=now(),
    )
    ctx.emit(ev.ClarificationEnded(reason=cl.termination or "user_end", research_queries=cl.research_queries,
                                   summary=cl.summary))
    return "plan.propose"
