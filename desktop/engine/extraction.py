"""The model reads the evidence the engine gathered (``evidence.py``) for one task, several items in one
LLM call: it grades each and names the sentences that state what helps — no restatement of them, which
cost a small model a minute a run and was where its errors were; in a bounded conversation it may ask for
more context (``reader.py``). Each helpful excerpt becomes a finding whose quotes — sentences the model
pointed at — are cut from the source, verified and located on the PDF page.

A batch shares one copy of the instructions, and its prompt starts with the same text for every batch
of a run, so the server's prompt cache reuses it."""

from __future__ import annotations

import logging
from collections.abc import Callable

from desktop.engine import prompts as P
from desktop.engine.answer import whole_words
from desktop.engine.answer_kinds import asks_kind, holds_kind
from desktop.engine.estimate import room_for_requests
from desktop.engine.focus import answers, focused
from desktop.engine.prompts import language_name
from desktop.engine.question_parts import parts
from desktop.engine.quote_locate import locate
from desktop.engine.quotes import QuoteCheck, verify_quote
from desktop.engine.reader import Reader, Source, registry_line
from desktop.engine.research_state import Finding, QuoteRecord, WorkItem
from desktop.engine.schemas import INFO_CHARS, ExcerptReading, ExtractionBatch, TranslatedBatch
from desktop.engine.sentences import quotes
from desktop.engine.statements import restates
from desktop.engine.state import Todo, by_parts
from desktop.engine.step_context import StepContext
from desktop.kb.database import KnowledgeBase
from desktop.kb.errors import KbError
from desktop.kb.models import Chunk, DocumentInfo
from desktop.kb.ingestion.tables import header_of, is_table_rows
from desktop.llm.types import Message
from desktop.report.model import Rect

log = logging.getLogger(__name__)
INFO_TOKENS = 60  # a reading's line in the answer's language
QUOTED_SENTENCES = 4  # the model's and the engine's picks of an excerpt together
PASSED_OVER = 2  # the grade of an excerpt the model passed over whose sentences answer a task (of 3)


def _tier(depth: int, relevance: float, tier1_min: float) -> int:
    if depth == 0:
        return 1 if relevance >= tier1_min else 2
    return 2 if depth == 1 else 3


async def _quotes(ctx: StepContext, source: Source, reading: ExcerptReading) -> list[QuoteRecord]:
    """The sentences the model named, cut from the source, verified against it and located on the page; a
    sentence begun in the chunk before (``Source.start``) with its start from there, and one that goes on in the
    next chunk (``Source.rest``) with its rest, each on its own page."""
    records = []
    header = header_of(source.text)
    found = list(source.units)
    for text in quotes(source.text, found, reading.quote):
        check, rects = await ctx.in_thread(_verified, ctx.kb, source.doc, source.page, source.text, text)
        records.append(QuoteRecord(
            proposed=text, verified=check.verified, match=check.match, display=check.display if check.verified else None,
            chunk_id=source.chunk_id or "", doc_id=source.doc.doc_id, doc=source.doc.file_name, page=source.page,
            rects=rects, table_header=header if header and is_table_rows(text) else None))
    start, rest = source.start(), source.rest()
    if start and source.before and found and records and found[0].number in reading.quote and records[0].verified and \
            (lead := await _across(ctx, source.doc, source.before, start)) is not None:
        records[0] = records[0].model_copy(update={"continues": True})
        records.insert(0, lead)
    if rest and source.after and found and found[-1].number in reading.quote and records[-1].verified and \
            (tail := await _across(ctx, source.doc, source.after, rest)) is not None:
        records.append(tail.model_copy(update={"continues": True}))
    return records


async def _across(ctx: StepContext, doc: DocumentInfo, chunk: Chunk, text: str) -> QuoteRecord | None:
    """The part of a quoted sentence that stands across a page break, in ``chunk`` (the page before or after the
    excerpt's), verified and located on its own page; None where it does not verify."""
    check, rects = await ctx.in_thread(_verified, ctx.kb, doc, chunk.page, chunk.text, text)
    if not check.verified:
        return None
    return QuoteRecord(proposed=text, verified=True, match=check.match, display=check.display, chunk_id=chunk.chunk_id,
                       doc_id=doc.doc_id, doc=doc.file_name, page=chunk.page, rects=rects)


def _verified(kb: KnowledgeBase, doc: DocumentInfo, page: int, source_text: str,
              text: str) -> tuple[QuoteCheck, list[Rect]]:
    """A quote checked against its source's text and, when it stands there, located on the PDF page: text work
    over a whole chunk and a page, off the event loop."""
    check = verify_quote(text, source_text)
    return check, _locate(kb, doc, page, check.display or "") if check.verified else []


def _locate(kb: KnowledgeBase, doc: DocumentInfo, page: int, text: str) -> list[Rect]:
    """Where a verified quote stands on its page; none when the PDF cannot be had (the quote still stands)."""
    try:
        return locate(kb.pdf_file(doc), page, text)
    except KbError as exc:
        log.info("quote not located: %s", exc)
        return []


def _sentences(reader: Reader) -> dict[str, dict[int, str]]:
    """Each excerpt's sentences by their numbers, as the model saw them."""
    return {label: {u.number: src.text[u.start:u.end] for u in src.units} for label, src in reader.sources.items()}


def _merge(readings: dict[str, ExcerptReading], answer: ExtractionBatch) -> None:
    """A later turn's reading of an excerpt replaces the earlier one; excerpts it leaves out keep theirs."""
    for reading in answer.readings:
        readings[reading.excerpt.strip().upper()] = reading


def _notes(items: list[WorkItem], origins: dict[str, str]) -> dict[str, str]:
    """What the model is told of an excerpt reached through a reference: which, and from where (an older
    run's item names the finding it came from)."""
    return {i.chunk_id: P.REFERENCE_NOTE.format(via=i.via, origin=i.origin or origins.get(i.referenced_from or "",
                                                                                      "another excerpt"))
            for i in items if i.via}


def translated(ctx: StepContext) -> bool:
    """The documents are in another language than the answer: each reading says what it holds in the
    answer's language too (the answer's statements are checked against those lines)."""
    return ctx.state.language != ctx.state.doc_language


def _schema(ctx: StepContext) -> tuple[type[ExtractionBatch], int]:
    """The reading's schema and its longest answer per excerpt."""
    return (TranslatedBatch, P.EXTRACT.max_tokens + INFO_TOKENS) if translated(ctx) else (ExtractionBatch, P.EXTRACT.max_tokens)


def _tasks_block(tasks: list[Todo]) -> str:
    if len(tasks) == 1:
        return f"Task: {tasks[0].task}\n{tasks[0].context}".rstrip()
    return "Tasks:\n" + "\n".join(f"{t.id}. {t.task}" for t in tasks)


def extract_prompt(ctx: StepContext, tasks: list[Todo], docs: list[DocumentInfo], excerpts: str,
                   requests_note: str) -> list[Message]:
    """The reading prompt over ``excerpts`` gathered for ``tasks``; its system text is the same for every
    call of a run, and so is the start of its user text (the question), for the server's prompt cache."""
    state, anchor, s = ctx.state, ctx.state.anchor, ctx.settings
    translate = translated(ctx)
    return P.EXTRACT.render(
        language=state.language, max_requests=s.requests_per_turn, question=state.question,
        scope=anchor.scope if anchor and anchor.scope else "-",
        avoid="; ".join(anchor.avoid) if anchor and anchor.avoid else "-",
        tasks=_tasks_block(tasks), registry=registry_line(docs), excerpts=excerpts,
        requests_note=requests_note, info_rule=P.INFO_RULE.format(language=language_name(state.language)) if translate else "",
        extract_answer=P.extract_answer(translate, state.language),
    )


async def _converse(ctx: StepContext, tasks: list[Todo], reader: Reader, docs: list) -> tuple[dict[str, ExcerptReading], int]:
    """The reading conversation: the excerpts, then as many turns of served requests as the settings and the
    time budget allow. Returns the latest reading of each excerpt and the number of turns."""
    s = ctx.settings
    turns_allowed = s.context_turns if await room_for_requests(ctx) else 0  # a served turn costs the slow server time
    several = len(tasks) > 1
    messages = extract_prompt(ctx, tasks, docs, "\n\n".join(src.block(several) for src in reader.sources.values()),
                              "" if turns_allowed else P.NO_TIME_FOR_REQUESTS)
    schema, per_excerpt = _schema(ctx)
    answer = await ctx.ask_messages(messages, schema, P.EXTRACT.name, max_tokens=per_excerpt * len(reader.sources))
    readings: dict[str, ExcerptReading] = {}
    _merge(readings, answer)
    turns = 1
    # each further turn needs room in what is left of the budget and something new to read: the readings are in,
    # and a turn with nothing served would only repeat them (seen, 1.5B model, laws-research-11: the same request
    # three times after it was served, 20-40 s a turn, the run 368 s of its 300)
    while answer.requests and turns <= turns_allowed and await room_for_requests(ctx):
        new, notes = await ctx.in_thread(reader.serve, answer.requests, s.requests_per_turn)
        if not new:
            break
        follow = P.EXTRACT_MORE.format(
            served="\n\n".join(src.block() for src in new),
            notes="".join(n + "\n" for n in notes) + ("\n" if notes else ""),
            last_turn=P.EXTRACT_LAST_TURN if turns == turns_allowed else "",
        )
        messages = messages + [Message(role="assistant", content=answer.model_dump_json()),
                               Message(role="user", content=follow)]
        answer = await ctx.ask_messages(messages, schema, P.EXTRACT.name, max_tokens=per_excerpt * len(reader.sources))
        _merge(readings, answer)
        turns += 1
    return readings, turns


async def read_batch(ctx: StepContext, todos: dict[int, Todo], items: list[WorkItem], new_id: Callable[[], str],
                     origins: dict[str, str]) -> list[Finding]:
    """Read a batch of evidence (``items``, each with the ``task_id`` it was gathered for, among ``todos``);
    the findings of the excerpts that help."""
    s, state = ctx.settings, ctx.state
    docs = await ctx.documents()
    research = state.later.research
    reader = Reader(ctx.kb, docs, frozenset({*research.visited, *research.served} - {i.chunk_id for i in items}))
    await ctx.in_thread(reader.open, items, _notes(items, origins))
    if not reader.sources:
        return []
    tasks = [todos[t] for t in dict.fromkeys(i.task_id for i in items) if t in todos]
    readings, turns = await _converse(ctx, tasks, reader, list(docs.values()))
    research.served += [src.chunk_id for src in reader.sources.values() if src.item is None and src.chunk_id]
    findings = []
    sentences = _sentences(reader)
    asked = parts(state.question)
    copied = _copied(readings)
    asked_all = [state.question, *(t.task for t in (state.plan.items if state.plan else tasks))]
    quoted = _quoted(state.later.research.findings)  # read before (served on request, for another task)
    rescued = {label: r for label, r in passed_over(reader, readings, sentences, list(state.plan.items) if state.plan
                                                    else tasks, state.doc_language, state.language,
                                                    by_parts(state)).items()
               if _shows_more(sentences[label], quoted.get(reader.sources[label].chunk_id or "", ""))}
    for label, reading in [*readings.items(), *rescued.items()]:
        source = reader.sources.get(label)
        if source is None:
            continue  # a label the model made up
        item = source.item
        task = todos.get(item.task_id) if item and item.task_id is not None else None
        task = task or tasks[0]  # text served on request: the batch's first task
        # the engine's second look (focus.py): what a sentence should answer is the question and its task, and
        # each part of a question that asks several things; a relevant excerpt the model named no sentence of
        # is quoted as the engine picked it (the sentences shown, best first when the engine cut the chunk)
        quote = reading.quote
        for aim in [f"{state.question}\n{task.task}", *(asked if len(asked) > 1 else [])]:
            quote = focused(quote, aim, sentences[label], state.language, limit=QUOTED_SENTENCES)
        quote = [n for n in quote if n in sentences[label]] or [u.number for u in source.units][:3]
        if item is not None:  # evidence the engine cut to its best sentences: each is quoted, the model's first
            quote = [*quote, *(n for n in sentences[label] if n not in quote)][:QUOTED_SENTENCES]
        reading = reading.model_copy(update={"quote": quote})
        relevance = reading.relevance / 3
        if relevance < s.drop_relevance:
            continue
        depth = item.depth if item else 0
        findings.append(Finding(
            id=new_id(), task_id=task.id, chunk_id=source.chunk_id or "", doc_id=source.doc.doc_id,
            doc=source.doc.file_name, page=source.page, section=source.section, depth=depth,
            tier=_tier(depth, relevance, s.tier1_min_relevance), relevance=round(relevance, 3),
            title=source.title, info="" if label in copied else _reading_line(reading, asked_all, state.language),
            quotes=await _quotes(ctx, source, reading),
            referenced_from=item.referenced_from if item else None, via=item.via if item else None,
            origin=item.origin if item else None, turns=turns, served_requests=reader.served(),
            picked_by_engine=label in rescued,
        ))
    return _one_per_passage(findings)


def passed_over(reader: Reader, readings: dict[str, ExcerptReading], sentences: dict[str, dict[int, str]],
                tasks: list[Todo], language: str, asked_in: str | None = None,
                plan_by_parts: bool = False) -> dict[str, ExcerptReading]:
    """The excerpts of evidence the engine gathered that the model left out of its answer though their shown
    sentences answer a task of the plan (``focus.answers``: half its words, and a figure where it asks for one),
    each with a reading of all its sentences; it stays the finding of the task it was gathered for (the task
    it answers counts it as its own evidence: ``coverage._candidates``). Seen (1.5B model, laws-de research
    questions): an excerpt gathered for one part stating the "fünf Arbeitstage" another part asked for, one
    stating "sechs Monate" for the deadline asked for, and one stating "zwölf Monate", each left out — the
    model lists only what it judges helpful for the task the excerpt was shown for. Such evidence is kept,
    marked as the engine's pick, and graded ``PASSED_OVER``.

    A question asked in another language (``asked_in``) than the documents shares no words with them: there an
    excerpt is kept when its sentences, cut by meaning for its own task (``evidence.Gatherer``), hold the kind of
    answer that task asks for (``answer_kinds.holds_kind``: a figure of its kind, a named body) — not for the
    whole question of a plan by its parts, which asks for every part's kind. Seen (laws-research-12, English
    parts over the German laws): § 67 StrlSchV's "spätestens sechs Monate nach dem Einsatz" and § 71's "mehr als
    6 Millisievert" were shown for their parts and passed over; the model called two of eight excerpts helpful."""
    own = {t.id: t for t in tasks}
    across = asked_in is not None and asked_in != language
    out: dict[str, ExcerptReading] = {}
    for label, source in reader.sources.items():
        if label in readings or source.item is None or not sentences.get(label):
            continue  # read, or text served on request (the model asked for it and then passed it over)
        text = " ".join(sentences[label].values())
        task = own.get(source.item.task_id) if source.item.task_id is not None else None
        of_kind = across and task is not None and not (plan_by_parts and task.id == 0) and asks_kind(task.task) \
            and holds_kind(task.task, text)
        if of_kind or any(answers(t.task, text, language) for t in tasks):
            out[label] = ExcerptReading(excerpt=label, relevance=PASSED_OVER, quote=[])
    return out


def _quoted(findings: list[Finding]) -> dict[str, str]:
    """What the findings quote of each passage, by its chunk id, one sentence a line."""
    out: dict[str, list[str]] = {}
    for f in findings:
        out.setdefault(f.chunk_id, []).extend(" ".join(q.proposed.split()) for q in f.quotes)
    return {chunk: "\n".join(texts) for chunk, texts in out.items()}


def _shows_more(shown: dict[int, str], quoted: str) -> bool:
    """Whether an excerpt shows a sentence the findings of its passage do not quote (``quoted``). A passage is
    cut for each task it is gathered for, so a second task may be shown what the first was not. Seen
    (laws-dev-02, a 1.5B model): § 78 StrlSchG was shown for the question with its sentence on the 50 mSv
    exception and kept; shown again for the part on the annual limit with "(1) Der Grenzwert der effektiven Dosis
    beträgt für beruflich exponierte Personen 20 Millisievert im Kalenderjahr.", it was passed over, and as a
    passage read before it was not kept: the 20 Millisievert stood in no finding."""
    return any(" ".join(text.split()) not in quoted for text in shown.values())


def _reading_line(reading: ExcerptReading, asked: list[str], language: str) -> str:
    """The reading's line of what the excerpt says, or "" where it says nothing of it (``statements.restates``:
    a question, or the question's own words): the excerpt is then shown by its quote."""
    line = whole_words(getattr(reading, "info", ""), INFO_CHARS)
    return "" if restates(line, asked, language) else line


def _copied(readings: dict[str, ExcerptReading]) -> set[str]:
    """The labels of readings whose line repeats another's word for word: it says nothing of its excerpt
    (seen: a 1.5B model gave six excerpts of six sections the same English line)."""
    lines: dict[str, list[str]] = {}
    for label, reading in readings.items():
        line = " ".join(getattr(reading, "info", "").split()).casefold()
        if line:
            lines.setdefault(line, []).append(label)
    return {label for labels in lines.values() if len(labels) > 1 for label in labels}


def _one_per_passage(findings: list[Finding]) -> list[Finding]:
    """A passage read for a task in part (the engine's pick) and whole (on request) is one finding: the first,
    with the other's quotes added and the higher relevance. (Other sentences of it read for another task are
    a finding of that task.)"""
    by_chunk: dict[tuple[int, str], Finding] = {}
    for f in findings:
        first = by_chunk.get((f.task_id, f.chunk_id)) if f.chunk_id else None
        if first is None:
            by_chunk[(f.task_id, f.chunk_id or f.id)] = f
            continue
        known = {q.proposed for q in first.quotes}
        first.quotes += [q for q in f.quotes if q.proposed not in known]
        if f.relevance > first.relevance:
            first.relevance, first.tier = f.relevance, f.tier
    return list(by_chunk.values())
