"""BM25 on the server, scored as SQLite's FTS5 scores the workstation index, so a knowledge base ranks
alike in both modes (benchmarks/retrieval_quality.py measures it).

A chunk's terms are the workstation's own (desktop.kb.search.lexical: German and English stems, "§5",
numbers by value); PostgreSQL matches them through a GIN index on a ``tsvector`` of those terms, not
through its own dictionaries, whose stems differ. The score is FTS5's bm25 (k1 = 1.2, b = 0.75, an
IDF of at least 1e-6, the header twice the body) from each chunk's term frequencies, the terms'
document frequencies (table ``lexicon``) and the knowledge base's size (table ``counters``).
As on the workstation, terms in at least half the chunks are left out first (they cannot change the
order) unless that leaves too few hits.
"""

from __future__ import annotations

import math
from collections import Counter
from dataclasses import dataclass

from psycopg import sql

from desktop.kb.search.fts import COMMON_SHARE
from desktop.kb.server.catalog import ServerCatalog, to_psycopg

K1, B = 1.2, 0.75
MAX_NAME = 63  # PostgreSQL's longest column name, in bytes
CANDIDATES = 10_000  # chunks the rarest terms may match in the first pass (of 1k-40k, fastest at 100k chunks)


@dataclass(frozen=True)
class Stats:
    """What BM25 needs of the whole knowledge base for one query, read once per search."""

    rows: int  # chunks
    tokens: int  # terms in all chunks
    df: dict[str, int]  # chunks holding each of the query's terms (those that occur at all)

    @staticmethod
    def read(catalog: ServerCatalog, terms: list[str]) -> "Stats | None":
        """None when there is nothing to rank: no terms, no chunks."""
        rows, tokens = catalog.sizes()
        if not terms or rows <= 0:
            return None
        found = catalog.raw("SELECT term, df FROM lexicon WHERE term = ANY(%s)", (sorted(set(terms)),))
        return Stats(rows, tokens, {r["term"]: r["df"] for r in found})


def _tsquery(terms: list[str]) -> str:
    """A tsquery matching any of the terms, each taken literally."""
    return " | ".join("'" + t.replace("\\", "\\\\").replace("'", "''") + "'" for t in terms)


def _idf(rows: int, hits: int) -> float:
    # the chunk count and the lexicon are read one after the other: an ingest committing between them
    # leaves a term in more chunks than were counted (seen: a math domain error in a search during an ingest)
    idf = math.log((max(rows - hits, 0) + 0.5) / (hits + 0.5))
    return idf if idf > 0 else 1e-6


def bm25(catalog: ServerCatalog, stats: Stats, alternatives: list[str], limit: int, where: str = "",
         params: list[object] | None = None) -> list[tuple[str, float]]:
    """(chunk id, BM25 score), best first, of the chunks holding any of these terms.

    Exact, but without scoring every match (half of 100k chunks hold one of a question's dozen terms):
    the rarest terms are matched first and their chunks scored with all terms, which gives a k-th
    score; then only the chunks holding a term that could lift a chunk to that score are scored
    (MaxScore: a chunk holding only commoner terms scores below the sum of their ceilings).
    """
    df, rows = stats.df, stats.rows
    terms = [t for t in alternatives if df.get(t)]
    if not terms:
        return []
    weights = Counter(terms)  # a term two query words share counts twice
    idf = {t: _idf(rows, df[t]) for t in weights}
    by_rarity = sorted(weights, key=lambda t: (df[t], t))
    essential, covered = [], 0
    for term in by_rarity:
        if essential and covered + df[term] > CANDIDATES:
            break
        essential.append(term)
        covered += df[term]

    def scored(match: list[str]) -> list[tuple[str, float]]:
        return _scored(catalog, weights, idf, stats.tokens / rows, match, limit, where, params)

    if len(essential) == len(by_rarity):
        return scored(by_rarity)
    hits = scored(essential)
    if len(hits) < limit:
        return scored(by_rarity)
    # The commonest terms whose ceilings (the most a term adds, at any frequency) sum below the k-th
    # score found need not match: a chunk holding only them cannot reach the top k.
    ceiling, optional = 0.0, set()
    for term in reversed(by_rarity):
        ceiling += weights[term] * idf[term] * (K1 + 1)
        if ceiling >= hits[-1][1]:
            break
        optional.add(term)
    needed = [t for t in by_rarity if t not in optional]
    if len(needed) <= len(essential):
        return hits
    return scored(needed)


def _scored(catalog: ServerCatalog, weights: Counter[str], idf: dict[str, float], average: float, match: list[str],
            limit: int, where: str, params: list[object] | None) -> list[tuple[str, float]]:
    """The ``limit`` best chunks holding any term of ``match``, scored with all terms. A chunk's term
    frequencies are read in one pass (jsonb_to_record: 2.7 times faster than a lookup per term at 100k)."""
    columns, parts, values = [], [], []
    for term, times in weights.items():
        if len(term.encode()) <= MAX_NAME:
            columns.append(sql.SQL("{} float8").format(sql.Identifier(term)))
            freq: sql.Composable = sql.SQL("f.{}").format(sql.Identifier(term))
        else:  # longer than a column name may be: looked up on its own
            freq = sql.SQL("(c.tf ->> {})::float8").format(sql.Literal(term))
        parts.append(sql.SQL("COALESCE(%s * {f} / ({f} + %s * (1 - %s + %s * c.ntok / %s)), 0)").format(f=freq))
        values += [times * idf[term] * (K1 + 1), K1, B, B, average]
    record = (sql.SQL(" CROSS JOIN LATERAL jsonb_to_record(c.tf) AS f({})").format(sql.SQL(", ").join(columns))
              if columns else sql.SQL(""))
    statement = sql.SQL("SELECT c.chunk_id, ({score}) AS score FROM chunks c{record} "
                        "WHERE c.terms @@ %s::tsquery {scope} ORDER BY score DESC, c.chunk_id LIMIT %s").format(
        score=sql.SQL(" + ").join(parts), record=record,
        scope=sql.SQL(" AND " + to_psycopg(where)) if where else sql.SQL(""))
    found = catalog.raw(statement, (*values, _tsquery(sorted(match)), *(params or []), limit))
    return [(r["chunk_id"], float(r["score"])) for r in found]


def search(catalog: ServerCatalog, terms: list[tuple[str, ...]], limit: int, where: str = "",
           params: list[object] | None = None) -> list[tuple[str, float]]:
    """BM25 ranking for query terms (each with its alternatives), as desktop.kb.search.fts.search: first
    without the alternatives in at least half the chunks, all of them when that finds too few."""
    # (a term two query words share counts twice, as it does in FTS5's bm25)
    flat = [a for alts in terms for a in alts]
    stats = Stats.read(catalog, flat)
    if stats is None:
        return []
    common = COMMON_SHARE * stats.rows
    pruned = [kept for alts in terms if (kept := tuple(a for a in alts if stats.df.get(a, 0) < common))]
    if pruned and pruned != terms:
        hits = bm25(catalog, stats, [a for alts in pruned for a in alts], limit, where, params)
        if len(hits) >= limit:
            return hits
    return bm25(catalog, stats, flat, limit, where, params)
