"""Which of a finding's verified quotes a citation shows and highlights (steps/report.py): the one that holds
what the sentences citing it say, not the longest."""

from __future__ import annotations

from desktop.engine.claims import citing
from desktop.engine.research_state import Finding, QuoteRecord
from desktop.engine.steps.report import _best_quote

LIFETIME = ("Der Grenzwert für die Summe der in allen Kalenderjahren ermittelten effektiven Dosen beruflich "
            "exponierter Personen beträgt 400 Millisievert.")
EXTRA = ("Die zuständige Behörde kann im Benehmen mit einem ermächtigten Arzt eine zusätzliche berufliche "
         "Exposition zulassen, wenn diese nicht mehr als 10 Millisievert effektive Dosis im Kalenderjahr beträgt "
         "und die beruflich exponierte Person einwilligt.")


def _finding() -> Finding:
    quotes = [QuoteRecord(proposed=t, verified=True, match="exact", display=t, chunk_id="c", doc_id="d",
                          doc="StrlSchG.pdf", page=52) for t in (LIFETIME, EXTRA)]
    return Finding(id="F1", task_id=1, chunk_id="c", doc_id="d", doc="StrlSchG.pdf", page=52, tier=1,
                   relevance=1.0, quotes=quotes)


def test_the_citation_shows_the_quote_with_the_figure_of_the_sentence_citing_it() -> None:
    answer = ("Die Berufslebensdosis ist auf 400 Millisievert begrenzt [1]. Danach kann die Behörde bis zu "
              "10 Millisievert im Kalenderjahr zulassen [2].")
    by_n = citing(answer)
    assert by_n == {1: ["Die Berufslebensdosis ist auf 400 Millisievert begrenzt."],
                    2: ["Danach kann die Behörde bis zu 10 Millisievert im Kalenderjahr zulassen."]}
    assert _best_quote(_finding(), by_n[1], "de").display == LIFETIME  # the shorter one: it holds the 400
    assert _best_quote(_finding(), by_n[2], "de").display == EXTRA


def test_without_a_sentence_citing_it_the_longest_quote_is_shown() -> None:
    assert _best_quote(_finding(), [], "de").display == EXTRA
