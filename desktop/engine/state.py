"""The state of a research run: everything needed to show it, resume it and audit it.

It is persisted after every step (see store.py); ``next_step`` names what runs next, so a run that
was stopped, cancelled or killed continues exactly there.
"""

from __future__ import annotations

from datetime import datetime, timezone
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, field_validator

from desktop.engine.research_state import Phase345
from desktop.llm.types import Usage
from desktop.settings import ResearchSettings

Phase = Literal["clarify", "plan", "research", "drift", "synthesis", "report"]
# One meaning each, in the window, the log and the CLI alike: "paused" waits for the LLM server to answer
# again (nothing to fix here), "cancelled" was stopped by the user, "failed" needs a fix first; each resumes
# where it stopped.
RunStatus = Literal["running", "waiting", "paused", "cancelled", "failed", "done"]
Termination = Literal["user_end", "max_rounds", "token_budget", "convergence", "model_failed", "auto"]


def read_status(value: Any) -> Any:
    """A saved status as this release names it: an older release's "stopped" run was a cancelled one."""
    return "cancelled" if value == "stopped" else value


def now() -> datetime:
    return datetime.now(timezone.utc)


class _Model(BaseModel):
    model_config = ConfigDict(extra="forbid")


class RetrievedChunk(_Model):
    chunk_id: str
    doc_id: str
    doc: str = Field(description="file name")
    page: int
    section: str | None = None
    text: str
    query: str = Field(description="the query that first found it")
    round: int
    rank: int = Field(description="its place in that query's results, 1 = best")


class RoundAnalysis(_Model):
    key_concepts: list[str] = Field(default_factory=list)
    entities: list[str] = Field(default_factory=list)
    scope: str = ""
    assumed_context: list[str] = Field(default_factory=list)
    knowledge_gaps: list[str] = Field(default_factory=list)
    coverage: float = Field(0.0, ge=0, le=1)


class ClarifyRound(_Model):
    index: int = Field(description="1-based")
    queries: list[str] = Field(default_factory=list)
    new_chunks: list[str] = Field(default_factory=list, description="chunk ids first seen in this round")
    duplicates: int = 0
    analysis: RoundAnalysis | None = None
    questions: list[str] = Field(default_factory=list)
    suggest_end: bool = False
    answer: str | None = None

    @property
    def duplicate_share(self) -> float:
        total = len(self.new_chunks) + self.duplicates
        return self.duplicates / total if total else 0.0


class QueryAnchor(_Model):
    """What the user asked, fixed once clarification ends; every later phase is measured against it."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    original_query: str
    language: str
    key_entities: list[str]
    scope: str
    refinements: list[str] = Field(description="what the user made clear while answering")
    avoid: list[str] = Field(description="things the research must not drift into")
    created_at: datetime


class Clarification(_Model):
    rounds: list[ClarifyRound] = Field(default_factory=list)
    chunks: dict[str, RetrievedChunk] = Field(default_factory=dict, description="every chunk seen, by id")
    termination: Termination | None = None
    summary: str | None = None
    research_queries: list[str] = Field(default_factory=list)

    @property
    def current(self) -> ClarifyRound | None:
        return self.rounds[-1] if self.rounds else None


class Todo(_Model):
    id: int
    task: str
    context: str = ""
    subtasks: list[str] = Field(default_factory=list)
    status: Literal["pending", "running", "done", "skipped"] = "pending"


class Plan(_Model):
    items: list[Todo] = Field(default_factory=list)
    revision: int = 0
    answerable: bool = True
    note: str | None = Field(None, description="why the knowledge base may not answer the question")
    feedback: str | None = Field(None, description="the user's request for a re-plan, until it is done")
    approved: bool = False
    by_parts: bool = Field(False, description="its tasks are the parts of the question (question_parts)")

    def next_id(self) -> int:
        return max((t.id for t in self.items), default=-1) + 1

    def answered(self, ids: set[int]) -> set[int]:
        """Of the tasks ``ids``, those the answer speaks of: the question itself not where its parts are tasks
        and one of them is among ``ids`` (their statements answer it)."""
        return ids - {0} if self.by_parts and ids - {0} else set(ids)


class Pending(_Model):
    """A persisted pause: what the user is asked for."""

    kind: Literal["answer", "approve_plan"]
    round: int | None = None


class RunState(_Model):
    run_id: str
    question: str
    database: str
    language: str = "en"
    doc_language: str = Field("en", description="the language most of the knowledge base is written in")
    auto: bool = Field(False, description="headless: clarification ends after its first analysis, no questions")
    phase: Phase = "clarify"
    status: RunStatus = "running"
    next_step: str = "clarify.start"
    message: str | None = Field(None, description="what the user should know about the run's state")
    message_key: str = Field("", description="the message's key in narrate.ENGLISH, for a window to word it")
    message_values: dict[str, Any] = Field(default_factory=dict, description="the values the message shows")
    created_at: datetime = Field(default_factory=now)
    updated_at: datetime = Field(default_factory=now)
    model: str = ""
    settings: ResearchSettings = Field(default_factory=ResearchSettings)
    clarification: Clarification = Field(default_factory=Clarification)
    anchor: QueryAnchor | None = None
    plan: Plan | None = None
    pending: Pending | None = None
    later: Phase345 = Field(default_factory=Phase345, description="research, drift filter, synthesis, report")
    usage: Usage = Field(default_factory=Usage)
    steps: int = Field(0, description="steps completed, for the event log and tests")
    vectors_missing: int = Field(0, description="passages without a vector yet when the run began (found by their "
                                 "words only: the knowledge base was still being embedded)")
    passages: int = Field(0, description="passages in the knowledge base when the run began")

    @field_validator("status", mode="before")
    @classmethod
    def _old_status(cls, value: Any) -> Any:
        return read_status(value)

    @field_validator("settings", mode="before")
    @classmethod
    def _settings_of_an_older_version(cls, value: object) -> object:
        """A run saved by an earlier version keeps loading: settings it had that are gone since (e.g.
        synthesis_attempts) are left out of its snapshot."""
        if isinstance(value, dict):
            return {k: v for k, v in value.items() if k in ResearchSettings.model_fields}
        return value


def by_parts(state: RunState) -> bool:
    """The run's plan has the question's parts as its tasks (``Plan.by_parts``)."""
    return state.plan is not None and state.plan.by_parts
