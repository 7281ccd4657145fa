"""Typed events of a research run (docs/architecture.md §6). Subscribers — the CLI, the desktop bridge, tests —
receive them as they happen; the store keeps them as the run's append-only log and audit trail."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator
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


class TaskStarted(_Event):
    type: Literal["task_started"] = "task_started"
    task_id: int
    task: str
    chunks: int = Field(description="evidence items to read: searched and followed")
    found: int = Field(0, description="evidence items gathered for the task (the best ``chunks`` are read)")
    followed: int = Field(0, description="of the items to read, those reached by following a reference")


class FindingAdded(_Event):
    type: Literal["finding_added"] = "finding_added"
    task_id: int
    finding_id: str
    tier: int
    doc: str
    page: int
    relevance: float
    quotes: int
    verified: int


class ReferenceFollowed(_Event):
    type: Literal["reference_followed"] = "reference_followed"
    task_id: int
    finding_id: str = Field("", description="older runs: the finding whose reference was followed")
    origin: str = Field("", description="where the reference stands: 'StrlSchV.pdf, p. 8, § 12'")
    reference: str
    doc: str
    page: int
    section: str | None
    depth: int


class TaskDone(_Event):
    type: Literal["task_done"] = "task_done"
    task_id: int
    status: str
    findings: int
    summary: str | None


class DriftFiltered(_Event):
    type: Literal["drift_filtered"] = "drift_filtered"
    kept: int
    filtered: int
    items: list[dict[str, Any]] = Field(description="id, score, reason of each filtered finding")
    warning: str | None = None


class SynthesisTokens(_Event):
    type: Literal["synthesis_tokens"] = "synthesis_tokens"
    text: str
    attempt: int = 1


class QualityChecked(_Event):
    type: Literal["quality_checked"] = "quality_checked"
    total: int = Field(description="the model's self-rating, 0-400 (0 when it did not rate)")
    scores: dict[str, int]
    revision_needed: bool
    rated: bool = Field(True, description="the model rated its answer (not when the time budget left no room)")


class ReportReady(_Event):
    type: Literal["report_ready"] = "report_ready"
    title: str
    citations: int
    quality: int
    kind: str = Field("synthesis", description="'evidence' when the report lists the findings instead of an answer")


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
    failed: bool = Field(False, description="no attempt gave a usable answer")


class RequestFailed(_Event):
    """A server request that got no answer (an HTTP error, a broken connection, a timeout); the backend
    retried transient ones, so a run that went on got its answer from a later try."""

    type: Literal["request_failed"] = "request_failed"
    purpose: str
    model: str
    error: str
    attempt: int = 1
    seconds: float = 0.0


class EstimateReady(_Event):
    """How long the rest of the run is expected to take, from the server's measured speed."""

    type: Literal["estimate_ready"] = "estimate_ready"
    phase: str = Field(description="the phase the estimate starts from")
    seconds: float
    llm_calls: int
    prompt_tokens: int
    answer_tokens: int
    prompt_tps: float = Field(description="measured prompt reading speed, tokens/s")
    answer_tps: float = Field(description="measured writing speed, tokens/s")
    excerpts: int = Field(0, description="excerpts the research will read")
    excerpts_allowed: int = Field(0, description="what the settings allow; more than excerpts when the time budget binds")


class TokenUsage(_Event):
    type: Literal["token_usage"] = "token_usage"
    purpose: str
    call: Usage
    total: Usage


class _Said(_Event):
    """A sentence for the user: ``message`` in English (terminal, audit trail); ``key`` and ``values``
    let a window say it in its own language (``narrate.ENGLISH`` has the template of each key)."""

    message: str
    key: str = ""
    values: dict[str, Any] = Field(default_factory=dict)


class RunStopped(_Said):
    type: Literal["run_stopped"] = "run_stopped"
    status: str


class Warning(_Said):  # noqa: A001 - the event is called what it is
    type: Literal["warning"] = "warning"


class Error(_Said):
    type: Literal["error"] = "error"


class ReviewMarked(_Event):
    """A reviewer's verdict on a claim or a finding of the report (the audit trail keeps every change)."""

    type: Literal["review_marked"] = "review_marked"
    target: str
    status: str | None = Field(description="accepted, rejected, to_check; None: the mark was taken back")
    note: str = ""
    by: str = ""


Event = Annotated[
    PhaseStarted | QueriesGenerated | ChunksRetrieved | CoverageUpdated | QuestionsAsked | AnswerReceived
    | ClarificationEnded | TodosProposed | PlanEdited | PlanApproved | CheckpointReached | LlmCall | TokenUsage
    | RunStopped | Warning | Error | TaskStarted | FindingAdded | ReferenceFollowed | TaskDone | DriftFiltered
    | SynthesisTokens | QualityChecked | ReportReady | RequestFailed | EstimateReady | ReviewMarked,
    Field(discriminator="type"),
]
EVENT_ADAPTER: TypeAdapter[Event] = TypeAdapter(Event)


def audit_records(events: Iterable[Event]) -> Iterator[dict[str, Any]]:
    """The events as the audit trail's JSON objects (one place decides their shape)."""
    return (EVENT_ADAPTER.dump_python(e, mode="json") for e in events)
Subscriber = Callable[[Event], None]


def parse_event(data: str | bytes) -> Event:
    return EVENT_ADAPTER.validate_json(data)
