"""The excerpts of one reading conversation, as the model sees them, and the context it may ask for.

An excerpt is evidence the engine gathered (``evidence.py``: a few sentences of a chunk, numbered anew
from [1], with "(…)" where the chunk's other sentences are left out) or text served on the model's
request. Requests — the interactive retrieval of the design — are served from the knowledge base, each
once, and never with a chunk the run read in an earlier conversation: ``neighbours`` shows the whole chunk
of an excerpt that showed only part of it, then the chunks around it; ``pages`` a document's pages;
``keyword`` an exact-words search in a document; ``semantic`` a search, optionally filtered; either search
within the pages asked for. All of it is blocking work: the step calls ``Reader.open`` and ``Reader.serve``
in its worker threads.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field, replace

from desktop.engine.focus import title_line
from desktop.engine.research_state import WorkItem
from desktop.engine.schemas import ContextRequest
from desktop.engine.sentences import Unit, numbered, units
from desktop.kb.database import KnowledgeBase
from desktop.kb.errors import KbError
from desktop.kb.models import Chunk, DocumentInfo, SearchFilter
from desktop.kb.textnorm import resolve_line_hyphens

_MAX_REGISTRY = 40
_PAGES_PER_REQUEST = 2
_SERVED = 3  # chunks a search request serves
# A chunk that opens in the middle of a sentence: a lower-case word, not a list's item ("b) soweit …").
_MID_SENTENCE = re.compile(r"\s*(?![a-zäöüß]{1,2}\)\s)[a-zäöüß]")
_ENDS_SENTENCE = re.compile(r"[.!?:;]\W*\s*$")
# Text that starts a paragraph, section or heading of its own: a chunk opening so does not go on with the sentence
# the chunk before ends in (a German noun does: "… an eine Anlage des Bundes zur | Sicherstellung und …").
# A list's item ("2. für die lokale Hautdosis …", "2c. entgegen …", "1.1 Inhalation", "c) in die Umgebung …") is a sentence of its own
# for the reader; an amount is not ("… sind | 30 Jahre lang aufzubewahren." goes on).
_NEW_BLOCK = re.compile(r"\s*(?:\(\d+[a-z]?\)|§|\d+[a-z]?\.(?:\d+\.?)*\s|[a-z]{1,2}\)\s|(?:Anlage|Anhang|Abschnitt|Kapitel|Teil|"
                        r"Artikel|Art\.|Section|Article|Annex|Chapter|Part)\s+\w{1,4}\b)")
LEAD_CHARS = 160  # of the sentence's start on the page before, at most


@dataclass(frozen=True)
class Source:
    """An excerpt the LLM has seen, by its label, with its numbered sentences."""

    label: str
    doc: DocumentInfo
    page: int
    section: str | None
    chunk_id: str | None
    text: str  # the whole chunk (or page): quotes are cut from it and verified against it
    units: tuple[Unit, ...]  # the sentences shown, by the numbers the model read, with offsets in ``text``
    shown: str  # the numbered text the model read
    item: WorkItem | None = None  # the evidence it was read for (None: served on request)
    note: str | None = None
    title: str | None = None  # the section's title
    partial: bool = False  # some of the chunk's sentences are left out
    lead: str | None = None  # the start of the sentence the excerpt opens in, from the page before (``opening``)
    before: Chunk | None = None  # the chunk that sentence starts in, on the page before (with ``lead``)
    after: Chunk | None = None  # the chunk its last sentence goes on in, on the next page (``closing``)

    def header(self, with_task: bool = False) -> str:
        section = " ".join(x for x in (self.section, self.title) if x)
        where = f"{self.doc.file_name}, p. {self.page}" + (f", {section}" if section else "")
        task = f"; for task {self.item.task_id}" if with_task and self.item and self.item.task_id is not None else ""
        return where + task + (f"; {self.note}" if self.note else "")

    def block(self, with_task: bool = False) -> str:
        """The excerpt as the model reads it; ``with_task``: the batch reads for several tasks, each excerpt
        says which it was gathered for."""
        lead = f'(sentence [1] begins on p. {self.page - 1}: "{self.lead}")\n' if self.lead else ""
        return f"Excerpt {self.label} ({self.header(with_task)}):\n{lead}{self.shown}{self._goes_on()}"

    def _goes_on(self) -> str:
        rest = self.rest()
        if rest is None or self.after is None:
            return ""
        shown = resolve_line_hyphens(rest)
        shown = shown if len(shown) <= LEAD_CHARS else shown[:LEAD_CHARS].rsplit(" ", 1)[0] + " …"
        return f'\n(sentence [{self.units[-1].number}] goes on on p. {self.after.page}: "{shown}")'

    def start(self) -> str | None:
        """The start of the excerpt's first sentence from the chunk before it (``before``), where the excerpt
        opens in a sentence begun there: that chunk's last sentence, as its text has it."""
        if self.before is None or self.lead is None:
            return None
        last = units(self.before.text)
        return self.before.text[last[-1].start:last[-1].end] if last else None

    def rest(self) -> str | None:
        """The rest of the excerpt's last shown sentence from the chunk after it (``after``), where that sentence
        is the chunk's last: the first sentence of that chunk, as its text has it."""
        if self.after is None or not self.units or self.units[-1].end < len(self.text.rstrip()):
            return None
        first = units(self.after.text)
        return self.after.text[first[0].start:first[0].end] if first else None


def opening(chunk: Chunk, before: Chunk | None) -> str | None:
    """The start of the sentence ``chunk`` opens in the middle of, from the chunk before it on the page before
    (its last sentence, the last ``LEAD_CHARS`` of it), or None. A chunk is a page's text, and a page break
    cuts sentences: 93 of the sample laws' 1,832 chunks open in a sentence begun on the page before with a
    lower-case word. One opening with a capital word goes on where ``closing`` joins the two pages (a German
    noun: laws-research-14, AtEV p. 3 opens "Sicherstellung und zur Endlagerung … mindestens ein Jahr lang
    bereitzuhalten", and what is to be kept, and by whom, stands on p. 2)."""
    if before is None or before.doc_id != chunk.doc_id or before.page != chunk.page - 1:
        return None
    if not _MID_SENTENCE.match(chunk.text) and closing(before, chunk) is None:
        return None  # a capital word goes on with the sentence only where the page before ends mid-sentence
    if _ENDS_SENTENCE.search(before.text):
        return None
    last = units(before.text)
    if not last:
        return None
    text = resolve_line_hyphens(before.text[last[-1].start:last[-1].end])
    if len(text) > LEAD_CHARS:
        text = "… " + text[-LEAD_CHARS:].split(" ", 1)[-1]
    return text


def closing(chunk: Chunk, after: Chunk | None) -> Chunk | None:
    """The chunk ``chunk``'s last sentence goes on in, or None: the next chunk of its document, on the next
    page, where ``chunk`` ends mid-sentence and that chunk opens no paragraph, section or list item of its own.
    The mirror of ``opening``; seen, 15 of 81 lines of 16 research answers stopped at a page break ("… die
    Aktivität des Radionuklids i im Jahresdurchschnitt im Kubikmeter Luft darf …", the limit on the next page;
    laws-research-14: "… an eine Anlage des Bundes zur …", the "mindestens ein Jahr lang bereitzuhalten" asked
    for on the next)."""
    if after is None or after.doc_id != chunk.doc_id or after.page != chunk.page + 1:
        return None
    if _ENDS_SENTENCE.search(chunk.text) or _NEW_BLOCK.match(after.text):
        return None
    last = units(chunk.text)
    if last and title_line(chunk.text[last[-1].start:last[-1].end]):
        return None  # a section's title at the page's foot ends no sentence: its text starts on the next page
    return after


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
    # chunks the run read in earlier conversations (gathered or served): a search request serves others (seen,
    # laws-dev-09 with a 1.5B model: the same keyword request in two batches served the same three chunks of
    # § 175 StrlSchG twice, and each was read and kept twice)
    read_before: frozenset[str] = frozenset()
    sources: dict[str, Source] = field(default_factory=dict)
    asked: set[str] = field(default_factory=set)
    # the sentence numbers shown of each chunk (by document, page and chunk id); None: the whole chunk
    shown: dict[tuple[str, int, str | None], set[int] | None] = field(default_factory=dict)

    def open(self, items: list[WorkItem], notes: dict[str, str]) -> None:
        """The batch's evidence as excerpts (``notes`` by chunk id: how a followed reference led there);
        a chunk removed from the knowledge base since it was gathered is left out."""
        chunks = self.kb.catalog.chunks_by_id([i.chunk_id for i in items])
        for item in items:
            chunk = chunks.get(item.chunk_id)
            if chunk is not None and chunk.doc_id in self.docs:
                source = self.add(self.docs[chunk.doc_id], chunk.page, chunk.section, chunk.chunk_id, chunk.text, item,
                                  notes.get(item.chunk_id), chunk.section_title, item.units)
                # only an excerpt that shows the chunk's first sentence, which may open mid-sentence, asks for the one before
                if source is not None and source.units and not _NEW_BLOCK.match(chunk.text) and \
                        source.units[0].start == units(chunk.text)[0].start:
                    before = self._next(chunk, -1)
                    if (lead := opening(chunk, before)) is not None:
                        source = self.sources[source.label] = replace(source, lead=lead, before=before)
                # only one that shows the chunk's last sentence, which ends mid-sentence, asks for the one after
                if source is not None and source.units and not _ENDS_SENTENCE.search(chunk.text) and \
                        source.units[-1].end >= len(chunk.text.rstrip()):
                    self.sources[source.label] = replace(source, after=closing(chunk, self._next(chunk, 1)))

    def _next(self, chunk: Chunk, step: int) -> Chunk | None:
        """The chunk before (``step`` -1) or after (1) ``chunk`` in its document."""
        near = [c for c in self.kb.neighbours(chunk.chunk_id, int(step < 0), int(step > 0)) if c.chunk_id != chunk.chunk_id]
        return near[0 if step > 0 else -1] if near else None

    def add(self, doc: DocumentInfo, page: int, section: str | None, chunk_id: str | None, text: str,
            item: WorkItem | None = None, note: str | None = None, title: str | None = None,
            only: list[int] | None = None) -> Source | None:
        where = (doc.doc_id, page, chunk_id)
        before = self.shown.get(where, set())
        if before is None:
            return None  # shown whole already
        if only:
            # a chunk gathered for two tasks shows each its own sentences: the second excerpt those the first did
            # not (seen, laws-research-14: the part on what to obtain from the recipient was gathered the
            # sentence "… vorher eine schriftliche Erklärung des Empfängers … einzuholen" of a chunk whose other
            # sentence another part's excerpt showed in the same batch; it was dropped as shown already)
            only = [n for n in only if n not in before]
            if not only:
                return None
        shown, units = numbered(text, only)
        partial = bool(only) and len(units) < len(numbered(text)[1])
        self.shown[where] = before | set(only or []) if partial else None
        source = Source(f"S{len(self.sources) + 1}", doc, page, section, chunk_id, text, tuple(units), shown, item,
                        note, title, partial)
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

    def served(self) -> int:
        """Excerpts served on request in this conversation."""
        return sum(1 for s in self.sources.values() if s.item is None)

    def _doc(self, ref: str) -> DocumentInfo:
        if not ref.strip():
            raise ValueError("it names no document")
        found = self.kb.find_document(ref.strip())
        return self.docs.get(found.doc_id, found)

    def _neighbours(self, req: ContextRequest) -> list[Source]:
        source = self.sources.get(req.source.strip().upper() or "S1")
        if source is None or source.chunk_id is None:
            raise ValueError(f"there is no excerpt '{req.source}' to extend")
        if source.partial:  # first the rest of its own passage
            whole = self.add(source.doc, source.page, source.section, source.chunk_id, source.text, title=source.title)
            if whole is not None:
                return [whole]
        chunks = [c for c in self.kb.neighbours(source.chunk_id, 1, 1) if c.chunk_id not in self.read_before]
        return [s for c in chunks
                if (s := self.add(self.docs[c.doc_id], c.page, c.section, c.chunk_id, c.text, title=c.section_title))]

    def _serve_one(self, req: ContextRequest) -> list[Source]:
        kb = self.kb
        if req.kind == "neighbours":
            return self._neighbours(req)
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
        # a keyword search is in one document; either kind keeps to the pages asked for
        doc = self._doc(req.doc).doc_id if req.kind == "keyword" or req.doc.strip() else None
        tags = [req.tag] if req.kind != "keyword" and req.tag.strip() else None
        filt = SearchFilter(docs=[doc] if doc else None, tags=tags, page_from=req.page_from or None,
                            page_to=req.page_to or None)
        hits = kb.search(req.query, _SERVED + len(self.read_before), "lexical" if req.kind == "keyword" else "hybrid",
                         None if filt.is_empty() else filt)
        fresh = [h for h in hits if h.chunk_id not in self.read_before][:_SERVED]
        return [s for h in fresh
                if (s := self.add(self.docs[h.doc_id], h.page, h.section, h.chunk_id, h.text, title=h.section_title))]
