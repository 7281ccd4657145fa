"""BM25 over the FTS5 index, fast at 100k chunks.

A question ORs a dozen terms, which match nearly half of a large index; scoring every match is what
costs. So: terms that occur in at least half of all chunks are left out (FTS5 gives them an IDF of
almost zero: they cannot change the order); without a filter, ranking happens inside FTS5 before the
join; with a document filter, the chunks' rowid range narrows the index scan (a document's chunks are
written together, so their rowids are contiguous). Measured in benchmarks/search_latency.py.
"""

from __future__ import annotations

import sqlite3

from desktop.kb.storage.catalog import row_to_chunk
from desktop.kb.storage.workstation import WorkstationCatalog
from desktop.kb.ingestion.ingest import chunk_header
from desktop.kb.search.lexical import fts_terms, match_expression

COMMON_SHARE = 0.5  # at this document frequency FTS5's BM25 IDF is 1e-6: the term no longer ranks
_WEIGHTS = "2.0, 1.0"  # head (document, section, title) counts twice the body
# The index's own version, kept in the catalog's meta: a database written by an older one is indexed
# again when opened. 2: numbers also by their value (lexical.fts_terms).
LEXICAL_VERSION = "2"


def upgrade(catalog: WorkstationCatalog) -> int:
    """Index the chunks again whose terms this version writes otherwise, when the database was indexed
    by an older one; the number of chunks indexed (0: it was current). One transaction: a crash leaves
    the old index."""
    if catalog.get_meta("lexical_version") == LEXICAL_VERSION:
        return 0
    names = catalog.document_names()
    # only a chunk with a separated number ("1.234", "0,3") is indexed otherwise now (in its text, or in
    # its header: title, section); SQLite's GLOB finds them without tokenising every chunk
    number = "'*[0-9][.,][0-9]*'"
    rows = catalog.query(
        f"SELECT c.* FROM chunks c JOIN documents d ON d.doc_id = c.doc_id WHERE c.text GLOB {number} "
        f"OR COALESCE(c.section, '') || ' ' || COALESCE(c.section_title, '') || ' ' || d.title || ' ' "
        f"|| COALESCE(d.short_name, '') GLOB {number}")
    with catalog.transaction() as db:
        for row in rows:
            chunk = row_to_chunk(row)
            head = chunk_header(*names.get(chunk.doc_id, (None, "")), chunk)
            db.execute("UPDATE chunks_fts SET head = ?, body = ? WHERE rowid = ?",
                       (fts_terms(head, chunk.language), fts_terms(chunk.text, chunk.language), row["rowid"]))
        db.execute("INSERT OR REPLACE INTO meta VALUES ('lexical_version', ?)", (LEXICAL_VERSION,))
    return len(rows)


def prune_common(catalog: WorkstationCatalog, terms: list[tuple[str, ...]]) -> list[tuple[str, ...]]:
    """The query terms without the alternatives that occur in most chunks."""
    words = sorted({alt for alts in terms for alt in alts})
    if not words:
        return terms
    rows = catalog.query("SELECT COALESCE(MAX(rowid), 0) AS n FROM chunks")[0]["n"]  # never below the true count
    found = catalog.query(f"SELECT term, doc FROM chunks_vocab WHERE term IN ({','.join('?' * len(words))})", words)
    frequent = {r["term"] for r in found if r["doc"] >= COMMON_SHARE * rows}
    pruned = [kept for alts in terms if (kept := tuple(a for a in alts if a not in frequent))]
    return pruned or terms


def _run(catalog: WorkstationCatalog, sql: str, params: tuple[object, ...]) -> list[tuple[str, float]]:
    try:
        rows = catalog.query(sql, params)
    except sqlite3.OperationalError:
        return []  # a query FTS5 cannot parse finds nothing rather than failing the search
    return [(r["chunk_id"], float(r["score"])) for r in rows]


def bm25(catalog: WorkstationCatalog, match: str, limit: int, where: str = "", params: list[object] | None = None,
         doc_ids: list[str] | None = None) -> list[tuple[str, float]]:
    """(chunk id, BM25 score, higher is better) for an FTS5 match expression, best first."""
    params = params or []
    if not where:
        sql = f"""SELECT c.chunk_id, -f.s AS score FROM (
                     SELECT rowid, bm25(chunks_fts, {_WEIGHTS}) AS s FROM chunks_fts
                     WHERE chunks_fts MATCH ? ORDER BY s LIMIT ?) f
                  JOIN chunks c ON c.rowid = f.rowid ORDER BY f.s"""
        return _run(catalog, sql, (match, limit))
    extra = ""
    if doc_ids:
        span = catalog.query(f"SELECT MIN(rowid) AS lo, MAX(rowid) AS hi FROM chunks WHERE doc_id IN "
                             f"({','.join('?' * len(doc_ids))})", doc_ids)[0]
        if span["lo"] is None:
            return []
        extra = f" AND chunks_fts.rowid BETWEEN {int(span['lo'])} AND {int(span['hi'])}"
    sql = f"""SELECT c.chunk_id, -bm25(chunks_fts, {_WEIGHTS}) AS score
              FROM chunks_fts JOIN chunks c ON c.rowid = chunks_fts.rowid
              WHERE chunks_fts MATCH ?{extra} AND {where}
              ORDER BY bm25(chunks_fts, {_WEIGHTS}) LIMIT ?"""
    return _run(catalog, sql, (match, *params, limit))


def search(catalog: WorkstationCatalog, terms: list[tuple[str, ...]], limit: int, where: str = "",
           params: list[object] | None = None, doc_ids: list[str] | None = None) -> list[tuple[str, float]]:
    """BM25 ranking for query terms; if leaving out the common terms finds too little, all are used."""
    full = match_expression(terms)
    if full is None:
        return []
    pruned = match_expression(prune_common(catalog, terms))
    if pruned != full:
        hits = bm25(catalog, pruned, limit, where, params, doc_ids)  # type: ignore[arg-type]
        if len(hits) >= limit:
            return hits
    return bm25(catalog, full, limit, where, params, doc_ids)
