"""Progress reporting and cooperative cancellation for long knowledge-base work."""

from __future__ import annotations

import threading
import time
from collections.abc import Callable

from desktop.kb.models import IngestProgress

ProgressCallback = Callable[[IngestProgress], None]

# Before anything has been measured: rough rates of this machine class (pages/s, chunks/s).
_GUESS_PAGE_RATE = 100.0
_GUESS_EMBED_RATE = 5.0
_MIN_INTERVAL_S = 0.1


class Cancelled(Exception):
    """Raised inside a unit of work to abandon it; the unit's transaction rolls back."""


class CancelToken:
    def __init__(self) -> None:
        self._event = threading.Event()

    def cancel(self) -> None:
        self._event.set()

    @property
    def cancelled(self) -> bool:
        return self._event.is_set()

    def check(self) -> None:
        if self._event.is_set():
            raise Cancelled()


class IngestMeter:
    """Counts pages and chunks, measures rates and estimates the time left; emits throttled events."""

    def __init__(self, callback: ProgressCallback | None) -> None:
        self.callback = callback
        self.state = IngestProgress(stage="scan")
        self.started = time.monotonic()
        self._last_emit = 0.0
        self._extract_time = 0.0
        self._embed_time = 0.0
        self._embedded_measured = 0

    def update(self, force: bool = False, **fields: object) -> None:
        stage_changed = "stage" in fields and fields["stage"] != self.state.stage
        self.state = self.state.model_copy(update=fields)
        now = time.monotonic()
        if self.callback and (force or stage_changed or now - self._last_emit >= _MIN_INTERVAL_S):
            self._last_emit = now
            self.state = self.state.model_copy(update={"elapsed_s": now - self.started, "eta_s": self.eta()})
            self.callback(self.state)

    def extracted(self, pages: int, chunks: int, seconds: float) -> None:
        self._extract_time += seconds
        s = self.state
        self.update(pages_done=s.pages_done + pages, chunks_done=s.chunks_done + chunks, to_embed=s.to_embed + chunks)

    def embedded(self, n: int, seconds: float) -> None:
        self._embed_time += seconds
        self._embedded_measured += n
        self.update(embedded=self.state.embedded + n)

    def eta(self) -> float | None:
        s = self.state
        if s.stage == "done":
            return 0.0
        page_rate = s.pages_done / self._extract_time if self._extract_time > 0 and s.pages_done else _GUESS_PAGE_RATE
        embed_rate = (
            self._embedded_measured / self._embed_time if self._embed_time > 0 and self._embedded_measured else _GUESS_EMBED_RATE
        )
        pages_left = max(0, s.pages_total - s.pages_done)
        chunks_per_page = s.chunks_done / s.pages_done if s.pages_done else 5.0
        chunks_left = max(0, s.to_embed - s.embedded) + pages_left * chunks_per_page
        return pages_left / page_rate + chunks_left / embed_rate
