"""The findings as the last phases read them: those the drift filter kept, strongest first, each as a
numbered source block, and the plan's tasks with what they found."""

from __future__ import annotations

import re

from desktop.engine.research_state import Finding
from desktop.engine.step import StepContext

MARKER = re.compile(r"\[(\d{1,3})\]")


def kept_findings(ctx: StepContext) -> list[Finding]:
    """Findings the drift filter kept, strongest first: tier, then weighted relevance."""
    weights = ctx.settings.tier_weights
    kept = [f for f in ctx.state.later.research.findings if f.drift is None or f.drift.kept]
    return sorted(kept, key=lambda f: (f.tier, -f.relevance * weights[f.tier - 1]))


def source_block(n: int, f: Finding) -> str:
    where = f"{f.doc}, p. {f.page}" + (f", {f.section}" if f.section else "")
    label = {1: "primary", 2: "secondary", 3: "tertiary"}[f.tier]
    # The documents' own words first: a small model restates what it reads first, and the quote is where
    # the figure is when the reading missed it (``focus.py``).
    quotes = "".join(f'\n    verified quote: "{" ".join((q.display or "").split())}"' for q in f.verified_quotes)
    via = f" (reached through '{f.via}')" if f.via else ""
    reading = f"\n    reading: {f.info}" if f.info else ""  # older runs' findings have the model's own line
    return f"[{n}] {where} ({label}{via}):{quotes}{reading}"


def tasks_text(ctx: StepContext) -> str:
    plan = ctx.state.plan
    lines = []
    for t in plan.items if plan else []:
        run = next((r for r in ctx.state.later.research.tasks if r.task_id == t.id), None)
        summary = run.summary.summary if run and run.summary and run.summary.by_model else (
            "(skipped)" if run and run.status == "skipped" else "(see the sources)")
        lines.append(f"{t.id}. {t.task}: {summary}")
    return "\n".join(lines)
