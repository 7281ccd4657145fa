"""Phase 3.5 — the drift filter (docs/architecture.md §4): every finding scored against the query anchor; kept when
its score reaches the threshold of its tier (0.5 / 0.4 / 0.3); a minimum of primary findings is kept
anyway; a warning when more than 30 % is filtered; every verdict keeps its reason.

The model judges the document's own words first: each finding is shown with its verified quote before
the model's one-line reading of it (seen: a 1.5B model's wrong reading of the page that answered the
question, judged "does not directly answer the research question", dropped the only finding). And the
engine decides where the quote itself holds what the question asks for (``focus.answers``): such a finding
is kept without asking the model (a shorter prompt on a slow server), and the filter never leaves a run
with nothing when it found something. Its
reasons are in the report's language: one the model wrote in another language gives way to the score.

Under a binding time budget the model is not asked at all: each finding keeps the grade the model gave it
while reading it (with its task in view) as its score. A second look costs a slow server half a minute — three
to four excerpts more to read — and a 1.5B model's second look was no better than its first (seen: it scored
the finding that held a fact the question asked for 1/3 and dropped it)."""

from __future__ import annotations

import asyncio

from desktop.engine import events as ev
from desktop.engine import prompts as P
from desktop.engine.focus import answers
from desktop.engine.narrate import said
from desktop.engine.question_parts import parts
from desktop.engine.research_state import DriftVerdict, Finding
from desktop.engine.schemas import DriftReason, DriftScores, drift_scores
from desktop.engine.sentences import in_context
from desktop.engine.state import RunState
from desktop.engine.step_context import StepContext
from desktop.kb.language import detect_language

_BATCH = 12
NOT_SCORED = "not scored: the model gave no usable answer"
KEPT_FOR_MINIMUM = "kept although below the threshold: too few primary findings would remain"
BY_READING = "scored by the grade it got when it was read (the time budget leaves no room for a second look)"
ANSWERS = "its verified quote holds what the question asks for (kept without asking the model)"


def _lines(findings: list[Finding]) -> str:
    out = []
    for f in findings:
        quotes = " ".join(f'"{" ".join((q.display or "").split())}"' for q in f.verified_quotes)
        reading = f" — reading: {f.info}" if f.info else ""  # older runs' findings have the model's own line
        out.append(f"[{f.id}] ({f.doc}, p. {f.page}) " + (f"quote: {quotes}{reading}" if quotes else f.heading))
    return "\n".join(out)


def _unscored(batch: list[Finding], reason: str = NOT_SCORED) -> DriftScores:
    """Unscored findings keep their own relevance as the score: a failed check filters nothing."""
    return DriftScores.model_construct(scores=[round(3 * f.relevance) for f in batch],  # every reason, uncut
                                       reasons=[DriftReason(id=f.id, reason=reason) for f in batch])


def _reason(text: str | None, value: int, language: str) -> tuple[str, str]:
    """A verdict's reason and its label key: the model's words when they are in the run's language, else
    the score; the engine's own reasons by key (the report words them in its language)."""
    if text == NOT_SCORED:
        return NOT_SCORED, "drift_not_scored"
    if text == BY_READING:
        return BY_READING, "drift_by_reading"
    # a reason is a few words: one function word of the other language tells it (as for a question)
    if text and detect_language(text, default=language, evidence=1) == language:
        return text, ""
    return f"{value}/3", ""


async def filter_drift(ctx: StepContext) -> str:
    state = ctx.state
    state.phase = "drift"
    ctx.emit(ev.PhaseStarted(phase="drift"))
    findings = state.later.research.findings
    anchor = state.anchor

    async def score(batch: list[Finding]) -> DriftScores:
        if state.later.research.budget_binds:
            return _unscored(batch, BY_READING)
        return await ctx.ask_or(
            lambda: _unscored(batch), P.DRIFT, drift_scores(len(batch)), lenient=True,
            answer_tokens=P.DRIFT.max_tokens * len(batch) + 120, question=state.question,
            summary=_refined(state), scope=anchor.scope if anchor and anchor.scope else "-",
            entities=", ".join(anchor.key_entities) if anchor else "-",
            avoid="; ".join(anchor.avoid) if anchor and anchor.avoid else "-", findings=_lines(batch), n=len(batch),
        )

    aims = _asked(state)
    contexts = await _contexts(ctx, findings)
    for f in findings:  # a quote that holds what the question asks for is evidence: no model is asked about it
        if _answers(f, aims, state.language, contexts):
            f.drift = DriftVerdict(score=f.relevance, reason=ANSWERS, reason_key="drift_answers", note=ANSWERS)
    judged = [f for f in findings if f.drift is None]
    batches = [judged[i : i + _BATCH] for i in range(0, len(judged), _BATCH)]
    thresholds = ctx.settings.drift_thresholds
    for batch, answer in zip(batches, await asyncio.gather(*(score(b) for b in batches))):  # independent calls
        reasons = {r.id.strip().upper(): " ".join(r.reason.split()) for r in answer.reasons}
        for f, value in zip(batch, answer.scores, strict=True):
            score = value / 3
            # the schema allows a few reasons (DRIFT_REASONS); a finding left without one shows its score
            reason, key = _reason(reasons.get(f.id), value, state.language)
            f.drift = DriftVerdict(score=round(score, 3), reason=reason, reason_key=key,
                                   kept=score >= thresholds[f.tier - 1])
    _keep_minimum_primary(findings, ctx.settings.drift_min_primary)
    _keep_something(findings, max(1, ctx.settings.drift_min_primary))
    filtered = [f for f in findings if f.drift and not f.drift.kept]
    share = len(filtered) / len(findings) if findings else 0.0
    warning = None
    if share > ctx.settings.drift_warn_share:
        event = said(ev.Warning, "warn_drift", {"filtered": len(filtered), "total": len(findings), "share": share})
        warning = event.message
        ctx.emit(event)
    state.later.synthesis.drift_warning = warning
    ctx.emit(ev.DriftFiltered(kept=len(findings) - len(filtered), filtered=len(filtered), warning=warning,
                              items=[{"id": f.id, "score": f.drift.score, "reason": f.drift.reason} for f in filtered if f.drift]))
    return "synthesis.write"


def _refined(state: RunState) -> str:
    """The refined question, where clarification refined it ('-' where it is the question: --auto)."""
    summary = state.clarification.summary or ""
    return summary if summary and summary != state.question else "-"


def _asked(state: RunState) -> list[str]:
    """What the question asks for, one thing at a time: its parts (a question that asks five things asks for
    one of them in each quote); over documents in another language its words cannot stand in a quote, and
    the research queries and the plan's searches (written in the documents' language) say it."""
    if state.language == state.doc_language:
        return list(dict.fromkeys([state.question, *parts(state.question)]))
    plan = [q for t in (state.plan.items if state.plan else []) for q in t.subtasks]
    return [*state.clarification.research_queries, *plan]


async def _contexts(ctx: StepContext, findings: list[Finding]) -> dict[str, str]:
    """Each verified quote (by its text) with the start of the sentence it was cut from (``in_context``)."""
    ids = list(dict.fromkeys(f.chunk_id for f in findings if f.chunk_id and f.verified_quotes))
    chunks = await ctx.in_thread(ctx.kb.catalog.chunks_by_id, ids) if ids else {}
    return {q.proposed: in_context(chunks[f.chunk_id].text, q.proposed)
            for f in findings if f.chunk_id in chunks for q in f.verified_quotes}


def _answers(f: Finding, aims: list[str], language: str, contexts: dict[str, str]) -> bool:
    """A verified quote of the finding holds what the question (or a research query) asks for, read with
    the start of its sentence (a quote cut at a comma holds the figure, its sentence's start what it is of)."""
    return any(answers(aim, contexts.get(q.proposed, q.display or ""), language)
               for q in f.verified_quotes for aim in aims)


def _keep_something(findings: list[Finding], minimum: int) -> None:
    """A run that found something does not end with nothing: when every finding would be dropped, the
    best-scored ones stay (their verdicts say why)."""
    if not findings or any(f.drift and f.drift.kept for f in findings):
        return
    best = sorted(findings, key=lambda f: (-(f.drift.score if f.drift else 0), f.tier, -f.relevance))
    for f in best[:minimum]:
        if f.drift is not None:
            f.drift = f.drift.model_copy(update={"kept": True, "note": KEPT_FOR_MINIMUM})


def _keep_minimum_primary(findings: list[Finding], minimum: int) -> None:
    primary = [f for f in findings if f.tier == 1 and f.drift]
    kept = [f for f in primary if f.drift.kept]  # type: ignore[union-attr]
    if len(kept) >= minimum:
        return
    rescued = sorted((f for f in primary if not f.drift.kept), key=lambda f: -f.drift.score)  # type: ignore[union-attr]
    for f in rescued[: minimum - len(kept)]:
        f.drift = f.drift.model_copy(update={"kept": True, "note": KEPT_FOR_MINIMUM})  # type: ignore[union-attr]
