"""Structured answers the engine asks the LLM for; each is validated on arrival (desktop.llm).

Written for small models as much as for large ones: scores are small anchored integers (llama.cpp
enforces integer bounds of a schema but not those of a ``number``), quotes are sentence numbers
(``sentences.py``), citations are source numbers in a list, never markers hoped for in free text.
String lengths are advertised in the JSON schema only (``_text``): a server that enforces them keeps
answers short; pydantic does not reject a model that writes a little more. Lists longer than their
maxItems are cut to it rather than rejected.
"""

from __future__ import annotations

from typing import Annotated, Any, Literal

from annotated_types import MaxLen
from pydantic import BaseModel, ConfigDict, Field, create_model, model_validator


class _Answer(BaseModel):
    model_config = ConfigDict(extra="ignore")  # a model adding a harmless field is not an error

    @model_validator(mode="before")
    @classmethod
    def _cut_long_lists(cls, data: Any) -> Any:
        """A list longer than its schema allows is cut, not rejected: the server's grammar usually stops
        the model at maxItems, and where it does not, the first items are the ones it ranked first."""
        if not isinstance(data, dict):
            return data
        for name, field in cls.model_fields.items():
            limit = next((m.max_length for m in field.metadata if isinstance(m, MaxLen)), None)
            value = data.get(name)
            if limit is not None and isinstance(value, list) and len(value) > limit:
                data = {**data, name: value[:limit]}
        return data


def _text(limit: int, description: str = "") -> object:
    """A string whose length limit is a hint to the server, not a validation rule."""
    extra: dict[str, object] = {"maxLength": limit}
    return Field(description=description, json_schema_extra=extra) if description else Field(json_schema_extra=extra)


SHORT_CHARS, LINE_CHARS = 160, 300  # the server's grammar stops a string there, mid-word if need be
INFO_CHARS = 200  # a reading's line in the answer's language: one short sentence
Short = Annotated[str, _text(SHORT_CHARS)]
Line = Annotated[str, _text(LINE_CHARS)]


class SearchQueries(_Answer):
    """Search queries for the knowledge base."""

    queries: list[Annotated[str, _text(120)]] = Field(min_length=1, max_length=12, description="short, specific search queries")


def search_queries(n: int, exact: bool = False) -> type[SearchQueries]:
    """The schema for at most ``n`` queries (``exact``: exactly ``n``, one per part of a question), which the
    server's grammar enforces (seen: a 1.5B model asked for 2 queries writing 12, each the last one longer,
    until the token limit cut it off)."""
    return create_model("SearchQueries", __base__=SearchQueries, __doc__=SearchQueries.__doc__,
                        queries=(list[Annotated[str, _text(120)]], Field(min_length=n if exact else 1, max_length=n)))


class RetrievalAnalysis(_Answer):
    """How well the retrieved excerpts cover the research question."""

    # required, so that a server's grammar makes the model write them (seen: a 1.5B model answering only
    # {"coverage": 50} when they were optional)
    key_concepts: list[Short] = Field(max_length=7)
    entities: list[Short] = Field(max_length=10)
    scope: Line
    assumed_context: list[Line] = Field(default_factory=list, max_length=3)
    knowledge_gaps: list[Line] = Field(max_length=4)
    coverage: int = Field(ge=0, le=100, description="percent of what the answer needs that the excerpts contain")


class FollowUpQuestions(_Answer):
    """Questions for the user that make the research question precise."""

    questions: list[Line] = Field(min_length=1, max_length=5)


class ClarificationResult(_Answer):
    """What the user wants, once clarification is over."""

    research_queries: list[Annotated[str, _text(120)]] = Field(min_length=1, max_length=6)
    key_entities: list[Short] = Field(default_factory=list, max_length=10)
    scope: Line
    refinements: list[Line] = Field(default_factory=list, max_length=6)
    avoid: list[Short] = Field(default_factory=list, max_length=6)
    summary: Annotated[str, _text(400)]


class PlanItem(_Answer):
    task: Annotated[str, _text(200)] = Field(min_length=3)
    context: Line = ""
    subtasks: list[Short] = Field(default_factory=list, max_length=3)


class PlanProposal(_Answer):
    """A research plan, or an honest statement that the knowledge base cannot answer the question."""

    answerable: bool
    reason: Line = Field("", description="why not answerable, or what limits the answer")
    items: list[PlanItem] = Field(default_factory=list, max_length=15)


class OutlineItem(_Answer):
    task: Annotated[str, _text(100)] = Field(min_length=3)
    subtasks: list[Annotated[str, _text(80)]] = Field(default_factory=list, max_length=2)


class PlanOutline(_Answer):
    """A research plan of titles and search queries (--auto: nobody reads it before it runs)."""

    answerable: bool
    items: list[OutlineItem] = Field(default_factory=list, max_length=15)


def plan_outline(n: int) -> type[PlanOutline]:
    """The schema for at most ``n`` to-dos, which the server's grammar enforces."""
    return create_model("PlanOutline", __base__=PlanOutline, __doc__=PlanOutline.__doc__,
                        items=(list[OutlineItem], Field(default_factory=list, max_length=n)))


# --- phase 3: deep extraction ---------------------------------------------------------------------


# The kinds are explained in the prompt; the schema stays small because every extraction call carries it
# (and a class docstring is the model's description in the schema, so it is written for the model).
class ContextRequest(_Answer):
    """More text to read before the readings are final."""

    kind: Literal["neighbours", "pages", "keyword", "semantic"]
    source: str = ""
    doc: str = ""
    query: str = ""
    page_from: int = Field(0, ge=0)
    page_to: int = Field(0, ge=0)
    tag: str = ""


class ExcerptReading(_Answer):
    """What one excerpt contributes to the task: a grade and the sentences that state it. No restatement: the
    sentences say it in the document's own words (a 1.5B model's one-line readings cost a minute a run on a
    CPU, and were wrong where the quote was right)."""

    excerpt: str = Field(description="the excerpt's label: S1, S2, …")
    relevance: int = Field(ge=1, le=3, description="3 answers the task directly, 2 facts the answer needs, 1 background")
    quote: list[int] = Field(default_factory=list, max_length=4, description="numbers of the sentences that state it")


class TranslatedReading(ExcerptReading):
    """What one excerpt contributes to the task, and what it says in the answer's language (the documents
    are in another one: the answer's statements are checked against these lines)."""

    info: Annotated[str, _text(INFO_CHARS, "what the excerpt says that helps, one short sentence in the answer language")]


class ExtractionBatch(_Answer):
    """The excerpts of a batch that help a research task (unhelpful ones are left out)."""

    readings: list[ExcerptReading] = Field(default_factory=list, max_length=12)
    requests: list[ContextRequest] = Field(default_factory=list, max_length=6)


class TranslatedBatch(ExtractionBatch):
    """The excerpts of a batch that help a research task, each with what it says in the answer's language."""

    readings: list[TranslatedReading] = Field(default_factory=list, max_length=12)


class TaskSummaryAnswer(_Answer):
    summary: Annotated[str, _text(300)]
    open_questions: list[Short] = Field(default_factory=list, max_length=2)


# --- phase 3.5 and 4 ---------------------------------------------------------------------------------


class DriftReason(_Answer):
    id: str
    reason: Annotated[str, _text(80)]


class DriftScores(_Answer):
    """How relevant each finding is to the research question as the user fixed it: one score per finding,
    in the order listed (3 answers part of the question, 2 needed for it, 1 background, 0 off it)."""

    scores: list[Annotated[int, Field(ge=0, le=3)]]
    reasons: list[DriftReason] = Field(default_factory=list, max_length=6, description="only for scores 0 and 1")


DRIFT_REASONS = 2  # reasons a drift answer may give (the server's grammar stops the list there)


def drift_scores(n: int) -> type[DriftScores]:
    """The schema for a batch of ``n`` findings: exactly ``n`` scores, which the server's grammar enforces
    (positional numbers instead of ids and reasons: a tenth of the answer tokens)."""
    return create_model("DriftScores", __base__=DriftScores, __doc__=DriftScores.__doc__,
                        scores=(list[Annotated[int, Field(ge=0, le=3)]], Field(min_length=n, max_length=n)),
                        # seen: a 1.5B model giving every finding a reason, scores 3 included, until the
                        # token limit cut the answer off; the few low scores are what a reason is for
                        reasons=(list[DriftReason], Field(default_factory=list, max_length=min(n, DRIFT_REASONS),
                                                          description="only for scores 0 and 1")))


class Statement(_Answer):
    """One statement of the answer and the numbers of the sources that say it."""

    text: Annotated[str, _text(LINE_CHARS, "one or two sentences, without source markers")]
    # required, at least one: seen with a 1.5B model whose text the server cut at maxLength, which then
    # went on with the rest of the sentence as a new statement without sources, three attempts running
    sources: list[int] = Field(min_length=1, max_length=6)


class SynthesisAnswer(_Answer):
    """The answer as statements; Rabbithole renders it to Markdown with [n] markers."""

    answer: list[Statement] = Field(min_length=1, max_length=3, description="the direct answer to the question")
    details: list[Statement] = Field(default_factory=list, max_length=8)
    open: list[Short] = Field(default_factory=list, max_length=3, description="what the sources leave open")


class BriefAnswer(_Answer):
    """The answer under a binding time budget (``prompts_synthesis.SYNTHESIS_BRIEF``): its statements only."""

    statements: list[Statement] = Field(min_length=1, max_length=6)

    def full(self) -> SynthesisAnswer:
        """As the full shape: the first statements lead, the rest are details."""
        return SynthesisAnswer(answer=self.statements[:3], details=self.statements[3:])


def brief_answer(n: int) -> type[BriefAnswer]:
    """The schema for at most ``n`` statements (one per task that found something), which the server's
    grammar enforces."""
    return create_model("BriefAnswer", __base__=BriefAnswer, __doc__=BriefAnswer.__doc__,
                        statements=(list[Statement], Field(min_length=1, max_length=max(1, min(n, 6)))))


class QualityAnswer(_Answer):
    """A reviewer's scores of the answer, each 0-100, and what to fix."""

    grounding: int = Field(ge=0, le=100)
    completeness: int = Field(ge=0, le=100)
    structure: int = Field(ge=0, le=100)
    citations: int = Field(ge=0, le=100)
    notes: Annotated[str, _text(600)] = ""
