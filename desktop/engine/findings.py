"""The findings as the last phases read them: those the drift filter kept, strongest first, each as a
numbered source block, and the plan's tasks with what they found."""

from __future__ import annotations

import re

from desktop.engine.research_state import Finding
from desktop.engine.step_context import StepContext

MARKER = re.compile(r"\[(\d{1,3})\]")
SOURCE_CHARS = 600  # of a finding's verified quotes in the synthesis prompt
BRIEF_SOURCE_CHARS = 400  # under a binding time budget: the leading sentences (the engine's best comes first)


def kept_findings(ctx: StepContext) -> list[Finding]:
    """Findings the drift filter kept, strongest first: tier, then weighted relevance."""
    weights = ctx.settings.tier_weights
    kept = [f for f in ctx.state.later.research.findings if f.drift is None or f.drift.kept]
    return sorted(kept, key=lambda f: (f.tier, -f.relevance * weights[f.tier - 1]))


def source_block(n: int, f: Finding, chars: int = SOURCE_CHARS) -> str:
    where = f"{f.doc}, p. {f.page}" + (f", {f.section}" if f.section else "")
    label = {1: "primary", 2: "secondary", 3: "tertiary"}[f.tier]
    # The documents' own words first: a small model restates what it reads first, and the quote is where
    # the figure is when the reading missed it (``focus.py``); the engine's best sentence leads, and the
    # quotes are held to ``chars`` (each prompt token costs a CPU server time)
    quotes, left = "", chars
    for q in f.verified_quotes:
        text = " ".join((q.display or "").split())
        if left <= 0 or quotes and len(text) > left:
            break
        quotes += f'\n    verified quote: "{text[:left]}{" …" if len(text) > left else ""}"'
        left -= len(text)
    via = f" (reached through '{f.via}')" if f.via else ""
    reading = f"\n    reading: {f.info}" if f.info else ""  # older runs' findings have the model's own line
    return f"[{n}] {where} ({label}{via}):{quotes}{reading}"


def tasks_text(ctx: StepContext, sources: list[Finding] | None = None) -> str:
    """The plan's tasks, each with its summary where the model wrote one, and with the numbers of the
    ``sources`` that were found for it (so that the answer covers every task that found something)."""
    plan = ctx.state.plan
    lines = []
    for t in plan.items if plan else []:
        run = next((r for r in ctx.state.later.research.tasks if r.task_id == t.id), None)
        summary = f": {run.summary.summary}" if run and run.summary and run.summary.by_model else (
            ": (skipped)" if run and run.status == "skipped" else "")
        numbers = [str(n) for n, f in enumerate(sources or [], start=1) if f.task_id == t.id]
        found = (f" — sources {', '.join(numbers)}" if numbers else " — nothing found") if sources is not None else ""
        lines.append(f"{t.id}. {t.task}{found}{summary}")
    return "\n".join(lines)
