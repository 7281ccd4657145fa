"""Phase 3.5 — the drift filter (DESIGN §5): every finding scored against the query anchor; kept when
its score reaches the threshold of its tier (0.5 / 0.4 / 0.3); a minimum of primary findings is kept
anyway; a warning when more than 30 % is filtered; every verdict keeps its reason."""

from __future__ import annotations

import asyncio

from desktop.engine import events as ev
from desktop.engine import prompts as P
from desktop.engine.narrate import said
from desktop.engine.research_state import DriftVerdict, Finding
from desktop.engine.schemas import DriftReason, DriftScores, drift_scores
from desktop.engine.step import StepContext

_BATCH = 12
NOT_SCORED = "not scored: the model gave no usable answer"
KEPT_FOR_MINIMUM = "kept although below the threshold: too few primary findings would remain"


def _lines(findings: list[Finding]) -> str:
    out = []
    for f in findings:
        quote = next((q.display for q in f.verified_quotes), None)
        out.append(f"[{f.id}] ({f.doc}, p. {f.page}) {f.info}" + (f' — "{" ".join(quote.split())}"' if quote else ""))
    return "\n".join(out)


def _unscored(batch: list[Finding]) -> DriftScores:
    """Unscored findings keep their own relevance as the score: a failed check filters nothing."""
    return DriftScores.model_construct(scores=[round(3 * f.relevance) for f in batch],  # every reason, uncut
                                       reasons=[DriftReason(id=f.id, reason=NOT_SCORED) for f in batch])


async def filter_drift(ctx: StepContext) -> str:
    state = ctx.state
    state.phase = "drift"
    ctx.emit(ev.PhaseStarted(phase="drift"))
    findings = state.later.research.findings
    anchor = state.anchor

    async def score(batch: list[Finding]) -> DriftScores:
        return await ctx.ask_or(
            lambda: _unscored(batch), P.DRIFT, drift_scores(len(batch)), lenient=True,
            answer_tokens=P.DRIFT.max_tokens * len(batch) + 120, question=state.question,
            summary=state.clarification.summary or state.question, scope=anchor.scope if anchor else "-",
            entities=", ".join(anchor.key_entities) if anchor else "-",
            avoid="; ".join(anchor.avoid) if anchor and anchor.avoid else "-", findings=_lines(batch), n=len(batch),
        )

    batches = [findings[i : i + _BATCH] for i in range(0, len(findings), _BATCH)]
    thresholds = ctx.settings.drift_thresholds
    for batch, answer in zip(batches, await asyncio.gather(*(score(b) for b in batches))):  # independent calls
        reasons = {r.id.strip().upper(): " ".join(r.reason.split()) for r in answer.reasons}
        for f, value in zip(batch, answer.scores, strict=True):
            score = value / 3
            # the schema allows a few reasons (DRIFT_REASONS); a finding left without one shows its score
            f.drift = DriftVerdict(score=round(score, 3), reason=reasons.get(f.id) or f"{value}/3",
                                   kept=score >= thresholds[f.tier - 1])
    _keep_minimum_primary(findings, ctx.settings.drift_min_primary)
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


def _keep_minimum_primary(findings: list[Finding], minimum: int) -> None:
    primary = [f for f in findings if f.tier == 1 and f.drift]
    kept = [f for f in primary if f.drift.kept]  # type: ignore[union-attr]
    if len(kept) >= minimum:
        return
    rescued = sorted((f for f in primary if not f.drift.kept), key=lambda f: -f.drift.score)  # type: ignore[union-attr]
    for f in rescued[: minimum - len(kept)]:
        f.drift = f.drift.model_copy(update={"kept": True, "note": KEPT_FOR_MINIMUM})  # type: ignore[union-attr]
