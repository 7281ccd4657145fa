"""Phase 4 — synthesis (DESIGN §5): the answer in the question's language from the tiered findings,
every claim with [n] markers, streamed as it is written; the language and the markers checked and
enforced; quotes in the answer that are not in their sources lose their quotation marks; a quality
check scores it 0–400 (the checker reads the cited sources) and one focused revision follows a low
score; deterministic figures beside it."""

from __future__ import annotations

import re

from desktop.engine import events as ev
from desktop.engine import prompts as P
from desktop.engine.context import language_check
from desktop.engine.quotes import verify_quote
from desktop.engine.research_state import Finding
from desktop.engine.schemas import QualityAnswer
from desktop.engine.step import StepContext
from desktop.llm.types import BadOutput, CallOptions, Message
from desktop.report.model import Quality

MARKER = re.compile(r"\[(\d{1,3})\]")
# A quotation in the answer: typographic or straight quotes around at least four words.
QUOTED = re.compile(r"[„“\"]([^„“”\"\n]{12,600}?)[“”\"]")
_SENTENCE = re.compile(r"(?<=[.!?])\s+(?=[A-ZÄÖÜ0-9„\"(])")
_STREAM_CHUNK = 120  # characters per synthesis_tokens event


def kept_findings(ctx: StepContext) -> list[Finding]:
    """Findings the drift filter kept, strongest first: tier, then weighted relevance."""
    weights = ctx.settings.tier_weights
    kept = [f for f in ctx.state.later.research.findings if f.drift is None or f.drift.kept]
    return sorted(kept, key=lambda f: (f.tier, -f.relevance * weights[f.tier - 1]))


def _source_block(n: int, f: Finding, weights: tuple[float, float, float]) -> str:
    where = f"{f.doc}, p. {f.page}" + (f", {f.section}" if f.section else "")
    label = {1: "primary", 2: "secondary", 3: "tertiary"}[f.tier]
    quotes = "".join(f'\n    verified quote: "{q.display}"' for q in f.verified_quotes)
    via = f" (reached through '{f.via}')" if f.via else ""
    return f"[{n}] {where} - {label}, weight {weights[f.tier - 1]}{via}: {f.info}{quotes}"


def numbered_sources(ctx: StepContext) -> list[Finding]:
    """The findings the synthesis may cite, within its token budget."""
    chosen, used = [], 0
    for f in kept_findings(ctx):
        cost = ctx.llm.count_tokens(_source_block(len(chosen) + 1, f, ctx.settings.tier_weights))
        if used + cost > ctx.settings.synthesis_context_tokens:
            break
        chosen.append(f)
        used += cost
    return chosen


def _tasks_text(ctx: StepContext) -> str:
    plan = ctx.state.plan
    lines = []
    for t in plan.items if plan else []:
        run = next((r for r in ctx.state.later.research.tasks if r.task_id == t.id), None)
        summary = run.summary.summary if run and run.summary else ("(skipped)" if run and run.status == "skipped" else "(no findings)")
        lines.append(f"{t.id}. {t.task}: {summary}")
    return "\n".join(lines)


def _values(ctx: StepContext, sources: list[Finding]) -> dict[str, object]:
    anchor = ctx.state.anchor
    return {
        "question": ctx.state.question,
        "summary": ctx.state.clarification.summary or ctx.state.question,
        "scope": anchor.scope if anchor else "-",
        "avoid": "; ".join(anchor.avoid) if anchor and anchor.avoid else "-",
        "tasks": _tasks_text(ctx),
        "sources": "\n".join(_source_block(i, f, ctx.settings.tier_weights) for i, f in enumerate(sources, 1)) or "(none)",
    }


def problem(answer: str, n_sources: int, check_language) -> str | None:  # noqa: ANN001
    if not answer.strip():
        return "the answer is empty"
    numbers = {int(m) for m in MARKER.findall(answer)}
    if n_sources and not numbers:
        return "it has no citation markers; every factual sentence needs one, like [1]"
    wrong = sorted(n for n in numbers if not 1 <= n <= n_sources)
    if wrong:
        return f"it cites sources that do not exist: {', '.join(f'[{n}]' for n in wrong)} (there are {n_sources})"
    return check_language(answer)


async def _stream(ctx: StepContext, messages: list[Message], attempt: int) -> str:
    parts: list[str] = []
    pending = ""
    async for piece in ctx.llm.stream_text(messages, CallOptions(purpose="synthesis.write")):
        parts.append(piece)
        pending += piece
        if len(pending) >= _STREAM_CHUNK:
            ctx.emit(ev.SynthesisTokens(text=pending, attempt=attempt))
            pending = ""
    if pending:
        ctx.emit(ev.SynthesisTokens(text=pending, attempt=attempt))
    ctx.record_stream("synthesis.write", messages)
    return "".join(parts).strip()


async def _compose(ctx: StepContext, sources: list[Finding], feedback: str) -> str:
    """Write (or revise) the answer; invalid answers are redone with the problem stated, a bounded number of times."""
    check = language_check(ctx.state.language, lambda v: [str(v)])
    messages = P.SYNTHESIS.render(language=ctx.state.language, feedback=feedback, **_values(ctx, sources))
    trouble = None
    for attempt in range(1, ctx.settings.synthesis_attempts + 1):
        answer = await _stream(ctx, messages, attempt)
        trouble = problem(answer, len(sources), check)
        if trouble is None:
            return answer
        messages = messages + [Message(role="assistant", content=answer),
                               Message(role="user", content=P.SYNTHESIS_PROBLEM.format(problem=trouble))]
    raise BadOutput(f"the synthesis could not be written acceptably ({trouble})", [])


def _quote_sources(ctx: StepContext, sources: list[Finding]) -> list[str]:
    texts = []
    for f in sources:
        chunk = ctx.kb.chunk(f.chunk_id)
        texts += [chunk.text] if chunk else []
        texts += [q.display for q in f.verified_quotes if q.display]
    return texts


def unquote_unverified(answer: str, source_texts: list[str]) -> tuple[str, int, int]:
    """Quotations in the answer that stand in no source lose their quotation marks (a paraphrase).

    Returns the answer, and how many quotations there were and how many were verified.
    """
    total = verified = 0

    def fix(m: re.Match[str]) -> str:
        nonlocal total, verified
        inner = m.group(1)
        if len(inner.split()) < 4:
            return m.group(0)  # a term in quotes, not a quotation
        total += 1
        if any(verify_quote(inner, text).verified for text in source_texts):
            verified += 1
            return m.group(0)
        return inner

    return QUOTED.sub(fix, answer), total, verified


async def write(ctx: StepContext) -> str:
    state = ctx.state
    state.phase = "synthesis"
    ctx.emit(ev.PhaseStarted(phase="synthesis"))
    sources = numbered_sources(ctx)
    answer = await _compose(ctx, sources, feedback="")
    syn = state.later.synthesis
    syn.answer, _, _ = unquote_unverified(answer, _quote_sources(ctx, sources))
    syn.sources = [f.id for f in sources]
    syn.quality = None
    return "synthesis.quality"


def cited_sentence_share(answer: str) -> float:
    """Share of the answer's sentences (headings excluded) that carry a [n] marker."""
    sentences = []
    for line in answer.splitlines():
        line = line.strip().lstrip("-*0123456789.) ").strip()
        if not line or line.startswith("#") or len(line.split()) < 4:
            continue
        sentences += [s for s in _SENTENCE.split(line) if len(s.split()) >= 4]
    return sum(bool(MARKER.search(s)) for s in sentences) / len(sentences) if sentences else 0.0


def _verified_share(ctx: StepContext, sources: list[Finding]) -> float:
    quotes = [q for f in kept_findings(ctx) for q in f.quotes]
    _, answer_total, answer_verified = unquote_unverified(ctx.state.later.synthesis.answer, _quote_sources(ctx, sources))
    total = len(quotes) + answer_total
    return (sum(q.verified for q in quotes) + answer_verified) / total if total else 1.0


def _capped(answer: QualityAnswer, cited_share: float) -> tuple[int, int, str]:
    """Grounding and citation scores no higher than the share of sentences that cite a source allows:
    an uncited claim is not grounded in the sources, whatever a lenient reviewer model says."""
    cap = round(100 * cited_share)
    grounding, citations = min(answer.grounding, cap), min(answer.citations, cap)
    notes = answer.notes.strip()
    if (grounding, citations) != (answer.grounding, answer.citations):
        notes = (notes + "\n" if notes else "") + (
            f"Grounding and citations capped at {cap}: {cap} % of the answer's sentences cite a source.")
    return grounding, citations, notes


async def quality(ctx: StepContext) -> str:
    syn = ctx.state.later.synthesis
    by_id = {f.id: f for f in ctx.state.later.research.findings}
    sources = [by_id[i] for i in syn.sources]
    cited = {int(n) for n in MARKER.findall(syn.answer)}
    cited_text = "\n\n".join(
        f"[{n}] {f.doc}, p. {f.page}: {f.info}\n{(ctx.kb.chunk(f.chunk_id).text if ctx.kb.chunk(f.chunk_id) else '')}"
        for n, f in enumerate(sources, start=1) if n in cited
    )
    unchecked = lambda: QualityAnswer(grounding=0, completeness=0, structure=0, citations=0,  # noqa: E731
                                      notes="The quality check gave no usable answer; the scores are unknown.")
    answer = await ctx.ask_or(unchecked, P.QUALITY, QualityAnswer, question=ctx.state.question,
                              summary=ctx.state.clarification.summary or ctx.state.question, tasks=_tasks_text(ctx),
                              answer=syn.answer, sources=cited_text or "(no sources cited)")
    share = cited_sentence_share(syn.answer)
    grounding, citations, notes = _capped(answer, share)
    total = grounding + answer.completeness + answer.structure + citations
    first = syn.quality
    syn.quality = Quality(
        grounding=grounding, completeness=answer.completeness, structure=answer.structure,
        citations=citations, total=total, notes=notes, revised=first is not None,
        first_total=first.total if first else None, cited_sentence_share=round(share, 3),
        verified_quote_share=round(_verified_share(ctx, sources), 3),
    )
    checked = total > 0  # a failed check (all zeros) is no reason to rewrite the answer
    revise = first is None and checked and total < ctx.settings.quality_threshold
    ctx.emit(ev.QualityChecked(total=total, revision_needed=revise, scores={
        "grounding": grounding, "completeness": answer.completeness, "structure": answer.structure,
        "citations": citations}))
    return "synthesis.revise" if revise else "report.build"


async def revise(ctx: StepContext) -> str:
    syn = ctx.state.later.synthesis
    assert syn.quality is not None
    by_id = {f.id: f for f in ctx.state.later.research.findings}
    sources = [by_id[i] for i in syn.sources]
    feedback = P.REVISION_REQUEST.format(notes=syn.quality.notes or "(no notes)", answer=syn.answer)
    answer = await _compose(ctx, sources, feedback)
    syn.answer, _, _ = unquote_unverified(answer, _quote_sources(ctx, sources))
    return "synthesis.quality"
