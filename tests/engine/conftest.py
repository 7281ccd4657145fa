"""Engine fixtures: the fake Ollama server answering as a scripted research LLM, the sample database,
and an engine owned by the service's session, as the CLI and the window get it — nothing inside is replaced."""

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
from desktop.service import Session
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
    return Settings().changed(llm={"host": fake_llm.url, "model": MODEL, "timeout_s": 20})


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
        async with Session(self.paths, self.settings, self.store_file) as session:
            session.subscribe(self.events.append)
            yield session.engine()

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

