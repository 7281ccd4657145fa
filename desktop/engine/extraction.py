"""Reading chunks closely for one task, several in one LLM call: a bounded conversation in which the
LLM may ask for more context (neighbouring text, pages, a keyword search in a document, a semantic
search), then each useful excerpt becomes a finding whose quotes — sentences the model pointed at —
are cut from the source, verified and located on the PDF page.

A batch shares one copy of the instructions (most of a single-chunk call's tokens), and its prompt
starts with the same text for every batch of a task, so the server's prompt cache reuses it."""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable
from dataclasses import dataclass, field

from desktop.engine import prompts as P
from desktop.engine.focus import focused
from desktop.engine.quote_locate import locate
from desktop.engine.quotes import verify_quote
from desktop.engine.research_state import Finding, QuoteRecord, WorkItem
from desktop.engine.schemas import ContextRequest, ExcerptReading, ExtractionBatch
from desktop.engine.sentences import Unit, numbered, quotes
from desktop.engine.state import Todo
from desktop.engine.step import StepContext
from desktop.engine.support import regrounded
from desktop.kb.database import KnowledgeBase
from desktop.kb.errors import KbError
from desktop.kb.models import DocumentInfo, SearchFilter
from desktop.kb.tables import header_of, is_table_rows
from desktop.llm.types import Message
from desktop.report.model import Rect

log = logging.getLogger(__name__)

_MAX_REGISTRY = 40
_PAGES_PER_REQUEST = 2


@dataclass(frozen=True)
class Source:
    """An excerpt the LLM has seen, by its label, with its numbered sentences."""

    label: str
    doc: DocumentInfo
    page: int
    section: str | None
    chunk_id: str | None
    text: str
    units: tuple[Unit, ...]
    shown: str  # the numbered text the model read
    item: WorkItem | None = None  # the work item it was read for (None: served on request)
    note: str | None = None

    def header(self) -> str:
        where = f"{self.doc.file_name}, p. {self.page}" + (f", {self.section}" if self.section else "")
        return where + (f"; {self.note}" if self.note else "")

    def block(self) -> str:
        return f"Excerpt {self.label} ({self.header()}):\n{self.shown}"


def registry_line(docs: list[DocumentInfo]) -> str:
    """The documents the LLM may name in requests and filters."""
    items = []
    for d in docs[:_MAX_REGISTRY]:
        extra = [x for x in (d.short_name, ("tags: " + ", ".join(d.tags)) if d.tags else None) if x]
        items.append(d.file_name + (f" ({'; '.join(extra)})" if extra else ""))
    more = f"; and {len(docs) - _MAX_REGISTRY} more" if len(docs) > _MAX_REGISTRY else ""
    return "; ".join(items) + more


@dataclass
class Reader:
    """The excerpts of one batch conversation; serves context requests from the knowledge base, each once."""

    kb: KnowledgeBase
    docs: dict[str, DocumentInfo]
    sources: dict[str, Source] = field(default_factory=dict)
    asked: set[str] = field(default_factory=set)
    shown: set[tuple[str, int, str | None]] = field(default_factory=set)

    def add(self, doc: DocumentInfo, page: int, section: str | None, chunk_id: str | None, text: str,
            item: WorkItem | None = None, note: str | None = None) -> Source | None:
        key = (doc.doc_id, page, chunk_id)
        if key in self.shown:
            return None
        self.shown.add(key)
        shown, units = numbered(text)
        source = Source(f"S{len(self.sources) + 1}", doc, page, section, chunk_id, text, tuple(units), shown, item, note)
        self.sources[source.label] = source
        return source

    def serve(self, requests: list[ContextRequest], limit: int) -> tuple[list[Source], list[str]]:
        new: list[Source] = []
        notes: list[str] = []
        for i, req in enumerate(requests):
            if i >= limit:
                notes.append(f"Only {limit} requests are served per turn; the rest were ignored.")
                break
            key = req.model_dump_json()
            if key in self.asked:
                notes.append(f"Request {i + 1} ({req.kind}) repeats an earlier one; it was served already.")
                continue
            self.asked.add(key)
            try:
                got = self._serve_one(req)
            except (KbError, ValueError) as exc:
                notes.append(f"Request {i + 1} ({req.kind}) could not be served: {exc}")
                continue
            if not got:
                notes.append(f"Request {i + 1} ({req.kind}) found nothing new.")
            new += got
        return new, notes

    def _doc(self, ref: str) -> DocumentInfo:
        if not ref.strip():
            raise ValueError("it names no document")
        found = self.kb.find_document(ref.strip())
        return self.docs.get(found.doc_id, found)

    def _serve_one(self, req: ContextRequest) -> list[Source]:
        kb = self.kb
        if req.kind == "neighbours":
            source = self.sources.get(req.source.strip().upper() or "S1")
            if source is None or source.chunk_id is None:
                raise ValueError(f"there is no excerpt '{req.source}' to extend")
            chunks = kb.neighbours(source.chunk_id, 1, 1)
            return [s for c in chunks if (s := self.add(self.docs[c.doc_id], c.page, c.section, c.chunk_id, c.text))]
        if req.kind == "pages":
            doc = self._doc(req.doc)
            first = req.page_from or 0
            if not 1 <= first <= doc.pages:
                raise ValueError(f"{doc.file_name} has pages 1 to {doc.pages}")
            last = min(req.page_to or first, first + _PAGES_PER_REQUEST - 1, doc.pages)
            pages = kb.pages(doc.doc_id, first, max(first, last))
            return [s for p in pages if (s := self.add(doc, p.page, None, None, p.text))]
        if not req.query.strip():
            raise ValueError("it has no query")
        if req.kind == "keyword":
            hits = kb.keyword_search(self._doc(req.doc).doc_id, req.query, k=3)
        else:
            filt = SearchFilter(docs=[self._doc(req.doc).doc_id] if req.doc.strip() else None,
                                tags=[req.tag] if req.tag.strip() else None, page_from=req.page_from or None,
                                page_to=req.page_to or None)
            hits = kb.search(req.query, k=3, filt=None if filt.is_empty() else filt)
        return [s for h in hits if (s := self.add(self.docs[h.doc_id], h.page, h.section, h.chunk_id, h.text))]


def _tier(depth: int, relevance: float, tier1_min: float) -> int:
    if depth == 0:
        return 1 if relevance >= tier1_min else 2
    return 2 if depth == 1 else 3


async def _quotes(source: Source, reading: ExcerptReading, kb: KnowledgeBase) -> list[QuoteRecord]:
    """The sentences the model named, cut from the source, verified against it and located on the page."""
    records = []
    header = header_of(source.text)
    for text in quotes(source.text, list(source.units), reading.quote):
        check = verify_quote(text, source.text)
        rects = await asyncio.to_thread(_locate, kb, source, check.display or "") if check.verified else []
        records.append(QuoteRecord(
            proposed=text, verified=check.verified, match=check.match, display=check.display if check.verified else None,
            chunk_id=source.chunk_id or "", doc_id=source.doc.doc_id, doc=source.doc.file_name, page=source.page,
            rects=rects, table_header=header if header and is_table_rows(text) else None))
    return records


def _locate(kb: KnowledgeBase, source: Source, text: str) -> list[Rect]:
    """Where a verified quote stands on its page; none when the PDF cannot be had (the quote still stands)."""
    try:
        return locate(kb.pdf_file(source.doc), source.page, text)
    except KbError as exc:
        log.info("quote not located: %s", exc)
        return []


def _sentences(reader: Reader) -> dict[str, dict[int, str]]:
    """Each excerpt's sentences by their numbers, as the model saw them."""
    return {label: {u.number: src.text[u.start:u.end] for u in src.units} for label, src in reader.sources.items()}


def _grounded(readings: dict[str, ExcerptReading], sentences: dict[str, dict[int, str]],
              language: str) -> dict[str, ExcerptReading]:
    """The readings under the excerpts that support them (``support.regrounded``); a reading moved onto an
    excerpt that has its own is dropped, the model's own reading of it stays."""
    moved: dict[str, ExcerptReading] = {}
    kept: dict[str, ExcerptReading] = {}
    for label, reading in readings.items():
        target, quote = regrounded(reading.info, label, reading.quote, sentences, language)
        if target == label:
            kept[label] = reading
        else:
            moved.setdefault(target, reading.model_copy(update={"excerpt": target, "quote": quote}))
    return kept | {label: r for label, r in moved.items() if label not in kept}


def _merge(readings: dict[str, ExcerptReading], answer: ExtractionBatch) -> None:
    """A later turn's reading of an excerpt replaces the earlier one; excerpts it leaves out keep theirs."""
    for reading in answer.readings:
        readings[reading.excerpt.strip().upper()] = reading


async def read_batch(ctx: StepContext, task: Todo, items: list[WorkItem], new_id: Callable[[], str],
                     origins: dict[str, str]) -> list[Finding]:
    """Read a batch of chunks for one task; the findings of the excerpts that help."""
    kb, s, state = ctx.kb, ctx.settings, ctx.state
    docs = ctx.documents()
    reader = Reader(kb, docs)
    for item in items:
        chunk = kb.chunk(item.chunk_id)
        if chunk is None:
            continue  # removed from the knowledge base since it was found
        note = P.REFERENCE_NOTE.format(via=item.via, origin=origins.get(item.referenced_from or "", "another excerpt")) \
            if item.via else None
        reader.add(docs[chunk.doc_id], chunk.page, chunk.section, chunk.chunk_id, chunk.text, item, note)
    if not reader.sources:
        return []
    anchor = state.anchor
    messages = P.EXTRACT.render(
        language=state.language, max_requests=s.requests_per_turn, question=state.question,
        scope=anchor.scope if anchor else "-", avoid="; ".join(anchor.avoid) if anchor and anchor.avoid else "-",
        task=task.task, task_context=task.context, registry=registry_line(list(docs.values())),
        excerpts="\n\n".join(src.block() for src in reader.sources.values()),
    )
    answer = await ctx.ask_messages(messages, ExtractionBatch, P.EXTRACT.name,
                                    max_tokens=P.EXTRACT.max_tokens * len(reader.sources))
    readings: dict[str, ExcerptReading] = {}
    _merge(readings, answer)
    turns = 1
    while answer.requests and turns <= s.context_turns:
        new, notes = await ctx.in_thread(reader.serve, answer.requests, s.requests_per_turn)
        follow = P.EXTRACT_MORE.format(
            served="\n\n".join(src.block() for src in new) or "(nothing)",
            notes="".join(n + "\n" for n in notes) + ("\n" if notes else ""),
            last_turn=P.EXTRACT_LAST_TURN if turns == s.context_turns else "",
        )
        messages = messages + [Message(role="assistant", content=answer.model_dump_json()),
                               Message(role="user", content=follow)]
        answer = await ctx.ask_messages(messages, ExtractionBatch, P.EXTRACT.name,
                                        max_tokens=P.EXTRACT.max_tokens * len(reader.sources))
        _merge(readings, answer)
        turns += 1
    findings = []
    sentences = _sentences(reader)
    aim = f"{state.question}\n{task.task}"  # what a sentence should answer: the question, this task
    for label, reading in _grounded(readings, sentences, state.language).items():
        source = reader.sources.get(label)
        if source is None or not reading.info.strip():
            continue  # a label the model made up, or nothing said
        reading = reading.model_copy(update={"quote": focused(reading.quote, aim, sentences[label], state.language)})
        relevance = reading.relevance / 3
        if relevance < s.drop_relevance:
            continue
        depth = source.item.depth if source.item else 0
        findings.append(Finding(
            id=new_id(), task_id=task.id, chunk_id=source.chunk_id or "", doc_id=source.doc.doc_id,
            doc=source.doc.file_name, page=source.page, section=source.section, depth=depth,
            tier=_tier(depth, relevance, s.tier1_min_relevance), relevance=round(relevance, 3),
            info=reading.info.strip(), quotes=await _quotes(source, reading, reader.kb), references=reading.references,
            referenced_from=source.item.referenced_from if source.item else None,
            via=source.item.via if source.item else None, turns=turns,
            served_requests=sum(1 for x in reader.sources.values() if x.item is None),
        ))
    return findings
