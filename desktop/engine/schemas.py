"""Structured answers the engine asks the LLM for; each is validated on arrival (desktop.llm)."""

from __future__ import annotations

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
