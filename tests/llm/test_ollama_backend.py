"""The Ollama backend through the real ``ollama.AsyncClient`` against the fake Ollama server: options
sent, thinking, budgets, every fault typed, cancellation and bounded concurrency."""

from __future__ import annotations

import asyncio
import math
import time
from collections.abc import Awaitable, Callable
from typing import Any, TypeVar

import pytest
from support.fake_ollama import FakeOllama, down_url, fake_ollama_fixture, replies
from support.fake_ollama_replies import chat_model, default_models

from desktop.llm.factory import make_backend
from desktop.llm.ollama_backend import OllamaBackend
from desktop.llm.records import CallRecord
from desktop.llm.types import (
    CallOptions, LlmError, LlmServerError, LlmTimeout, LlmUnavailable, Message, ModelMissing, PromptTooLong,
)
from desktop.settings import LlmSettings

R = TypeVar("R")
ASK = [Message(role="user", content="What is the limit?")]
SMALL = chat_model("small", "llama", 4096)  # a model whose own context is below the configured size
LATER = chat_model("granite:2b", "granite", 32768)

fake = fake_ollama_fixture(*default_models(), SMALL, pullable=[LATER])


def backend(server: FakeOllama | str, records: list[CallRecord] | None = None, **settings: Any) -> OllamaBackend:
    host = server if isinstance(server, str) else server.url
    llm = LlmSettings(backend="ollama", host=host, **{"model": "llama3.2:3b", **settings})
    made = make_backend(llm, None if records is None else records.append)
    assert isinstance(made, OllamaBackend)
    return made


def run(make: Callable[[], Awaitable[R]]) -> R:
    return asyncio.run(make())


def chats(server: FakeOllama) -> list[dict]:
    return [r.body for r in server.requests_to("/api/chat")]


# --- what is sent ---------------------------------------------------------------------------------


def test_num_ctx_is_always_sent_and_capped_at_the_models_context(fake: FakeOllama) -> None:
    async def main() -> None:
        b = backend(fake, context_size=16384, max_answer_tokens=512, temperature=0.3)
        await b.complete(ASK)  # llama3.2 knows 131072 tokens: the setting wins
        await b.complete(ASK, CallOptions(model="small", max_tokens=100, temperature=0.0))  # small knows 4096
        await b.complete(ASK, CallOptions(model="small"))
        assert await b.context_length("small") == 4096 and await b.context_length() == 16384
        await b.aclose()

    run(main)
    sent = [body["options"] for body in chats(fake)]
    assert sent == [{"num_ctx": 16384, "num_predict": 512, "temperature": 0.3},
                    {"num_ctx": 4096, "num_predict": 100, "temperature": 0.0},
                    {"num_ctx": 4096, "num_predict": 512, "temperature": 0.3}]
    assert [r.body["model"] for r in fake.requests_to("/api/show")] == ["llama3.2:3b", "small"]  # cached per model


def test_think_goes_only_to_thinking_models_and_thinking_never_reaches_the_answer(fake: FakeOllama) -> None:
    fake.script(replies.text("Twenty.", thinking="Let me recall the ordinance."), "plain",
                replies.text("Yes."), "<think>inline thought</think>\n\nThe limit is 20 mSv.",
                "a thought the template opened</think>Answer.")

    async def main() -> list[Any]:
        thinker = backend(fake, model="qwen3:4b", think=True)
        quiet = backend(fake, model="qwen3:4b", think=False)
        plain = backend(fake, think=True)  # llama3.2 cannot think
        out = [await thinker.complete(ASK), await quiet.complete(ASK), await plain.complete(ASK),
               await plain.complete(ASK), await plain.complete(ASK)]
        for b in (thinker, quiet, plain):
            await b.aclose()
        return out

    separate, quiet, plain, inline, orphan = run(main)
    bodies = chats(fake)
    assert bodies[0]["think"] is True and bodies[1]["think"] is False and "think" not in bodies[2]
    assert separate.text == "Twenty." and separate.thinking == "Let me recall the ordinance."
    assert quiet.text == "plain" and quiet.thinking is None
    assert plain.text == "Yes." and plain.thinking is None
    assert inline.text == "The limit is 20 mSv." and inline.thinking == "inline thought"
    assert orphan.text == "Answer." and orphan.thinking == "a thought the template opened"


def test_token_counts_come_from_the_server_and_calibrate_the_estimate(fake: FakeOllama) -> None:
    long_prompt = " ".join(["dose"] * 300)  # 300 tokens to the fake, ~1500 characters
    fake.script("one two three four five", "ok")

    async def main() -> tuple[Any, int, int]:
        b = backend(fake)
        before = b.count_tokens(long_prompt)
        first = await b.complete([Message(role="user", content="What is the limit?")])
        await b.complete([Message(role="user", content=long_prompt)])
        after = b.count_tokens(long_prompt)
        await b.aclose()
        return first, before, after

    first, before, after = run(main)
    assert first.usage.prompt_tokens == 4 and first.usage.completion_tokens == 5 and first.usage.calls == 1
    assert first.usage.seconds > 0 and first.model == "llama3.2:3b" and first.finish_reason == "stop"
    assert before == math.ceil(len(long_prompt) / 3.0)  # the first guess: a cautious 3 characters a token
    assert 280 <= after <= 320  # learnt from the server's count (300)


def test_a_prompt_that_cannot_fit_is_refused_before_sending(fake: FakeOllama) -> None:
    huge = Message(role="user", content="x" * 14000)  # ~4000 tokens by the first estimate

    async def main() -> PromptTooLong:
        b = backend(fake, model="small", max_answer_tokens=1024)
        with pytest.raises(PromptTooLong) as err:
            await b.complete([huge])
        await b.aclose()
        return err.value

    err = run(main)
    assert err.context == 4096 and err.answer_tokens == 1024 and err.over_by == err.prompt_tokens + 1024 - 4096 > 0
    assert f"{err.over_by} tokens too long" in str(err) and "shorten the prompt" in str(err)
    assert chats(fake) == []  # never sent: Ollama would have cut the prompt silently


# --- faults ---------------------------------------------------------------------------------------


def test_server_down_is_a_clear_state_and_typed_errors() -> None:
    url = down_url()

    async def main() -> list[BaseException]:
        b = backend(url)
        health = await b.health()
        assert not health.ok and not health.model_ready and health.host == url
        assert health.message == f"Ollama is not running at {url}: start it with `ollama serve`, " \
                                 "or set another server in the settings"
        errors: list[BaseException] = []
        for call in (lambda: b.complete(ASK), lambda: b.list_models(),
                     lambda: b.context_length(), lambda: _drain(b.stream_text(ASK)), lambda: _drain(b.pull("x"))):
            try:
                await call()
            except BaseException as exc:  # noqa: BLE001 - the point is what type escapes
                errors.append(exc)
        await b.aclose()
        return errors

    errors = run(main)
    assert len(errors) == 5 and all(type(e) is LlmUnavailable for e in errors)
    assert all(f"Ollama is not running at {url}" in str(e) for e in errors)


def test_server_going_away_mid_session(fake: FakeOllama) -> None:
    async def main() -> None:
        b = backend(fake, transient_retries=2, retry_backoff_s=0.01)  # it stays away longer than that
        assert (await b.complete(ASK)).text == replies.DEFAULT_ANSWER
        fake.stop()
        with pytest.raises(LlmUnavailable, match="ollama serve"):
            await b.complete(ASK)
        fake.start()
        assert (await b.complete(ASK)).text == replies.DEFAULT_ANSWER
        await b.aclose()

    run(main)


def test_http_500_is_retried_with_growing_pauses_then_a_server_error(fake: FakeOllama) -> None:
    fake.script(replies.http_500(), replies.http_500(), "recovered",
                replies.http_500(), replies.http_500(), replies.http_500("CUDA error: out of memory"))
    records: list[CallRecord] = []

    async def main() -> LlmServerError:
        b = backend(fake, records, transient_retries=2, retry_backoff_s=0.2)
        assert (await b.complete(ASK)).text == "recovered"
        with pytest.raises(LlmServerError) as err:
            await b.complete(ASK)
        await b.aclose()
        return err.value

    err = run(main)
    assert "CUDA error: out of memory" in str(err) and "Ollama log" in str(err)  # the last error is raised
    arrivals = [r.time for r in fake.requests_to("/api/chat")]
    assert len(arrivals) == 6 and arrivals[1] - arrivals[0] >= 0.15 and arrivals[2] - arrivals[1] >= 0.3
    assert [r.error is None for r in records] == [False, False, True, False, False, False]  # every try audited
    assert "exit status 2" in (records[0].error or "") and "CUDA error" in (records[5].error or "")


def test_a_missing_model_says_how_to_pull_it(fake: FakeOllama) -> None:
    fake.script(replies.not_found())

    async def main() -> None:
        missing = backend(fake, model="mistral-nemo")
        health = await missing.health()
        assert health.ok and not health.model_ready and "ollama pull mistral-nemo" in health.message
        with pytest.raises(ModelMissing, match="`ollama pull mistral-nemo`"):
            await missing.complete(ASK)
        present = backend(fake)
        with pytest.raises(ModelMissing, match="ollama pull llama3.2:3b"):  # removed after `show` was cached
            await present.complete(ASK)
        for b in (missing, present):
            await b.aclose()

    run(main)


def test_a_slow_answer_times_out_after_one_more_try(fake: FakeOllama) -> None:
    fake.script(*[replies.slow(3)] * 4, replies.slow(0.2, "in time"))

    async def main() -> None:
        b = backend(fake, timeout_s=0.4, retry_backoff_s=0.05)
        started = time.monotonic()
        with pytest.raises(LlmTimeout, match="within 0.4 s") as err:
            await b.complete(ASK)
        assert time.monotonic() - started < 2.5 and "raise the timeout" in str(err.value)
        assert len(chats(fake)) == 2  # a timeout is tried once more, not six times
        started = time.monotonic()
        with pytest.raises(LlmTimeout, match="within 0.25 s"):  # a per-call timeout overrides the setting
            await b.complete(ASK, CallOptions(timeout_s=0.25))
        assert time.monotonic() - started < 2.0  # not the 3 s answer
        assert (await b.complete(ASK)).text == "in time"
        await b.aclose()

    run(main)


def test_a_dropped_connection_is_retried_then_a_server_error(fake: FakeOllama) -> None:
    fake.script(replies.drop(), "second try", replies.drop(), replies.drop(), replies.drop("a b c d e f g h i j"))

    async def main() -> None:
        b = backend(fake, transient_retries=1, retry_backoff_s=0.01)
        assert (await b.complete(ASK)).text == "second try"
        with pytest.raises(LlmServerError, match="broke off mid-answer"):
            await b.complete(ASK)
        received: list[str] = []
        with pytest.raises(LlmServerError, match="broke off mid-answer"):  # a stream already shown is not redone
            async for piece in b.stream_text(ASK):
                received.append(piece)
        assert received and "".join(received).startswith("a b")
        await b.aclose()

    run(main)


def test_cancelling_aborts_a_slow_request_promptly(fake: FakeOllama) -> None:
    fake.script(replies.slow(5), replies.slow(5), "after")
    records: list[CallRecord] = []

    async def main() -> tuple[float, float, str]:
        b = backend(fake, records, concurrency=1)
        await b.context_length()  # `show` answered, so the cancel hits the chat itself
        times = []
        for make in (lambda: b.complete(ASK), lambda: _drain(b.stream_text(ASK))):
            task = asyncio.create_task(make())
            await asyncio.sleep(0.3)
            started = time.monotonic()
            task.cancel()
            with pytest.raises(asyncio.CancelledError):
                await task
            times.append(time.monotonic() - started)
        after = (await b.complete(ASK)).text  # the only slot was given back
        await b.aclose()
        return times[0], times[1], after

    complete_s, stream_s, after = run(main)
    assert complete_s < 2 and stream_s < 2 and after == "after"
    assert [r.error for r in records] == ["cancelled", "cancelled", None]


def test_concurrency_is_bounded(fake: FakeOllama) -> None:
    fake.script(*[replies.slow(0.3, f"answer {i}") for i in range(6)])

    async def main() -> tuple[list[str], float]:
        b = backend(fake, concurrency=2)
        await b.context_length()
        started = time.monotonic()
        answers = await asyncio.gather(*(b.complete(ASK) for _ in range(6)))
        elapsed = time.monotonic() - started
        await b.aclose()
        return sorted(a.text for a in answers), elapsed

    answers, elapsed = run(main)
    assert answers == [f"answer {i}" for i in range(6)]
    arrivals = sorted(r.time for r in fake.requests_to("/api/chat"))
    # a third request may only arrive once one of the two before it has been answered (0.3 s)
    assert all(arrivals[i + 2] - arrivals[i] >= 0.25 for i in range(4))
    assert elapsed >= 0.85  # three rounds of 0.3 s
    assert arrivals[1] - arrivals[0] < 0.25  # two at once: the second did not wait for the first answer


# --- models, pull, embed, stream ------------------------------------------------------------------


def test_health_and_model_list(fake: FakeOllama) -> None:
    async def main() -> None:
        b = backend(fake)
        health = await b.health()
        assert health.ok and health.model_ready and health.version == "0.12.6" and health.backend == "ollama"
        assert "llama3.2:3b" in health.models and "llama3.2:3b is ready" in health.message
        models = {m.name: m for m in await b.list_models()}
        assert models["qwen3:4b"].context_length == 40960 and "thinking" in models["qwen3:4b"].capabilities
        assert models["bge-m3:latest"].capabilities == ["embedding"] and models["small:latest"].context_length == 4096
        assert models["llama3.2:3b"].family == "llama" and models["llama3.2:3b"].size_bytes
        await b.aclose()

    run(main)


def test_pull_reports_progress_and_installs_the_model(fake: FakeOllama) -> None:
    async def main() -> None:
        b = backend(fake, model="granite:2b")
        assert not (await b.health()).model_ready
        steps = [p async for p in b.pull("granite:2b")]
        assert steps[0].status == "pulling manifest" and steps[-1].status == "success"
        sized = [p for p in steps if p.total]
        assert sized and sized[-1].completed == sized[-1].total and any(0 < (p.completed or 0) < p.total for p in sized)
        assert (await b.health()).model_ready and await b.context_length() == 16384
        with pytest.raises(ModelMissing, match="cannot pull 'no-such-model'.*check the model name"):
            async for _ in b.pull("no-such-model"):
                pass
        await b.aclose()

    run(main)


def test_stream_text_removes_thinking_and_is_audited(fake: FakeOllama) -> None:
    fake.script(replies.text("Streamed answer.", thinking="quiet thought"), "<think>in line</think>Visible text.")
    records: list[CallRecord] = []

    async def main() -> tuple[list[str], list[str]]:
        thinker = backend(fake, records, model="qwen3:4b", think=True)
        plain = backend(fake, records)
        first = [p async for p in thinker.stream_text(ASK, CallOptions(purpose="report.synthesis"))]
        second = [p async for p in plain.stream_text(ASK)]
        await thinker.aclose()
        await plain.aclose()
        return first, second

    first, second = run(main)
    assert "".join(first) == "Streamed answer." and len(first) > 1  # it really streamed
    assert "".join(second) == "Visible text."
    assert records[0].purpose == "report.synthesis" and records[0].thinking == "quiet thought"
    assert records[0].usage.completion_tokens == 4 and records[0].request["num_ctx"] == 16384
    assert records[1].raw == "<think>in line</think>Visible text." and records[1].thinking == "in line"


async def _drain(stream: Any) -> None:
    async for _ in stream:
        pass


def test_no_raw_exception_escapes(fake: FakeOllama) -> None:
    """Whatever the server does, callers see LlmError subclasses only."""
    faults = [replies.http_500(), replies.http_500(), replies.drop(), replies.drop(), replies.not_found(),
              replies.slow(2), replies.slow(2)]
    fake.script(*faults)

    async def main() -> list[type]:
        b = backend(fake, timeout_s=0.3, transient_retries=1, retry_backoff_s=0.01)
        seen = []
        for _ in range(4):
            try:
                await b.complete(ASK)
            except LlmError as exc:
                seen.append(type(exc))
        await b.aclose()
        return seen

    assert run(main) == [LlmServerError, LlmServerError, ModelMissing, LlmTimeout]
