"""Hybrid search: dense (cosine) and lexical (BM25) rankings fused by reciprocal rank
fusion, with filters by document, tag, metadata, page range and section."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import numpy as np

from desktop.kb.storage.catalog import SqlCatalog
from desktop.kb.search.lexical import query_terms
from desktop.kb.models import Chunk, DocumentInfo, SearchFilter, SearchHit, SearchMode


@dataclass(frozen=True)
class Scope:
    """A filter turned into what each index understands; ``doc_ids`` None means every document."""

    doc_ids: list[str] | None
    page_from: int | None
    page_to: int | None
    section: str | None

    @property
    def empty(self) -> bool:
        return self.doc_ids is not None and not self.doc_ids

    def chroma_where(self) -> dict[str, Any] | None:
        clauses: list[dict[str, Any]] = []
        if self.doc_ids is not None:
            clauses.append({"doc_id": {"$in": self.doc_ids}})
        if self.page_from:
            clauses.append({"page": {"$gte": self.page_from}})
        if self.page_to:
            clauses.append({"page": {"$lte": self.page_to}})
        if self.section:
            clauses.append({"section": self.section})
        if not clauses:
            return None
        return clauses[0] if len(clauses) == 1 else {"$and": clauses}

    def admits(self, chunk: Chunk) -> bool:
        return (
            (self.doc_ids is None or chunk.doc_id in self.doc_ids)
            and (not self.page_from or chunk.page >= self.page_from)
            and (not self.page_to or chunk.page <= self.page_to)
            and (not self.section or chunk.section == self.section)
        )

    def sql_where(self) -> tuple[str, list[object]]:
        parts: list[str] = []
        params: list[object] = []
        if self.doc_ids is not None:
            parts.append(f"c.doc_id IN ({','.join('?' * len(self.doc_ids))})")
            params += self.doc_ids
        if self.page_from:
            parts.append("c.page >= ?")
            params.append(self.page_from)
        if self.page_to:
            parts.append("c.page <= ?")
            params.append(self.page_to)
        if self.section:
            parts.append("c.section = ?")
            params.append(self.section)
        return " AND ".join(parts), params


def scope_for(documents: list[DocumentInfo], filt: SearchFilter | None) -> Scope:
    if filt is None or filt.is_empty():
        return Scope(None, None, None, None)
    docs = documents
    if filt.docs:
        wanted = set(filt.docs)
        docs = [d for d in docs if d.doc_id in wanted or d.file_name in wanted or d.path in wanted]
    if filt.tags:
        tags = {t.casefold() for t in filt.tags}
        docs = [d for d in docs if tags & {t.casefold() for t in d.tags}]
    if filt.meta:
        docs = [d for d in docs if all(d.meta.get(k, "").casefold() == v.casefold() for k, v in filt.meta.items())]
    restricted = bool(filt.docs or filt.tags or filt.meta)
    return Scope([d.doc_id for d in docs] if restricted else None, filt.page_from, filt.page_to, filt.section)


def rrf(rankings: list[list[str]], k: int, weights: list[float] | None = None) -> dict[str, float]:
    """Reciprocal rank fusion: each list adds weight / (k + rank) for the ids it ranks."""
    scores: dict[str, float] = {}
    for ranking, weight in zip(rankings, weights or [1.0] * len(rankings)):
        for rank, cid in enumerate(ranking, start=1):
            scores[cid] = scores.get(cid, 0.0) + weight / (k + rank)
    return scores


SMALL_SCOPE = 1000  # chunks ranked exactly from their vectors when a filter leaves at most this many
OVERFETCH = 1000  # unfiltered candidates a larger filtered search chooses from

def zscore_fusion(dense: list[tuple[str, float]], lexical: list[tuple[str, float]], dense_weight: float) -> dict[str, float]:
    """Each retriever's scores standardised (z-scores), then mixed: w·z(cosine) + (1−w)·z(BM25).

    Unlike rank fusion this keeps how far ahead a hit is (a BM25 match on the exact wording of a
    passage stands out), which measured better on every dev set (benchmarks/fusion_experiments.py).
    A chunk one retriever did not return counts as that retriever's lowest score.
    """

    def standardise(ranking: list[tuple[str, float]]) -> tuple[dict[str, float], float]:
        if not ranking:
            return {}, 0.0
        values = [v for _, v in ranking]
        mean = sum(values) / len(values)
        spread = (sum((v - mean) ** 2 for v in values) / len(values)) ** 0.5 or 1.0
        return {c: (v - mean) / spread for c, v in ranking}, (min(values) - mean) / spread

    (d, d_floor), (lx, l_floor) = standardise(dense), standardise(lexical)
    return {c: dense_weight * d.get(c, d_floor) + (1 - dense_weight) * lx.get(c, l_floor) for c in {*d, *lx}}


# A unit the query cites by name ("§ 78 StrlSchG") is what the user asked for: its first chunks go
# first, ahead of the best dense or lexical match (z-scores rarely exceed 3).
CITATION_BOOST = 4.0
CITATION_CHUNKS = 5


class Searcher:
    def __init__(
        self,
        catalog: SqlCatalog,
        dense: Callable[[np.ndarray, int, dict[str, Any] | None], list[tuple[str, float]]],
        embed_query: Callable[[str], np.ndarray],
        fetch_k: int,
        rrf_k: int,
        cited: Callable[[str], list[list[Chunk]]] = lambda query: [],
        vectors_of: Callable[[list[str]], dict[str, np.ndarray]] = lambda ids: {},
        fusion: str = "zscore",
        dense_weight: float = 0.5,
        *,
        lexical: Callable[[list[tuple[str, ...]], int, Scope], list[tuple[str, float]]],
    ) -> None:
        self.lexical = lexical  # the catalog's own BM25 (FTS5 on a workstation, SQL on the server)
        self.fusion = fusion
        self.dense_weight = dense_weight
        self.catalog = catalog
        self.vectors_of = vectors_of  # stored vectors by chunk id, for exact ranking of a small scope
        self.dense = dense  # the vector store's query; never called while no chunk has a vector
        self.embed_query = embed_query
        self.cited = cited  # the chunks of each unit the query cites
        self.fetch_k = fetch_k
        self.rrf_k = rrf_k

    def lexical_ranking(self, query: str, scope: Scope, limit: int) -> list[tuple[str, float]]:
        return self.lexical(query_terms(query), limit, scope)

    def dense_ranking(self, query: str, scope: Scope, limit: int, vector: np.ndarray | None = None) -> list[tuple[str, float]]:
        if not self.catalog.has_embedded():
            return []  # nothing to compare with: do not load a model or call a server for nothing
        vector = self.embed_query(query) if vector is None else vector
        where = scope.chroma_where()
        if where is None:
            return self.dense(vector, limit, None)
        return self._dense_in_scope(vector, scope, limit) or self.dense(vector, limit, where)

    def _dense_in_scope(self, vector: np.ndarray, scope: Scope, limit: int) -> list[tuple[str, float]]:
        """A filtered vector search without the vector store's slow filtered graph walk (80-370 ms at
        100k): a small scope is ranked exactly from its stored vectors; a large one by over-fetching
        unfiltered and keeping what the catalog admits. Empty when that finds too little."""
        where, params = scope.sql_where()
        ids = self.catalog.embedded_ids_in(where, params, SMALL_SCOPE)
        if ids is not None:
            stored = self.vectors_of(ids)
            scored = sorted(((c, float(v @ vector)) for c, v in stored.items()), key=lambda x: -x[1])
            return scored[:limit]
        candidates = self.dense(vector, OVERFETCH, None)
        inside = self.catalog.admitted([c for c, _ in candidates], where, params)
        kept = [(c, s) for c, s in candidates if c in inside][:limit]
        return kept if len(kept) >= limit else []

    def fuse(self, dense: list[tuple[str, float]], lexical: list[tuple[str, float]]) -> dict[str, float]:
        if self.fusion == "rrf":
            return rrf([[c for c, _ in dense], [c for c, _ in lexical]], self.rrf_k)
        return zscore_fusion(dense, lexical, self.dense_weight)

    def citation_ranking(self, query: str, scope: Scope) -> list[str]:
        ranking: list[str] = []
        for unit in self.cited(query):
            ranking += [c.chunk_id for c in unit if scope.admits(c)][:CITATION_CHUNKS]
        return ranking

    def search(self, query: str, k: int, mode: SearchMode, scope: Scope, documents: list[DocumentInfo],
               vector: np.ndarray | None = None) -> list[SearchHit]:
        """The k best chunks; ``vector`` is the query's embedding when the caller already has it."""
        if scope.empty or not query.strip():
            return []
        fetch = max(self.fetch_k, k)
        dense = self.dense_ranking(query, scope, fetch, vector) if mode != "lexical" else []
        # "semantic" falls back on the lexical index where nothing compares by meaning yet (no vectors made)
        lexical = self.lexical_ranking(query, scope, fetch) \
            if mode in ("hybrid", "lexical") or (mode == "semantic" and not dense) else []
        scores = self.fuse(dense, lexical) if mode == "hybrid" else dict(dense or lexical)
        if mode in ("hybrid", "semantic"):
            for rank, cid in enumerate(self.citation_ranking(query, scope)):
                scores[cid] = max(scores.get(cid, 0.0), CITATION_BOOST - 0.01 * rank) + 0.001
        best = sorted(scores, key=scores.__getitem__, reverse=True)[:k]
        chunks = self.catalog.chunks_by_id(best)
        dense_rank = {c: i for i, (c, _) in enumerate(dense, start=1)}
        lexical_rank = {c: i for i, (c, _) in enumerate(lexical, start=1)}
        by_id = {d.doc_id: d for d in documents}
        hits = []
        for cid in best:
            chunk = chunks.get(cid)
            doc = by_id.get(chunk.doc_id) if chunk else None
            if chunk is None or doc is None:
                continue  # a vector whose chunk was removed a moment ago
            hits.append(to_hit(chunk, doc, scores[cid], dense_rank.get(cid), lexical_rank.get(cid)))
        return hits


def to_hit(chunk: Chunk, doc: DocumentInfo, score: float, dense_rank: int | None = None,
           lexical_rank: int | None = None) -> SearchHit:
    return SearchHit(
        chunk_id=chunk.chunk_id, doc_id=chunk.doc_id, doc=doc.file_name, path=doc.path, title=doc.title,
        page=chunk.page, section=chunk.section, section_title=chunk.section_title, text=chunk.text, score=score,
        char_start=chunk.char_start, char_end=chunk.char_end, dense_rank=dense_rank, lexical_rank=lexical_rank,
    )
