"""Phase 1 — iterative clarification with retrieval (docs/architecture.md §3).

Each round: search queries → retrieval, de-duplicated against the whole run → an analysis of the
excerpts (concepts, entities, scope, gaps, coverage) → 2–3 questions in the user's language. The run
then waits for the answer. In --auto nobody answers: one round of queries and retrieval, no analysis (the
plan's outline reads the excerpts). Clarification ends on the user's /end (the last answer still counts), at
the last round, when the token budget is spent; convergence only suggests ending. Finalising fixes
the research queries, the immutable query anchor and a summary for every later phase.
"""

from __future__ import annotations

from desktop.engine import events as ev
from desktop.engine import prompts as P
from desktop.engine.checks import all_of, distinct, in_language, is_search, language_check, same_text, search_check
from desktop.engine.excerpts import answers_block, budgeted_excerpts, bullet_list, dialogue, excerpt_budget
from desktop.engine.schemas import (
    ClarificationResult,
    FollowUpQuestions,
    RetrievalAnalysis,
    SearchQueries,
    search_queries,
)
from desktop.engine.state import ClarifyRound, Pending, QueryAnchor, RetrievedChunk, RoundAnalysis, Termination, now
from desktop.engine.step_context import StepContext
from desktop.kb.language import detect_language


async def documents_language(ctx: StepContext, default: str) -> str:
    """The language most of the knowledge base is written in (by pages): queries are written in it, so
    an English question over German statutes also reaches the German lexical index."""
    pages: dict[str, int] = {}
    for d in (await ctx.documents()).values():
        pages[d.language] = pages.get(d.language, 0) + d.pages
    return max(pages, key=pages.__getitem__) if pages else default


async def start(ctx: StepContext) -> str:
    state = ctx.state
    state.language = detect_language(state.question, default=state.language, evidence=1)
    state.doc_language = await documents_language(ctx, state.language)
    state.vectors_missing, state.passages = await ctx.in_thread(ctx.kb.vector_coverage)
    state.clarification.rounds = [ClarifyRound(index=1)]
    ctx.emit(ev.PhaseStarted(phase="clarify"))
    if state.vectors_missing:  # research during an ingest: what has vectors is searched by meaning too
        ctx.warn("warn_vectors_missing", database=state.database, missing=state.vectors_missing, total=state.passages)
    return "clarify.queries"


def _queries_check(n: int):  # noqa: ANN202
    def count(value: object) -> str | None:
        got = len(value.queries)  # type: ignore[attr-defined]
        return None if got >= n else f"Write exactly {n} queries, not {got}."

    return all_of(count, search_check(lambda v: v.queries))  # type: ignore[attr-defined]


def _searches(queries: list[str], exclude: set[str]) -> list[str]:
    """The model's queries that are searches, each once, none already used."""
    return [q for q in distinct(queries) if is_search(q) and q.casefold() not in exclude]


async def queries(ctx: StepContext) -> str:
    state, cl = ctx.state, ctx.state.clarification
    n = ctx.settings.queries_per_round
    rnd = cl.current
    assert rnd is not None
    if rnd.index == 1:
        # the question itself is always the first query; the model adds n - 1 other angles
        rnd.queries = [state.question]
        if n > 1:
            answer = await ctx.ask_or(lambda: SearchQueries(queries=[state.question]), P.QUERIES_FIRST,
                                      search_queries(n - 1), _queries_check(n - 1), lenient=True,
                                      question=state.question, n=n - 1, angles="; ".join(P.FIRST_ANGLES[: n - 1]),
                                      doc_language=state.doc_language)
            rnd.queries += _searches(answer.queries, {state.question.casefold()})[: n - 1]
    else:
        used = [q for r in cl.rounds[:-1] for q in r.queries]
        last = cl.rounds[-2].analysis
        gaps_as_queries = lambda: SearchQueries(queries=(last.knowledge_gaps if last else [])[:n] or [state.question])  # noqa: E731
        answer = await ctx.ask_or(
            gaps_as_queries, P.QUERIES_NEXT, search_queries(n), _queries_check(n), lenient=True, question=state.question,
            n=n, answers=bullet_list([r.answer for r in cl.rounds if r.answer]),
            gaps=bullet_list(last.knowledge_gaps if last else []), used=bullet_list(used),
            angles="; ".join(P.NEXT_ANGLES[:n]), doc_language=state.doc_language,
        )
        rnd.queries = _searches(answer.queries, {q.casefold() for q in used})[:n]
        if not rnd.queries:  # the model only repeated itself: keep going with the gaps as queries
            rnd.queries = (last.knowledge_gaps if last else [state.question])[:n] or [state.question]
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
    if rnd.index == 1 and new:  # budgets in the model's own tokens: its tokenizer on the text it will read
        await ctx.llm.calibrate("\n".join(cl.chunks[c].text for c in new[:6]))
    ctx.emit(ev.ChunksRetrieved(round=rnd.index, new=len(new), duplicates=duplicates, chunk_ids=new))
    if ctx.state.auto:
        # nobody answers questions or reads an analysis: the plan's outline reads these excerpts once, and
        # the minutes go to reading the evidence (an analysis read them again: about a minute on a CPU)
        return end(ctx, "auto")
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
    values = {"question": state.question, "answers": answers_block(cl.rounds)}
    budget = await excerpt_budget(ctx, P.ANALYZE, RetrievalAnalysis, ctx.settings.analysis_context_tokens,
                                  excerpts="", **values)
    check = language_check(state.language, lambda v: [v.scope, *v.knowledge_gaps])  # type: ignore[attr-defined]
    nothing = lambda: RetrievalAnalysis(key_concepts=[], entities=[], scope="", knowledge_gaps=[], coverage=0)  # noqa: E731
    analysis = await ctx.ask_or(nothing, P.ANALYZE, RetrievalAnalysis, check,
                                lenient=True, excerpts=await _relevant_excerpts(ctx, budget), **values)
    # one gap said five times, or in another language, is not five gaps for this user
    gaps = in_language(distinct(analysis.knowledge_gaps), state.language)
    coverage = analysis.coverage / 100
    rnd.analysis = RoundAnalysis(**analysis.model_dump(exclude={"knowledge_gaps", "coverage"}), knowledge_gaps=gaps,
                                 coverage=coverage)
    s = ctx.settings
    rnd.suggest_end = (
        rnd.index > 1
        and coverage >= s.converge_coverage
        and rnd.duplicate_share >= s.converge_duplicate_share
        and len(gaps) <= s.converge_max_gaps
    )
    ctx.emit(ev.CoverageUpdated(round=rnd.index, coverage=coverage, gaps=gaps))
    if state.auto:  # a run of an older version that analysed in --auto: nobody would answer questions
        return end(ctx, "auto")
    return "clarify.questions"


def over_budget(ctx: StepContext) -> bool:
    return ctx.state.usage.total_tokens >= ctx.settings.clarify_token_budget


async def questions(ctx: StepContext) -> str:
    state, cl = ctx.state, ctx.state.clarification
    rnd = cl.current
    assert rnd is not None and rnd.analysis is not None
    if over_budget(ctx):
        return end(ctx, "token_budget")
    s = ctx.settings
    check = language_check(state.language, lambda v: v.questions)  # type: ignore[attr-defined]
    asked = await ctx.ask_or(lambda: FollowUpQuestions.model_construct(questions=[]), P.QUESTIONS, FollowUpQuestions,
                             check, lenient=True, question=state.question, answers=answers_block(cl.rounds),
                             scope=rnd.analysis.scope or "(unclear)", gaps=bullet_list(rnd.analysis.knowledge_gaps),
                             q_min=s.questions_min, q_max=s.questions_max)
    rnd.questions = asking(asked.questions, rnd.analysis.knowledge_gaps)[: s.questions_max]
    if not rnd.questions:
        return end(ctx, "model_failed")  # nothing to ask: go on to the plan with what is known
    state.pending = Pending(kind="answer", round=rnd.index)
    ctx.emit(ev.QuestionsAsked(
        round=rnd.index, max_rounds=s.max_rounds, questions=rnd.questions, coverage=rnd.analysis.coverage,
        gaps=rnd.analysis.knowledge_gaps, new=len(rnd.new_chunks), duplicates=rnd.duplicates, suggest_end=rnd.suggest_end,
    ))
    ctx.emit(ev.CheckpointReached(kind="answer"))
    return "clarify.wait"


def asking(questions: list[str], gaps: list[str]) -> list[str]:
    """The model's follow-ups that ask the user something: each once, none a gap of the analysis restated, which
    the user was shown just above it and cannot answer better than the documents (seen in the window with a 1.5B
    model: "Es ist nicht clear, wie lange die Aufzeichnungen über die Zutrittserlaubnis aufzubewahren sind." as
    the gap and, word for word, as the second and third question)."""
    return [q for q in distinct(questions) if not any(same_text(q, gap) for gap in gaps)]


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
    check = all_of(language_check(state.language, lambda v: [v.summary, v.scope]),  # type: ignore[attr-defined]
                   search_check(lambda v: v.research_queries))  # type: ignore[attr-defined]
    used = [q for r in cl.rounds for q in r.queries]
    fallback = lambda: ClarificationResult(  # noqa: E731 - what is known without the model's summary
        research_queries=used or [state.question], scope=last.scope, summary=state.question,
        refinements=[r.answer for r in cl.rounds if r.answer], key_entities=last.entities)
    if not any(r.answer for r in cl.rounds):
        # the user said nothing (--auto, or ended at once): the analysis holds all the model would restate
        result = fallback()
    else:
        result = await ctx.ask_or(
            fallback, P.FINALIZE, ClarificationResult, check, lenient=True, question=state.question,
            dialogue=dialogue(cl.rounds), concepts=", ".join(last.key_concepts) or "-",
            entities=", ".join(last.entities) or "-", scope=last.scope or "-",
            gaps=", ".join(last.knowledge_gaps) or "-", doc_language=state.doc_language,
        )
    cl.research_queries = _searches(result.research_queries, set()) or used or [state.question]
    cl.summary = " ".join(result.summary.split()) or state.question
    state.anchor = QueryAnchor(
        original_query=state.question, language=state.language, key_entities=distinct(result.key_entities),
        scope=result.scope, refinements=distinct(result.refinements), avoid=distinct(result.avoid), created_at=now(),
    )
    ctx.emit(ev.ClarificationEnded(reason=cl.termination or "user_end", research_queries=cl.research_queries,
                                   summary=cl.summary))
    return "plan.propose"
