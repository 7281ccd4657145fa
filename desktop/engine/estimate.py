"""How long the research takes on this LLM server, and how much of it fits a time budget.

A cost model from the server's measured reading and writing speeds (a 1.5B model on two CPU cores
reads ~70 and writes ~10 tokens/s; a GPU server hundreds to thousands) and the sizes the run has seen.
Before the research starts it gives the estimate the window and the CLI show, and it plans the
reading: with ``research.time_budget_s`` set (the whole run's time, a user's answers not counted), a slow
server reads fewer excerpts per task in what clarification and planning left of it — the question itself (task 0) keeps
the larger share — while a fast one reads everything the settings allow. Rough by nature (the number of findings and followed references is not known in advance),
but it tells minutes from hours."""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass, replace

from desktop.engine import events as ev
from desktop.engine import prompts as P
from desktop.engine import prompts_synthesis as PS
from desktop.engine.excerpts import measured_speed, prompt_cost
from desktop.engine.evidence import Aim, cut_text
from desktop.engine.schemas import ExtractionBatch
from desktop.engine.state import Todo, by_parts
from desktop.engine.step_context import StepContext

# Calibrated on measured runs (Qwen2.5-Coder-1.5B on laws-de, 2 cores: ~40 prompt and ~9 answer tokens/s)
ANSWER_PER_EXCERPT = 28  # tokens of a helpful excerpt's reading: label, grade, sentence numbers (measured: 31)
ANSWER_PER_INFO = 45  # and its line in the answer's language, where the documents are in another
ANSWER_PER_CALL = 20  # the answer's frame, written once per extraction call
CALL_PROMPT = 350  # the user text of an extraction call before its excerpts: the question, the tasks
HELPFUL_SHARE = 0.8  # share of the excerpts read that become findings (a small model finds most helpful)
EXCERPT_HEADER = 30  # tokens of an excerpt's label, place and sentence numbers
SUMMARY = (900, 130)  # prompt and answer tokens of one task summary (measured: 720-1,070 and 100-150)
DRIFT = (500, 80, 10, 120)  # a drift call's prompt and answer (reasons) tokens; answer and prompt per finding
SYNTHESIS = (1000, 600)  # prompt tokens besides the sources, answer tokens (measured on laws-de: 285-683)
BRIEF_PROMPT = 900  # the brief answer's prompt besides the sources
BRIEF_TOKENS = 80  # the most a brief statement takes (German, with its sources; measured: 50-80)
BRIEF_SOURCE_TOKENS = 125  # a finding in the brief answer's prompt (findings.BRIEF_SOURCE_CHARS of quotes)
QUALITY = (900, 60)  # measured: 970-1,320 prompt tokens and 52 answer tokens
SOURCE_TOKENS = 160  # a finding as the synthesis reads it: its place and verified quotes (measured: ~125 with
# the model's picks alone; every sentence shown of a helpful excerpt is quoted now, at most 600 characters)
CHUNK_TOKENS_DEFAULT = 350
TASK0_SHARE = 0.5  # of a tight budget's excerpts, the question itself reads this share…
TASK0_LEADS = 4  # …in a plan of at most this many tasks (with it)
# of one batch's planned time, what the planned reading leaves unspent: a small model's readings vary (§22: 7-71
# answer tokens an excerpt, batches planned at about a minute took 34-89 s), and the run's last call decides
# whether it ends within the budget (six of 16 runs ended 1-24 s past it, each in its last batch)
RESERVE_SHARE = 0.25
# what follows the run's last step: the report's files and the command's end (§25: the commands took 3.6-4.6 s
# besides their steps' time, about 3 s of it their start-up, counted since as ``timings["start"]``)
FINISH_S = 2.0


def brief_answer_tokens(statements: int) -> int:
    """The token limit of a brief answer of ``statements`` statements, which the estimate plans for in full: a
    small model often writes to it (§18, 1.5B model: answers of 146-450 tokens; five of 16 wrote more than the 60
    a statement planned before, among them the three runs that ran longest past the budget)."""
    return min(PS.SYNTHESIS_BRIEF.max_tokens, BRIEF_TOKENS * statements + 40)


def _evidence_tokens(texts: list[str], aim: Aim, language: str, count: Callable[[str], int]) -> int:
    """Average tokens of an evidence item (a chunk cut to its best sentences, evidence.py) of ``texts``."""
    cut = [cut_text(t, aim, language) for t in texts]
    return max(30, sum(count(t) for t in cut) // len(cut)) if cut else CHUNK_TOKENS_DEFAULT


async def evidence_tokens(ctx: StepContext) -> int:
    """The average evidence item's tokens in this knowledge base, from the chunks the run has seen cut for
    the question: measured once per step in a worker thread (cutting 30 chunks into ranked sentences is
    tens of milliseconds of work that the event loop must not wait for)."""
    if ctx.evidence_tokens is None:
        state = ctx.state
        texts = [c.text for c in list(state.clarification.chunks.values())[:30]]
        aim = Aim.of(state.question, state.question, state.clarification.research_queries)
        ctx.evidence_tokens = await ctx.in_thread(_evidence_tokens, texts, aim, state.doc_language, ctx.llm.count_tokens)
    return ctx.evidence_tokens


@dataclass(frozen=True)
class CostModel:
    prompt_tps: float
    answer_tps: float
    chunk_tokens: int  # of an evidence item
    fixed_tokens: int  # the extraction prompt's instructions, example and schema (cached after the first call)
    batch: int
    synthesis_sources: int  # tokens of sources the synthesis may read at most
    summaries: bool = True  # task summaries written by the LLM (not under a binding time budget)
    rated: bool = True  # the model rates its answer (only where the time budget leaves room: not planned for)
    translated: bool = False  # each reading also says what the excerpt holds in the answer's language
    drift: bool = True  # the model scores the findings' drift (not under a binding time budget: steps/drift.py)
    brief: bool = False  # the answer in its brief shape (under a binding time budget: steps/synthesis.py)
    written: bool = True  # the model writes the answer (not for a plan by parts under a binding time budget)

    def excerpt_s(self) -> float:
        reading = ANSWER_PER_EXCERPT + (ANSWER_PER_INFO if self.translated else 0)
        return (self.chunk_tokens + EXCERPT_HEADER + CALL_PROMPT / self.batch) / self.prompt_tps + \
            (HELPFUL_SHARE * reading + ANSWER_PER_CALL / self.batch) / self.answer_tps

    def reserve_s(self) -> float:
        """Seconds of a binding budget the planned reading leaves unspent (``RESERVE_SHARE`` of a batch)."""
        return RESERVE_SHARE * self.batch * self.excerpt_s()

    def final(self, tasks: int, excerpts: int, found: int = 0) -> tuple[int, int, int]:
        """Calls, prompt and answer tokens of what follows the reading of ``excerpts`` more (``found``: the
        findings so far): summaries, drift, synthesis, rating."""
        findings = found + int(HELPFUL_SHARE * excerpts)
        # a task with fewer than three findings needs no summary call
        summaries = min(tasks, findings // 3) if self.summaries else 0
        sources = min(self.synthesis_sources, findings * (BRIEF_SOURCE_TOKENS if self.brief else SOURCE_TOKENS))
        rating = (sources + QUALITY[0], QUALITY[1], 1) if self.rated else (0, 0, 0)
        drift = (DRIFT[0] + findings * DRIFT[3], DRIFT[1] + DRIFT[2] * findings, math.ceil(findings / 12)) \
            if self.drift else (0, 0, 0)
        synthesis = (BRIEF_PROMPT, brief_answer_tokens(max(tasks, 2))) if self.brief else SYNTHESIS
        if not self.written:  # the engine answers each part with its evidence: no call, no sources read again
            synthesis, sources = (0, 0), 0
        prompt = summaries * SUMMARY[0] + drift[0] + sources + synthesis[0] + rating[0]
        answer = summaries * SUMMARY[1] + drift[1] + synthesis[1] + rating[1]
        return summaries + drift[2] + int(self.written) + rating[2], prompt, answer

    def seconds(self, tasks: int, excerpts: int, found: int = 0) -> float:
        _, prompt, answer = self.final(tasks, excerpts, found)
        return self.fixed_tokens / self.prompt_tps + excerpts * self.excerpt_s() + prompt / self.prompt_tps + \
            answer / self.answer_tps


async def cost_model(ctx: StepContext) -> CostModel | None:
    speed = measured_speed(ctx.llm)
    if speed is None:
        return None
    s = ctx.settings
    fixed = prompt_cost(ctx.llm.count_tokens, P.EXTRACT.render(
        language=ctx.state.language, max_requests=s.requests_per_turn, question=ctx.state.question, scope="",
        avoid="", tasks="", registry="", excerpts="", requests_note="", info_rule="",
        extract_answer=P.extract_answer(False, ctx.state.language)), ExtractionBatch)
    return CostModel(speed[0], speed[1], await evidence_tokens(ctx), fixed, s.extract_batch, s.synthesis_context_tokens,
                     translated=ctx.state.language != ctx.state.doc_language)


def _pending(ctx: StepContext) -> list[Todo]:
    done = {t.task_id for t in ctx.state.later.research.tasks if t.status in ("done", "skipped")}
    return [t for t in ctx.state.plan.items if t.id not in done] if ctx.state.plan else []


def _answered(ctx: StepContext) -> int:
    """The tasks the answer speaks of: every task of the plan, the question itself not counted where its parts
    are the tasks (``Plan.answered``, as ``steps/synthesis._statements``), not only those still reading: the brief answer has a
    statement for each part that found something, and parts finish reading at different times (seen,
    laws-research-01: at the last reading step two of six parts had finished, the estimate planned five
    statements, the answer had six; the run took 324 s of 300)."""
    plan = ctx.state.plan
    return len(plan.answered({t.id for t in plan.items})) if plan is not None else 1


def remaining_budget(ctx: StepContext) -> float | None:
    """Seconds the run may still take, or None without a budget: the budget less what the run took so far — its
    steps' time (``later.timings``: the engine's own work too, its searches, quote checks and files, but not the
    time a user took to answer), or the time waited for answers or the server's own reading and writing time
    where either says more. Seen (§18): the runs' steps took 5-10 s besides the server's time, so a run that
    spent the budget on the server ran past it. ``FINISH_S`` is kept for what follows the last step."""
    budget, usage = ctx.settings.time_budget_s, ctx.state.usage
    spent = max(usage.seconds, usage.prompt_s + usage.answer_s, sum(ctx.state.later.timings.values()))
    return max(0.0, budget - spent - FINISH_S) if budget else None


def plannable(left: float, model: CostModel) -> float:
    """Of ``left`` seconds, what the reading may be planned to fill: the rest is the reserve for a batch that
    takes longer than planned (``CostModel.reserve_s``)."""
    return max(0.0, left - model.reserve_s())


def fit_excerpts(model: CostModel, tasks: int, left: float, most: int, least: int, found: int = 0) -> int:
    """The most excerpts (``least`` to ``most``) whose whole cost — the reading and what grows with it:
    summaries, drift scores, the synthesis' sources, also of the ``found`` findings so far — fits ``left``
    seconds; ``least`` when none does (a report needs something read)."""
    fitting = (n for n in range(most, least - 1, -1) if model.seconds(tasks, n, found) <= left)
    return next(fitting, min(least, most))


async def readable(ctx: StepContext) -> int | None:
    """How many more of the gathered excerpts fit what is left of ``research.time_budget_s`` at the speed
    measured so far (the reading included), with the report still to write; None without a budget. Until
    something was read, at least a batch: a report needs evidence."""
    research = ctx.state.later.research
    left, model = remaining_budget(ctx), await cost_model(ctx)
    queued = sum(len(t.queue) for t in research.tasks if t.status == "running")
    if left is None or model is None:
        return None
    least = 0 if research.visited else ctx.settings.extract_batch
    return fit_excerpts(_reading(model, research.budget_binds, by_parts(ctx.state)), _answered(ctx),
                        plannable(left, model), queued, least, found=len(research.findings))


def _reading(model: CostModel, binds: bool, by_parts: bool) -> CostModel:
    """What the rest of a run costs once the reading is under way: the instructions are cached, no summaries
    or rating are planned, and drift scores and the full answer only where the budget does not bind
    (steps/drift.py, steps/synthesis.py)."""
    return replace(_binding(model, by_parts), fixed_tokens=0) if binds else \
        replace(model, summaries=False, rated=False, fixed_tokens=0)


def _binding(model: CostModel, by_parts: bool) -> CostModel:
    """What follows the reading under a binding time budget: no task summaries, drift scores or rating, and
    the answer in its brief shape — or, in a plan by the question's parts, each part's evidence, written by no
    model (``steps/synthesis.by_evidence``)."""
    return replace(model, summaries=False, rated=False, drift=False, brief=True, written=not by_parts)


def allowances(ctx: StepContext, model: CostModel | None) -> dict[int, int]:
    """Excerpts each pending task may read (search results and followed references together) to stay
    within what is left of ``research.time_budget_s`` at the measured speed; empty when it does not bind (then
    the settings alone say how much is read)."""
    s, tasks = ctx.settings, _pending(ctx)
    full = {t.id: s.max_chunks_per_task for t in tasks}
    left = remaining_budget(ctx)
    if model is None or left is None or not tasks:
        return {}
    left = plannable(left, model)
    if model.seconds(len(tasks), sum(full.values())) <= left:
        return {}
    # the budget binds: the task summaries are the findings themselves (steps/research.py), the findings keep
    # the grades of their reading (steps/drift.py), and the model rates its answer only if time is left
    # (quality.py): the time goes to reading
    total = fit_excerpts(_binding(model, by_parts(ctx.state)), len(tasks), left, sum(full.values()), s.extract_batch)
    # the question itself leads a plan of a few side tasks; among the parts of a question that asks many
    # things it is one task of many
    first = tasks[0].id == 0 and 1 < len(tasks) <= TASK0_LEADS
    lead = min(s.max_chunks_per_task, math.ceil(total * TASK0_SHARE)) if first else 0
    rest = [t.id for t in tasks if not (first and t.id == 0)]
    share, extra = divmod(total - lead, len(rest)) if rest else (0, 0)
    plan = {t: min(s.max_chunks_per_task, share + (i < extra)) for i, t in enumerate(rest)}
    return {0: lead, **plan} if first else plan


async def research_estimate(ctx: StepContext, phase: str) -> ev.EstimateReady | None:
    """The estimate for the tasks still pending, or None before the server's speed was measured."""
    model = await cost_model(ctx)
    if model is None or ctx.state.plan is None:
        return None
    tasks, s = _pending(ctx), ctx.settings
    planned = allowances(ctx, model)
    if planned:  # the budget binds: no summary calls, drift scores or rating planned for (see allowances)
        model = _binding(model, by_parts(ctx.state))
    else:
        planned = {t.id: s.max_chunks_per_task for t in tasks}
    excerpts = sum(planned.values())
    calls = sum(math.ceil(n / s.extract_batch) for n in planned.values())
    final_calls, final_prompt, final_answer = model.final(len(tasks), excerpts)
    prompt = calls * model.fixed_tokens + excerpts * (model.chunk_tokens + EXCERPT_HEADER) + final_prompt
    answer = int(HELPFUL_SHARE * excerpts * ANSWER_PER_EXCERPT + calls * ANSWER_PER_CALL) + final_answer
    return ev.EstimateReady(phase=phase, seconds=round(model.seconds(len(tasks), excerpts), 1),
                            llm_calls=calls + final_calls, prompt_tokens=int(prompt), answer_tokens=answer,
                            prompt_tps=round(model.prompt_tps, 1), answer_tps=round(model.answer_tps, 1),
                            excerpts=excerpts, excerpts_allowed=len(tasks) * s.max_chunks_per_task)


SERVED_TURN = (450, 120)  # prompt tokens a served request adds (a passage and notes), answer tokens of the turn


async def room_for_requests(ctx: StepContext) -> bool:
    """Whether what is left of ``research.time_budget_s`` holds a turn of served context requests besides
    the reading still queued and the report: on a slow server the evidence already gathered comes first."""
    left, model = remaining_budget(ctx), await cost_model(ctx)
    if left is None or model is None:
        return True
    research = ctx.state.later.research
    queued = sum(len(t.queue) for t in research.tasks if t.status == "running")
    turn = SERVED_TURN[0] / model.prompt_tps + SERVED_TURN[1] / model.answer_tps
    rest = _reading(model, research.budget_binds, by_parts(ctx.state))
    return plannable(left, model) - rest.seconds(_answered(ctx), queued, len(research.findings)) >= turn
