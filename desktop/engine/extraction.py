"""Reading one chunk closely for one task: a bounded conversation in which the LLM may ask for more
context (neighbouring text, pages, a keyword search in a document, a semantic search), then the
extraction is turned into a finding whose quotes are verified against the text they came from."""

from __future__ import annotations

import asyncio
from dataclasses import dataclass, field

from desktop.engine import prompts as P
from desktop.engine.quote_locate import locate
from desktop.engine.quotes import verify_quote
from desktop.engine.research_state import Finding, QuoteRecord, WorkItem
from desktop.engine.schemas import ContextRequest, Extraction
from desktop.engine.state import Todo
from desktop.engine.step import StepContext
from desktop.kb.database import KnowledgeBase
from desktop.kb.errors import KbError
from desktop.kb.models import DocumentInfo, SearchFilter
from desktop.llm.types import Message

_MAX_REGISTRY = 40
_PAGES_PER_REQUEST = 2


@dataclass(frozen=True)
class Source:
    """An excerpt the LLM has seen, by its label."""

    label: str
    doc: DocumentInfo
    page: int
    section: str | None
    chunk_id: str | None
    text: str

    def header(self) -> str:
        return f"{self.doc.file_name}, p. {self.page}" + (f", {self.section}" if self.section else "")


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
    """Serves an extraction's context requests from the knowledge base, each at most once."""

    kb: KnowledgeBase
    docs: dict[str, DocumentInfo]
    sources: dict[str, Source] = field(default_factory=dict)
    asked: set[str] = field(default_factory=set)
    shown: set[tuple[str, int, str | None]] = field(default_factory=set)

    def add(self, doc: DocumentInfo, page: int, section: str | None, chunk_id: str | None, text: str) -> Source | None:
        key = (doc.doc_id, page, chunk_id)
        if key in self.shown:
            return None
        self.shown.add(key)
        source = Source(f"S{len(self.sources) + 1}", doc, page, section, chunk_id, text)
        self.sources[source.label] = source
        return source

    def serve(self, requests: list[ContextRequest], limit: int) -> tuple[list[Source], list[str]]:
        new: list[Source] = []
        notes: list[str] = []
        for i, req in enumerate(requests):
            if i >= limit:
                notes.append(f"Only {limit} requests are served per turn; the rest were ignored.")
                break
            key = req.model_dump_json(exclude={"reason"})
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
                                tags=[req.tag] if req.tag.strip() else None, page_from=req.page_from,
                                page_to=req.page_to)
            hits = kb.search(req.query, k=3, filt=None if filt.is_empty() else filt)
        return [s for h in hits if (s := self.add(self.docs[h.doc_id], h.page, h.section, h.chunk_id, h.text))]


def _served_text(sources: list[Source]) -> str:
    return "\n\n".join(f"Excerpt {s.label} ({s.header()}):\n{s.text.strip()}" for s in sources) or "(nothing)"


def _tier(depth: int, relevance: float, tier1_min: float) -> int:
    if depth == 0:
        return 1 if relevance >= tier1_min else 2
    return 2 if depth == 1 else 3


async def _verify(sources: dict[str, Source], answer: Extraction) -> list[QuoteRecord]:
    """Each quote checked against the excerpt it names (or any excerpt shown); verified ones located."""
    records = []
    for quote in answer.quotes:
        if not quote.text.strip():
            continue
        named = sources.get(quote.source.strip().upper())
        candidates = [named] if named else []
        candidates += [s for s in sources.values() if s is not named]
        check, where = None, candidates[0]
        for source in candidates:
            check = verify_quote(quote.text, source.text)
            if check.verified:
                where = source
                break
        verified = bool(check and check.verified)
        rects = []
        if verified:
            rects = await asyncio.to_thread(locate, where.doc.path, where.page, check.display or "")
        records.append(QuoteRecord(
            proposed=quote.text, verified=verified, match=check.match if check else "none",
            display=check.display if verified else None, chunk_id=where.chunk_id or "", doc_id=where.doc.doc_id,
            doc=where.doc.file_name, page=where.page, rects=rects,
        ))
    return records


async def extract(ctx: StepContext, task: Todo, item: WorkItem, finding_id: str, origin: str | None) -> Finding | None:
    """Read one chunk for one task; None when it contributes nothing."""
    kb, s = ctx.kb, ctx.settings
    chunk = kb.chunk(item.chunk_id)
    if chunk is None:
        return None  # removed from the knowledge base since it was found
    docs = ctx.documents()
    reader = Reader(kb, docs)
    first = reader.add(docs[chunk.doc_id], chunk.page, chunk.section, chunk.chunk_id, chunk.text)
    assert first is not None
    anchor, state = ctx.state.anchor, ctx.state
    messages = P.EXTRACT.render(
        language=state.language, max_requests=s.requests_per_turn, question=state.question,
        scope=anchor.scope if anchor else "-", avoid="; ".join(anchor.avoid) if anchor and anchor.avoid else "-",
        task=task.task, task_context=task.context, registry=registry_line(list(docs.values())),
        reference_note=P.REFERENCE_NOTE.format(via=item.via, origin=origin) if item.via else "",
        where=first.header(), text=chunk.text,
    )
    answer = await ctx.ask_messages(messages, Extraction, "research.extract")
    turns, served = 1, 0
    while answer.requests and turns <= s.context_turns:
        new, notes = await asyncio.to_thread(reader.serve, answer.requests, s.requests_per_turn)
        served += len(new)
        follow = P.EXTRACT_MORE.format(
            served=_served_text(new), notes="".join(n + "\n" for n in notes) + ("\n" if notes else ""),
            last_turn=P.EXTRACT_LAST_TURN if turns == s.context_turns else "",
        )
        messages = messages + [Message(role="assistant", content=answer.model_dump_json()),
                               Message(role="user", content=follow)]
        answer = await ctx.ask_messages(messages, Extraction, "research.extract")
        turns += 1
    if not answer.relevant or answer.relevance < s.drop_relevance or not answer.info.strip():
        return None
    return Finding(
        id=finding_id, task_id=task.id, chunk_id=chunk.chunk_id, doc_id=chunk.doc_id, doc=first.doc.file_name,
        page=chunk.page, section=chunk.section, depth=item.depth,
        tier=_tier(item.depth, answer.relevance, s.tier1_min_relevance), relevance=answer.relevance,
        info=answer.info.strip(), quotes=await _verify(reader.sources, answer), references=answer.references,
        referenced_from=item.referenced_from, via=item.via, turns=turns, served_requests=served,
    )
