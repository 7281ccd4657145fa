"""What the LLM gets to read: excerpts of the knowledge base, most relevant first, within a token
budget — never "the first 3000 characters" — and helpers to show the dialogue so far."""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import TYPE_CHECKING

from pydantic import BaseModel

from desktop.engine.prompts import Prompt
from desktop.engine.state import ClarifyRound, RetrievedChunk
from desktop.llm.types import Message

if TYPE_CHECKING:
    from desktop.engine.step_context import StepContext

MIN_EXCERPT_TOKENS = 400  # below this an analysis or a plan has too little to work from


def excerpt(n: int, chunk: RetrievedChunk) -> str:
    where = f"{chunk.doc}, p. {chunk.page}" + (f", {chunk.section}" if chunk.section else "")
    return f"[{n}] ({where})\n{chunk.text.strip()}"


def budgeted_excerpts(chunks: list[RetrievedChunk], budget_tokens: int, count: Callable[[str], int]) -> tuple[str, list[str]]:
    """Excerpts in the given (relevance) order until the budget is spent; the last may be cut short.

    Returns the text and the ids of the chunks it shows.
    """
    parts: list[str] = []
    used: list[str] = []
    left = budget_tokens
    for chunk in chunks:
        text = excerpt(len(parts) + 1, chunk)
        cost = count(text)
        if cost > left:
            if left > 120:  # worth a partial excerpt rather than nothing
                share = max(0.0, (left - 20) / cost)
                parts.append(text[: int(len(text) * share)] + " …")
                used.append(chunk.chunk_id)
            break
        parts.append(text)
        used.append(chunk.chunk_id)
        left -= cost
    return ("\n\n".join(parts) if parts else "(no excerpts were found)"), used


def answers_block(rounds: list[ClarifyRound]) -> str:
    """The user's answers so far, for prompts ('' when there are none)."""
    lines = [f"- {r.answer}" for r in rounds if r.answer]
    return ("What the user has said so far:\n" + "\n".join(lines) + "\n\n") if lines else ""


def dialogue(rounds: list[ClarifyRound]) -> str:
    out = []
    for r in rounds:
        if r.questions:
            out.append(f"Round {r.index} questions:\n" + "\n".join(f"  - {q}" for q in r.questions))
        out.append(f"User: {r.answer}" if r.answer else "User: (no answer)")
    return "\n".join(out) if out else "(no questions were asked)"


def bullet_list(items: list[str], empty: str = "(none)") -> str:
    return "\n".join(f"- {i}" for i in items) if items else empty


def prompt_cost(count: Callable[[str], int], messages: list[Message], schema: type[BaseModel] | None) -> int:
    """Tokens of a rendered prompt, the JSON schema the backend adds to it included."""
    text = sum(count(m.content) + 4 for m in messages)
    return text + (count(json.dumps(schema.model_json_schema(), separators=(",", ":"))) if schema else 0)


async def excerpt_budget(ctx: StepContext, prompt: Prompt, schema: type[BaseModel] | None, setting: int,
                         **values: object) -> int:
    """Tokens of excerpts a prompt may carry: the setting, within the model's context after the prompt's
    fixed part and its longest answer, and within what the server reads in ``prompt_seconds`` at its
    measured speed (a CPU reads ~70 tokens/s: a 3,000-token excerpt block costs 40 s there, 2 s on a GPU)."""
    fixed = prompt_cost(ctx.llm.count_tokens, prompt.render(language=ctx.state.language, **values), schema)
    room = await ctx.llm.context_length() - fixed - prompt.max_tokens
    budget = min(setting, room)
    speed = measured_speed(ctx.llm)
    if speed is not None:
        budget = min(budget, int(speed[0] * ctx.settings.prompt_seconds))
    return max(MIN_EXCERPT_TOKENS, budget)


def measured_speed(llm: object) -> tuple[float, float] | None:
    """(prompt, answer) tokens/s the backend measured, or None before it has measured both: in the calls
    with a long prompt once there are any, as the reading and the answer are such calls (and slower per
    token than the first short ones: ``llm.base.LONG_PROMPT_TOKENS``), else in all calls."""
    throughput = getattr(llm, "throughput", None)
    measured = throughput() if callable(throughput) else None
    if measured is None:
        return None
    if measured.long_prompt_tokens_per_s and measured.long_answer_tokens_per_s:
        return measured.long_prompt_tokens_per_s, measured.long_answer_tokens_per_s
    if not measured.prompt_tokens_per_s or not measured.answer_tokens_per_s:
        return None
    return measured.prompt_tokens_per_s, measured.answer_tokens_per_s
