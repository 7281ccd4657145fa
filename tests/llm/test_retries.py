"""Transient server faults are retried with bounded exponential backoff, through both backends against
the fake server: every try audited, permanent errors raised at once, a restarting server waited for,
the lookups a chat call depends on retried, health and model lists never held up, streams retried
only before their first piece."""

from __future__ import annotations

import asyncio
import random
import time
from collections.abc import Awaitable, Callable
from dataclasses import replace
from typing import Any, TypeVar

import pytest
from support import fake_ollama as fake_server
from support.fake_ollama import FakeOllama, fake_ollama_fixture, replies

from desktop.llm.base import BackendCore
from desktop.llm.factory import make_backend
from desktop.llm.records import CallRecord
from desktop.llm.retry import JITTER, RetryBudget, backoff
from desktop.llm.types import (
    BadOutput, LlmError, LlmServerError, LlmTimeout, LlmUnavailable, Message, ModelMissing, PromptTooLong,
)
from desktop.settings import LlmSettings

R = TypeVar("R")
ASK = [Message(role="user", content="What is the limit?")]
FAST = {"retry_backoff_s": 0.01, "retry_backoff_max_s": 0.05}  # retries without waiting long

fake = fake_ollama_fixture()


@pytest.fixture(params=["ollama", "openai"])
def kind(request: pytest.FixtureRequest) -> str:
    return request.param


def backend(server: FakeOllama, kind: str, records: list[CallRecord] | None = None, **settings: Any) -> BackendCore:
    llm = LlmSettings(backend=kind, host=server.url, **{"model": "llama3.2:3b", **settings})
    made = make_backend(llm, None if records is None else records.append)
    assert isinstance(made, BackendCore)
    return made


def chat_path(kind: str) -> str:
    return "/v1/chat/completions" if kind == "openai" else "/api/chat"


def run(make: Callable[[], Awaitable[R]]) -> R:
    return asyncio.run(make())


# --- the policy on its own -------------------------------------------------------------------------


def test_backoff_doubles_from_the_first_wait_up_to_the_cap_with_a_little_jitter() -> None:
    rng = random.Random(5)
    waits = [backoff(n, 0.5, 20.0, rng) for n in range(1, 10)]
    for n, wait in enumerate(waits, 1):
        nominal = min(20.0, 0.5 * 2 ** (n - 1))
        assert nominal * (1 - JITTER) <= wait <= nominal
    assert all(a < b for a, b in zip(waits[:6], waits[1:7]))  # 0.5, 1, 2, 4, 8, 16, then the cap
    assert all(16 <= w <= 20 for w in waits[6:]) and len({round(w, 6) for w in waits[6:]}) > 1  # jittered


def test_which_errors_are_retried_and_how_often() -> None:
    settings = LlmSettings(transient_retries=3)
    server = RetryBudget(settings)
    assert all(server.wait_before_retry(LlmServerError("5xx"), True) is not None for _ in range(3))
    assert server.wait_before_retry(LlmServerError("5xx"), True) is None  # spent
    timeouts = RetryBudget(settings)
    assert timeouts.wait_before_retry(LlmTimeout("slow"), True) is not None
    assert timeouts.wait_before_retry(LlmTimeout("slow"), True) is None  # a timeout: once at most
    assert RetryBudget(settings).wait_before_retry(LlmUnavailable("down"), True) is not None  # restarting
    assert RetryBudget(settings).wait_before_retry(LlmUnavailable("down"), False) is None  # never there: say so
    for permanent in (ModelMissing("m"), PromptTooLong("p", 10, 1, 5), LlmError("401"), BadOutput("b", [])):
        assert RetryBudget(settings).wait_before_retry(permanent, True) is None
    assert RetryBudget(LlmSettings(transient_retries=0)).wait_before_retry(LlmServerError("5xx"), True) is None


# --- through the backends --------------------------------------------------------------------------


def test_two_server_errors_then_an_answer_succeeds_with_a_record_per_try(fake: FakeOllama, kind: str) -> None:
    fake.script(replies.http_500(), replies.http_500("CUDA error: out of memory"), "recovered")
    records: list[CallRecord] = []

    async def main() -> Any:
        b = backend(fake, kind, records, **FAST)
        try:
            return await b.complete(ASK)
        finally:
            await b.aclose()

    answer = run(main)
    assert answer.text == "recovered" and answer.usage.calls == 1
    assert len(fake.requests_to(chat_path(kind))) == 3
    assert [r.error is None for r in records] == [False, False, True]
    assert "exit status 2" in (records[0].error or "") and "CUDA error" in (records[1].error or "")
    assert all(r.messages == ASK and r.attempt == 1 for r in records)


def test_permanent_errors_are_raised_at_once(fake: FakeOllama, kind: str) -> None:
    path = chat_path(kind)
    openai = kind == "openai"

    async def main() -> list[type]:
        b = backend(fake, kind, **FAST)
        await b.context_length()
        seen: list[type] = []
        fake.script(replies.not_found())
        for status, message in [(None, ""), (400, "invalid options"), (401, "invalid api key"), (501, "no")]:
            if status is not None:
                fake._routes[("POST", path)] = lambda req, body, s=status, m=message: fake_server._error(s, m, openai)
            before = len(fake.requests_to(path))
            with pytest.raises(LlmError) as err:
                await b.complete(ASK)
            seen.append(type(err.value))
            assert len(fake.requests_to(path)) == before + 1, f"HTTP {status} was asked again"
        await b.aclose()
        return seen

    seen = run(main)
    assert seen[0] is ModelMissing and all(t is LlmError for t in seen[1:])  # 501: not a server fault


def test_backoff_waits_grow_and_are_capped(fake: FakeOllama) -> None:
    fake.script(*[replies.http_500()] * 6)

    async def main() -> None:
        b = backend(fake, "ollama", transient_retries=5, retry_backoff_s=0.05, retry_backoff_max_s=0.1)
        with pytest.raises(LlmServerError):
            await b.complete(ASK)
        await b.aclose()

    run(main)
    arrivals = [r.time for r in fake.requests_to("/api/chat")]
    gaps = [b - a for a, b in zip(arrivals, arrivals[1:])]
    assert len(gaps) == 5  # the first try and five retries
    assert 0.035 <= gaps[0] < 0.5 and gaps[1] >= 0.075 and all(g >= 0.075 for g in gaps[2:])
    assert sum(gaps[2:]) < 1.0  # capped at 0.1 s (0.3 s and the requests); doubling on would wait at least 1.1 s


def test_a_restarting_server_is_waited_for(fake: FakeOllama, kind: str) -> None:
    records: list[CallRecord] = []

    async def main() -> tuple[str, float, float]:
        b = backend(fake, kind, records, transient_retries=10, retry_backoff_s=0.05, retry_backoff_max_s=0.2)
        assert (await b.complete(ASK)).text == replies.DEFAULT_ANSWER
        fake.stop()
        started = time.monotonic()
        health = await b.health()  # health answers at once, without retrying
        health_s = time.monotonic() - started
        assert not health.ok
        asyncio.get_running_loop().call_later(0.5, fake.start)  # back on the same port
        started = time.monotonic()
        text = (await b.complete(ASK)).text
        await b.aclose()
        return text, health_s, time.monotonic() - started

    text, health_s, waited = run(main)
    assert text == replies.DEFAULT_ANSWER and health_s < 0.3 and 0.4 <= waited < 3
    failed = [r.error for r in records[1:-1]]
    assert failed and all(e and ("not running" in e or "no LLM server answers" in e or "broke off" in e)
                          for e in failed)
    assert records[-1].error is None


def test_a_server_never_reached_is_reported_at_once(fake: FakeOllama, kind: str) -> None:
    fake.stop()

    async def main() -> float:
        b = backend(fake, kind)  # the default six retries with backoff from 0.5 s
        started = time.monotonic()
        with pytest.raises(LlmUnavailable) as err:
            await b.complete(ASK)
        await b.aclose()
        assert fake.url in str(err.value) and ("not running" in str(err.value) or "no LLM server" in str(err.value))
        return time.monotonic() - started

    assert run(main) < 0.4


def test_retries_spent_on_a_server_that_stays_down_say_so(fake: FakeOllama, kind: str) -> None:
    async def main() -> LlmUnavailable:
        b = backend(fake, kind, transient_retries=3, **FAST)
        await b.complete(ASK)
        fake.stop()
        with pytest.raises(LlmUnavailable) as err:
            await b.complete(ASK)
        await b.aclose()
        return err.value

    err = run(main)
    assert fake.url in str(err) and ("Ollama is not running at" in str(err) or "no LLM server answers at" in str(err))


def test_the_lookups_a_chat_depends_on_are_retried_but_model_lists_are_not(fake: FakeOllama) -> None:
    show = fake._routes[("POST", "/api/show")]
    failures = {"left": 2}

    def flaky_show(req: Any, body: Any) -> Any:
        if failures["left"] > 0:
            failures["left"] -= 1
            return fake_server._error(500, "llama runner process has terminated")
        return show(req, body)

    fake._routes[("POST", "/api/show")] = flaky_show

    async def main() -> None:
        b = backend(fake, "ollama", **FAST)
        listed = await b.list_models()  # two lookups fail: listed without details, not retried
        assert len(listed) == 4 and sum(m.context_length is None for m in listed) == 2
        assert len(fake.requests_to("/api/show")) == 4
        failures["left"] = 2
        fake.clear_requests()
        assert (await b.complete(ASK)).text == replies.DEFAULT_ANSWER
        assert len(fake.requests_to("/api/show")) == 3  # two failures, then the context length
        await b.aclose()

    run(main)


def test_llama_cpp_props_are_retried_when_the_connection_breaks(fake: FakeOllama) -> None:
    props = {"default_generation_settings": {"n_ctx": 4096}}
    fake._routes[("GET", "/props")] = lambda req, body: replace(fake_server._json(props), drop=len(
        fake.requests_to("/props")) <= 2)

    async def main() -> int:
        b = backend(fake, "openai", **FAST)
        context = await b.context_length()
        await b.aclose()
        return context

    assert run(main) == 4096 and len(fake.requests_to("/props")) == 3


def test_a_stream_is_retried_only_before_its_first_piece(fake: FakeOllama, kind: str) -> None:
    fake.script(replies.http_500(), "a streamed answer", replies.drop("a b c d e f g h i j"), "never asked for")
    records: list[CallRecord] = []

    async def main() -> tuple[list[str], list[str]]:
        b = backend(fake, kind, records, **FAST)
        first = [p async for p in b.stream_text(ASK)]
        second: list[str] = []
        with pytest.raises(LlmServerError, match="broke off"):
            async for piece in b.stream_text(ASK):
                second.append(piece)
        await b.aclose()
        return first, second

    first, second = run(main)
    assert "".join(first) == "a streamed answer"
    assert second and "".join(second).startswith("a b")  # shown text is never shown twice
    assert len(fake.requests_to(chat_path(kind))) == 3
    assert [r.error is None for r in records] == [False, True, False]
