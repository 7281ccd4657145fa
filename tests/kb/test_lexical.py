"""The lexical tokeniser from several threads at once: ingestion, searches and extraction reads all
stem text, each on its own worker thread."""

from __future__ import annotations

import threading
from pathlib import Path

import pymupdf

from desktop.kb.search import lexical

SAMPLE = Path(__file__).resolve().parents[2] / "kb"


def _pages() -> list[str]:
    with pymupdf.open(SAMPLE / "StrlSchV.pdf") as doc:
        return [page.get_text() for page in doc]


def test_stemming_from_eight_threads_gives_the_serial_result() -> None:
    pages = _pages()
    lexical._stem.cache_clear()  # every word stemmed afresh, as in a new process
    serial = [lexical.index_terms(text, "de") for text in pages]
    lexical._stem.cache_clear()
    results: dict[int, list[str]] = {}
    errors: list[BaseException] = []
    start = threading.Barrier(8)

    def work(n: int) -> None:
        start.wait()
        try:
            results[n] = [lexical.index_terms(text, "de") for text in pages]
        except BaseException as exc:  # noqa: BLE001 - a stemmer crash is what this test looks for
            errors.append(exc)

    threads = [threading.Thread(target=work, args=(n,)) for n in range(8)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(120)
    assert errors == []
    assert all(results[n] == serial for n in range(8))


def test_each_thread_stems_with_its_own_stemmer() -> None:
    seen: list[object] = []
    thread = threading.Thread(target=lambda: seen.append(lexical._stemmer("de")))
    thread.start()
    thread.join()
    assert seen[0] is not lexical._stemmer("de") and lexical._stemmer("de") is lexical._stemmer("de")


def test_the_server_bm25_weight_survives_a_term_counted_in_more_chunks_than_the_chunk_count() -> None:
    """The server reads the chunk count, then the lexicon: a document committed between the two reads left
    a term in more chunks than counted, and the search failed with a math domain error."""
    from desktop.kb.server.lexical import _idf

    assert _idf(100, 120) == 1e-6 and _idf(100, 1) > _idf(100, 50) > 0
