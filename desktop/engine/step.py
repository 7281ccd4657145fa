"""What a step of a run works with: the run's state (a private copy until the step succeeds), the
knowledge base, the LLM, and the events the step produces."""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, TypeVar

from pydantic import BaseModel

from desktop.engine import events as ev
from desktop.engine.prompts import Prompt
from desktop.engine.state import RunState
from desktop.kb.database import KnowledgeBase
from desktop.kb.models import SearchHit
from desktop.llm.protocol import LlmBackend
from desktop.llm.types import CallOptions

A = TypeVar("A", bound=BaseModel)


@dataclass
class StepContext:
    state: RunState
    kb: KnowledgeBase
    llm: LlmBackend
    events: list[ev.Event] = field(default_factory=list)

    @property
    def settings(self):  # noqa: ANN201 - ResearchSettings, typed on RunState
        return self.state.settings

    def emit(self, event: ev.Event) -> None:
        self.events.append(event.model_copy(update={"run_id": self.state.run_id}))

    async def ask(self, prompt: Prompt, schema: type[A], check: Callable[[object], str | None] | None = None,
                  **values: Any) -> A:
        """One structured LLM call, recorded for the audit trail and counted in the run's usage."""
        messages = prompt.render(language=self.state.language, **values)
        result = await self.llm.generate_structured(messages, schema, CallOptions(purpose=prompt.name), check=check)
        self.state.usage = self.state.usage + result.usage
        self.emit(ev.LlmCall(purpose=prompt.name, model=result.model, messages=[m.model_dump() for m in messages],
                             attempts=[a.model_dump() for a in result.attempts], usage=result.usage))
        self.emit(ev.TokenUsage(purpose=prompt.name, call=result.usage, total=self.state.usage))
        return result.value

    async def search(self, queries: list[str], k: int) -> list[list[SearchHit]]:
        """Hybrid searches in a worker thread (the index is not async), queries embedded in one batch."""
        return await asyncio.to_thread(self.kb.search_many, queries, k)

    async def rank(self, text: str, chunk_ids: list[str]) -> list[str]:
        return [cid for cid, _ in await asyncio.to_thread(self.kb.rank, text, chunk_ids)]
