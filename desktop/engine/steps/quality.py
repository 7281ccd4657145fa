"""The report's quality section: figures the engine measures, which the model cannot inflate, and the
model's own rating of its answer only where there is time for it, shown as that.

Seen: a 1.5B model rating its own answer 400/400 while the answer's open points held a garbled copy of
the plan's scope. So the section leads with what is counted: the answer's sentences that cite a source,
quotes verified verbatim in their source, the answer's figures that stand in the quotes it cites,
references followed, and the sources read of those the engine gathered. The self-rating (``PS.QUALITY``,
an anchored rubric) runs when the run's time budget leaves room for it; a low one asks for one focused
revision."""

from __future__ import annotations

import re

from desktop.engine import events as ev
from desktop.engine import prompts_synthesis as PS
from desktop.engine.citation_support import amounts, stated_amounts
from desktop.engine.coverage import cited_tasks
from desktop.engine.estimate import QUALITY, remaining_budget
from desktop.engine.excerpts import measured_speed, prompt_cost
from desktop.engine.findings import MARKER, kept_findings, source_block, tasks_text
from desktop.engine.research_state import Finding
from desktop.engine.schemas import QualityAnswer
from desktop.engine.sentences import sentences
from desktop.engine.state import by_parts
from desktop.engine.step_context import StepContext
from desktop.report.labels import LABELS
from desktop.report.model import Quality

NOT_RATED = QualityAnswer(grounding=0, completeness=0, structure=0, citations=0, notes="")


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
    found = _sentences(answer)
    left_out = sum(len(_sentences(u)) for u in uncited)
    total = len(found) + left_out
    return sum(bool(MARKER.search(s)) for s in found) / total if total else 0.0


def without_open_points(answer: str) -> str:
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


def figures_in_quotes(answer: str, sources: list[Finding]) -> tuple[int, int]:
    """The answer's figures (amounts, periods, limits) that stand in a verified quote of a source the
    sentence cites, and all of its figures: (found, total)."""
    found = total = 0
    for sentence in _sentences(without_open_points(answer)):
        cited = [sources[int(n) - 1] for n in MARKER.findall(sentence) if 1 <= int(n) <= len(sources)]
        quoted = set().union(*(stated_amounts(q.display or "") for f in cited for q in f.verified_quotes)) if cited else set()
        stated = amounts(MARKER.sub("", sentence))
        total += len(stated)
        found += len(stated & quoted)
    return found, total


def measured(ctx: StepContext, answer: QualityAnswer, rated: bool) -> Quality:
    """The quality block: the measured figures, and the model's rating (``rated``) as its own opinion."""
    syn, research = ctx.state.later.synthesis, ctx.state.later.research
    by_id = {f.id: f for f in research.findings}
    sources = [by_id[i] for i in syn.sources if i in by_id]
    share = cited_sentence_share(without_open_points(syn.answer), syn.uncited)
    figures, stated = figures_in_quotes(syn.answer, sources)
    first = syn.quality if syn.quality and syn.quality.assessed else None
    plan = [t.id for t in ctx.state.plan.items] if ctx.state.plan else []
    # in a plan by the question's parts the question is answered through them; in a plan the model made it is a
    # task of its own, researched and given its line like the others (``coverage._in_turn``; seen in the window
    # walk: the answer cited the question's own finding, and the quality section said "Aufgaben mit Beleg 0 / 1")
    tasks = [t for t in plan if t != 0 or len(plan) == 1 or not by_parts(ctx.state)]
    # a task is answered by a statement citing its findings or by the line that shows its evidence
    answered = cited_tasks(syn.answer, syn.sources, by_id) | set(syn.lined)
    total = answer.grounding + answer.completeness + answer.structure + answer.citations
    return Quality(
        grounding=answer.grounding, completeness=answer.completeness, structure=answer.structure,
        citations=answer.citations, total=total, notes=answer.notes.strip() or _failure(ctx),
        unrated="no_answer" if syn.fallback_detail else "time_budget", revised=first is not None,
        first_total=first.total if first else None, cited_sentence_share=round(share, 3),
        verified_quote_share=round(verified_share(ctx), 3), assessed=rated, figures_in_quotes=figures,
        figures_stated=stated, references_followed=sum(t.followed for t in research.tasks),
        sources_read=len(set(research.visited)),
        sources_found=sum(t.found for t in research.tasks) or len({w.chunk_id for w in research.gathered}),
        statements_left_out=len(syn.left_out) + len(syn.uncited),
        tasks_answered=len(answered & set(tasks)), tasks_total=len(tasks),
    )


def _failure(ctx: StepContext) -> str:
    """Why no model wrote the answer, where the model's own failed (``Synthesis.fallback_detail``), in the
    report's language; else nothing."""
    detail = ctx.state.later.synthesis.fallback_detail
    if not detail:
        return ""
    return f"{LABELS['de' if ctx.state.language == 'de' else 'en']['evidence_model_failed']} " \
           f"({failure_detail(detail, ctx.state.language)})"


# The engine's own checks of a written answer, by the words their message to the model starts with (English,
# as every prompt), and the label that says it in the report's language.
_PROBLEMS = {PS.NO_CITED_STATEMENT.split(" between")[0]: "problem_no_source",
             PS.NOT_SUPPORTED.split(".")[0]: "problem_not_supported",
             PS.NOTHING_STOOD: "problem_none_stood"}
_ATTEMPTS = re.compile(r"\bin (\d+) attempts\b")


def failure_detail(detail: str, language: str) -> str:
    """What went wrong with the model's answer, for the report, in its language: the problem the engine's check
    found and the number of tries, or where the error is another, a pointer to the audit trail that holds it
    (seen, laws-dev-10: a German report's quality notes quoted the English error, "the model … gave no valid
    answer … No statement is said by the sources it names …"; the run's warning keeps it for the terminal)."""
    lab = LABELS["de" if language == "de" else "en"]
    problem = next((lab[key] for start, key in _PROBLEMS.items() if start in detail), lab["problem_other"])
    attempts = _ATTEMPTS.search(detail)
    return problem + (f"; {lab['problem_attempts'].format(n=attempts.group(1))}" if attempts else "")


def _cited_text(sources: list[Finding], answer: str) -> str:
    cited = {int(n) for n in MARKER.findall(answer)}
    return "\n".join(source_block(n, f) for n, f in enumerate(sources, start=1) if n in cited)


def _time_for_rating(ctx: StepContext, values: dict[str, object]) -> bool:
    """Whether the self-rating fits what is left of ``research.time_budget_s`` at the server's speed."""
    left = remaining_budget(ctx)
    speed = measured_speed(ctx.llm)
    if left is None or speed is None:
        return True
    prompt = prompt_cost(ctx.llm.count_tokens, PS.QUALITY.render(language=ctx.state.language, **values), QualityAnswer)
    return prompt / speed[0] + QUALITY[1] / speed[1] <= left


async def quality(ctx: StepContext) -> str:
    syn = ctx.state.later.synthesis
    by_id = {f.id: f for f in ctx.state.later.research.findings}
    sources = [by_id[i] for i in syn.sources]
    values = {"question": ctx.state.question, "summary": ctx.state.clarification.summary or ctx.state.question,
              "tasks": tasks_text(ctx), "answer": syn.answer,
              "sources": _cited_text(sources, syn.answer) or "(no sources cited)"}
    answer, rated = NOT_RATED, False
    # an answer no model wrote is not the model's to rate: its measured figures stand alone
    if not syn.by_evidence and _time_for_rating(ctx, values):
        answer = await ctx.ask_or(lambda: NOT_RATED, PS.QUALITY, QualityAnswer, **values)
        rated = answer is not NOT_RATED
    first = syn.quality
    syn.quality = measured(ctx, answer, rated)
    revise = first is None and rated and syn.quality.total < ctx.settings.quality_threshold
    ctx.emit(ev.QualityChecked(total=syn.quality.total, revision_needed=revise, rated=rated, scores={
        "grounding": answer.grounding, "completeness": answer.completeness, "structure": answer.structure,
        "citations": answer.citations}))
    return "synthesis.revise" if revise else "report.build"
