"""The one protocol every LLM backend implements (docs/architecture.md §2, §7)."""

from __future__ import annotations

from collections.abc import AsyncIterator, Callable
from typing import Protocol

from desktop.llm.records import CallRecord
from desktop.llm.types import (
    CallOptions, Completion, Health, Message, ModelInfo, PullProgress, Structured, T, Throughput,
)

# Extra check of a validated answer (e.g. its language); returns a problem to feed back, or None.
Check = Callable[[object], str | None]


class LlmBackend(Protocol):
    name: str  # "ollama" | "openai"
    host: str
    model: str  # the default chat model
    audit: Callable[[CallRecord], None] | None  # receives a record of every server call

    async def complete(self, messages: list[Message], options: CallOptions | None = None,
                       schema: dict | None = None) -> Completion:
        """One answer, optionally constrained to a JSON schema."""
        ...

    async def generate_structured(self, messages: list[Message], schema: type[T], options: CallOptions | None = None,
                                  check: Check | None = None) -> Structured[T]:
        """An answer validated as ``schema``; invalid answers are retried with the error fed back."""
        ...

    def stream_text(self, messages: list[Message], options: CallOptions | None = None) -> AsyncIterator[str]:
        """The answer's text as it arrives (thinking removed)."""
        ...

    async def health(self) -> Health: ...

    async def list_models(self) -> list[ModelInfo]: ...

    async def context_length(self, model: str | None = None) -> int:
        """The context window the backend will use for ``model`` (known limit, or the configured size)."""
        ...

    def pull(self, model: str) -> AsyncIterator[PullProgress]: ...

    def count_tokens(self, text: str) -> int:
        """An estimate for budgeting, calibrated by the server's own counts as calls come back."""
        ...

    async def calibrate(self, sample: str) -> None:
        """Calibrate ``count_tokens`` on a sample of the text to come with the server's tokenizer, where
        it has one (llama.cpp's /tokenize); elsewhere nothing happens. Never raises an LlmError."""
        ...

    def throughput(self) -> Throughput | None:
        """Measured prompt and answer speeds (tokens/s) over the calls so far; None before any timings."""
        ...

    async def aclose(self) -> None: ...
