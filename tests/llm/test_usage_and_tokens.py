"""Per-call figures and token counting through both backends against the fake server: server-side
timings and prompt-cache hits in ``Usage``, the measured ``throughput()``, the cautious first token
estimate, calibration by llama.cpp's /tokenize and by a server's refusal of a prompt too long."""

from __future__ import annotations

import asyncio
import math
from collections.abc import Awaitable, Callable
from typing import Any, TypeVar

import httpx
import pytest
from support import fake_ollama as fake_server
from support.fake_ollama import FakeOllama, down_url, fake_ollama_fixture, replies

from desktop.engine.excerpts import measured_speed
from desktop.llm.base import LONG_PROMPT_TOKENS, BackendCore
from desktop.llm.factory import make_backend
from desktop.llm.records import CallRecord
from desktop.llm.types import Message, PromptTooLong, Usage
from desktop.settings import LlmSettings

R = TypeVar("R")
ASK = [Message(role="user", content="What is the limit?")]
PROMPT_PER_S = 1000 / replies.PROMPT_MS_PER_TOKEN  # the fake's speeds
ANSWER_PER_S = 1000 / replies.ANSWER_MS_PER_TOKEN
GERMAN = ("Die effektive Dosis beruflich exponierter Personen darf im Kalenderjahr zwanzig Millisievert nicht "
          "überschreiten; die zuständige Behörde kann im Einzelfall Ausnahmen zulassen. ") * 12

fake = fake_ollama_fixture()


def backend(server: FakeOllama, kind: str, records: list[CallRecord] | None = None, **settings: Any) -> BackendCore:
    llm = LlmSettings(backend=kind, host=server.url, **{"model": "llama3.2:3b", **settings})
    made = make_backend(llm, None if records is None else records.append)
    assert isinstance(made, BackendCore)
    return made


def run(make: Callable[[], Awaitable[R]]) -> R:
    return asyncio.run(make())


def test_usage_adds_up_every_field() -> None:
    a = Usage(prompt_tokens=10, completion_tokens=2, calls=1, seconds=0.5, cached_tokens=4, prompt_s=0.1, answer_s=0.2)
    b = Usage(prompt_tokens=5, completion_tokens=3, calls=1, seconds=0.25, cached_tokens=1, prompt_s=0.05, answer_s=0.3)
    total = a + b
    expected = {"prompt_tokens": 15, "completion_tokens": 5, "calls": 2, "seconds": 0.75, "cached_tokens": 5,
                "prompt_s": 0.15, "answer_s": 0.5}
    assert total.model_dump() == pytest.approx(expected)


def test_ollama_durations_become_usage_and_throughput(fake: FakeOllama) -> None:
    fake.script("one two three four five", "six seven eight")
    records: list[CallRecord] = []

    async def main() -> tuple[Any, Any, Any]:
        b = backend(fake, "ollama", records)
        before = b.throughput()
        answer = await b.complete(ASK)
        streamed = "".join([p async for p in b.stream_text(ASK)])
        assert streamed == "six seven eight"
        speeds = b.throughput()
        await b.aclose()
        return before, answer.usage, speeds

    before, usage, speeds = run(main)
    assert before is None
    assert usage.prompt_tokens == 4 and usage.cached_tokens == 0  # Ollama counts only the tokens it read
    assert usage.prompt_s == pytest.approx(4 / PROMPT_PER_S) and usage.answer_s == pytest.approx(5 / ANSWER_PER_S)
    assert records[1].usage.answer_s == pytest.approx(3 / ANSWER_PER_S)  # the stream's final line
    assert speeds is not None and speeds.calls == 2
    assert speeds.prompt_tokens_per_s == pytest.approx(PROMPT_PER_S, rel=1e-3)
    assert speeds.answer_tokens_per_s == pytest.approx(ANSWER_PER_S, rel=1e-3)


def test_llama_cpp_timings_and_cache_hits_become_usage_and_throughput(fake: FakeOllama) -> None:
    records: list[CallRecord] = []

    async def main() -> tuple[Any, Any, Any]:
        b = backend(fake, "openai", records)
        first = await b.complete(ASK)
        again = await b.complete(ASK)  # the same prompt: all but its last token come from the cache
        [p async for p in b.stream_text(ASK)]  # in a stream the last chunk carries usage and timings
        speeds = b.throughput()
        await b.aclose()
        return first.usage, again.usage, speeds

    first, again, speeds = run(main)
    assert first.prompt_tokens == 4 and first.cached_tokens == 0 and first.prompt_s == pytest.approx(4 / PROMPT_PER_S)
    assert first.completion_tokens == 6 and first.answer_s == pytest.approx(6 / ANSWER_PER_S)
    assert again.prompt_tokens == 4 and again.cached_tokens == 3 and again.prompt_s == pytest.approx(1 / PROMPT_PER_S)
    streamed = records[-1].usage
    assert streamed.cached_tokens == 3 and streamed.prompt_tokens == 4  # from timings.cache_n
    assert streamed.answer_s == pytest.approx(6 / ANSWER_PER_S)
    # cached tokens cost no time: counting them would make the prompt look faster than it is
    assert speeds is not None and speeds.calls == 3 and speeds.prompt_tokens_per_s == pytest.approx(PROMPT_PER_S)
    assert speeds.answer_tokens_per_s == pytest.approx(ANSWER_PER_S)


def test_calls_with_a_long_prompt_are_timed_apart_and_plan_the_reading(fake: FakeOllama,
                                                                        monkeypatch: pytest.MonkeyPatch) -> None:
    """The reading's and the answer's long prompts run slower per token than the first short calls (a
    real server's attention grows with the context): once one was timed, its speed plans what follows."""
    long_ask = [Message(role="user", content=" ".join(f"w{i}" for i in range(LONG_PROMPT_TOKENS)))]

    async def main() -> tuple[Any, Any, Any, Any]:
        b = backend(fake, "openai")
        await b.complete(ASK)
        short = b.throughput(), measured_speed(b)
        monkeypatch.setattr(replies, "PROMPT_MS_PER_TOKEN", 2 * replies.PROMPT_MS_PER_TOKEN)
        monkeypatch.setattr(replies, "ANSWER_MS_PER_TOKEN", 2 * replies.ANSWER_MS_PER_TOKEN)
        await b.complete(long_ask)
        speeds = b.throughput(), measured_speed(b)
        await b.aclose()
        return *short, *speeds

    short, planned_short, speeds, planned = run(main)
    assert short.long_prompt_tokens_per_s is None and planned_short == pytest.approx((PROMPT_PER_S, ANSWER_PER_S))
    assert speeds.long_prompt_tokens_per_s == pytest.approx(PROMPT_PER_S / 2)
    assert speeds.long_answer_tokens_per_s == pytest.approx(ANSWER_PER_S / 2)
    assert speeds.prompt_tokens_per_s > PROMPT_PER_S / 2  # all calls together: the short one counts too
    assert planned == pytest.approx((PROMPT_PER_S / 2, ANSWER_PER_S / 2))


def test_the_first_estimate_is_a_cautious_three_characters_a_token(fake: FakeOllama) -> None:
    for kind in ("ollama", "openai"):
        assert backend(fake, kind).count_tokens("x" * 300) == 100
        assert backend(fake, kind).count_tokens(GERMAN) == math.ceil(len(GERMAN) / 3.0)


def test_the_fake_tokenizer_counts_characters() -> None:
    with FakeOllama() as server:
        answer = httpx.post(f"{server.url}/tokenize", json={"content": "x" * 29}).json()
    assert len(answer["tokens"]) == 10 and all(isinstance(t, int) for t in answer["tokens"])


def counts_around_calibrate(fake: FakeOllama, kind: str, times: int = 1) -> tuple[int, int]:
    """The token estimate of GERMAN before and after calibrating on it ``times`` times."""

    async def main() -> tuple[int, int]:
        b = backend(fake, kind)
        before = b.count_tokens(GERMAN)
        for _ in range(times):
            await b.calibrate(GERMAN)
        after = b.count_tokens(GERMAN)
        await b.aclose()
        return before, after

    return run(main)


def test_calibrate_asks_llama_cpps_tokenizer(fake: FakeOllama) -> None:
    before, after = counts_around_calibrate(fake, "openai")
    server_count = len(replies.tokenize(GERMAN))
    assert before == math.ceil(len(GERMAN) / 3.0) and after == server_count  # 2.9 characters a token
    assert [r.body for r in fake.requests_to("/tokenize")] == [{"content": GERMAN}]


@pytest.mark.parametrize("status", [404, 501])
def test_a_server_without_a_tokenizer_is_asked_once_and_left_alone(fake: FakeOllama, status: int) -> None:
    fake._routes[("POST", "/tokenize")] = lambda req, body: fake_server._error(status, "no such route", True)
    before, after = counts_around_calibrate(fake, "openai", times=2)
    assert before == after and len(fake.requests_to("/tokenize")) == 1


def test_ollama_has_no_tokenizer_route_and_calibrate_does_nothing(fake: FakeOllama) -> None:
    before, after = counts_around_calibrate(fake, "ollama")
    assert before == after and fake.requests == []


def test_calibrate_on_a_server_that_is_down_is_quiet() -> None:
    async def main() -> None:
        b = make_backend(LlmSettings(backend="openai", host=down_url(), model="m"))
        await b.calibrate(GERMAN)  # raises nothing: the answers will calibrate
        await b.aclose()

    run(main)


def test_a_prompt_llama_cpp_refuses_as_too_long_calibrates_the_estimate(fake: FakeOllama) -> None:
    """The server's count in its refusal teaches the estimate, so that the same prompt is refused
    before sending and a prompt shortened by the caller is measured right."""

    def refuse(req: Any, body: Any) -> Any:
        chars = sum(len(m["content"]) for m in body["messages"])
        counted = math.ceil(chars / 2.5) + 4 * len(body["messages"]) + 3  # text plus the chat template
        return fake_server._json({"error": {"code": 400, "type": "exceed_context_size_error", "n_ctx": 2048,
                                            "n_prompt_tokens": counted, "message": "exceeds the context"}}, 400)

    fake._routes[("POST", "/v1/chat/completions")] = refuse
    text = (GERMAN * 3)[:5600]  # ~1,870 tokens at 3.0 characters a token: fits; 2,240 at 2.5: does not
    prompt = [Message(role="user", content=text)]

    async def main() -> tuple[int, int, PromptTooLong]:
        b = backend(fake, "openai", context_size=2048, max_answer_tokens=64)
        before = b.count_tokens(text)
        with pytest.raises(PromptTooLong, match="tokens but"):
            await b.complete(prompt)
        after = b.count_tokens(text)
        with pytest.raises(PromptTooLong, match="tokens too long") as local:
            await b.complete(prompt)
        await b.aclose()
        return before, after, local.value

    before, after, local = run(main)
    assert before == math.ceil(len(text) / 3.0) and after == math.ceil(len(text) / 2.5)
    assert len(fake.requests_to("/v1/chat/completions")) == 1  # the second time it was refused before sending
    assert local.prompt_tokens + local.answer_tokens - local.over_by == 2048
