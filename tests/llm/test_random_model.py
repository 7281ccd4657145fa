"""The fake server's random model and random faults, for the engine's resilience tests: answers valid
against the pydantic models they were asked for, seeded faults of every kind on chat routes only,
and both backends coming through a faulty random model."""

from __future__ import annotations

import asyncio
import json
import time
from collections import Counter
from enum import Enum
from typing import Any, Literal

import httpx
import pytest
from pydantic import BaseModel, Field
from support.fake_ollama import FakeOllama, FaultPlan
from support.random_model import RandomSchemaModel, request_schema

from desktop.llm.factory import make_backend
from desktop.llm.types import Message
from desktop.settings import LlmSettings

ASK = [Message(role="user", content="Find the dose limits.")]


class Colour(str, Enum):
    RED = "red"
    GREEN = "green"


class Finding(BaseModel):
    label: Literal["fact", "claim", "number"]
    score: int = Field(ge=1, le=3)
    weight: float = Field(gt=0, lt=1)
    note: str | None = None
    pages: list[int] = Field(default_factory=list, max_length=4)


class Report(BaseModel):
    title: str = Field(min_length=5, max_length=20)
    findings: list[Finding] = Field(min_length=1, max_length=5)
    tags: set[str] = Field(default_factory=set)
    counts: dict[str, int] = Field(default_factory=dict)
    pair: tuple[int, str]
    colour: Colour
    urgent: bool
    best: Finding | None = None
    level: int = Field(gt=0)
    ratio: float = Field(ge=-1, le=1)
    mode: Literal["quick"] = "quick"


class Queries(BaseModel):
    queries: list[str] = Field(min_length=2, max_length=3)


@pytest.mark.parametrize("model", [Report, Finding, Queries])
def test_random_answers_validate_against_their_models(model: type[BaseModel]) -> None:
    schema = model.model_json_schema()
    values = [RandomSchemaModel(seed).value(schema) for seed in range(60)]
    parsed = [model.model_validate(json.loads(json.dumps(v))) for v in values]  # as it travels: JSON
    assert len({json.dumps(v, sort_keys=True) for v in values}) > 50  # random, not one answer
    if model is Report:
        assert {len(r.findings) for r in parsed} >= {1, 2, 3}
        assert any(r.best is None for r in parsed) and any(r.best is not None for r in parsed)
        assert {f.label for r in parsed for f in r.findings} == {"fact", "claim", "number"}


def test_the_same_seed_gives_the_same_answers() -> None:
    schema = Report.model_json_schema()
    assert RandomSchemaModel(4).value(schema) == RandomSchemaModel(4).value(schema)


@pytest.mark.parametrize("kind", ["ollama", "openai"])
def test_both_backends_get_valid_random_answers(kind: str) -> None:
    async def main() -> tuple[list[Any], str]:
        b = make_backend(LlmSettings(backend=kind, host=fake.url, model="llama3.2:3b"))
        results = [await b.generate_structured(ASK, Report) for _ in range(8)]
        text = (await b.complete(ASK)).text  # no schema: random prose
        await b.aclose()
        return results, text

    with FakeOllama(responder=RandomSchemaModel(seed=11)) as fake:
        results, text = asyncio.run(main())
        bodies = [r.body for r in fake.requests if r.path in ("/api/chat", "/v1/chat/completions")]
    assert all(len(r.attempts) == 1 for r in results)  # valid the first time
    assert len({r.value.model_dump_json() for r in results}) == 8
    assert request_schema(bodies[0]) == Report.model_json_schema() and request_schema(bodies[-1]) is None
    assert text and text.endswith(".")
    with pytest.raises(json.JSONDecodeError):
        json.loads(text)


def _chat(client: httpx.Client, i: int) -> tuple[str, Any, float]:
    """One chat call of either wire format, streamed or not; (what came back, its outcome, seconds)."""
    openai, stream = i % 2 == 1, i % 4 >= 2
    schema = Queries.model_json_schema()
    body: dict[str, Any] = {"model": "llama3.2:3b", "messages": [{"role": "user", "content": f"query {i}"}],
                            "stream": stream}
    if openai:
        body["response_format"] = {"type": "json_schema", "json_schema": {"name": "q", "schema": schema}}
    else:
        body["format"] = schema
    started = time.monotonic()
    response = client.post("/v1/chat/completions" if openai else "/api/chat", json=body)
    seconds = time.monotonic() - started
    if response.status_code != 200:
        return "", response.status_code, seconds
    if not stream:
        answer = response.json()
        if openai:
            return answer["choices"][0]["message"]["content"], answer["choices"][0]["finish_reason"], seconds
        return answer["message"]["content"], answer["done_reason"], seconds
    if openai:
        events = [json.loads(line[5:]) for line in response.text.splitlines() if line.startswith("data: {")]
        text = "".join(c["delta"].get("content") or "" for e in events for c in e["choices"])
        return text, next(c["finish_reason"] for e in events for c in e["choices"] if c["finish_reason"]), seconds
    lines = [json.loads(line) for line in response.text.splitlines() if line]
    return "".join(p["message"]["content"] for p in lines), lines[-1]["done_reason"], seconds


def test_a_fault_plan_injects_every_kind_on_chat_routes_only() -> None:
    plan = FaultPlan(rate=0.5, seed=7, slow_s=0.2)
    with FakeOllama(responder=RandomSchemaModel(seed=2), faults=plan) as fake, \
            httpx.Client(base_url=fake.url, timeout=10) as client:
        outcomes = []
        for i in range(60):  # one call at a time: the fault a call drew is the one the log gained during it
            before = len(fake.injected)
            text, outcome, seconds = _chat(client, i)
            outcomes.append((text, outcome, seconds, fake.injected[before][1] if len(fake.injected) > before else None))
        injected = list(fake.injected)
        for _ in range(5):  # other routes are never faulted
            assert client.get("/api/tags").status_code == 200
            assert client.post("/api/show", json={"model": "llama3.2:3b"}).status_code == 200
            assert client.post("/tokenize", json={"content": "a b"}).status_code == 200
            assert client.post("/api/embed", json={"model": "bge-m3", "input": "x"}).status_code == 200
        assert fake.injected == injected
    mix = Counter(kind for _, kind in injected)
    assert 18 <= len(injected) <= 42 and set(mix) == {"http_500", "invalid_json", "truncated_json", "slow"}
    assert {path for path, _ in injected} == {"/api/chat", "/v1/chat/completions"}
    # each call shows the fault it drew; classified by the fault log, not by the time a call took (on a loaded
    # machine an answer without a fault took longer than the slow fault's 0.2 s and was counted as one)
    for text, outcome, seconds, kind in outcomes:
        if kind == "http_500":
            assert outcome == 500
        elif kind == "truncated_json":
            assert outcome == "length"
        elif kind == "invalid_json":
            with pytest.raises(ValueError):
                Queries.model_validate_json(text)
        else:
            assert outcome == "stop" and (kind != "slow" or seconds >= 0.2)
            Queries.model_validate_json(text)  # a valid answer, slow or not
    assert Counter(kind for *_, kind in outcomes if kind) == mix


def test_a_fault_plan_is_repeatable() -> None:
    def injected(seed: int) -> list[Any]:
        with FakeOllama(faults=FaultPlan(rate=0.4, seed=seed, slow_s=0.0)) as fake, \
                httpx.Client(base_url=fake.url, timeout=10) as client:
            for i in range(20):
                _chat(client, i)
            return fake.injected

    assert injected(3) == injected(3) and injected(3) != injected(4)


@pytest.mark.parametrize("kind", ["ollama", "openai"])
def test_both_backends_come_through_a_faulty_random_model(kind: str) -> None:
    plan = FaultPlan(rate=0.4, seed=5, slow_s=0.05)

    async def main() -> list[Any]:
        b = make_backend(LlmSettings(backend=kind, host=fake.url, model="llama3.2:3b", retries=3,
                                     retry_backoff_s=0.01))
        results = [await b.generate_structured(ASK, Report) for _ in range(20)]
        await b.aclose()
        return results

    with FakeOllama(responder=RandomSchemaModel(seed=8), faults=plan) as fake:
        results = asyncio.run(main())
        mix = Counter(k for _, k in fake.injected)
    assert len(results) == 20 and all(isinstance(r.value, Report) for r in results)
    assert mix["http_500"] and (mix["invalid_json"] or mix["truncated_json"])  # both kinds of retry were needed
