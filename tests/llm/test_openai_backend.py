"""The OpenAI-compatible backend through ``httpx`` against the fake server's ``/v1`` routes (what
llama.cpp, vLLM and LM Studio serve): request shape, usage, thinking, SSE streaming, the context size
from llama.cpp's ``/props``, every fault typed, cancellation and bounded concurrency."""

from __future__ import annotations

import asyncio
import time
from collections.abc import Awaitable, Callable
from typing import Any, TypeVar

import pytest
from support import fake_ollama as fake_server
from support.fake_ollama import FakeOllama, down_url, fake_ollama_fixture, replies

from desktop.llm.factory import make_backend
from desktop.llm.openai_backend import OpenAIBackend
from desktop.llm.records import CallRecord
from desktop.llm.types import (
    CallOptions, LlmError, LlmServerError, LlmTimeout, LlmUnavailable, Message, ModelMissing, PromptTooLong,
)
from desktop.settings import LlmSettings, server_root

R = TypeVar("R")
ASK = [Message(role="user", content="What is the limit?")]
CHAT = "/v1/chat/completions"

fake = fake_ollama_fixture()
llama_cpp = fake_ollama_fixture(reasoning_field="reasoning_content")  # llama.cpp names the thinking field so


def backend(server: FakeOllama | str, records: list[CallRecord] | None = None, **settings: Any) -> OpenAIBackend:
    host = server if isinstance(server, str) else server.url
    llm = LlmSettings(backend="openai", host=host, **{"model": "llama3.2:3b", **settings})
    made = make_backend(llm, None if records is None else records.append)
    assert isinstance(made, OpenAIBackend)
    return made


def run(make: Callable[[], Awaitable[R]]) -> R:
    return asyncio.run(make())


def serve_props(server: FakeOllama, n_ctx: int) -> None:
    """Make the fake answer llama.cpp's GET /props."""
    props = {"default_generation_settings": {"n_ctx": n_ctx}, "total_slots": 1, "model_path": "/m/tiny.gguf"}
    server._routes[("GET", "/props")] = lambda req, body: fake_server._json(props)


async def _drain(stream: Any) -> None:
    async for _ in stream:
        pass


# --- what is sent and read ------------------------------------------------------------------------


def test_request_shape_usage_and_only_v1_routes(fake: FakeOllama) -> None:
    fake.script("The limit is 20 mSv.", "one two three four five six")

    async def main() -> list[Any]:
        keyed = backend(f"{fake.url}/v1/", api_key="sekrit", max_answer_tokens=300, temperature=0.4)
        anonymous = backend(fake)
        out = [await keyed.complete(ASK), await anonymous.complete(ASK, CallOptions(max_tokens=3, temperature=0))]
        await keyed.aclose()
        await anonymous.aclose()
        return out

    full, cut = run(main)
    assert full.text == "The limit is 20 mSv." and full.finish_reason == "stop" and full.model == "llama3.2:3b"
    assert full.usage.prompt_tokens == 4 and full.usage.completion_tokens == 5 and full.usage.seconds > 0
    assert cut.text == "one two three" and cut.finish_reason == "length"  # cut off at the token limit
    first, second = fake.requests_to(CHAT)
    assert first.body["max_tokens"] == 300 and first.body["temperature"] == 0.4 and first.body["stream"] is False
    assert second.body["max_tokens"] == 3 and second.body["temperature"] == 0
    assert first.headers["authorization"] == "Bearer sekrit" and "authorization" not in second.headers
    assert first.body["chat_template_kwargs"] == {"enable_thinking": False}  # settings.think is off
    assert all(r.path.startswith("/v1/") or r.path == "/props" for r in fake.requests)  # llama.cpp has no /api


def test_thinking_is_stripped_from_both_fields_and_inline(llama_cpp: FakeOllama) -> None:
    llama_cpp.script(replies.text("Twenty.", thinking="Recall the ordinance."), "<think>hmm</think>\nPlain.")

    async def main() -> list[Any]:
        b = backend(llama_cpp, model="qwen3:4b", think=True)
        out = [await b.complete(ASK), await b.complete(ASK, CallOptions(model="llama3.2:3b"))]
        await b.aclose()
        return out

    separate, inline = run(main)
    assert separate.text == "Twenty." and separate.thinking == "Recall the ordinance."
    assert inline.text == "Plain." and inline.thinking == "hmm"
    assert "chat_template_kwargs" not in llama_cpp.requests_to(CHAT)[0].body  # thinking allowed


def test_sse_stream_removes_thinking_and_records_usage(fake: FakeOllama) -> None:
    fake.script(replies.text("Streamed over SSE.", thinking="quiet"), "<think>x</think>Second.")
    records: list[CallRecord] = []

    async def main() -> tuple[list[str], list[str]]:
        b = backend(fake, records, model="qwen3:4b", think=True)
        first = [p async for p in b.stream_text(ASK)]
        second = [p async for p in b.stream_text(ASK, CallOptions(model="llama3.2:3b"))]
        await b.aclose()
        return first, second

    first, second = run(main)
    assert "".join(first) == "Streamed over SSE." and len(first) == 3 and "".join(second) == "Second."
    body = fake.requests_to(CHAT)[0].body
    assert body["stream"] is True and body["stream_options"] == {"include_usage": True}
    assert records[0].thinking == "quiet" and records[0].finish_reason == "stop"
    assert records[0].usage.prompt_tokens == 4 and records[0].usage.completion_tokens == 4  # answer + thinking
    assert records[1].raw == "<think>x</think>Second."


def test_context_length_from_llama_cpp_props_or_the_settings(fake: FakeOllama) -> None:
    async def main() -> None:
        plain = backend(fake, context_size=8192)
        assert await plain.context_length() == 8192  # no /props: the configured size
        serve_props(fake, 4096)
        small = backend(fake, context_size=8192, max_answer_tokens=1024)
        assert await small.context_length() == 4096
        with pytest.raises(PromptTooLong, match="context of 4096 tokens") as err:
            await small.complete([Message(role="user", content="y" * 12000)])
        assert err.value.over_by > 0
        for b in (plain, small):
            await b.aclose()

    run(main)
    assert fake.requests_to(CHAT) == [] and len(fake.requests_to("/props")) == 2  # read once per backend


def test_health_models_and_embeddings(fake: FakeOllama) -> None:
    async def main() -> None:
        b = backend(fake)
        health = await b.health()
        assert health.ok and health.model_ready and health.backend == "openai" and "qwen3:4b" in health.models
        other = backend(fake, model="mistral")
        health = await other.health()
        assert health.ok and not health.model_ready and "does not serve 'mistral'" in health.message
        assert [m.name for m in await b.list_models()][:2] == ["llama3.2:3b", "qwen3:4b"]
        for x in (b, other):
            await x.aclose()

    run(main)


def test_pull_is_refused_with_what_to_do_instead(fake: FakeOllama) -> None:
    async def main() -> None:
        b = backend(fake)
        with pytest.raises(LlmError, match="cannot pull models: load 'qwen3:8b' on the server itself"):
            async for _ in b.pull("qwen3:8b"):
                pass
        await b.aclose()

    run(main)


# --- faults ---------------------------------------------------------------------------------------


def test_server_down_is_a_clear_state_and_typed_errors() -> None:
    url = down_url()

    async def main() -> list[BaseException]:
        b = backend(url)
        health = await b.health()
        assert not health.ok and health.message.startswith(f"no LLM server answers at {url}")
        assert "Ollama" not in health.message
        errors: list[BaseException] = []
        for call in (lambda: b.complete(ASK), lambda: b.list_models(),
                     lambda: _drain(b.stream_text(ASK))):
            try:
                await call()
            except BaseException as exc:  # noqa: BLE001 - the point is what type escapes
                errors.append(exc)
        await b.aclose()
        return errors

    errors = run(main)
    assert len(errors) == 3 and all(type(e) is LlmUnavailable and "no LLM server answers" in str(e) for e in errors)


def test_http_500_retried_missing_model_and_refused_key(fake: FakeOllama) -> None:
    fake.script(replies.http_500(), "recovered", replies.http_500(), replies.http_500("CUDA error: out of memory"))

    async def main() -> None:
        b = backend(fake, transient_retries=1, retry_backoff_s=0.01)
        assert (await b.complete(ASK)).text == "recovered"
        with pytest.raises(LlmServerError, match="CUDA error: out of memory"):
            await b.complete(ASK)
        with pytest.raises(ModelMissing, match="does not serve the model 'mistral'"):
            await b.complete(ASK, CallOptions(model="mistral"))
        fake._routes[("POST", CHAT)] = lambda req, body: fake_server._error(401, "invalid api key", openai=True)
        with pytest.raises(LlmError, match="set the right API key"):
            await b.complete(ASK)
        await b.aclose()

    run(main)
    assert len(fake.requests_to(CHAT)) == 6  # neither a missing model nor a refused key is asked again


def test_slow_answers_time_out_and_drops_are_retried(fake: FakeOllama) -> None:
    fake.script(replies.slow(3), replies.slow(3), replies.drop(), "after a drop", replies.drop(), replies.drop(),
                replies.drop("a b c d e f g h i j"))

    async def main() -> None:
        b = backend(fake, timeout_s=0.4, transient_retries=1, retry_backoff_s=0.01)
        started = time.monotonic()
        with pytest.raises(LlmTimeout, match="within 0.4 s"):
            await b.complete(ASK)
        assert time.monotonic() - started < 2.5  # two tries of 0.4 s, not of 3 s
        assert (await b.complete(ASK)).text == "after a drop"
        with pytest.raises(LlmServerError, match="broke off mid-answer"):
            await b.complete(ASK)
        with pytest.raises(LlmServerError, match="broke off mid-answer"):
            await _drain(b.stream_text(ASK))
        await b.aclose()

    run(main)


def test_a_stream_that_stalls_times_out(fake: FakeOllama) -> None:
    fake.script(replies.slow(0.0, "a b c d e f", chunk_delay=2.0))

    async def main() -> list[str]:
        b = backend(fake, timeout_s=0.3)
        got: list[str] = []
        with pytest.raises(LlmTimeout):
            async for piece in b.stream_text(ASK):
                got.append(piece)
        await b.aclose()
        return got

    started = time.monotonic()
    assert run(main) == ["a "] and time.monotonic() - started < 4  # not the 12 s the stream would take


def test_cancelling_aborts_a_slow_request_promptly(fake: FakeOllama) -> None:
    fake.script(replies.slow(5), replies.slow(5), "after")

    async def main() -> tuple[list[float], str]:
        b = backend(fake, concurrency=1)
        await b.context_length()
        times = []
        for make in (lambda: b.complete(ASK), lambda: _drain(b.stream_text(ASK))):
            task = asyncio.create_task(make())
            await asyncio.sleep(0.3)
            started = time.monotonic()
            task.cancel()
            with pytest.raises(asyncio.CancelledError):
                await task
            times.append(time.monotonic() - started)
        after = (await b.complete(ASK)).text
        await b.aclose()
        return times, after

    times, after = run(main)
    assert max(times) < 2 and after == "after"


def test_concurrency_is_bounded(fake: FakeOllama) -> None:
    fake.script(*[replies.slow(0.3, f"answer {i}") for i in range(6)])

    async def main() -> float:
        b = backend(fake, concurrency=2)
        await b.context_length()
        started = time.monotonic()
        await asyncio.gather(*(b.complete(ASK) for _ in range(6)))
        elapsed = time.monotonic() - started
        await b.aclose()
        return elapsed

    elapsed = run(main)
    arrivals = sorted(r.time for r in fake.requests_to(CHAT))
    assert len(arrivals) == 6 and all(arrivals[i + 2] - arrivals[i] >= 0.25 for i in range(4))
    assert elapsed >= 0.85  # three rounds of 0.3 s
    assert arrivals[1] - arrivals[0] < 0.25  # two at once: the second did not wait for the first answer


def test_server_root() -> None:
    assert server_root("localhost:8080") == "http://localhost:8080"
    assert server_root("http://gpu-box:8000/v1/") == "http://gpu-box:8000"
    assert server_root("https://llm.team.local") == "https://llm.team.local"


def test_server_side_context_overflow_and_not_implemented_are_typed(fake: FakeOllama) -> None:
    """What llama.cpp really answers (seen with a real server): a prompt its tokenizer finds too long
    is PromptTooLong, so callers can shorten it; a route the server does not offer (501) is not retried."""
    overflow = {"error": {"code": 400, "type": "exceed_context_size_error", "n_prompt_tokens": 2570, "n_ctx": 2048,
                          "message": "the request exceeds the available context size"}}
    fake._routes[("POST", CHAT)] = lambda req, body: fake_server._json(overflow, 400)

    async def main() -> None:
        b = backend(fake)
        with pytest.raises(PromptTooLong, match="2570 tokens") as too_long:
            await b.complete(ASK)
        assert too_long.value.context == 2048
        fake._routes[("POST", CHAT)] = lambda req, body: fake_server._error(
            501, "This server does not support chat completions with this model", openai=True)
        with pytest.raises(LlmError, match="does not offer this .*chat completions"):
            await b.complete(ASK)
        await b.aclose()

    run(main)
    assert len(fake.requests_to(CHAT)) == 2  # neither the overflow nor the 501 is asked again
