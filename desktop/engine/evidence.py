"""Evidence the engine gathers without the model: the first half of reading a research task.

A careful researcher with a slow assistant reads widely and cheaply first and spends the expensive
reader on what matters. For one task the engine searches with the task and its queries (hybrid,
fused; a task asked in another language than the documents searches again with the documents' sentences
closest to it in meaning), cuts each chunk found to the sentences that answer the task best (``focus.score``: the
question's words, and a figure where the question asks for one; by meaning where the question is in
another language than the chunk), leaves out what the run already
gathered (the same chunk, or the same sentences standing in another document), and follows the
statute references in those sentences — "§ 5 Absatz 2", "Anlage 4", "§ 3 Absatz 1 des Atomgesetzes" —
through the resolver to the best chunk of the unit they name, depth by depth. So every run whose
evidence cites a § or an Anlage follows it, whatever the model. The model then reads this compact,
numbered evidence (``extraction.py``): a few sentences with their document, page and section instead
of whole chunks, several times the sources in the tokens four chunks cost.

Everything here is blocking knowledge-base work; a step runs ``gather`` in one of its worker threads.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

from rapidfuzz import fuzz

from desktop.engine.checks import written_in
from desktop.engine.focus import asks_for_figure, score, states_figure
from desktop.engine.research_state import WorkItem
from desktop.engine.sentences import units
from desktop.kb.database import KnowledgeBase
from desktop.kb.models import Chunk, ResolvedReference, SearchHit
from desktop.kb.search.hybrid import rrf

MAX_WORDS = 90  # an evidence item's sentences together: about a paragraph, 100-150 tokens
MAX_SENTENCES = 3
SECOND_SHARE = 0.4  # another sentence joins the best one when it scores this share of it
REFERENCES_PER_ITEM = 2  # references followed from one item: a statute sentence may cite a dozen units
DUPLICATE = 92  # rapidfuzz ratio at which an item's sentences repeat what was gathered already
SMALL_UNIT = 2  # a unit of at most this many chunks is followed into whatever its closest chunk says
WIDEN = 4  # a task short of excerpts searches up to this many times ``Limits.per_query`` deep (``Gatherer._searched``)
FIGURE_LEAN = 0.02  # by meaning, a sentence stating a figure the aim asks for leans this much closer (cosine)
THEIR_WORDS_POOL = 5  # first-ranked chunks whose sentences closest in meaning to the task are searched again
THEIR_WORDS_SENTENCES = 3  # ... that many of them, as one search in the documents' own words
THEIR_WORDS_WEIGHT = 3.0  # its ranking's weight in the fusion, against 1 for each of the task's own queries
SPEAKS = 0.2  # of a longer unit, the closest chunk must hold this share of the aim (focus.score) in a sentence
# A sentence that leans on the one before it ("Dies gilt …", "Satz 1 gilt entsprechend", "Abweichend von …").
_CONTINUES = re.compile(r"^(?:[a-zäöü]|(?:Dies|Das|Diese[rs]?|Dabei|Dazu|Daneben|Danach|Hierbei|Hierfür|Sie|Er|Es|"
                        r"Satz \d|Die Sätze|Abweichend|Im Fall|Ferner|Außerdem|This|These|Such|It|They|In that case|"
                        r"Paragraph \(\d)\b)")


@dataclass(frozen=True)
class Aim:
    """What a task's evidence should answer: the research question, the task and its queries. The queries
    are written in the documents' language, so an English question over German statutes still picks the
    German sentences; a figure counts where the question asks for one."""

    text: str
    wants_figure: bool
    task: str = ""  # the task's own words, in the question's language: what is ranked by meaning (``cut``)

    @classmethod
    def of(cls, question: str, task: str, queries: list[str]) -> "Aim":
        return cls(" ".join(dict.fromkeys([question, task, *queries])), asks_for_figure(question), task)


@dataclass(frozen=True)
class Limits:
    room: int  # evidence items the task may read, searched and followed together
    per_query: int  # search results per query
    depth: int  # how deep references are followed
    per_doc: int  # references followed into one document per task
    fusion_k: int = 60  # reciprocal rank fusion constant for the task's query results


@dataclass
class Followed:
    """A reference followed: the item it led to and what the user is told about it."""

    item: WorkItem
    reference: str
    unit: str  # "doc_id|§ 5": the unit it led into, followed once per task
    doc_id: str
    doc: str
    page: int
    section: str | None


@dataclass
class Gathered:
    """What ``gather`` found for a task: the items in reading order (each followed item right after the
    item that cites it), the references followed, and how many candidates the search turned up."""

    items: list[WorkItem] = field(default_factory=list)
    followed: list[Followed] = field(default_factory=list)
    candidates: int = 0
    duplicates: int = 0
    capped: list[str] = field(default_factory=list)  # documents no longer followed into (``Limits.per_doc``)


def search(kb: KnowledgeBase, queries: list[str], k: int, language: str) -> list[list[SearchHit]]:
    """Each query's hits, in order: hybrid where the query is written in the documents' ``language``, by meaning
    (and the units it cites) where it is not. The lexical index holds the documents' words; another language's
    words match it only by accident ("Act", a name, a number), and those matches push the cross-language
    dense hits down the fused ranking (§18's six English questions over the German laws, on their saved queries:
    18 of their 30 facts' chunks within a task's first 8 candidates, 20 searched this way; run afresh, §19,
    19 of the 30 gathered against 18 — the model's translations of the parts are what limits them)."""
    semantic = [not written_in(q, language) for q in queries]
    found = {mode: iter(kb.search_many(group, k, mode) if group else []) for mode, group in
             (("hybrid", [q for q, s in zip(queries, semantic) if not s]),
              ("semantic", [q for q, s in zip(queries, semantic) if s]))}
    return [next(found["semantic" if s else "hybrid"]) for s in semantic]


Closeness = Callable[[list[str]], Sequence[float]]  # each sentence's closeness in meaning to an aim


def cut(text: str, aim: Aim, language: str, close: Closeness | None = None) -> list[int]:
    """The numbers (``sentences.units``) of the sentences of ``text`` that answer ``aim`` best: the best one,
    the next ones that score at least ``SECOND_SHARE`` of it, and the sentence before the first when it only
    continues that one; in their order, at most ``MAX_SENTENCES`` within ``MAX_WORDS``. A short chunk is
    shown whole. Scored by the aim's words, or with ``close`` by meaning (``Gatherer``: an aim in another
    language than the documents shares no words with them)."""
    found = units(text)
    if len(found) <= 2 or len(text.split()) <= MAX_WORDS // 2:
        return [u.number for u in found]
    sentence = {u.number: text[u.start:u.end] for u in found}
    scores = _by_meaning(sentence, aim, close) if close else \
        {n: score(aim.text, s, language, aim.wants_figure) for n, s in sentence.items()}
    ranked = sorted(scores, key=lambda n: (-scores[n], n))
    if scores[ranked[0]] <= 0:  # nothing of the aim stands in it (a reference target, a served neighbour)
        ranked = [n for n in ranked if len(sentence[n].split()) >= 4] or ranked
        ranked.sort()
    best = ranked[0]
    chosen = [best] + ([best - 1] if best > 1 and _CONTINUES.match(sentence[best]) else [])
    chosen += [n for n in ranked[1:] if n not in chosen and scores[n] >= SECOND_SHARE * scores[best] > 0]
    return _within(sorted(set(chosen)), sentence, chosen)


def _by_meaning(sentence: dict[int, str], aim: Aim, close: Closeness) -> dict[int, float]:
    """Each sentence's closeness in meaning to the aim (a cosine, always above 0), a sentence stating a figure
    leaning closer where the aim asks for one."""
    closeness = close(list(sentence.values()))
    return {n: float(c) + (FIGURE_LEAN if aim.wants_figure and states_figure(s) else 0.0)
            for (n, s), c in zip(sentence.items(), closeness)}


def cut_text(text: str, aim: Aim, language: str) -> str:
    """The text of ``text``'s best sentences for ``aim`` (what an evidence item of it shows)."""
    by_number = {u.number: u for u in units(text)}
    return " ".join(text[by_number[n].start:by_number[n].end] for n in cut(text, aim, language)) or text


def _within(numbers: list[int], sentence: dict[int, str], priority: list[int]) -> list[int]:
    """At most ``MAX_SENTENCES`` of ``numbers`` and ``MAX_WORDS`` words, the first in ``priority`` kept."""
    kept = [priority[0]]
    words = len(sentence[priority[0]].split())
    for n in priority[1:]:
        size = len(sentence[n].split())
        if len(kept) < MAX_SENTENCES and words + size <= MAX_WORDS:
            kept.append(n)
            words += size
    return [n for n in numbers if n in kept]


def shown_text(chunk: Chunk, numbers: list[int]) -> str:
    """The sentences of an item as one text (what duplicates and references are judged on)."""
    by_number = {u.number: u for u in units(chunk.text)}
    return " ".join(chunk.text[by_number[n].start:by_number[n].end] for n in numbers if n in by_number) or chunk.text


def where(chunk: Chunk, doc: str) -> str:
    return f"{doc}, p. {chunk.page}" + (f", {chunk.section}" if chunk.section else "")


class Gatherer:
    """Gathers one task's evidence in a worker thread: its own copy of what the run has gathered, so the
    step's state is changed only on the loop, with the result."""

    def __init__(self, kb: KnowledgeBase, aim: Aim, limits: Limits, seen: list[WorkItem], followed_units: list[str],
                 doc_names: dict[str, str], language: str, asked_in: str | None = None) -> None:
        self.kb = kb
        self.language = language  # the documents' (``search``)
        self.asked_in = asked_in or language  # the question's
        self.aim = aim
        self.close = self._closeness(aim.task) if self.asked_in != language and aim.task else None
        self.limits = limits
        # the sentences of each chunk shown so far (None: all of it — an older run read whole chunks)
        self.shown: dict[str, set[int] | None] = {}
        for w in seen:
            had = self.shown.get(w.chunk_id, set())
            self.shown[w.chunk_id] = None if had is None or not w.units else had | set(w.units)
        self.followed_units = set(followed_units)
        self.doc_names = doc_names
        self.doc_follows: dict[str, int] = {}
        self.capped: set[str] = set()
        known = kb.catalog.chunks_by_id([w.chunk_id for w in seen])
        self.texts = {w.chunk_id: shown_text(known[w.chunk_id], w.units) for w in seen if w.chunk_id in known}

    def gather(self, queries: list[str]) -> Gathered:
        result = Gathered()
        if self.limits.room <= 0:
            return result
        searched = self._searched(queries, result)
        reference_room = self.limits.room // 2 if self.limits.depth and self.limits.room > 1 else 0
        children = self._follow(searched, reference_room, result)
        keep = searched[: max(1, self.limits.room - len(result.followed))]
        for item, _ in keep:  # each followed item right after the one that cites it
            result.items.append(item)
            result.items += children.get(item.chunk_id, [])
        orphans = [f.item for f in result.followed if f.item not in result.items]  # their citing item fell out
        result.items += orphans
        result.capped = sorted(self.capped)
        return result

    def _searched(self, queries: list[str], result: Gathered) -> list[tuple[WorkItem, Chunk]]:
        """The task's search results cut to their sentences, best first, at most ``limits.room``. When the first
        ``per_query`` results of its queries hold fewer new excerpts than the task may read, it searches deeper,
        up to ``WIDEN`` times as deep: a task of one or two queries, or one whose best chunks an earlier task
        took, would otherwise read what those few results hold and leave the time it has unused (§27's
        single-fact laws-dev-01 and -03: 11 excerpts found and read, runs of 130 s and 71 s of a 300 s budget)."""
        searched: list[tuple[WorkItem, Chunk]] = []
        considered: set[str] = set()
        k = self.limits.per_query
        their_words: str | None = None
        while True:
            hits = search(self.kb, queries, k, self.language)
            rankings = [[h.chunk_id for h in found] for found in hits]
            weights = [1.0] * len(rankings)
            if self.close is not None:
                their_words = self._in_their_words(rankings) if their_words is None else their_words
                if their_words:
                    rankings.append([h.chunk_id for h in search(self.kb, [their_words], k, self.language)[0]])
                    weights.append(THEIR_WORDS_WEIGHT)
            scores = rrf(rankings, self.limits.fusion_k, weights)
            ranked = [c for c in sorted(scores, key=lambda c: -scores[c]) if c not in considered]
            considered.update(ranked)
            chunks = self.kb.catalog.chunks_by_id(ranked)
            for chunk_id in ranked:
                if len(searched) >= self.limits.room or chunk_id not in chunks:
                    continue
                if (found := self._item(chunks[chunk_id], score=round(scores[chunk_id], 4))) is None:
                    result.duplicates += 1
                    continue
                searched.append((found, chunks[chunk_id]))
            exhausted = all(len(found) < k for found in rankings)  # the knowledge base has nothing more for them
            if len(searched) >= self.limits.room or exhausted or k >= self.limits.per_query * WIDEN:
                result.candidates = len(considered)
                return searched
            k = min(2 * k, self.limits.per_query * WIDEN)

    def _in_their_words(self, rankings: list[list[str]]) -> str:
        """A search in the documents' own words for a task asked in another language: the sentences of its
        first-ranked chunks that come closest in meaning to the task. Across languages only the embedder
        searches (``search``), and a short part of a question finds its passage by meaning alone far down
        ("within what periods must it confirm completeness": § 33 StrlSchG's "innerhalb von 14 Kalendertagen"
        at rank 155); the model's translations are no help on a small model ("Zeitraum, in dem es ermittelt
        werden muss, dass die Notifizierung vollständig …"). The closest sentences carry the documents' terms
        ("Anzeige", "Deckungsvorsorge") into a search by words. "" where nothing was found."""
        assert self.close is not None
        first = sorted(scores := rrf(rankings, self.limits.fusion_k), key=lambda c: -scores[c])[:THEIR_WORDS_POOL]
        chunks = self.kb.catalog.chunks_by_id(first)
        sentences = [c.text[u.start:u.end] for c in (chunks[i] for i in first if i in chunks) for u in units(c.text)]
        sentences = [s for s in sentences if len(s.split()) >= 5]
        if not sentences:
            return ""
        closeness = self.close(sentences)
        best = sorted(range(len(sentences)), key=lambda i: -closeness[i])[:THEIR_WORDS_SENTENCES]
        return " ".join(sentences[i] for i in best)

    def _closeness(self, words: str) -> Closeness:
        """How close in meaning sentences are to ``words`` (the knowledge base's multilingual embedder, cosines
        of normalised vectors). An English task over German statutes shares no words with them: ranked by
        words, each chunk showed its first sentences (seen, laws-research-06 and -12: "2,5 Milliarden Euro",
        "80 Millionen Euro", "vier Wochen" stood in chunks read for their part, in no sentence shown)."""
        aim = self.kb.embedder.embed_query(words)
        return lambda texts: (self.kb.embedder.embed_passages(texts) @ aim).tolist()

    def _item(self, chunk: Chunk, **fields: object) -> WorkItem | None:
        """The chunk cut to its best sentences for this task, or None when the run has shown them already: in
        this chunk (another task read other sentences of it: the new ones are shown) or standing in another."""
        numbers = cut(chunk.text, self.aim, chunk.language, self.close if chunk.language != self.asked_in else None)
        if chunk.chunk_id in self.shown:
            before = self.shown[chunk.chunk_id]
            if before is None or all(n in before for n in numbers):
                return None
            numbers = [n for n in numbers if n not in before]
        text = shown_text(chunk, numbers)
        if len(text.split()) >= 8 and any(fuzz.partial_ratio(text, other) >= DUPLICATE
                                          for other_id, other in self.texts.items()
                                          if other_id != chunk.chunk_id and len(other) >= len(text) * 0.5):
            return None
        self.shown[chunk.chunk_id] = (self.shown.get(chunk.chunk_id) or set()) | set(numbers)
        self.texts[chunk.chunk_id] = f"{self.texts.get(chunk.chunk_id, '')} {text}".strip()
        return WorkItem(chunk_id=chunk.chunk_id, units=numbers, **fields)  # type: ignore[arg-type]

    def _follow(self, searched: list[tuple[WorkItem, Chunk]], room: int, result: Gathered) -> dict[str, list[WorkItem]]:
        """Follow the references in the items' sentences, breadth first to ``limits.depth``, at most ``room``
        items; returns the followed items by the chunk id of the item that cites them."""
        children: dict[str, list[WorkItem]] = {}
        level = searched
        for depth in range(1, self.limits.depth + 1):
            following: list[tuple[WorkItem, Chunk]] = []
            for item, chunk in level:
                for child, child_chunk, ref, unit in self._references(item, chunk, depth, room - len(result.followed)):
                    children.setdefault(_root(item, children), []).append(child)
                    result.followed.append(Followed(child, ref, unit, child_chunk.doc_id,
                                                    self.doc_names.get(child_chunk.doc_id, ""), child_chunk.page,
                                                    child_chunk.section))
                    following.append((child, child_chunk))
            level = following
        return children

    def _references(self, item: WorkItem, chunk: Chunk, depth: int, room: int) -> list[tuple[WorkItem, Chunk, str, str]]:
        """Items for the references in ``item``'s sentences: each unit once per task, never the item's own
        unit, at most ``limits.per_doc`` into one document, ``REFERENCES_PER_ITEM`` from one item and
        ``room`` in all."""
        out: list[tuple[WorkItem, Chunk, str, str]] = []
        if room <= 0:
            return out
        origin = where(chunk, self.doc_names.get(chunk.doc_id, ""))
        for ref in self._cited(chunk, item.units):
            for target in ref.targets:
                unit = f"{target.doc_id}|{target.section}"
                if (len(out) >= min(REFERENCES_PER_ITEM, room) or not target.chunk_ids or target.doc_id is None
                        or unit in self.followed_units or (target.doc_id, target.section) == (chunk.doc_id, chunk.section)):
                    continue
                if self.doc_follows.get(target.doc_id, 0) >= self.limits.per_doc:
                    self.capped.add(target.doc_id)
                    continue
                best = next((c for c, _ in self.kb.rank(self.aim.text, target.chunk_ids) if c not in self.shown), None)
                found = self.kb.catalog.chunks_by_id([best]).get(best) if best else None
                if found is not None and len(target.chunk_ids) > SMALL_UNIT and not self._speaks_to_aim(found):
                    continue  # a long annex whose closest chunk says nothing of the task (a list of nuclides)
                child = self._item(found, depth=depth, referenced_from=item.chunk_id, via=ref.reference.text,
                                   origin=origin) if found else None
                if child is None or found is None:
                    continue
                self.followed_units.add(unit)
                self.doc_follows[target.doc_id] = self.doc_follows.get(target.doc_id, 0) + 1
                out.append((child, found, ref.reference.text, unit))
        return out


    def _speaks_to_aim(self, chunk: Chunk) -> bool:
        """A sentence of the chunk holds more of the aim than the unit's own name ("Anlage")."""
        return any(score(self.aim.text, chunk.text[u.start:u.end], chunk.language, self.aim.wants_figure) >= SPEAKS
                   for u in units(chunk.text))

    def _cited(self, chunk: Chunk, numbers: list[int]) -> list[ResolvedReference]:
        """The references standing in the shown sentences, resolved with the whole chunk as their context
        (a bare "Absatz 1" at a sentence's start belongs to the chunk's own §)."""
        spans = [(u.start, u.end) for u in units(chunk.text) if not numbers or u.number in numbers]
        return [r for r in self.kb.references(chunk.text, chunk.doc_id)
                if any(a <= r.reference.start < b for a, b in spans)]


def _root(item: WorkItem, children: dict[str, list[WorkItem]]) -> str:
    """The searched item a followed one hangs under (a depth-2 item under the root of its parent)."""
    for root, kids in children.items():
        if any(k.chunk_id == item.chunk_id for k in kids):
            return root
    return item.chunk_id
