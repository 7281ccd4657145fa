"""Typed events of a research run (DESIGN §5). Subscribers — the CLI, the desktop bridge, tests —
receive them as they happen; the store keeps them as the run's append-only log and audit trail."""

from __future__ import annotations

from collections.abc import Callable
from datetime import datetime
from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field, TypeAdapter

from desktop.engine.state import Phase, now
from desktop.llm.types import Usage


class _Event(BaseModel):
    model_config = ConfigDict(extra="forbid")

    run_id: str = ""
    at: datetime = Field(default_factory=now)


class PhaseStarted(_Event):
    type: Literal["phase_started"] = "phase_started"
    phase: Phase


class QueriesGenerated(_Event):
    type: Literal["queries_generated"] = "queries_generated"
    round: int
    queries: list[str]


class ChunksRetrieved(_Event):
    type: Literal["chunks_retrieved"] = "chunks_retrieved"
    round: int
    new: int
    duplicates: int
    chunk_ids: list[str]


class CoverageUpdated(_Event):
    type: Literal["coverage_updated"] = "coverage_updated"
    round: int
    coverage: float
    gaps: list[str]


class QuestionsAsked(_Event):
    type: Literal["questions_asked"] = "questions_asked"
    round: int
    max_rounds: int
    questions: list[str]
    coverage: float
    gaps: list[str]
    new: int
    duplicates: int
    suggest_end: bool


class AnswerReceived(_Event):
    type: Literal["answer_received"] = "answer_received"
    round: int
    answer: str | None
    ends: bool


class ClarificationEnded(_Event):
    type: Literal["clarification_ended"] = "clarification_ended"
    reason: str
    research_queries: list[str]
    summary: str


class TodosProposed(_Event):
    type: Literal["todos_proposed"] = "todos_proposed"
    revision: int
    items: list[dict[str, Any]]
    answerable: bool
    note: str | None


class PlanEdited(_Event):
    type: Literal["plan_edited"] = "plan_edited"
    operation: str
    detail: dict[str, Any]


class PlanApproved(_Event):
    type: Literal["plan_approved"] = "plan_approved"
    items: int


class CheckpointReached(_Event):
    type: Literal["checkpoint"] = "checkpoint"
    kind: str


class LlmCall(_Event):
    """One structured LLM call for the audit trail: the prompt as sent and every raw answer."""

    type: Literal["llm_call"] = "llm_call"
    purpose: str
    model: str
    messages: list[dict[str, str]]
    attempts: list[dict[str, Any]]
    usage: Usage


class TokenUsage(_Event):
    type: Literal["token_usage"] = "token_usage"
    purpose: str
    call: Usage
    total: Usage


class RunStopped(_Event):
    type: Literal["run_stopped"] = "run_stopped"
    status: str
    message: str


class Warning(_Event):  # noqa: A001 - the event is called what it is
    type: Literal["warning"] = "warning"
    message: str


class Error(_Event):
    type: Literal["error"] = "error"
    message: str


Event = Annotated[
    PhaseStarted | QueriesGenerated | ChunksRetrieved | CoverageUpdated | QuestionsAsked | AnswerReceived
    | ClarificationEnded | TodosProposed | PlanEdited | PlanApproved | CheckpointReached | LlmCall | TokenUsage
    | RunStopped | Warning | Error,
    Field(discriminator="type"),
]
EVENT_ADAPTER: TypeAdapter[Event] = TypeAdapter(Event)
Subscriber = Callable[[Event], None]


def parse_event(data: str | bytes) -> Event:
    return EVENT_ADAPTER.validate_json(data)
