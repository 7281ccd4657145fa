"""Does the window stay responsive? The longest event-loop stall of the real window while it works.

    python benchmarks/ui_responsiveness.py PDF_DIR DATA_DIR [--pages 500] [--delay 0.3] [--screenshots DIR]

A precise 10 ms timer runs on the GUI thread; a stall is how much later than due a tick arrives
(anything the GUI thread does in between — painting, handling engine events, re-rendering a run —
delays it). Measured in the real MainWindow over its real bridge, engine and knowledge base, during:

1. the first start: the sample database built from the bundled laws;
2. an ingestion of the first PDFs of PDF_DIR (sorted by name) adding up to ``--pages`` pages, with
   the offline embedder, into a new database of DATA_DIR (a fresh folder gives a cold run);
3. a full research run over the sample laws against the tests' fake Ollama server, each answer after
   ``--delay`` seconds (clarification ended after the first round, the plan approved as proposed).

``--screenshots DIR`` saves the window at each stage (run under ``xvfb-run`` with
``QT_QPA_PLATFORM=xcb`` for the real window; offscreen rendering works too). Prints one JSON object.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import sys
import time
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests"))

import pymupdf  # noqa: E402
from engine_overhead import MODEL, Delayed  # noqa: E402
from PySide6.QtCore import QElapsedTimer, QEventLoop, Qt, QTimer  # noqa: E402
from PySide6.QtWidgets import QApplication  # noqa: E402
from support import fake_ollama_replies as replies  # noqa: E402
from support.fake_ollama import FakeOllama  # noqa: E402
from support.research_llm import QUESTION_DE  # noqa: E402

from desktop.app import prepare_window_process  # noqa: E402
from desktop.bridge.bridge import EngineBridge  # noqa: E402
from desktop.kb.storage.registry import SAMPLE_DB  # noqa: E402
from desktop.paths import resolve_paths  # noqa: E402
from desktop.settings import Settings  # noqa: E402
from desktop.ui import i18n  # noqa: E402
from desktop.ui.main_window import MainWindow  # noqa: E402
from desktop.ui.theme import apply_theme  # noqa: E402

TICK_MS = 10
BENCH_DB = "Responsiveness"


class StallMeter:
    """Lateness of a precise timer's ticks on the GUI thread."""

    def __init__(self) -> None:
        self.clock = QElapsedTimer()
        self.timer = QTimer(interval=TICK_MS, timerType=Qt.TimerType.PreciseTimer, timeout=self._tick)
        self.stalls: list[float] = []
        self.last = 0.0

    def start(self) -> None:
        self.stalls.clear()
        self.clock.start()
        self.last = 0.0
        self.timer.start()

    def _tick(self) -> None:
        now = self.clock.nsecsElapsed() / 1e6
        self.stalls.append(max(0.0, now - self.last - TICK_MS))
        self.last = now

    def stop(self, seconds: float) -> dict[str, object]:
        self.timer.stop()
        ordered = sorted(self.stalls)
        pick = lambda q: round(ordered[min(len(ordered) - 1, int(q * len(ordered)))], 1) if ordered else None  # noqa: E731
        return {"seconds": round(seconds, 1), "ticks": len(ordered), "max_stall_ms": round(ordered[-1], 1) if ordered else None,
                "p99_stall_ms": pick(0.99), "p50_stall_ms": pick(0.5), "stalls_over_50ms": sum(s > 50 for s in ordered)}


def wait_until(app: QApplication, done: Callable[[], bool], timeout_s: float) -> None:
    deadline = time.monotonic() + timeout_s
    while not done():
        if time.monotonic() > deadline:
            raise SystemExit("timed out waiting for the window")
        app.processEvents(QEventLoop.ProcessEventsFlag.WaitForMoreEvents, 50)


def measured(app: QApplication, meter: StallMeter, start: Callable[[], None], done: Callable[[], bool],
             timeout_s: float) -> dict[str, object]:
    started = time.perf_counter()
    meter.start()
    start()
    wait_until(app, done, timeout_s)
    return meter.stop(time.perf_counter() - started)


def pdfs_for(folder: Path, pages: int) -> tuple[list[Path], int]:
    chosen, total = [], 0
    for path in sorted(folder.rglob("*.pdf")):
        with pymupdf.open(path) as doc:
            total += doc.page_count
        chosen.append(path)
        if total >= pages:
            break
    return chosen, total


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("pdf_dir", type=Path)
    ap.add_argument("data_dir", type=Path)
    ap.add_argument("--pages", type=int, default=500)
    ap.add_argument("--delay", type=float, default=0.3)
    ap.add_argument("--screenshots", type=Path)
    args = ap.parse_args()
    os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
    app = QApplication([sys.argv[0]])
    apply_theme(app)
    i18n.install(app, "en")
    shots = args.screenshots
    if shots:
        shots.mkdir(parents=True, exist_ok=True)

    def shot(name: str) -> None:
        if shots:
            for _ in range(5):
                app.processEvents()
            window.grab().save(str(shots / f"{name}.png"))

    script = Delayed()
    script.delay = args.delay
    with FakeOllama([replies.chat_model(MODEL, "qwen3", 32768)], responder=script) as fake:
        settings = Settings().changed(llm={"host": fake.url, "model": MODEL})
        prepare_window_process()
        bridge = EngineBridge(resolve_paths(args.data_dir).ensure(), settings)
        window = MainWindow(bridge)
        window.resize(1500, 920)
        window.show()
        meter = StallMeter()
        finished: list[object] = []
        bridge.ingestFinished.connect(finished.append)
        result: dict[str, object] = {"machine": f"{platform.machine()}, {os.cpu_count()} cores",
                                     "platform": app.platformName(), "tick_ms": TICK_MS}

        result["first_start"] = measured(app, meter, lambda: window.prepare_first_start() or finished.append(None),
                                         lambda: bool(finished), 1800)
        wait_until(app, lambda: window.kb.model.rowCount() > 0, 60)
        shot("1-knowledge-base")

        files, pages = pdfs_for(args.pdf_dir, args.pages)
        finished.clear()
        bridge.create_database(BENCH_DB)
        wait_until(app, lambda: BENCH_DB in bridge.databases(), 60)

        def ingest() -> None:
            window.kb.set_databases(bridge.databases(), select=BENCH_DB)
            window.kb.ingestRequested.emit(BENCH_DB, files)

        result["ingestion"] = measured(app, meter, ingest, lambda: bool(finished), 7200)
        report = finished[0]
        result["ingestion"].update(files=len(files), pages=pages, chunks_embedded=getattr(report, "embedded", None))
        shot("2-ingestion-report")

        window.kb.set_databases(bridge.databases(), select=SAMPLE_DB)
        state = lambda: window.state  # noqa: E731

        def pending(kind: str) -> bool:
            s = state()
            return s is not None and s.waiting_for == kind

        def research() -> None:
            window.chat.input.setPlainText(QUESTION_DE)
            window.chat.send.click()

        def until_report() -> bool:
            s = state()
            if pending("answer") and window.chat.end.isEnabled():
                shot("3-clarification")
                window.chat.input.setPlainText("Nur beruflich exponierte Erwachsene.")
                window.chat.end.click()
            elif pending("approve_plan") and window.plan.approve.isEnabled():
                shot("4-plan")
                window.plan.approve.click()
            return s is not None and s.report is not None

        result["research_run"] = measured(app, meter, research, until_report, 3600)
        wait_until(app, lambda: window.tabs.currentWidget() is window.report, 30)
        shot("5-report")
        cited = next((c for c in state().report.citations if c.quote_verified and c.rects), None)
        if cited is not None:
            window.report.citationActivated.emit(cited)
            wait_until(app, lambda: window.viewer.current_page() == cited.page, 30)
            shot("6-citation-in-pdf")
        result["research_run"]["llm_delay_s"] = args.delay
        window.close()
        bridge.shutdown()
    print(json.dumps(result, indent=2))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
