"""When a failed server call is worth another try, and how long to wait before it.

Transient faults are tried again with exponential backoff (``settings.retry_backoff_s`` doubled per
try, capped at ``retry_backoff_max_s``, a little jitter so that parallel calls do not return in step),
at most ``settings.transient_retries`` times: a server error (HTTP 5xx, a connection broken off, an
unreadable answer) and a refused connection of a server that answered before (it is restarting).
A timeout is tried again at most once: it already cost a full wait. Everything else (a missing
model, a prompt too long, a refused request) cannot get better by asking again and is raised at once.

Public: ``RetryBudget`` (the state of one call) and ``backoff(n, first, cap, rng)``."""

from __future__ import annotations

import random

from desktop.llm.types import LlmError, LlmServerError, LlmTimeout, LlmUnavailable
from desktop.settings import LlmSettings

JITTER = 0.2  # a wait is shortened by up to this share: it still grows with every try, never beyond the cap


def backoff(n: int, first: float, cap: float, rng: random.Random | None = None) -> float:
    """The wait before retry ``n`` (1 = the first retry)."""
    return min(cap, first * 2 ** (n - 1)) * (1 - JITTER * (rng or random).random())


class RetryBudget:
    """The retries left to one call; ``wait_before_retry`` decides each time a try failed."""

    def __init__(self, settings: LlmSettings, rng: random.Random | None = None) -> None:
        self.limit = settings.transient_retries
        self.first, self.cap = settings.retry_backoff_s, settings.retry_backoff_max_s
        self.retried = 0
        self._timed_out = False
        self._rng = rng

    def wait_before_retry(self, error: LlmError, server_seen: bool) -> float | None:
        """Seconds to wait before trying again after ``error``, or None to give up and raise it.
        ``server_seen``: the server has answered this backend before, so a refused connection means
        it is restarting rather than not running at all (which must be said at once)."""
        if self.retried >= self.limit:
            return None
        if isinstance(error, LlmTimeout):
            if self._timed_out:
                return None
            self._timed_out = True
        elif isinstance(error, LlmUnavailable):
            if not server_seen:
                return None
        elif not isinstance(error, LlmServerError):
            return None
        self.retried += 1
        return backoff(self.retried, self.first, self.cap, self._rng)
