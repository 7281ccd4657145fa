"""The final report of a research run, as exported to report.json and rendered to the other formats.

The JSON contract (issue/design): ``question``, ``language``, ``answer`` (Markdown with ``[n]``
markers), ``citations`` (``{n, doc, page, quote, quote_verified, rects}`` at least), ``findings`` by
tier, ``quality``, ``run`` metadata.
"""

from __future__ import annotations

from datetime import datetime
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field


class _Model(BaseModel):
    model_config = ConfigDict(extra="forbid")


class Rect(_Model):
    """A highlight rectangle on a PDF page as it is shown (turned by its /Rotate), in PDF points from
    its top-left corner."""

    x0: float
    y0: float
    x1: float
    y1: float


class Citation(_Model):
    n: int = Field(ge=1, description="the number of the [n] marker")
    doc: str = Field(description="file name")
    doc_id: str
    path: str
    page: int = Field(ge=1, description="1-based physical page")
    section: str | None = None
    quote: str | None = Field(None, description="the source's own words; None when nothing could be verified")
    quote_verified: bool = False
    match: Literal["exact", "fuzzy", "none"] = "none"
    rects: list[Rect] = Field(default_factory=list)
    chunk_id: str | None = None
    table_header: str | None = Field(None, description="a quote of table rows: its table's Markdown header")


class QuoteView(_Model):
    text: str = Field(description="as displayed: the source's own text when verified, else the model's words")
    verified: bool
    match: Literal["exact", "fuzzy", "none"] = "none"
    page: int
    rects: list[Rect] = Field(default_factory=list)
    table_header: str | None = Field(None, description="a quote of table rows: its table's Markdown header")


class ReportFinding(_Model):
    tier: Literal[1, 2, 3]
    task_id: int
    text: str = Field(description="the relevant information, in the report's language")
    doc: str
    doc_id: str = ""
    path: str = Field("", description="where the PDF was when the report was made (to open it at the page)")
    page: int
    section: str | None = None
    citation: int | None = Field(None, description="the [n] this finding is cited as")
    relevance: float = Field(ge=0, le=1)
    picked_by_engine: bool = Field(False, description="an excerpt the model passed over whose sentences answer a task")
    quotes: list[QuoteView] = Field(default_factory=list)
    paraphrases: list[str] = Field(default_factory=list, description="quotes that could not be verified, shown as paraphrase")
    referenced_from: str | None = Field(None, description="the finding whose reference led here ('StrlSchV p. 8 § 3')")
    drift_score: float | None = None
    filtered: bool = False
    filter_reason: str | None = None


class Findings(_Model):
    primary: list[ReportFinding] = Field(default_factory=list)
    secondary: list[ReportFinding] = Field(default_factory=list)
    tertiary: list[ReportFinding] = Field(default_factory=list)


class Quality(_Model):
    grounding: int = Field(ge=0, le=100, description="claims supported by the cited sources")
    completeness: int = Field(ge=0, le=100, description="against the query anchor and the to-dos")
    structure: int = Field(ge=0, le=100)
    citations: int = Field(ge=0, le=100, description="markers point to sources that say what is claimed")
    total: int = Field(ge=0, le=400)
    notes: str = ""
    revised: bool = Field(False, description="a focused revision was made because the first total was low")
    first_total: int | None = None
    cited_sentence_share: float = Field(ge=0, le=1, description="deterministic: sentences carrying a [n] marker")
    verified_quote_share: float = Field(ge=0, le=1, description="deterministic: quotes found in their source")
    assessed: bool = Field(True, description="False when the model did not rate its answer (the scores are not grades)")
    unrated: Literal["time_budget", "no_answer"] = Field(
        "time_budget", description="why the model did not rate the answer of a synthesis: no time left in the budget, "
                                   "or no model wrote the answer (its own failed, steps/synthesis._without_model)")
    figures_in_quotes: int = Field(0, description="measured: the answer's figures found in the verified quotes it cites")
    figures_stated: int = Field(0, description="measured: the figures the answer states")
    references_followed: int = Field(0, description="measured: references in the evidence followed to their units")
    sources_read: int = Field(0, description="measured: evidence excerpts the model read")
    sources_found: int = Field(0, description="measured: evidence excerpts the engine gathered")
    statements_left_out: int = Field(0, description="measured: statements left out (no supporting source, or no "
                                                    "place in an answer)")
    tasks_answered: int = Field(0, description="measured: tasks of the plan the answer cites a finding of")
    tasks_total: int = Field(0, description="measured: tasks of the plan (0: not measured)")


class PhaseTiming(_Model):
    phase: str
    seconds: float


class RunMeta(_Model):
    run_id: str
    database: str
    llm_backend: str
    llm_host: str
    model: str
    embedder: str
    settings: dict = Field(default_factory=dict)
    timings: list[PhaseTiming] = Field(default_factory=list)
    llm_calls: int = 0
    prompt_tokens: int = 0
    completion_tokens: int = 0
    cached_tokens: int = Field(0, description="prompt tokens the server took from its prompt cache")
    vectors_missing: int = Field(0, description="passages without a vector when the run began (searched by words only)")
    passages: int = Field(0, description="passages in the knowledge base when the run began")
    started_at: datetime
    finished_at: datetime


class ClaimSource(_Model):
    """What can be checked of one source of a claim without reading: honest signals, each named for what it
    checks."""

    n: int
    verbatim: bool = Field(description="the quote stands word for word on its page")
    figures: bool | None = Field(description="the claim's figures stand in the quote; None: it states none")
    terms: float | None = Field(ge=0, le=1, description="share of the claim's content words that stand in the "
                                "quote; None: no quote, or one in another language than the claim")


class Claim(_Model):
    """A sentence of the answer that cites sources: what a reviewer accepts or rejects."""

    index: int = Field(ge=0, description="its place among the answer's claims; review marks name it by this")
    text: str = Field(description="the sentence without its markers")
    marked: str = Field(description="the sentence as the answer has it, markers and all")
    sources: list[ClaimSource] = Field(default_factory=list)


ReviewStatus = Literal["accepted", "rejected", "to_check"]


class ReviewMark(_Model):
    """A reviewer's verdict on a claim ("claim:3") or a finding ("finding:primary.0"), with a note."""

    status: ReviewStatus
    note: str = ""
    by: str = Field(description="the reviewer: the account that was signed in")
    at: datetime


class Report(_Model):
    question: str
    language: str
    title: str
    kind: Literal["synthesis", "evidence"] = Field(
        "synthesis", description="'evidence': the model wrote no usable answer; the answer lists the verified findings")
    answer: str = Field(description="Markdown with [n] citation markers")
    citations: list[Citation] = Field(default_factory=list)
    findings: Findings = Field(default_factory=Findings)
    filtered: list[ReportFinding] = Field(default_factory=list, description="findings removed by the drift filter, with reasons")
    drift_warning: str | None = None
    quality: Quality
    scope: str = ""
    tasks: list[dict] = Field(default_factory=list, description="the approved plan with each task's summary")
    run: RunMeta
    claims: list[Claim] = Field(default_factory=list, description="the answer's cited sentences (none in older reports)")
    review: dict[str, ReviewMark] = Field(default_factory=dict, description="the reviewer's marks, by target")
