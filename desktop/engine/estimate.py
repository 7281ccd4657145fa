"""How long the research will take, said before it starts: the calls the approved plan implies, their
tokens, and the server's measured reading and writing speeds (a 1.5B model on two CPU cores reads ~70
and writes ~10 tokens/s; a GPU server hundreds to thousands). Rough by nature — the number of findings
and followed references is not known in advance — but it tells minutes from hours."""

from __future__ import annotations

import math

from desktop.engine import events as ev
from desktop.engine import prompts as P
from desktop.engine.context import measured_speed, prompt_cost
from desktop.engine.schemas import ExtractionBatch
from desktop.engine.step import StepContext

ANSWER_PER_EXCERPT = 70  # tokens a reading of a helpful excerpt takes (measured with a 1.5B model)
HELPFUL_SHARE = 0.5  # share of the excerpts read that become findings
SUMMARY = (450, 150)  # prompt and answer tokens of one task summary
DRIFT_PER_FINDING = (60, 25)
QUALITY_ANSWER = 150
SYNTHESIS_ANSWER = 450
CHUNK_TOKENS_DEFAULT = 350


def _chunk_tokens(ctx: StepContext) -> int:
    """Average tokens of a chunk of this knowledge base, from those the run has seen."""
    texts = [c.text for c in ctx.state.clarification.chunks.values()][:30]
    if not texts:
        return CHUNK_TOKENS_DEFAULT
    return max(50, sum(ctx.llm.count_tokens(t) for t in texts) // len(texts))


def research_estimate(ctx: StepContext, phase: str) -> ev.EstimateReady | None:
    """The estimate for the tasks still pending, or None before the server's speed was measured."""
    speed = measured_speed(ctx.llm)
    if speed is None or ctx.state.plan is None:
        return None
    prompt_tps, answer_tps = speed
    s = ctx.settings
    done = {t.task_id for t in ctx.state.later.research.tasks if t.status in ("done", "skipped")}
    tasks = [t for t in ctx.state.plan.items if t.id not in done]
    chunk = _chunk_tokens(ctx)
    fixed = prompt_cost(ctx.llm.count_tokens, P.EXTRACT.render(
        language=ctx.state.language, max_requests=s.requests_per_turn, question=ctx.state.question, scope="",
        avoid="", task="", task_context="", registry="", example_info="", excerpts=""), ExtractionBatch)
    excerpts = len(tasks) * s.max_chunks_per_task
    calls = math.ceil(s.max_chunks_per_task / s.extract_batch) * len(tasks)
    findings = int(excerpts * HELPFUL_SHARE)
    # the fixed part of the extraction prompt is read once and then comes from the server's prompt cache
    read = fixed + excerpts * (chunk + 30) + len(tasks) * SUMMARY[0] + DRIFT_PER_FINDING[0] * findings
    read += 2 * (s.synthesis_context_tokens // 2 + 1200)  # synthesis and quality check
    written = findings * ANSWER_PER_EXCERPT + len(tasks) * SUMMARY[1] + DRIFT_PER_FINDING[1] * findings
    written += SYNTHESIS_ANSWER + QUALITY_ANSWER
    total_prompt = read + (calls - 1) * fixed
    calls += len(tasks) + math.ceil(findings / 12) + 2
    seconds = read / prompt_tps + written / answer_tps
    return ev.EstimateReady(phase=phase, seconds=round(seconds, 1), llm_calls=calls, prompt_tokens=int(total_prompt),
                            answer_tokens=int(written), prompt_tps=round(prompt_tps, 1), answer_tps=round(answer_tps, 1))

