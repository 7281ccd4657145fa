"""BM25 on the server, scored as SQLite's FTS5 scores the workstation index, so a knowledge base ranks
alike in both modes (benchmarks/retrieval_quality.py measures it).

A chunk's terms are the workstation's own (desktop.kb.lexical: German and English stems, "§5",
numbers by value); PostgreSQL matches them through a GIN index on a ``tsvector`` of those terms, not
through its own dictionaries, whose stems differ. The score is FTS5's bm25 (k1 = 1.2, b = 0.75, an
IDF of at least 1e-6, the header twice the body) from each chunk's term frequencies, the terms'
document frequencies (table ``lexicon``) and the knowledge base's size (table ``counters``).
As on the workstation, terms in at least half the chunks are left out first (they cannot change the
order) unless that leaves too few hits.
"""

from __future__ import annotations

import math

from psycopg import sql

from desktop.kb.fts import COMMON_SHARE
from desktop.kb.server.catalog import ServerCatalog, to_psycopg

K1, B = 1.2, 0.75


def _tsquery(terms: list[str]) -> str:
    """A tsquery matching any of the terms, each taken literally."""
    return " | ".join("'" + t.replace("\\", "\\\\").replace("'", "''") + "'" for t in terms)


def _idf(rows: int, hits: int) -> float:
    idf = math.log((rows - hits + 0.5) / (hits + 0.5))
    return idf if idf > 0 else 1e-6


def bm25(catalog: ServerCatalog, alternatives: list[str], limit: int, where: str = "",
         params: list[object] | None = None) -> list[tuple[str, float]]:
    """(chunk id, BM25 score), best first, of the chunks holding any of these terms."""
    if not alternatives:
        return []
    rows, tokens = catalog.sizes()
    if rows <= 0:
        return []
    found = {r["term"]: r["df"] for r in catalog.raw("SELECT term, df FROM lexicon WHERE term = ANY(%s)",
                                                     (sorted(set(alternatives)),))}
    terms = [t for t in alternatives if found.get(t)]
    if not terms:
        return []
    average = tokens / rows
    parts, values = [], []
    for term in terms:
        parts.append(sql.SQL("%s * (c.tf ->> %s)::float8 / ((c.tf ->> %s)::float8 + %s * (1 - %s + %s * c.ntok / %s))"))
        values += [_idf(rows, found[term]) * (K1 + 1), term, term, K1, B, B, average]
    score = sql.SQL(" + ").join(sql.SQL("COALESCE({}, 0)").format(p) for p in parts)
    statement = sql.SQL("SELECT c.chunk_id, ({score}) AS score FROM chunks c "
                        "WHERE c.terms @@ %s::tsquery {scope} ORDER BY score DESC, c.chunk_id LIMIT %s").format(
        score=score, scope=sql.SQL(" AND " + to_psycopg(where)) if where else sql.SQL(""))
    found_rows = catalog.raw(statement, (*values, _tsquery(sorted(set(terms))), *(params or []), limit))
    return [(r["chunk_id"], float(r["score"])) for r in found_rows]


def prune_common(catalog: ServerCatalog, terms: list[tuple[str, ...]]) -> list[tuple[str, ...]]:
    """The query terms without the alternatives that occur in most chunks."""
    words = sorted({alt for alts in terms for alt in alts})
    rows, _ = catalog.sizes()
    if not words or not rows:
        return terms
    found = catalog.raw("SELECT term FROM lexicon WHERE term = ANY(%s) AND df >= %s", (words, COMMON_SHARE * rows))
    frequent = {r["term"] for r in found}
    pruned = [kept for alts in terms if (kept := tuple(a for a in alts if a not in frequent))]
    return pruned or terms


def search(catalog: ServerCatalog, terms: list[tuple[str, ...]], limit: int, where: str = "",
           params: list[object] | None = None) -> list[tuple[str, float]]:
    """BM25 ranking for query terms (each with its alternatives); as desktop.kb.fts.search."""
    # (a term two query words share counts twice, as it does in FTS5's bm25)
    flat = [a for alts in terms for a in alts]
    if not flat:
        return []
    pruned = prune_common(catalog, terms)
    if pruned != terms:
        hits = bm25(catalog, [a for alts in pruned for a in alts], limit, where, params)
        if len(hits) >= limit:
            return hits
    return bm25(catalog, flat, limit, where, params)
