"""The time budget's arithmetic (``engine/estimate.py``) at the speeds of a 1.5B model on two CPU cores:
the reading it plans must fit what clarification and planning left of the budget, including what grows
with the reading (task summaries, drift scores, the sources the synthesis reads); the model's rating of its
answer is not planned for (it runs when time is left)."""

from __future__ import annotations

from dataclasses import replace
from types import SimpleNamespace

import pytest

from desktop.engine import prompts_synthesis as PS
from desktop.engine.estimate import FINISH_S, CostModel, allowances, brief_answer_tokens, fit_excerpts, remaining_budget
from desktop.engine.state import Plan, Todo
from desktop.settings import ResearchSettings

# measured on laws-dev-01 (Qwen2.5-Coder-1.5B Q4_K_M, llama.cpp, 2 threads): 72.6 tokens/s read, 10.4 written
MEASURED = CostModel(prompt_tps=72.6, answer_tps=10.4, chunk_tokens=350, fixed_tokens=1000, batch=4,
                     synthesis_sources=3000)


def _ctx(tasks: int, spent_s: float, budget_s: float) -> SimpleNamespace:
    settings = ResearchSettings(time_budget_s=budget_s)
    plan = SimpleNamespace(items=[Todo(id=i, task=f"task {i}") for i in range(tasks)], by_parts=False)
    state = SimpleNamespace(plan=plan, later=SimpleNamespace(research=SimpleNamespace(tasks=[]), timings={}),
                            usage=SimpleNamespace(seconds=spent_s, prompt_s=0.0, answer_s=0.0))
    return SimpleNamespace(settings=settings, state=state)


def test_the_planned_reading_fits_what_is_left_of_the_budget() -> None:
    """Seen: 92 s of a 300 s budget spent before the research, and a plan of 20 excerpts estimated at
    305 s: the allowance left out what the summaries, drift and synthesis add per excerpt read."""
    planned = allowances(_ctx(tasks=3, spent_s=92, budget_s=300), MEASURED)
    total = sum(planned.values())
    assert 4 <= total < 3 * 8
    # binding: no summary, drift score or rating, the answer in its brief shape
    reading = replace(MEASURED, summaries=False, rated=False, drift=False, brief=True)
    left = 300 - 92 - MEASURED.reserve_s()  # a quarter batch stays unplanned (test_the_reading_leaves_a_reserve…)
    assert reading.seconds(3, total) <= left < reading.seconds(3, total + 1)
    assert planned[0] == max(planned.values())  # the question itself keeps the larger share


@pytest.mark.parametrize(("left", "expected"), [(10_000, 24), (0, 4)])
def test_fit_is_bounded_by_the_settings_and_by_a_minimum_reading(left: float, expected: int) -> None:
    assert fit_excerpts(MEASURED, 3, left, most=24, least=4) == expected


def test_no_allowance_when_everything_fits() -> None:
    assert allowances(_ctx(tasks=2, spent_s=10, budget_s=86_400), MEASURED) == {}
    assert allowances(_ctx(tasks=2, spent_s=10, budget_s=0), MEASURED) == {}  # 0: no budget


def test_under_a_binding_budget_no_drift_scores_are_planned_for_and_more_is_read() -> None:
    """The findings keep the grades of their reading when the budget binds (steps/drift.py): the half minute a
    drift call takes on a slow server goes to reading."""
    with_drift = replace(MEASURED, summaries=False, rated=False, brief=True)
    without = replace(with_drift, drift=False)
    assert with_drift.final(3, 12)[0] == without.final(3, 12)[0] + 1  # one drift call fewer
    assert without.seconds(3, 12) < with_drift.seconds(3, 12)
    planned = allowances(_ctx(tasks=3, spent_s=92, budget_s=300), MEASURED)
    left = 300 - 92 - MEASURED.reserve_s()
    assert without.seconds(3, sum(planned.values())) <= left < with_drift.seconds(3, sum(planned.values()))


def test_under_a_binding_budget_the_brief_answer_leaves_more_time_to_reading() -> None:
    """The brief answer (one statement per task, its sources' leading sentences) is planned as what it costs:
    seen on a CPU, the full shape's 632 answer tokens took 90 s, a third of them new."""
    full = replace(MEASURED, summaries=False, rated=False, drift=False)
    brief = replace(full, brief=True)
    assert brief.final(4, 12)[2] < full.final(4, 12)[2] and brief.final(4, 12)[1] < full.final(4, 12)[1]
    assert fit_excerpts(brief, 4, 200, most=40, least=4) > fit_excerpts(full, 4, 200, most=40, least=4)


def test_the_answer_is_planned_for_every_part_not_only_those_still_reading() -> None:
    """laws-research-01 (six parts, 1.5B model): at the last reading step two parts had finished reading, and
    the estimate of what follows the reading planned a brief answer of five statements; the answer has one for
    each part that found something."""
    from desktop.engine.estimate import _answered

    parts = Plan(items=[Todo(id=i, task=f"part {i}") for i in range(7)], by_parts=True)
    ctx = SimpleNamespace(state=SimpleNamespace(plan=parts))
    assert _answered(ctx) == 6  # the question itself is answered by its parts' statements
    side_tasks = Plan(items=[Todo(id=i, task=f"task {i}") for i in range(3)], by_parts=False)
    assert _answered(SimpleNamespace(state=SimpleNamespace(plan=side_tasks))) == 3
    brief = replace(MEASURED, summaries=False, rated=False, drift=False, brief=True)
    assert brief.seconds(_answered(ctx), 8) > brief.seconds(4, 8)  # six statements cost more than four


def test_the_reading_left_is_fitted_to_an_answer_for_every_task(monkeypatch: pytest.MonkeyPatch) -> None:
    """``readable`` plans what follows the reading for the plan's tasks, whatever number of them still read."""
    import asyncio

    from desktop.engine import estimate
    from desktop.engine.estimate import _reading

    async def measured(ctx: object) -> CostModel:
        return MEASURED
    monkeypatch.setattr(estimate, "cost_model", measured)
    runs = [SimpleNamespace(status="running", queue=list(range(8))) for _ in range(4)] + \
        [SimpleNamespace(status="done", queue=[]) for _ in range(2)]
    research = SimpleNamespace(tasks=runs, visited=["c1"], findings=[], budget_binds=True)
    plan = Plan(items=[Todo(id=i, task=f"task {i}") for i in range(6)], by_parts=False)
    reading = _reading(MEASURED, True, False)
    differs = False
    for spent in range(150, 300, 5):
        state = SimpleNamespace(plan=plan, later=SimpleNamespace(research=research, timings={}),
                                usage=SimpleNamespace(seconds=spent, prompt_s=0.0, answer_s=0.0))
        ctx = SimpleNamespace(settings=ResearchSettings(time_budget_s=300), state=state)
        room = asyncio.run(estimate.readable(ctx))
        left = 300 - spent - estimate.FINISH_S - MEASURED.reserve_s()
        assert room == fit_excerpts(reading, 6, left, 32, 0)
        differs |= room != fit_excerpts(reading, 4, left, 32, 0)
    assert differs  # with the four parts still reading the plan would read more than fits


def test_under_a_binding_budget_a_plan_by_parts_plans_no_written_answer_and_reads_more() -> None:
    """A plan by the question's parts is answered with each part's evidence under a binding budget (§21: the
    brief answer's call took 70-200 s of the 300): no call, no sources read again, and that time goes to reading."""
    from desktop.engine.estimate import _binding

    written, by_parts = _binding(MEASURED, False), _binding(MEASURED, True)
    assert by_parts.final(6, 12) == (0, 0, 0) and written.final(6, 12)[0] == 1
    assert fit_excerpts(by_parts, 6, 200, most=48, least=4) > fit_excerpts(written, 6, 200, most=48, least=4)
    plan = Plan(items=[Todo(id=i, task=f"part {i}") for i in range(4)], by_parts=True)
    ctx = _ctx(tasks=4, spent_s=92, budget_s=300)
    planned_written = sum(allowances(ctx, MEASURED).values())
    ctx.state.plan = plan
    assert sum(allowances(ctx, MEASURED).values()) > planned_written


def test_the_budget_counts_the_time_the_runs_steps_took_not_only_the_servers() -> None:
    """§18: the runs' steps took 5-10 s besides the server's time (searches, quote checks, files); a run that
    spent its budget on the server ran past it. A user's time answering is no step and does not count."""
    ctx = _ctx(tasks=3, spent_s=100, budget_s=300)
    assert remaining_budget(ctx) == 200 - FINISH_S
    ctx.state.later.timings = {"clarify": 20.0, "plan": 1.0, "research": 110.0}
    assert remaining_budget(ctx) == 300 - 131 - FINISH_S
    ctx.state.usage.prompt_s, ctx.state.usage.answer_s = 120.0, 30.0  # the server's own count says more
    assert remaining_budget(ctx) == 150 - FINISH_S


def test_the_budget_counts_a_commands_start_up() -> None:
    """§25: two single-fact runs ended 3 and 7 s past five minutes; each command took about 3 s to start (its
    imports, the knowledge base) before its run's first step, which the budget did not count."""
    ctx = _ctx(tasks=3, spent_s=0, budget_s=300)
    ctx.state.later.timings = {"start": 3.5, "clarify": 20.0}
    assert remaining_budget(ctx) == 300 - 23.5 - FINISH_S


def test_the_brief_answer_is_planned_at_the_token_limit_it_is_given() -> None:
    """§18 (1.5B model): brief answers of 146-450 tokens; five of 16 wrote more than the 60 tokens a statement
    planned before, among them the three runs that ran longest past the budget. The estimate plans the limit
    the synthesis gives the answer (``brief_answer_tokens``), which a small model often reaches."""
    only_answer = replace(MEASURED, summaries=False, rated=False, drift=False, brief=True)
    for tasks in (1, 3, 4, 6, 9):
        assert only_answer.final(tasks, 0)[2] == brief_answer_tokens(max(tasks, 2))
    assert brief_answer_tokens(3) == 280 and brief_answer_tokens(6) == PS.SYNTHESIS_BRIEF.max_tokens == 450


def test_the_reading_leaves_a_reserve_for_a_last_batch_that_takes_longer_than_planned(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """§22 (1.5B model, 2 cores): batches planned at about a minute took 34-89 s, and six of 16 runs ended 1-24 s
    past the 300 s budget, each in its last batch. Here every batch takes a fifth longer than planned; the reading,
    planned again before each batch as the research step does, still ends within the budget."""
    import asyncio

    from desktop.engine import estimate
    from desktop.engine.estimate import _reading

    async def measured(ctx: object) -> CostModel:
        return MEASURED
    monkeypatch.setattr(estimate, "cost_model", measured)
    reading = _reading(MEASURED, True, True)
    plan = Plan(items=[Todo(id=i, task=f"part {i}") for i in range(5)], by_parts=True)
    for start in range(100, 200, 7):  # where the reading starts changes where its last batch falls
        queue = list(range(40))
        research = SimpleNamespace(tasks=[SimpleNamespace(status="running", queue=queue)], visited=["c0"],
                                   findings=[], budget_binds=True)
        spent, read = float(start), 0
        while True:
            state = SimpleNamespace(plan=plan, later=SimpleNamespace(research=research, timings={}),
                                    usage=SimpleNamespace(seconds=spent, prompt_s=0.0, answer_s=0.0))
            ctx = SimpleNamespace(settings=ResearchSettings(time_budget_s=300, extract_batch=4), state=state)
            room = asyncio.run(estimate.readable(ctx))
            batch = min(4, room or 0, len(queue))
            if batch == 0:
                break
            del queue[:batch]
            spent += 1.2 * batch * reading.excerpt_s()
            read += batch
        assert read >= 4
        assert spent + reading.seconds(5, 0, 0) <= 300, start
