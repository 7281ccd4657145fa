"""Engine fixtures: the fake Ollama server answering as a scripted research LLM, the sample database,
and an engine wired like the CLI wires it — nothing inside the engine is replaced."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator, Awaitable, Callable, Iterator
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

import pytest
from support.fake_ollama import FakeOllama
from support.fake_ollama_replies import chat_model
from support.research_llm import ResearchLLM

from desktop.engine import events as ev
from desktop.engine.runner import ResearchEngine
from desktop.engine.store import RunStore
from desktop.kb.database import KnowledgeBase
from desktop.llm.factory import make_backend
from desktop.settings import Settings

MODEL = "research-test:latest"


@pytest.fixture
def research_llm() -> ResearchLLM:
    return ResearchLLM()


@pytest.fixture
def fake_llm(research_llm: ResearchLLM) -> Iterator[FakeOllama]:
    with FakeOllama([chat_model(MODEL, "qwen3", 32768)], responder=research_llm) as fake:
        yield fake


@pytest.fixture
def engine_settings(fake_llm: FakeOllama) -> Settings:
    s = Settings()
    s.llm.host = fake_llm.url
    s.llm.model = MODEL
    s.llm.timeout_s = 20
    return s


class Harness:
    """Engines over the sample database, one per session (like restarts of the app), sharing one store;
    their events are collected."""

    def __init__(self, paths, settings: Settings, store_file: Path) -> None:  # noqa: ANN001
        self.paths = paths
        self.settings = settings
        self.store_file = store_file
        self.events: list[ev.Event] = []

    @asynccontextmanager
    async def session(self) -> AsyncIterator[ResearchEngine]:
        store = RunStore(self.store_file)
        llm = make_backend(self.settings.llm)
        engine = ResearchEngine(store, llm, lambda name: KnowledgeBase.open(self.paths, self.settings, name),
                                self.settings.research)
        engine.subscribe(self.events.append)
        try:
            yield engine
        finally:
            await engine.aclose()
            await llm.aclose()
            store.close()

    def run(self, scenario: Callable[[ResearchEngine], Awaitable[Any]]) -> Any:
        async def main() -> Any:
            async with self.session() as engine:
                return await scenario(engine)

        return asyncio.run(main())

    def types(self) -> list[str]:
        return [e.type for e in self.events]

    def of(self, kind: type) -> list[Any]:
        return [e for e in self.events if isinstance(e, kind)]


@pytest.fixture
def harness(sample_paths, engine_settings: Settings, tmp_path: Path) -> Harness:  # noqa: ANN001
    paths, _ = sample_paths
    return Harness(paths, engine_settings, tmp_path / "runs.sqlite")

