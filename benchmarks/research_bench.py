"""Phases 3 to 5 with the fake LLM at a fixed delay: LLM calls and tokens per task, wall time with
extraction concurrency 1 and 4, and the engine's overhead (wall time minus time spent waiting on
the LLM, summed over calls as a sequential run would wait).

    python benchmarks/research_bench.py DATA_DIR [--delay 1.0] [--concurrency 1 4]

DATA_DIR is a Rabbithole data folder (the sample database is built there on first use). The LLM is
the tests' fake Ollama server through the real backend; retrieval, extraction conversations, quote
verification and location, reference following, drift filter, synthesis and report are the
product's own code.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests"))

from engine_overhead import MODEL, Delayed  # noqa: E402
from support import fake_ollama_replies as replies  # noqa: E402
from support.fake_ollama import FakeOllama  # noqa: E402
from support.research_llm import QUESTION_DE  # noqa: E402

from desktop.engine import events as ev  # noqa: E402
from desktop.kb.database import KnowledgeBase  # noqa: E402
from desktop.kb.storage.registry import SAMPLE_DB, ensure_sample  # noqa: E402
from desktop.paths import resolve_paths  # noqa: E402
from desktop.service import Session  # noqa: E402
from desktop.settings import Settings  # noqa: E402


def per_task(events: list[ev.Event]) -> list[dict[str, object]]:
    rows, current = [], None
    for e in events:
        if isinstance(e, ev.TaskStarted):
            current = {"task": e.task_id, "calls": 0, "prompt_tokens": 0, "completion_tokens": 0, "llm_s": 0.0,
                       "findings": 0, "followed": 0, "started": e.at}
            rows.append(current)
        elif current is not None and isinstance(e, ev.TokenUsage):
            current["calls"] += e.call.calls
            current["prompt_tokens"] += e.call.prompt_tokens
            current["completion_tokens"] += e.call.completion_tokens
            current["llm_s"] += e.call.seconds
        elif current is not None and isinstance(e, ev.FindingAdded):
            current["findings"] += 1
        elif current is not None and isinstance(e, ev.ReferenceFollowed):
            current["followed"] += 1
        elif isinstance(e, ev.TaskDone) and current is not None:
            current["wall_s"] = round((e.at - current.pop("started")).total_seconds(), 2)
            current["llm_s"] = round(current["llm_s"], 2)
            current = None
    return rows


async def one_run(paths, settings: Settings, concurrency: int, delay: float) -> dict[str, object]:  # noqa: ANN001
    script = Delayed()
    script.delay = delay
    with FakeOllama([replies.chat_model(MODEL, "qwen3", 32768)], responder=script) as fake:
        settings = settings.changed(llm={"host": fake.url, "model": MODEL, "concurrency": concurrency},
                                    research={"extract_concurrency": concurrency})
        events: list[ev.Event] = []
        async with Session(paths, settings, paths.data_dir / f"bench-research-{concurrency}.sqlite") as session:
            session.subscribe(events.append)
            engine = session.engine()
            state = await engine.start(QUESTION_DE, SAMPLE_DB)
            state = await engine.end_clarification(state.run_id, "Nur beruflich exponierte Erwachsene.")
            mark = len(events)
            started = time.perf_counter()
            state = await engine.approve(state.run_id)
            wall = time.perf_counter() - started
    later = events[mark:]
    calls = [e for e in later if isinstance(e, ev.TokenUsage)]
    llm_s = sum(e.call.seconds for e in calls)
    return {
        "concurrency": concurrency, "status": state.status, "wall_s": round(wall, 2), "llm_calls": sum(e.call.calls for e in calls),
        "llm_s_summed": round(llm_s, 2), "tasks": per_task(later),
        "findings": len(state.later.research.findings), "citations": len(state.later.report.citations) if state.later.report else 0,
    }


async def main_async(args: argparse.Namespace) -> dict[str, object]:
    paths = resolve_paths(args.data_dir).ensure()
    settings = Settings()
    ensure_sample(paths, settings)
    await asyncio.to_thread(lambda: KnowledgeBase.open(paths, settings, SAMPLE_DB).search("Grenzwert", 3))  # warm-up
    runs = [await one_run(paths, settings, c, args.delay) for c in args.concurrency]
    base = runs[0]
    for r in runs:
        r["speedup"] = round(base["wall_s"] / r["wall_s"], 2)
    sequential = base
    # With concurrency 1 every call is waited for in turn: what is not waiting is the engine's own work.
    overhead = sequential["wall_s"] - sequential["llm_s_summed"]
    return {"delay_s": args.delay, "runs": runs,
            "overhead_s": round(overhead, 2), "overhead_pct": round(100 * overhead / sequential["llm_s_summed"], 2)}


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("data_dir", type=Path)
    ap.add_argument("--delay", type=float, default=1.0)
    ap.add_argument("--concurrency", type=int, nargs="+", default=[1, 4])
    args = ap.parse_args()
    result = asyncio.run(main_async(args))
    print(json.dumps(result, indent=2, default=str))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
