"""Engine overhead of clarification and planning: wall time minus the time spent waiting on the LLM.

    python benchmarks/engine_overhead.py DATA_DIR [--delay 1.0] [--rounds 3] [--language de|en]

DATA_DIR is a Rabbithole data folder (the sample database is built there on first use). The LLM is
the tests' fake Ollama server (a real HTTP server on 127.0.0.1 speaking Ollama's wire format) with
scripted answers after a fixed delay, reached through the real backend; everything else — retrieval,
ranking, budgeting, validation, persistence, events — is the product's code path. Per round:
LLM calls and tokens, wall time, LLM wait (measured by the backend per call) and the overhead.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import platform
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests"))

from support import fake_ollama_replies as replies  # noqa: E402
from support.fake_ollama import FakeOllama  # noqa: E402
from support.research_llm import QUESTION_DE, QUESTION_EN, ResearchLLM  # noqa: E402

from desktop.engine import events as ev  # noqa: E402
from desktop.engine.runner import ResearchEngine  # noqa: E402
from desktop.kb.storage.registry import SAMPLE_DB, ensure_sample  # noqa: E402
from desktop.paths import resolve_paths  # noqa: E402
from desktop.service import Session  # noqa: E402
from desktop.settings import Settings  # noqa: E402

MODEL = "bench-model:latest"


class Delayed(ResearchLLM):
    """The scripted research answers, each after a fixed delay."""

    delay: float = 1.0

    def __call__(self, request):  # noqa: ANN001, ANN204
        answer = super().__call__(request)
        return None if answer is None else replies.slow(self.delay, answer, chunk_delay=0)


class Segment:
    """Wall time and LLM usage between two checkpoints."""

    def __init__(self, name: str, events: list[ev.Event]) -> None:
        self.name, self.events, self.start_index, self.started = name, events, len(events), time.perf_counter()

    def close(self) -> dict[str, object]:
        wall = time.perf_counter() - self.started
        calls = [e for e in self.events[self.start_index :] if isinstance(e, ev.TokenUsage)]
        llm = sum(e.call.seconds for e in calls)
        return {
            "segment": self.name, "llm_calls": sum(e.call.calls for e in calls),
            "prompt_tokens": sum(e.call.prompt_tokens for e in calls),
            "completion_tokens": sum(e.call.completion_tokens for e in calls),
            "wall_s": round(wall, 3), "llm_s": round(llm, 3), "overhead_s": round(wall - llm, 3),
            "overhead_pct": round(100 * (wall - llm) / llm, 2) if llm else None,
        }


async def scenario(engine: ResearchEngine, events: list[ev.Event], question: str, rounds: int) -> list[dict]:
    rows = []
    seg = Segment("round 1", events)
    state = await engine.start(question, SAMPLE_DB)
    rows.append(seg.close())
    for i in range(2, rounds + 1):
        seg = Segment(f"round {i}", events)
        state = await engine.answer(state.run_id, f"Antwort {i}: berufliche Exposition, nur Erwachsene.")
        rows.append(seg.close())
    seg = Segment("finalize + plan", events)
    state = await engine.end_clarification(state.run_id, "Das genügt.")
    rows.append(seg.close())
    seg = Segment("re-plan", events)
    state = await engine.replan(state.run_id, "Mehr zu den Ausnahmen der Behörde.")
    rows.append(seg.close())
    return rows


async def main_async(args: argparse.Namespace) -> dict[str, object]:
    paths = resolve_paths(args.data_dir).ensure()
    settings = Settings()
    ensure_sample(paths, settings)
    llm_script = Delayed()
    llm_script.delay = args.delay
    with FakeOllama([replies.chat_model(MODEL, "qwen3", 32768)], responder=llm_script) as fake:
        settings = settings.changed(llm={"host": fake.url, "model": MODEL})
        events: list[ev.Event] = []
        async with Session(paths, settings, Path(args.data_dir) / "bench-runs.sqlite") as session:
            session.subscribe(events.append)
            engine = session.engine()
            # warm-up: the first search loads the embedding model and opens the stores
            await session.library.search(SAMPLE_DB, "Grenzwert", 3)
            rows = await scenario(engine, events, QUESTION_DE if args.language == "de" else QUESTION_EN, args.rounds)
    total_wall = sum(r["wall_s"] for r in rows)
    total_llm = sum(r["llm_s"] for r in rows)
    return {
        "machine": f"{platform.machine()}, {platform.python_version()}",
        "delay_s": args.delay,
        "rows": rows,
        "total": {"wall_s": round(total_wall, 2), "llm_s": round(total_llm, 2),
                  "overhead_pct": round(100 * (total_wall - total_llm) / total_llm, 2)},
    }


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("data_dir", type=Path)
    ap.add_argument("--delay", type=float, default=1.0, help="seconds the fake LLM takes per answer")
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--language", choices=("de", "en"), default="de")
    args = ap.parse_args()
    result = asyncio.run(main_async(args))
    print(json.dumps(result, indent=2))
    print("\n| segment | LLM calls | tokens (prompt+answer) | wall s | LLM s | overhead s | overhead % |")
    print("|---|---|---|---|---|---|---|")
    for r in result["rows"]:
        print(f"| {r['segment']} | {r['llm_calls']} | {r['prompt_tokens']}+{r['completion_tokens']} | {r['wall_s']} | "
              f"{r['llm_s']} | {r['overhead_s']} | {r['overhead_pct']} |")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
