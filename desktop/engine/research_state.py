"""State of phases 3 to 5: the work queue of each task, the findings with their verified quotes and
provenance, the drift filter's verdicts, the synthesis and its quality check."""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, ConfigDict, Field

from desktop.report.model import Quality, Rect, Report


class _Model(BaseModel):
    model_config = ConfigDict(extra="forbid")


class WorkItem(_Model):
    """Evidence to read for a task: sentences of a chunk the engine picked (evidence.py), found by search or
    reached by following a reference."""

    chunk_id: str
    units: list[int] = Field(default_factory=list, description="the chunk's sentence numbers shown; empty: all of it")
    score: float = Field(0.0, description="its search score (fused ranks) when found by search")
    depth: int = 0
    referenced_from: str | None = Field(None, description="the chunk (older runs: the finding) whose reference led here")
    via: str | None = Field(None, description="the reference as written, e.g. '§ 3 Absatz 1 des Atomgesetzes'")
    origin: str | None = Field(None, description="where that reference stands: 'StrlSchV.pdf, p. 8, § 12'")
    task_id: int | None = Field(None, description="the task it was gathered for (in Research.gathered)")


class QuoteRecord(_Model):
    proposed: str = Field(description="the quote as the LLM wrote it")
    verified: bool
    match: Literal["exact", "fuzzy", "none"] = "none"
    display: str | None = Field(None, description="the source's own words for a verified quote")
    chunk_id: str
    doc_id: str
    doc: str
    page: int
    rects: list[Rect] = Field(default_factory=list)
    table_header: str | None = Field(None, description="the Markdown header of the table a quoted row is from")
    continues: bool = Field(False, description="the rest of the sentence the quote before ends in, on the next "
                                               "page: the excerpt's own quote after the start of its sentence from "
                                               "the page before (reader.opening), or the rest from the chunk after it "
                                               "(reader.closing)")


class DriftVerdict(_Model):
    score: float = Field(ge=0, le=1)
    reason: str = ""
    reason_key: str = Field("", description="an engine's reason by its report label (the report words it)")
    kept: bool = True
    note: str | None = Field(None, description="why a finding below its threshold was kept anyway")


class Finding(_Model):
    id: str
    task_id: int
    chunk_id: str
    doc_id: str
    doc: str
    page: int
    section: str | None = None
    depth: int = 0
    tier: Literal[1, 2, 3]
    relevance: float = Field(ge=0, le=1)
    info: str = Field("", description="older runs: the model's one-line reading; now the quotes say it")
    title: str | None = Field(None, description="the section's title ('Grenzwerte für beruflich exponierte Personen')")
    quotes: list[QuoteRecord] = Field(default_factory=list)
    references: list[str] = Field(default_factory=list, description="references the extraction named")
    referenced_from: str | None = None
    via: str | None = None
    origin: str | None = Field(None, description="where the reference that led here stands")
    turns: int = 1
    served_requests: int = 0
    drift: DriftVerdict | None = None
    picked_by_engine: bool = Field(False, description="an excerpt the model passed over whose shown sentences "
                                                      "answer a task (extraction.passed_over)")

    @property
    def verified_quotes(self) -> list[QuoteRecord]:
        return [q for q in self.quotes if q.verified]

    @property
    def heading(self) -> str:
        """What the finding is, in a line: the model's reading where an older run has one, else its place
        ('§ 78 Grenzwerte für beruflich exponierte Personen'); its quotes say what it holds."""
        return self.info or " ".join(x for x in (self.section, self.title) if x) or f"{self.doc}, p. {self.page}"

    @property
    def quoted(self) -> str:
        """Its verified quotes' text, one after another: the document's own words (where a figure must stand)."""
        return "\n".join(q.display or "" for q in self.verified_quotes)

    def across_pages(self) -> list[str]:
        """Each sentence that goes on in the next chunk as one text: a verified quote and the continuation after
        it (``QuoteRecord.continues``); the document's words, over a page break."""
        found = self.verified_quotes
        return [f"{a.display} {b.display}" for a, b in zip(found, found[1:]) if b.continues and a.display and b.display]

    def said(self, limit: int = 400) -> str:
        """Its verified quotes as one line (what it says, in the document's words), at most ``limit`` characters."""
        text = " … ".join(" ".join((q.display or "").split()) for q in self.verified_quotes) or self.info
        return text if len(text) <= limit else text[:limit].rsplit(" ", 1)[0] + " …"


class TaskSummary(_Model):
    summary: str
    key_points: list[str] = Field(default_factory=list)
    open_questions: list[str] = Field(default_factory=list)
    by_model: bool = Field(True, description="written by the LLM; False: the findings' own words, put together")


class TaskRun(_Model):
    task_id: int
    status: Literal["pending", "running", "done", "skipped"] = "pending"
    allowance: int | None = Field(None, description="older runs: the excerpts it could read within the time budget")
    queue: list[WorkItem] = Field(default_factory=list)
    extracted: int = 0
    found: int = Field(0, description="evidence items gathered for it; under a time budget the best are read")
    followed: int = 0
    reference_tokens: int = Field(0, description="older runs: tokens spent reading followed references")
    doc_follows: dict[str, int] = Field(default_factory=dict)
    capped_docs: list[str] = Field(default_factory=list, description="documents no longer followed into (limit reached)")
    followed_units: list[str] = Field(default_factory=list, description="'doc_id|section' of the units followed into")
    skipped_unhelpful: int = Field(0, description="lower-ranked search results not read after a batch that helped nothing")
    summary: TaskSummary | None = None


class Research(_Model):
    tasks: list[TaskRun] = Field(default_factory=list)
    current: int | None = None
    findings: list[Finding] = Field(default_factory=list)
    visited: list[str] = Field(default_factory=list, description="chunk ids read closely in this run")
    served: list[str] = Field(default_factory=list, description="chunk ids served on the model's requests: read, "
                              "and not served again in a later conversation")
    gathered: list[WorkItem] = Field(default_factory=list, description="the evidence the engine gathered, by task")
    issued: int = Field(0, description="finding ids handed out (F1, F2, …), also to reads that found nothing")
    skip_requested: list[int] = Field(default_factory=list)
    budget_binds: bool = Field(False, description="the time budget does not hold everything the settings allow")

    def task(self, task_id: int) -> TaskRun:
        return next(t for t in self.tasks if t.task_id == task_id)


class Synthesis(_Model):
    answer: str = ""
    sources: list[str] = Field(default_factory=list, description="finding ids in the order of their [n] numbers")
    lined: list[int] = Field(default_factory=list, description="the tasks the answer gives a line of their evidence")
    quality: Quality | None = None
    drift_warning: str | None = None
    started_at: str | None = None
    uncited: list[str] = Field(default_factory=list, description="statements left out because they named no valid source")
    left_out: list[str] = Field(default_factory=list, description="statements that may not stand in an answer: 'why: text'")
    quotations: int = Field(0, description="quotations the written answer had")
    quotations_verified: int = Field(0, description="of those, the ones found in their sources")
    by_evidence: bool = Field(False, description="the engine answered each part with its evidence; no model wrote "
                                                  "the answer (steps/synthesis.by_evidence)")
    fallback: Literal["no_findings", "model_failed"] | None = Field(
        None, description="why the report lists the evidence instead of a written answer")
    fallback_detail: str | None = Field(None, description="what went wrong, when the model failed")


class Phase345(_Model):
    """Everything after the approved plan, kept together on the run state."""

    research: Research = Field(default_factory=Research)
    synthesis: Synthesis = Field(default_factory=Synthesis)
    report: Report | None = None
    timings: dict[str, float] = Field(default_factory=dict, description="seconds spent per phase")
