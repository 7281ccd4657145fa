"""Structured answers the engine asks the LLM for; each is validated on arrival (desktop.llm)."""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, ConfigDict, Field


class _Answer(BaseModel):
    model_config = ConfigDict(extra="ignore")  # a model adding a harmless field is not an error


class SearchQueries(_Answer):
    """Search queries for the knowledge base."""

    queries: list[str] = Field(min_length=1, max_length=12, description="short, specific search queries")


class RetrievalAnalysis(_Answer):
    """How well the retrieved excerpts cover the research question."""

    key_concepts: list[str] = Field(default_factory=list, max_length=12)
    entities: list[str] = Field(default_factory=list, max_length=30)
    scope: str = ""
    assumed_context: list[str] = Field(default_factory=list, max_length=10)
    knowledge_gaps: list[str] = Field(default_factory=list, max_length=12)
    coverage: float = Field(ge=0, le=1, description="0 = nothing needed is covered, 1 = everything")


class FollowUpQuestions(_Answer):
    """Questions for the user that make the research question precise."""

    questions: list[str] = Field(min_length=1, max_length=8)


class ClarificationResult(_Answer):
    """What the user wants, once clarification is over."""

    research_queries: list[str] = Field(min_length=1, max_length=12)
    key_entities: list[str] = Field(default_factory=list, max_length=30)
    scope: str
    refinements: list[str] = Field(default_factory=list, max_length=20)
    avoid: list[str] = Field(default_factory=list, max_length=20)
    summary: str


class PlanItem(_Answer):
    task: str = Field(min_length=3)
    context: str = ""
    subtasks: list[str] = Field(default_factory=list, max_length=6)


class PlanProposal(_Answer):
    """A research plan, or an honest statement that the knowledge base cannot answer the question."""

    answerable: bool
    reason: str = Field("", description="why not answerable, or what limits the answer")
    items: list[PlanItem] = Field(default_factory=list, max_length=15)


# --- phase 3: deep extraction ---------------------------------------------------------------------


class ContextRequest(_Answer):
    """More text the LLM wants before it finishes reading an excerpt."""

    kind: Literal["neighbours", "pages", "keyword", "semantic"]
    source: str = Field("", description="for neighbours: the excerpt label (S1, S2, …)")
    doc: str = Field("", description="file name or short name of a document, for pages/keyword, or as a filter")
    query: str = Field("", description="words for keyword or semantic search")
    page_from: int | None = Field(None, ge=1)
    page_to: int | None = Field(None, ge=1)
    tag: str = Field("", description="only documents with this tag (semantic search)")
    reason: str = ""


class ExtractedQuote(_Answer):
    text: str = Field(description="copied character for character from the excerpt")
    source: str = Field("S1", description="the label of the excerpt it is copied from")


class Extraction(_Answer):
    """What one excerpt contributes to one research task."""

    relevant: bool
    relevance: float = Field(ge=0, le=1)
    info: str = Field("", description="the relevant information, in the report's language")
    quotes: list[ExtractedQuote] = Field(default_factory=list, max_length=6)
    references: list[str] = Field(default_factory=list, max_length=10)
    requests: list[ContextRequest] = Field(default_factory=list, max_length=6)


class TaskSummaryAnswer(_Answer):
    summary: str
    key_points: list[str] = Field(default_factory=list, max_length=10)
    open_questions: list[str] = Field(default_factory=list, max_length=6)


# --- phase 3.5 and 4 ---------------------------------------------------------------------------------


class DriftScore(_Answer):
    id: str
    score: float = Field(ge=0, le=1)
    reason: str = ""


class DriftScores(_Answer):
    """How relevant each finding is to the research question as the user fixed it."""

    scores: list[DriftScore]


class QualityAnswer(_Answer):
    """A reviewer's scores of the answer, each 0-100, and what to fix."""

    grounding: int = Field(ge=0, le=100)
    completeness: int = Field(ge=0, le=100)
    structure: int = Field(ge=0, le=100)
    citations: int = Field(ge=0, le=100)
    notes: str = ""
