"""What both backends share: the concurrency gate, timeouts, one retry of a failed server, the audit
record of every chat call, streaming with thinking removed, and the prompt budget (token estimate
calibrated by the server's own counts, and the check that a prompt fits before it is sent)."""

from __future__ import annotations

import asyncio
import contextlib
from abc import ABC, abstractmethod
import math
import time
from collections.abc import AsyncIterator, Awaitable, Callable
from dataclasses import dataclass, field
from typing import Any, TypeVar

import numpy as np

from desktop.llm import structured
from desktop.llm.protocol import Check
from desktop.llm.records import Audit, CallRecord, emit
from desktop.llm.thinking import ThinkingFilter, merge_thinking, split_thinking
from desktop.llm.types import (
    CallOptions, Completion, Health, LlmError, LlmServerError, Message, ModelInfo, PromptTooLong, PullProgress,
    Structured, T, Usage,
)
from desktop.settings import LlmSettings

R = TypeVar("R")

RETRY_BACKOFF_S = 0.5  # a crashed runner is usually restarted by the server within moments
CHARS_PER_TOKEN = 3.5  # the estimate before the server has told us better
MESSAGE_OVERHEAD = 4  # tokens a chat template adds per message (role markers, separators)
PROMPT_OVERHEAD = 3  # tokens that open the assistant's turn
METADATA_TIMEOUT_S = 15.0  # health, model lists and lookups must answer quickly or not at all


@dataclass
class Call:
    """One chat request: what the budget, the audit trail and the wire code need to know."""

    purpose: str
    model: str
    messages: list[Message]
    schema: dict | None
    max_tokens: int
    temperature: float
    timeout: float
    context: int
    attempt: int
    request: dict[str, Any] = field(default_factory=dict)  # options as sent, for the audit trail


@dataclass
class Reply:
    """A parsed answer plus what the server literally sent, for the audit trail."""

    completion: Completion
    raw: str


@dataclass
class Piece:
    """One streamed fragment, in either wire format."""

    content: str = ""
    thinking: str = ""
    finish_reason: str | None = None
    usage: Usage | None = None


def make_completion(raw: str, thinking: str | None, finish_reason: str | None, usage: Usage, model: str) -> Reply:
    """Strip inline thinking from the answer and keep it with the separate thinking field."""
    text, inline = split_thinking(raw)
    return Reply(Completion(text=text, thinking=merge_thinking(thinking, inline), finish_reason=finish_reason,
                            usage=usage, model=model), raw)


class BackendCore(ABC):
    """Base of both backends; subclasses implement the wire calls and ``_typed_error``."""

    name = ""

    def __init__(self, settings: LlmSettings, audit: Audit | None = None) -> None:
        self.settings = settings
        self.host = settings.resolved_host().rstrip("/")
        self.model = settings.model
        self.audit = audit  # public: the engine attaches its audit trail after construction
        self._gate = asyncio.Semaphore(settings.concurrency)
        self._sample_chars = 0  # calibration: prompt characters and the server's token counts for them
        self._sample_tokens = 0

    # --- to implement ------------------------------------------------------------------------------

    @abstractmethod
    def _typed_error(self, exc: BaseException, model: str, timeout: float) -> LlmError:
        raise NotImplementedError

    @abstractmethod
    async def _send(self, messages: list[Message], options: CallOptions | None, schema: dict | None,
                    attempt: int) -> Completion:
        raise NotImplementedError

    @abstractmethod
    def _pieces(self, call: Call) -> AsyncIterator[Piece]:
        raise NotImplementedError

    @abstractmethod
    async def context_length(self, model: str | None = None) -> int:
        raise NotImplementedError

    @abstractmethod
    async def embed(self, texts: list[str], model: str | None = None) -> np.ndarray:
        raise NotImplementedError

    @abstractmethod
    async def health(self) -> Health:
        raise NotImplementedError

    @abstractmethod
    async def list_models(self) -> list[ModelInfo]:
        raise NotImplementedError

    @abstractmethod
    def pull(self, model: str) -> AsyncIterator[PullProgress]:
        raise NotImplementedError

    @abstractmethod
    async def aclose(self) -> None:
        raise NotImplementedError

    # --- the protocol's shared part ------------------------------------------------------------------

    async def complete(self, messages: list[Message], options: CallOptions | None = None,
                       schema: dict | None = None) -> Completion:
        return await self._send(messages, options, schema, 1)

    async def generate_structured(self, messages: list[Message], schema: type[T], options: CallOptions | None = None,
                                  check: Check | None = None) -> Structured[T]:
        return await structured.generate(self, messages, schema, options, check)

    async def stream_text(self, messages: list[Message], options: CallOptions | None = None) -> AsyncIterator[str]:
        """The answer as it arrives, thinking removed; each gap between pieces is bounded by the timeout."""
        call = await self._prepare(messages, options, None, 1)
        filt, raw, thinking = ThinkingFilter(), [], []
        finish, usage = None, Usage()
        async with self._gate:
            started = time.monotonic()

            def record(error: str | None) -> None:
                seconds = time.monotonic() - started
                reply = make_completion("".join(raw), "".join(thinking), finish, usage.model_copy(
                    update={"calls": 1, "seconds": seconds}), call.model)
                self._record(call, reply, seconds, error)

            try:
                async with contextlib.aclosing(self._pieces(call)) as pieces:
                    while True:
                        try:
                            async with asyncio.timeout(call.timeout):
                                piece = await anext(pieces)
                        except StopAsyncIteration:
                            break
                        raw.append(piece.content)
                        thinking.append(piece.thinking)
                        finish = piece.finish_reason or finish
                        usage = piece.usage or usage
                        if visible := filt.feed(piece.content):
                            yield visible
                if tail := filt.flush():
                    yield tail
            except (asyncio.CancelledError, GeneratorExit):
                record("cancelled")
                raise
            except Exception as exc:
                error = self._typed_error(exc, call.model, call.timeout)
                record(str(error))
                raise error from exc
            record(None)
            self._calibrate(call.messages, usage.prompt_tokens)

    # --- budget --------------------------------------------------------------------------------------

    def _tokens_per_char(self) -> float:
        if self._sample_chars == 0:
            return 1 / CHARS_PER_TOKEN
        return min(1.5, max(1 / 8, self._sample_tokens / self._sample_chars))

    def count_tokens(self, text: str) -> int:
        return math.ceil(len(text) * self._tokens_per_char()) if text else 0

    def prompt_tokens(self, messages: list[Message]) -> int:
        """Estimated prompt size, chat template included."""
        return sum(self.count_tokens(m.content) + MESSAGE_OVERHEAD for m in messages) + PROMPT_OVERHEAD

    def _calibrate(self, messages: list[Message], server_tokens: int) -> None:
        """Learn tokens per character from what the server counted for a prompt we know."""
        chars = sum(len(m.content) for m in messages)
        tokens = server_tokens - MESSAGE_OVERHEAD * len(messages) - PROMPT_OVERHEAD
        if chars < 100 or tokens <= 0:  # too short to say anything beyond the template's overhead
            return
        # A count far below the estimate is a prompt-cache hit (only new tokens counted), not a ratio.
        if tokens / chars < 0.25 * self._tokens_per_char():
            return
        self._sample_chars += chars
        self._sample_tokens += tokens

    def _check_fits(self, messages: list[Message], max_tokens: int, context: int, model: str) -> None:
        """Refuse a prompt the server would silently cut: the caller must shorten it, not lose its head."""
        prompt = self.prompt_tokens(messages)
        if prompt + max_tokens <= context:
            return
        over = prompt + max_tokens - context
        hint = " or raise the context size in the settings" if context >= self.settings.context_size else ""
        raise PromptTooLong(
            f"the prompt is {over} tokens too long for {model}: about {prompt} tokens of prompt plus up to "
            f"{max_tokens} for the answer do not fit its context of {context} tokens; shorten the prompt "
            f"(fewer or shorter excerpts){hint}", prompt, max_tokens, context)

    async def _answer_room(self, messages: list[Message], model: str) -> int:
        """Tokens left for the answer after ``messages`` in ``model``'s context."""
        return await self.context_length(model) - self.prompt_tokens(messages)

    async def _prepare(self, messages: list[Message], options: CallOptions | None, schema: dict | None,
                       attempt: int) -> Call:
        opts = options or CallOptions()
        model = opts.model or self.model
        context = await self.context_length(model)
        max_tokens = opts.max_tokens or self.settings.max_answer_tokens
        self._check_fits(messages, max_tokens, context, model)
        temperature = self.settings.temperature if opts.temperature is None else opts.temperature
        return Call(opts.purpose, model, list(messages), schema, max_tokens, temperature,
                    opts.timeout_s or self.settings.timeout_s, context, attempt)

    # --- calls ---------------------------------------------------------------------------------------

    async def _request(self, model: str, timeout: float, fn: Callable[[], Awaitable[R]], *, gated: bool = True,
                       retry: bool = True, record: Callable[[R | None, float, str | None], None] | None = None,
                       ) -> tuple[R, float]:
        """Run one server call: inside the gate, within the timeout, faults typed, a failed server
        (5xx, dropped connection) tried once more after a short pause. Returns (result, seconds)."""
        for tries in (1, 2):
            async with self._gate if gated else contextlib.nullcontext():
                started = time.monotonic()  # after the gate: waiting for a slot is not server time
                try:
                    async with asyncio.timeout(timeout):
                        result = await fn()
                except asyncio.CancelledError:
                    if record:
                        record(None, time.monotonic() - started, "cancelled")
                    raise
                except Exception as exc:
                    error, cause = self._typed_error(exc, model, timeout), exc
                    if record:
                        record(None, time.monotonic() - started, str(error))
                else:
                    seconds = time.monotonic() - started
                    if record:
                        record(result, seconds, None)
                    return result, seconds
            if not (retry and tries == 1 and isinstance(error, LlmServerError)):
                raise error from cause
            await asyncio.sleep(RETRY_BACKOFF_S)
        raise AssertionError("unreachable")

    async def _meta(self, fn: Callable[[], Awaitable[R]], model: str = "") -> R:
        """A metadata call (tags, show, version): quick, not gated, so a health check never waits
        behind long generations."""
        timeout = min(self.settings.timeout_s, METADATA_TIMEOUT_S)
        result, _ = await self._request(model, timeout, fn, gated=False, retry=False)
        return result

    async def _chat(self, call: Call, send: Callable[[], Awaitable[Reply]]) -> Completion:
        """A chat request with its audit record; usage carries the measured wait."""

        def record(reply: Reply | None, seconds: float, error: str | None) -> None:
            self._record(call, reply, seconds, error)

        reply, seconds = await self._request(call.model, call.timeout, send, record=record)
        self._calibrate(call.messages, reply.completion.usage.prompt_tokens)
        usage = reply.completion.usage.model_copy(update={"calls": 1, "seconds": seconds})
        return reply.completion.model_copy(update={"usage": usage})

    def _record(self, call: Call, reply: Reply | None, seconds: float, error: str | None) -> None:
        c = reply.completion if reply else None
        usage = c.usage.model_copy(update={"calls": 1, "seconds": seconds}) if c else Usage(calls=1, seconds=seconds)
        emit(self.audit, CallRecord(
            purpose=call.purpose, backend=self.name, host=self.host, model=call.model, messages=call.messages,
            schema_name=(call.schema or {}).get("title") if call.schema else None, request=dict(call.request),
            raw=reply.raw if reply else "", thinking=c.thinking if c else None,
            finish_reason=c.finish_reason if c else None, usage=usage, duration_s=seconds, error=error,
            attempt=call.attempt))
