"""The excerpts of one batch (``reader.Reader``): a chunk is shown once, and a chunk gathered for two tasks
with different sentences shows each task its own."""

from __future__ import annotations

from datetime import UTC, datetime
from types import SimpleNamespace

from desktop.engine.reader import Reader
from desktop.engine.research_state import WorkItem
from desktop.kb.models import Chunk, DocumentInfo

DOC = DocumentInfo(doc_id="d" * 64, file_name="AtEV.pdf", path="/laws/AtEV.pdf", title="AtEV", language="de",
                   pages=20, chunks=40, size_bytes=1, ingested_at=datetime.now(UTC))
# AtEV p. 3: § 4's first sentences, as one chunk (laws-research-14)
CHUNK = ("(3) Behälter oder sonstige Einheiten zur Verpackung radioaktiver Abfälle sind mit einer Kennzeichnung nach "
         "Anlage Teil B zu versehen. § 4 Pflichten bei Abgabe und Empfang. (1) Wer radioaktive Abfälle abgibt, ist "
         "verpflichtet, vorher eine schriftliche Erklärung des Empfängers über dessen Annahmebereitschaft "
         "einzuholen. Er hat dem Empfänger dabei die erfassten Angaben zu überlassen.")


def _add(reader: Reader, task_id: int, units: list[int] | None) -> str | None:
    item = WorkItem(chunk_id="c9", units=units or [], task_id=task_id)
    source = reader.add(DOC, 3, "§ 4", "c9", CHUNK, item, only=units)
    return source.shown if source else None


def test_a_chunk_gathered_for_two_tasks_shows_each_its_own_sentences() -> None:
    """laws-research-14 (1.5B model): the question's excerpt showed the chunk's first sentence, the part on what
    to obtain from the recipient was gathered its sentence on the written declaration; in one batch the second
    excerpt was dropped as shown already, and the declaration was never read."""
    reader = Reader(kb=None, docs={DOC.doc_id: DOC})  # type: ignore[arg-type]
    first = _add(reader, 0, [1])
    second = _add(reader, 1, [3, 4])
    assert first is not None and "Behälter" in first
    assert second is not None and "Annahmebereitschaft" in second and "Behälter" not in second
    assert len(reader.sources) == 2


def test_sentences_shown_already_are_not_shown_again() -> None:
    reader = Reader(kb=None, docs={DOC.doc_id: DOC})  # type: ignore[arg-type]
    _add(reader, 0, [1, 3])
    again = _add(reader, 1, [3, 4])
    assert again is not None and "Annahmebereitschaft" not in again and "Er hat dem Empfänger" in again
    assert _add(reader, 2, [1, 4]) is None  # nothing new
    assert _add(reader, 2, None) is not None  # the whole chunk (on request) shows what the parts did not
    assert _add(reader, 3, [2]) is None  # after the whole chunk nothing of it is new
    assert _add(reader, 3, None) is None


def _chunk(chunk_id: str, page: int, ordinal: int, text: str) -> Chunk:
    return Chunk(chunk_id=chunk_id, doc_id=DOC.doc_id, page=page, ordinal=ordinal, char_start=0, char_end=len(text),
                 section="§ 4", language="de", text=text)


class _Kb:
    """The knowledge base a reader asks: chunks by id and the chunks before one."""

    def __init__(self, chunks: list[Chunk]) -> None:
        self.chunks = {c.chunk_id: c for c in chunks}
        self.catalog = SimpleNamespace(chunks_by_id=lambda ids: {i: self.chunks[i] for i in ids if i in self.chunks})

    def neighbours(self, chunk_id: str, before: int = 1, after: int = 1) -> list[Chunk]:
        at = self.chunks[chunk_id].ordinal
        return [c for c in self.chunks.values() if at - before <= c.ordinal <= at + after]


# AtEV pp. 2-3 (laws-research-14): p. 3 opens in the middle of the sentence p. 2 begins
PAGE_2 = ("(2) Die Angaben sind auf Verlangen der zuständigen Behörde vorzulegen. Die Unterlagen über die erfassten "
          "Angaben sind nach der Abgabe der radioaktiven Abfälle")
PAGE_3 = "mindestens ein Jahr lang bereitzuhalten. (3) Behälter sind zu kennzeichnen."


def _read(units: list[int] | None, page_2: str = PAGE_2, page_3: str = PAGE_3) -> str:
    kb = _Kb([_chunk("c2", 2, 4, page_2), _chunk("c3", 3, 5, page_3)])
    reader = Reader(kb=kb, docs={DOC.doc_id: DOC})  # type: ignore[arg-type]
    reader.open([WorkItem(chunk_id="c3", units=units or [], task_id=1)], {})
    return next(iter(reader.sources.values())).block()


def test_an_excerpt_opening_mid_sentence_shows_the_sentences_start_from_the_page_before() -> None:
    shown = _read([1])
    assert ('(sentence [1] begins on p. 2: "Die Unterlagen über die erfassten Angaben sind nach der Abgabe der '
            'radioaktiven Abfälle")\n[1] mindestens ein Jahr lang bereitzuhalten.') in shown
    assert "(sentence [1]" not in _read([2])  # the excerpt does not show the cut sentence
    assert "(sentence [1]" not in _read([1], page_2=PAGE_2 + ".")  # the page before ends its sentence
    assert "begins on p. 2" in _read(None)


def test_an_excerpt_opening_with_a_noun_the_page_before_runs_into_shows_the_sentences_start() -> None:
    """laws-research-14 (1.5B model): AtEV p. 3 opens "Sicherstellung und zur Endlagerung … mindestens ein Jahr lang
    bereitzuhalten.", and what is to be kept stands on p. 2, which ends "… an eine Anlage des Bundes zur". A German
    noun opens a page mid-sentence wherever the page before ends in the sentence (``closing``)."""
    page_2 = "(2) Die Angaben sind vorzulegen. Die Unterlagen sind nach der Ablieferung an eine Anlage des Bundes zur"
    noun = "Sicherstellung und zur Endlagerung radioaktiver Abfälle mindestens ein Jahr lang bereitzuhalten. (3) Gut."
    shown = _read([1], page_2, noun)
    assert ('(sentence [1] begins on p. 2: "Die Unterlagen sind nach der Ablieferung an eine Anlage des Bundes zur")\n'
            "[1] Sicherstellung und zur Endlagerung") in shown
    assert "begins on p. 2" not in _read([1], page_2 + " Abfälle.", noun)  # the page before ends its sentence
    assert "begins on p. 2" not in _read([1], "(2) Die Angaben sind vorzulegen. § 5 Ablieferung", noun)  # a title
    assert "begins on p. 2" not in _read([1], page_2, "(3) Behälter sind zu kennzeichnen.")  # a paragraph of its own


def _read_page_2(units: list[int] | None, page_3: str) -> str:
    kb = _Kb([_chunk("c2", 2, 4, PAGE_2), _chunk("c3", 3, 5, page_3)])
    reader = Reader(kb=kb, docs={DOC.doc_id: DOC})  # type: ignore[arg-type]
    reader.open([WorkItem(chunk_id="c2", units=units or [], task_id=1)], {})
    source = next(iter(reader.sources.values()))
    return source.block() + f"\nREST {source.rest()!r}"


def test_an_excerpt_ending_mid_sentence_shows_the_sentences_rest_from_the_next_page() -> None:
    """The mirror of the lead: laws-research-14's AtEV p. 2 ends "… an eine Anlage des Bundes zur", and the
    "mindestens ein Jahr lang bereitzuhalten" the part asked for stands on p. 3. A German noun opens p. 3 there,
    so the rest is found by the page before ending mid-sentence, not by a lower-case start."""
    shown = _read_page_2([2], PAGE_3)
    assert shown.endswith('[1] Die Unterlagen über die erfassten Angaben sind nach der Abgabe der radioaktiven '
                          'Abfälle\n(sentence [1] goes on on p. 3: "mindestens ein Jahr lang bereitzuhalten.")\n'
                          "REST 'mindestens ein Jahr lang bereitzuhalten.'")
    noun = "Sicherstellung und zur Endlagerung radioaktiver Abfälle mindestens ein Jahr lang bereitzuhalten."
    assert f'goes on on p. 3: "{noun}")' in _read_page_2([2], noun)
    assert "goes on" not in _read_page_2([1], PAGE_3)  # the excerpt does not show the cut sentence
    assert "goes on" not in _read_page_2([2], "(3) Behälter sind zu kennzeichnen.")  # a paragraph of its own
    assert "goes on" not in _read_page_2([2], "2. die Abfälle sind zu kennzeichnen.")  # a list's item
    assert "goes on" not in _read_page_2([2], "1.1 Inhalation Die Aktivität darf nicht höher sein.")
    assert "goes on" not in _read_page_2([2], "2c. entgegen § 7 den Zustand nicht prüft,")  # AtG § 46, p. 49
    assert 'goes on on p. 3: "30 Jahre lang bereitzuhalten.")' in _read_page_2([2], "30 Jahre lang bereitzuhalten.")


def test_a_sections_title_at_a_pages_foot_does_not_go_on_on_the_next_page() -> None:
    """A title line has no full stop; the text under it on the next page is a sentence of its own."""
    foot = "(2) Die Angaben sind vorzulegen. § 5 Ablieferung"
    kb = _Kb([_chunk("c2", 2, 4, foot), _chunk("c3", 3, 5, "Radioaktive Abfälle sind abzuliefern.")])
    reader = Reader(kb=kb, docs={DOC.doc_id: DOC})  # type: ignore[arg-type]
    reader.open([WorkItem(chunk_id="c2", units=[], task_id=1)], {})
    source = next(iter(reader.sources.values()))
    assert source.after is None and source.rest() is None and "goes on" not in source.block()
