"""Terminal output: progress on stderr, results on stdout, JSON when asked, and Ctrl+C as a
cooperative cancel (a second Ctrl+C stops at once)."""

from __future__ import annotations

import json
import signal
import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any, TextIO

from desktop.service import CancelToken, IngestProgress


def emit_json(data: Any, out: TextIO | None = None) -> None:
    (out or sys.stdout).write(json.dumps(data, ensure_ascii=False, indent=2, default=str) + "\n")


def err(message: str) -> None:
    sys.stderr.write(message + "\n")
    sys.stderr.flush()


def _duration(seconds: float | None) -> str:
    if seconds is None:
        return "?"
    seconds = int(seconds + 0.5)
    if seconds >= 3600:
        return f"{seconds // 3600}h{seconds % 3600 // 60:02d}m"
    if seconds >= 60:
        return f"{seconds // 60}m{seconds % 60:02d}s"
    return f"{seconds}s"


class ProgressPrinter:
    """One rewritten status line on a terminal; a line every few seconds when stderr is a file/pipe."""

    def __init__(self, stream: TextIO | None = None, interval_s: float = 2.0) -> None:
        self.stream = stream or sys.stderr
        self.tty = self.stream.isatty()
        self.interval_s = interval_s
        self._last = 0.0
        self._stage = ""

    def __call__(self, p: IngestProgress) -> None:
        now = time.monotonic()
        changed = p.stage != self._stage
        if not self.tty and not changed and now - self._last < self.interval_s:
            return
        self._last, self._stage = now, p.stage
        if p.stage == "extract":
            line = (f"reading {p.files_done}/{p.files_total} files, {p.pages_done}/{p.pages_total} pages, "
                    f"{p.chunks_done} chunks" + (f" — {p.file}" if p.file else ""))
        elif p.stage == "embed":
            line = f"embedding {p.embedded}/{p.to_embed} chunks"
        elif p.stage == "done":
            line = f"done in {_duration(p.elapsed_s)}"
        else:
            line = "scanning"
        if p.stage not in ("done", "scan"):
            line += f", about {_duration(p.eta_s)} left"
        if self.tty:
            self.stream.write("\r\033[K" + line[:150] + ("\n" if p.stage == "done" else ""))
        else:
            self.stream.write(line + "\n")
        self.stream.flush()


@contextmanager
def interruptible(token: CancelToken) -> Iterator[None]:
    """Ctrl+C asks the work to stop at the next safe point; a second Ctrl+C interrupts immediately."""

    def handler(signum: int, frame: object) -> None:
        if token.cancelled:
            raise KeyboardInterrupt
        token.cancel()
        err("\nstopping after the current step (Ctrl+C again to stop now)…")

    try:
        previous = signal.signal(signal.SIGINT, handler)
    except ValueError:  # not the main thread: no signal handling
        yield
        return
    try:
        yield
    finally:
        signal.signal(signal.SIGINT, previous)
