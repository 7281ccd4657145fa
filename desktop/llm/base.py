"""What both backends share: the concurrency gate, timeouts, retries of transient server faults with
backoff (``retry.py``), the audit record of every try of a chat call, streaming with thinking removed,
the measured server speeds (``throughput()``), and the prompt budget: a token estimate calibrated by
the server's own counts (its tokenizer via ``calibrate()`` where it has one, the counts of its answers,
the count in its refusal of a prompt too long) and the check that a prompt fits before it is sent."""

from __future__ import annotations

import asyncio
import contextlib
from abc import ABC, abstractmethod
import math
import time
from collections.abc import AsyncIterator, Awaitable, Callable
from dataclasses import dataclass, field
from typing import Any, TypeVar

from desktop.llm import structured
from desktop.llm.protocol import Check
from desktop.llm.records import Audit, CallRecord, emit
from desktop.llm.retry import RetryBudget
from desktop.llm.thinking import ThinkingFilter, merge_thinking, split_thinking
from desktop.llm.types import (
    CallOptions, Completion, Health, LlmError, LlmUnavailable, Message, ModelInfo, PromptTooLong, PullProgress,
    Structured, T, Throughput, Usage,
)
from desktop.settings import LlmSettings

R = TypeVar("R")

CHARS_PER_TOKEN = 3.0  # the estimate before the server has told us better: cautious (German text in
# Qwen's tokenizer takes 2.8-3.2), so that early prompts do not overshoot their budgets
CALIBRATION_SAMPLE_CHARS = 20_000  # enough text to measure the tokenizer; more only costs time
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


# A prompt this long or longer is one like the reading's and the answer's (1.5-2.8 k tokens with a 1.5B model).
# The server reads and writes more slowly there than in the first short calls, the more so the longer the
# context (§25's runs, Qwen 1.5B on 2 cores: 40-42 prompt and 9.7-10.4 answer tokens/s under 1,000 tokens,
# 35-37 and 7.9-8.6 from 1,500): the first calls' speeds, which planned the reading, were 8-30 % above these.
LONG_PROMPT_TOKENS = 1500


@dataclass
class Rate:
    """Tokens a server processed in the seconds it measured, summed over calls."""

    tokens: int = 0
    seconds: float = 0.0

    def add(self, tokens: int, seconds: float) -> None:
        if seconds > 0:
            self.tokens += tokens
            self.seconds += seconds

    def per_second(self) -> float | None:
        return self.tokens / self.seconds if self.seconds > 0 else None


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
        self._prompt_rate, self._answer_rate, self._timed_calls = Rate(), Rate(), 0
        self._long_prompt_rate, self._long_answer_rate = Rate(), Rate()  # calls of LONG_PROMPT_TOKENS or more
        self._server_seen = False  # it has answered once: a refused connection later means a restart

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
        """The answer as it arrives, thinking removed; each gap between pieces is bounded by the timeout.
        A try that fails before any text was shown is retried like any call; once text is shown it is not."""
        call = await self._prepare(messages, options, None, 1)
        budget = RetryBudget(self.settings)
        while True:
            shown = False
            try:
                async with contextlib.aclosing(self._stream_once(call)) as texts:
                    async for text in texts:
                        shown = True
                        yield text
                return
            except LlmError as error:
                wait = None if shown else budget.wait_before_retry(error, self._server_seen)
                if wait is None:
                    raise
            await asyncio.sleep(wait)

    async def _stream_once(self, call: Call) -> AsyncIterator[str]:
        """One try of a stream, inside the gate, audited."""
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
                        self._server_seen = True
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
                error = self._failed(exc, call)
                self._server_seen |= not isinstance(error, LlmUnavailable)
                record(str(error))
                raise error from exc
            record(None)
            self._learn(call.messages, usage)

    def throughput(self) -> Throughput | None:
        """The server's measured prompt and answer speeds over the calls so far (prompt tokens taken
        from its cache do not count as read), and over those with a long prompt; None before any call
        reported its timings."""
        if not self._timed_calls:
            return None
        return Throughput(prompt_tokens_per_s=self._prompt_rate.per_second(),
                          answer_tokens_per_s=self._answer_rate.per_second(), calls=self._timed_calls,
                          long_prompt_tokens_per_s=self._long_prompt_rate.per_second(),
                          long_answer_tokens_per_s=self._long_answer_rate.per_second())

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

    async def calibrate(self, sample: str) -> None:
        """Measure the model's characters per token on ``sample`` with the server's own tokenizer, where
        it has one (llama.cpp); otherwise the counts of the first answers calibrate. Best effort: never
        raises an LlmError."""
        sample = sample[:CALIBRATION_SAMPLE_CHARS]
        if sample.strip() and (tokens := await self._server_tokens(sample)):
            self._sample_chars += len(sample)
            self._sample_tokens += tokens

    async def _server_tokens(self, text: str) -> int | None:
        """The server tokenizer's count for ``text``; None where the server cannot tell."""
        return None

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

    def _learn(self, messages: list[Message], usage: Usage) -> None:
        """What an answered call tells: the token ratio of its prompt, and the server's speed."""
        self._calibrate(messages, usage.prompt_tokens)
        if usage.prompt_s > 0 or usage.answer_s > 0:
            self._timed_calls += 1
            self._prompt_rate.add(usage.prompt_tokens - usage.cached_tokens, usage.prompt_s)
            self._answer_rate.add(usage.completion_tokens, usage.answer_s)
            if usage.prompt_tokens >= LONG_PROMPT_TOKENS:
                self._long_prompt_rate.add(usage.prompt_tokens - usage.cached_tokens, usage.prompt_s)
                self._long_answer_rate.add(usage.completion_tokens, usage.answer_s)

    def _failed(self, exc: BaseException, call: Call) -> LlmError:
        """``exc`` typed; a server's refusal of a prompt too long carries its exact count of the prompt,
        which calibrates the estimate so that the caller's shortened prompt fits."""
        error = self._typed_error(exc, call.model, call.timeout)
        if isinstance(error, PromptTooLong):
            self._calibrate(call.messages, error.prompt_tokens)
        return error

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
                       typed: Callable[[BaseException], LlmError] | None = None) -> tuple[R, float]:
        """Run one server call: inside the gate, within the timeout, faults typed (by ``typed`` when
        given), transient faults tried again after a growing pause (``retry.py``), every try handed to
        ``record``. Returns (result, seconds of the successful try)."""
        budget = RetryBudget(self.settings) if retry else None
        while True:
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
                    error, cause = typed(exc) if typed else self._typed_error(exc, model, timeout), exc
                    self._server_seen |= not isinstance(error, LlmUnavailable)
                    if record:
                        record(None, time.monotonic() - started, str(error))
                else:
                    self._server_seen = True
                    seconds = time.monotonic() - started
                    if record:
                        record(result, seconds, None)
                    return result, seconds
            wait = budget.wait_before_retry(error, self._server_seen) if budget else None
            if wait is None:
                raise error from cause
            await asyncio.sleep(wait)  # outside the gate: other calls may use the slot meanwhile

    async def _meta(self, fn: Callable[[], Awaitable[R]], model: str = "", retry: bool = False) -> R:
        """A metadata call (tags, show, props): quick and not gated, so a health check never waits behind
        long generations; retried only where a chat call depends on it (``retry``), never for health."""
        timeout = min(self.settings.timeout_s, METADATA_TIMEOUT_S)
        result, _ = await self._request(model, timeout, fn, gated=False, retry=retry)
        return result

    async def _chat(self, call: Call, send: Callable[[], Awaitable[Reply]]) -> Completion:
        """A chat request with an audit record per try; usage carries the measured wait."""

        def record(reply: Reply | None, seconds: float, error: str | None) -> None:
            self._record(call, reply, seconds, error)

        reply, seconds = await self._request(call.model, call.timeout, send, record=record,
                                             typed=lambda exc: self._failed(exc, call))
        self._learn(call.messages, reply.completion.usage)
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
