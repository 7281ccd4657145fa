"""Phase 4 — synthesis (DESIGN §5): the answer in the question's language from the tiered findings.

Citations are structure, not hoped-for text: the model returns statements, each with the numbers of
the sources it rests on (``SynthesisAnswer``), and Rabbithole renders them to Markdown with ``[n]``
markers. A statement without a valid source is left out, never made a citation. Quotes in the answer
that are not in their sources lose their quotation marks. A quality check scores the answer 0–400 by an
anchored rubric (the checker reads the cited findings) and one focused revision follows a low score;
deterministic figures stand beside it. When the model cannot write a usable answer, the run still ends
in a report: phase 5 builds an evidence report from the verified findings (``Synthesis.fallback``)."""

from __future__ import annotations

import re

from desktop.engine import events as ev
from desktop.engine import prompts as P
from desktop.engine.checks import distinct, language_check
from desktop.engine.quotes import verify_quote
from desktop.engine.research_state import Finding
from desktop.engine.schemas import LINE_CHARS, SHORT_CHARS, QualityAnswer, Statement, SynthesisAnswer
from desktop.engine.sentences import sentences
from desktop.engine.support import supporting
from desktop.engine.step import StepContext
from desktop.llm.types import BadOutput, PromptTooLong
from desktop.report.labels import LABELS
from desktop.report.model import Quality

MARKER = re.compile(r"\[(\d{1,3})\]")
_ANY_MARKER = re.compile(r"\s*\[(?:\d{1,3}(?:\s*[,;–-]\s*\d{1,3})*)\]")  # "[2]", "[2, 5]" a model wrote anyway
# A quotation in the answer: typographic or straight quotes around at least four words.
QUOTED = re.compile(r"[„“\"]([^„“”\"\n]{12,600}?)[“”\"]")


def kept_findings(ctx: StepContext) -> list[Finding]:
    """Findings the drift filter kept, strongest first: tier, then weighted relevance."""
    weights = ctx.settings.tier_weights
    kept = [f for f in ctx.state.later.research.findings if f.drift is None or f.drift.kept]
    return sorted(kept, key=lambda f: (f.tier, -f.relevance * weights[f.tier - 1]))


def _source_block(n: int, f: Finding) -> str:
    where = f"{f.doc}, p. {f.page}" + (f", {f.section}" if f.section else "")
    label = {1: "primary", 2: "secondary", 3: "tertiary"}[f.tier]
    # The documents' own words first: a small model restates what it reads first, and the quote is where
    # the figure is when the reading missed it (``focus.py``).
    quotes = "".join(f'\n    verified quote: "{" ".join((q.display or "").split())}"' for q in f.verified_quotes)
    via = f" (reached through '{f.via}')" if f.via else ""
    return f"[{n}] {where} ({label}{via}):{quotes}\n    reading: {f.info}"


def numbered_sources(ctx: StepContext, budget: int) -> list[Finding]:
    """The findings the synthesis may cite, strongest first, within ``budget`` tokens."""
    chosen, used = [], 0
    for f in kept_findings(ctx):
        cost = ctx.llm.count_tokens(_source_block(len(chosen) + 1, f))
        if used + cost > budget:
            break
        chosen.append(f)
        used += cost
    return chosen


def tasks_text(ctx: StepContext) -> str:
    plan = ctx.state.plan
    lines = []
    for t in plan.items if plan else []:
        run = next((r for r in ctx.state.later.research.tasks if r.task_id == t.id), None)
        summary = run.summary.summary if run and run.summary else ("(skipped)" if run and run.status == "skipped" else "(no summary)")
        lines.append(f"{t.id}. {t.task}: {summary}")
    return "\n".join(lines)


def _values(ctx: StepContext, sources: list[Finding]) -> dict[str, object]:
    anchor = ctx.state.anchor
    return {
        "question": ctx.state.question,
        "summary": ctx.state.clarification.summary or ctx.state.question,
        "scope": anchor.scope if anchor else "-",
        "avoid": "; ".join(anchor.avoid) if anchor and anchor.avoid else "-",
        "tasks": tasks_text(ctx),
        "sources": "\n".join(_source_block(i, f) for i, f in enumerate(sources, 1)) or "(none)",
    }


def _cited(statement: Statement, n_sources: int) -> list[int]:
    return list(dict.fromkeys(n for n in statement.sources if 1 <= n <= n_sources))


def _check(sources: list[str], language: str):  # noqa: ANN202
    in_language = language_check(language, lambda v: [s.text for s in v.answer + v.details])  # type: ignore[attr-defined]

    def check(value: object) -> str | None:
        answer: SynthesisAnswer = value  # type: ignore[assignment]
        statements = answer.answer + answer.details
        if problem := in_language(value):  # words of another language cannot match the sources' either
            return problem
        if not any(_cited(s, len(sources)) for s in statements):
            return P.NO_CITED_STATEMENT.format(n=len(sources))
        if not any(supporting(_plain(s.text), _cited(s, len(sources)), sources, language) for s in statements):
            return P.NOT_SUPPORTED
        return None

    return check


def _plain(text: str) -> str:
    return " ".join(_ANY_MARKER.sub("", text).split())


def _uncut(raw: str, limit: int) -> str:
    """The text as shown: one the server's grammar stopped at the schema's length limit ends mid-word
    (seen: "… die Messwerte der Messs"); it is cut back to its last whole word and the cut marked."""
    text = _plain(raw)
    if len(raw) < limit or text[-1:] in (".", "!", "?", ")", "“", "”", '"') or " " not in text:
        return text
    return text.rsplit(" ", 1)[0].rstrip(",;:–-") + " …"


def _with_markers(text: str, numbers: list[int]) -> str:
    """'First sentence [1][3]. Second sentence [1][3].' — each sentence of the statement carries its
    sources, the markers before the closing full stop, as a reader expects them."""
    markers = "".join(f"[{n}]" for n in numbers)
    out = []
    for sentence in sentences(text):
        if sentence[-1:] in (".", "!", "?"):
            out.append(f"{sentence[:-1]} {markers}{sentence[-1]}")
        else:
            out.append(f"{sentence} {markers}.")
    return " ".join(out)


def render(answer: SynthesisAnswer, sources: list[str], language: str) -> tuple[str, list[str]]:
    """Markdown of the answer: the direct answer as a paragraph, details as a list, open points last.
    ``sources`` are the texts of the numbered sources: a statement keeps the citations whose source
    supports it (``support.py``); one left with none, or said twice, is not rendered. Returns the
    Markdown and the statements left out for want of a source."""
    uncited: list[str] = []
    said: list[str] = []

    def cited(statements: list[Statement]) -> list[str]:
        out = []
        for s in statements:
            text = _uncut(s.text, LINE_CHARS)
            if not text or text.endswith("?") or distinct([*said, text]) == said:
                continue  # empty, a question (seen: a 1.5B model citing the question back), or said already
            numbers = supporting(text, _cited(s, len(sources)), sources, language)
            if not numbers:
                uncited.append(text)
                continue
            said.append(text)
            out.append(_with_markers(text, numbers))
        return out

    lead, details = cited(answer.answer), cited(answer.details)
    if not lead:  # the model put every cited statement into the details: the first one leads
        lead, details = details[:1], details[1:]
    parts = [" ".join(lead)]
    if details:
        parts.append("\n".join(f"- {d}" for d in details))
    open_points = [o for o in distinct(_uncut(o, SHORT_CHARS) for o in answer.open) if distinct([*said, o]) != said]
    if open_points:
        heading = LABELS["de" if language == "de" else "en"]["open_points"]
        parts.append(f"**{heading}:**\n" + "\n".join(f"- {o}" for o in open_points))
    return "\n\n".join(p for p in parts if p), uncited


def synthesis_budget(ctx: StepContext, context: int) -> int:
    """Tokens of sources the synthesis may read: the setting, within the model's context after the
    instructions and the longest answer."""
    return max(500, min(ctx.settings.synthesis_context_tokens, context - P.SYNTHESIS.max_tokens - 1500))


async def _compose(ctx: StepContext, sources: list[Finding], feedback: str) -> SynthesisAnswer:
    texts = [_support_text(f) for f in sources]
    return await ctx.ask(P.SYNTHESIS, SynthesisAnswer, _check(texts, ctx.state.language), feedback=feedback,
                         **_values(ctx, sources))


def _quote_sources(ctx: StepContext, sources: list[Finding]) -> list[str]:
    texts = []
    for f in sources:
        chunk = ctx.kb.chunk(f.chunk_id) if f.chunk_id else None
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


def _support_text(f: Finding) -> str:
    """What a finding says: its information and its verified quotes (not the whole chunk, where any "nicht"
    would seem to support any denial)."""
    return "\n".join([f.info, *(q.display or "" for q in f.verified_quotes)])


def _adopt(ctx: StepContext, draft: SynthesisAnswer, sources: list[Finding], attempt: int) -> None:
    syn = ctx.state.later.synthesis
    answer, uncited = render(draft, [_support_text(f) for f in sources], ctx.state.language)
    syn.answer, syn.quotations, syn.quotations_verified = unquote_unverified(answer, _quote_sources(ctx, sources))
    syn.uncited = uncited
    if uncited:
        ctx.warn("warn_uncited", count=len(uncited))
    ctx.emit(ev.SynthesisTokens(text=syn.answer, attempt=attempt))  # the window shows the draft as it is written


async def write(ctx: StepContext) -> str:
    state = ctx.state
    state.phase = "synthesis"
    ctx.emit(ev.PhaseStarted(phase="synthesis"))
    syn = state.later.synthesis
    syn.quality, syn.fallback = None, None
    if not kept_findings(ctx):
        syn.fallback = "no_findings"
        return "report.build"
    sources = numbered_sources(ctx, synthesis_budget(ctx, await ctx.llm.context_length()))
    syn.sources = [f.id for f in sources]
    try:
        draft = await _compose(ctx, sources, feedback="")
    except (BadOutput, PromptTooLong) as exc:
        syn.fallback, syn.fallback_detail = "model_failed", str(exc)
        ctx.warn("warn_synthesis_failed", error=str(exc))
        return "report.build"
    _adopt(ctx, draft, sources, attempt=1)
    return "synthesis.quality"


def _sentences(text: str) -> list[str]:
    """The sentences of Markdown text, headings and fragments under four words excluded."""
    found: list[str] = []
    for line in text.splitlines():
        line = line.strip().lstrip("-*0123456789.) ").strip()
        if not line or line.startswith("#") or line.endswith(":**") or len(line.split()) < 4:
            continue
        found += [s for s in sentences(line) if len(s.split()) >= 4]
    return found


def cited_sentence_share(answer: str, uncited: list[str] = ()) -> float:  # type: ignore[assignment]
    """Share of the sentences the model wrote (headings excluded) that carry a [n] marker; ``uncited``
    are statements left out of the answer for want of a source, which count as uncited claims."""
    sentences = _sentences(answer)
    left_out = sum(len(_sentences(u)) for u in uncited)
    total = len(sentences) + left_out
    return sum(bool(MARKER.search(s)) for s in sentences) / total if total else 0.0


def _open_points(answer: str) -> str:
    """The answer without its 'open points' block, which is uncited on purpose."""
    for labels in LABELS.values():
        head = f"\n\n**{labels['open_points']}:**"
        if head in answer:
            return answer.split(head)[0]
    return answer


def verified_share(ctx: StepContext) -> float:
    """Quotes found in their source, of all quotes proposed: the findings' and the answer's quotations
    (counted before the unverified ones lost their marks)."""
    syn = ctx.state.later.synthesis
    quotes = [q for f in kept_findings(ctx) for q in f.quotes]
    total = len(quotes) + syn.quotations
    return (sum(q.verified for q in quotes) + syn.quotations_verified) / total if total else 1.0


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


def _cited_text(sources: list[Finding], answer: str) -> str:
    cited = {int(n) for n in MARKER.findall(answer)}
    return "\n".join(_source_block(n, f) for n, f in enumerate(sources, start=1) if n in cited)


async def quality(ctx: StepContext) -> str:
    syn = ctx.state.later.synthesis
    by_id = {f.id: f for f in ctx.state.later.research.findings}
    sources = [by_id[i] for i in syn.sources]
    unchecked = lambda: QualityAnswer(grounding=0, completeness=0, structure=0, citations=0,  # noqa: E731
                                      notes="The quality check gave no usable answer; the scores are unknown.")
    answer = await ctx.ask_or(unchecked, P.QUALITY, QualityAnswer, question=ctx.state.question,
                              summary=ctx.state.clarification.summary or ctx.state.question, tasks=tasks_text(ctx),
                              answer=syn.answer, sources=_cited_text(sources, syn.answer) or "(no sources cited)")
    share = cited_sentence_share(_open_points(syn.answer), syn.uncited)
    grounding, citations, notes = _capped(answer, share)
    total = grounding + answer.completeness + answer.structure + citations
    first = syn.quality
    checked = total > 0  # a failed check (all zeros) is no reason to rewrite the answer
    syn.quality = Quality(
        grounding=grounding, completeness=answer.completeness, structure=answer.structure,
        citations=citations, total=total, notes=notes, revised=first is not None,
        first_total=first.total if first else None, cited_sentence_share=round(share, 3),
        verified_quote_share=round(verified_share(ctx), 3), assessed=checked,
    )
    revise = first is None and checked and total < ctx.settings.quality_threshold
    ctx.emit(ev.QualityChecked(total=total, revision_needed=revise, scores={
        "grounding": grounding, "completeness": answer.completeness, "structure": answer.structure,
        "citations": citations}))
    return "synthesis.revise" if revise else "report.build"


async def revise(ctx: StepContext) -> str:
    """One focused revision; if the model cannot write it, the first answer stands."""
    syn = ctx.state.later.synthesis
    assert syn.quality is not None
    by_id = {f.id: f for f in ctx.state.later.research.findings}
    sources = [by_id[i] for i in syn.sources]
    feedback = P.REVISION_REQUEST.format(notes=syn.quality.notes or "(no notes)", answer=syn.answer)
    try:
        draft = await _compose(ctx, sources, feedback)
    except (BadOutput, PromptTooLong) as exc:
        ctx.warn("warn_revision_failed", error=str(exc))
        return "report.build"
    _adopt(ctx, draft, sources, attempt=2)
    return "synthesis.quality"
