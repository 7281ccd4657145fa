"""What a step of a run works with: the run's state (a private copy until the step succeeds), the
knowledge base, the LLM, and the events the step produces."""

from __future__ import annotations

from collections.abc import Callable
from contextvars import ContextVar
from dataclasses import dataclass, field
from typing import Any, TypeVar

from pydantic import BaseModel

from desktop.engine import events as ev
from desktop.engine import evidence
from desktop.engine.narrate import Value, said
from desktop.engine.prompts import Prompt
from desktop.engine.resources import ThreadCalls
from desktop.engine.state import RunState
from desktop.kb.database import KnowledgeBase
from desktop.kb.models import DocumentInfo, SearchHit
from desktop.llm.protocol import LlmBackend
from desktop.llm.records import CallRecord
from desktop.llm.types import BadOutput, CallOptions, Message, PromptTooLong, Usage

A = TypeVar("A", bound=BaseModel)
T = TypeVar("T")
LENIENT_RETRIES = 1  # a caller that can use a schema-valid answer anyway asks once more, not twice


# The audit records of the step running in this task (asyncio tasks inherit it when created).
CALLS: ContextVar[list[CallRecord] | None] = ContextVar("rabbithole_step_calls", default=None)


def collect_call(record: CallRecord) -> None:
    """The backend's audit callback: a record joins the step that made the call."""
    calls = CALLS.get()
    if calls is not None:
        calls.append(record)


@dataclass
class StepContext:
    state: RunState
    kb: KnowledgeBase
    llm: LlmBackend
    threads: ThreadCalls
    events: list[ev.Event] = field(default_factory=list)
    calls: list[CallRecord] = field(default_factory=list)
    _documents: dict[str, DocumentInfo] | None = None
    evidence_tokens: int | None = None  # an evidence item's average size (estimate.evidence_tokens), once per step

    async def documents(self) -> dict[str, DocumentInfo]:
        """The knowledge base's documents by id, read once per step in a worker thread (on a team server
        it is a round trip; every extraction needs them)."""
        if self._documents is None:
            self._documents = {d.doc_id: d for d in await self.in_thread(self.kb.documents)}
        return self._documents

    @property
    def settings(self):  # noqa: ANN201 - ResearchSettings, typed on RunState
        return self.state.settings

    def emit(self, event: ev.Event) -> None:
        self.events.append(event.model_copy(update={"run_id": self.state.run_id}))

    async def ask(self, prompt: Prompt, schema: type[A], check: Callable[[object], str | None] | None = None, *,
                  answer_tokens: int | None = None, retries: int | None = None, keep_cut: bool = False,
                  time_left_s: float | None = None, **values: Any) -> A:
        """One structured LLM call, recorded for the audit trail and counted in the run's usage; its answer
        is bounded by ``answer_tokens`` or the prompt's own bound (``keep_cut``: ``CallOptions.keep_cut``)."""
        messages = prompt.render(language=self.state.language, **values)
        return await self.ask_messages(messages, schema, prompt.name, check,
                                       max_tokens=answer_tokens or prompt.max_tokens, retries=retries,
                                       keep_cut=keep_cut, time_left_s=time_left_s)

    async def ask_or(self, fallback: Callable[[], A], prompt: Prompt, schema: type[A],
                     check: Callable[[object], str | None] | None = None, *, lenient: bool = False,
                     answer_tokens: int | None = None, keep_cut: bool = False, **values: Any) -> A:
        """Like ``ask``, but a model that gives no usable answer does not stop the run: the step goes on
        with ``fallback()`` and the user sees a warning saying so. ``lenient``: an answer that matched the
        schema but kept failing ``check`` (e.g. its language) is used as it is, with a warning, rather
        than lost, and asked for once more only (on a CPU a retry costs a minute). A prompt too long for the
        model's context is a bad answer too: the step goes on."""
        try:
            return await self.ask(prompt, schema, check, answer_tokens=answer_tokens,
                                  retries=LENIENT_RETRIES if lenient else None, keep_cut=keep_cut, **values)
        except BadOutput as exc:
            if lenient and isinstance(exc.unchecked, schema):
                self.warn("warn_unchecked_answer", prompt=prompt.name, error=str(exc.attempts[-1].error))
                return exc.unchecked
            self.warn("warn_no_usable_answer", prompt=prompt.name, error=str(exc))
            return fallback()
        except PromptTooLong as exc:
            self.warn("warn_prompt_too_long", prompt=prompt.name, error=str(exc))
            return fallback()

    def warn(self, key: str, **values: Value) -> None:
        """A warning for the user, by its key in ``narrate.ENGLISH`` (the window translates it)."""
        self.emit(said(ev.Warning, key, values))

    async def ask_messages(self, messages: list[Message], schema: type[A], purpose: str,
                           check: Callable[[object], str | None] | None = None, *, max_tokens: int | None = None,
                           retries: int | None = None, keep_cut: bool = False, time_left_s: float | None = None) -> A:
        """A structured call on a conversation the caller built (multi-turn extraction). Every attempt is
        in the audit trail and counted, also those of a call that gave no usable answer in the end;
        ``time_left_s``: ``CallOptions.time_left_s``."""
        options = CallOptions(purpose=purpose, max_tokens=max_tokens, retries=retries, keep_cut=keep_cut,
                              time_left_s=time_left_s)
        try:
            result = await self.llm.generate_structured(messages, schema, options, check=check)
        except BadOutput as exc:
            usage = sum((a.usage for a in exc.attempts), Usage())
            self.count(purpose, usage)
            self.emit(ev.LlmCall(purpose=purpose, model=self.llm.model, messages=[m.model_dump() for m in messages],
                                 attempts=[a.model_dump() for a in exc.attempts], usage=usage, failed=True))
            raise
        self.count(purpose, result.usage)
        self.emit(ev.LlmCall(purpose=purpose, model=result.model, messages=[m.model_dump() for m in messages],
                             attempts=[a.model_dump() for a in result.attempts], usage=result.usage))
        return result.value

    def failed_requests(self) -> list[ev.RequestFailed]:
        """Audit events for the server requests of this step that failed (and were retried or gave up):
        the structured attempts are in ``LlmCall`` events, these never got an answer to record there."""
        return [ev.RequestFailed(run_id=self.state.run_id, purpose=r.purpose, model=r.model, error=r.error or "",
                                 attempt=r.attempt, seconds=round(r.duration_s, 2))
                for r in self.calls if r.error]

    def count(self, purpose: str, usage: Usage) -> None:
        self.state.usage = self.state.usage + usage
        self.emit(ev.TokenUsage(purpose=purpose, call=usage, total=self.state.usage))

    async def in_thread(self, fn: Callable[..., T], *args: Any) -> T:
        """Blocking work on the knowledge base in a worker thread its owner knows of: closing the
        knowledge base waits for it, even after a cancelled step stopped waiting."""
        return await self.threads.run(fn, *args, uses=self.state.database)

    async def search(self, queries: list[str], k: int) -> list[list[SearchHit]]:
        """Searches in a worker thread (the index is not async), each query hybrid or, written in another language
        than the documents, by meaning (``evidence.search``)."""
        return await self.in_thread(evidence.search, self.kb, queries, k, self.state.doc_language)

    async def rank(self, text: str, chunk_ids: list[str]) -> list[str]:
        return [cid for cid, _ in await self.in_thread(self.kb.rank, text, chunk_ids)]
