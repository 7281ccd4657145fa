"""How to fuse the dense and lexical rankings: the variants tried, measured on the dev sets.

    python benchmarks/fusion_experiments.py CORPUS_DIR [--work .bench/retrieval] [--sets a,b]

Needs the databases retrieval_quality.py builds under ``--work``. For every question it takes the
top 50 of each retriever once, then scores fusion variants offline with the same metrics as
retrieval_quality.py (recall@5, recall@10, MRR of the gold evidence pages).

FinanceBench is split in two halves by a hash of the question id: "financebench-dev:choose" may
inform the choice (with the other sets), "financebench-dev:held-out" only reports it.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import math
import sys
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from retrieval_quality import SETS, score  # noqa: E402

from desktop.kb.database import KnowledgeBase  # noqa: E402
from desktop.kb.search.lexical import query_terms  # noqa: E402
from desktop.kb.search.hybrid import Scope, rrf, zscore_fusion  # noqa: E402
from desktop.paths import resolve_paths  # noqa: E402
from desktop.settings import Settings  # noqa: E402

FETCH = 50
Ranking = list[tuple[str, float]]


def weighted_rrf(dense: Ranking, lexical: Ranking, k: int, w_lex: float) -> list[str]:
    scores: dict[str, float] = {}
    for weight, ranking in ((1.0, dense), (w_lex, lexical)):
        for rank, (cid, _) in enumerate(ranking, start=1):
            scores[cid] = scores.get(cid, 0.0) + weight / (k + rank)
    return sorted(scores, key=scores.__getitem__, reverse=True)


def convex(dense: Ranking, lexical: Ranking, alpha: float) -> list[str]:
    """alpha * min-max(dense cosine) + (1 - alpha) * min-max(BM25)."""

    def norm(r: Ranking) -> dict[str, float]:
        if not r:
            return {}
        hi, lo = max(s for _, s in r), min(s for _, s in r)
        return {c: (s - lo) / (hi - lo) if hi > lo else 1.0 for c, s in r}

    d, lx = norm(dense), norm(lexical)
    ids = set(d) | set(lx)
    return sorted(ids, key=lambda c: alpha * d.get(c, 0.0) + (1 - alpha) * lx.get(c, 0.0), reverse=True)


def zscore(dense: Ranking, lexical: Ranking, alpha: float) -> list[str]:
    """alpha * z(dense) + (1 - alpha) * z(BM25): the product's own fusion (desktop.kb.search.hybrid)."""
    scores = zscore_fusion(dense, lexical, alpha)
    return sorted(scores, key=scores.__getitem__, reverse=True)


def _confidence(ranking: Ranking, depth: int = 50) -> float:
    """How far a retriever's best hit stands above the rest of its list: the top score's z-score within
    the top ``depth``. A retriever with nothing specific to go on returns a flat list (low confidence)."""
    values = [v for _, v in ranking[:depth]]
    if len(values) < 2:
        return 0.0
    mean = sum(values) / len(values)
    spread = (sum((v - mean) ** 2 for v in values) / len(values)) ** 0.5
    return max(0.0, (values[0] - mean) / spread) if spread else 0.0


def adaptive_zscore(dense: Ranking, lexical: Ranking, floor: float = 0.2, power: float = 1.0) -> list[str]:
    """z-score fusion whose dense weight follows the two lists' confidence for this query, kept within
    [floor, 1 - floor] so neither side is ever ignored."""
    cd, cl = _confidence(dense) ** power, _confidence(lexical) ** power
    w = 0.5 if cd + cl == 0 else min(1 - floor, max(floor, cd / (cd + cl)))
    return zscore(dense, lexical, w)


def coverage(kb: KnowledgeBase, query: str, lexical: Ranking) -> float:
    """How much of the query the best lexical hit covers: its BM25 score over the most any chunk could
    score (each query word's rarest alternative at its ceiling, idf·(k1+1))."""
    rows = kb.catalog.query("SELECT COALESCE(MAX(rowid), 0) AS n FROM chunks")[0]["n"]
    ceiling = 0.0
    for alts in query_terms(query):
        found = kb.catalog.query(f"SELECT doc FROM chunks_vocab WHERE term IN ({','.join('?' * len(alts))})", alts)
        idfs = [math.log((rows - r["doc"] + 0.5) / (r["doc"] + 0.5)) for r in found]
        ceiling += max([max(i, 1e-6) for i in idfs], default=0.0) * 2.2
    return lexical[0][1] / ceiling if lexical and ceiling else 0.0


def variants() -> dict[str, Callable[..., list[str]]]:
    out: dict[str, Callable[..., list[str]]] = {
        "dense": lambda d, lx, *_: [c for c, _ in d],
        "lexical": lambda d, lx, *_: [c for c, _ in lx],
    }
    for k in (10, 30, 60):
        out[f"rrf k={k}"] = lambda d, lx, *_, k=k: sorted((s := rrf([[c for c, _ in d], [c for c, _ in lx]], k)), key=s.__getitem__, reverse=True)
    for w in (0.3, 0.5, 0.7):
        out[f"rrf k=60 w_lex={w}"] = lambda d, lx, *_, w=w: weighted_rrf(d, lx, 60, w)
    for a in (0.4, 0.45, 0.5, 0.6, 0.7):
        out[f"convex a={a}"] = lambda d, lx, *_, a=a: convex(d, lx, a)
    for a in (0.4, 0.5, 0.6):
        out[f"z-score a={a}"] = lambda d, lx, *_, a=a: zscore(d, lx, a)
    for floor in (0.2, 0.3):
        for power in (1.0, 2.0):
            out[f"adaptive z floor={floor} p={power}"] = lambda d, lx, *_, f=floor, p=power: adaptive_zscore(d, lx, f, p)
    # the lexical side damped where its best hit covers little of the query (coverage, see above)
    for low in (0.15, 0.2, 0.25):
        out[f"z-score, dense 0.8 below coverage {low}"] = lambda d, lx, cov, low=low: zscore(d, lx, 0.8 if cov < low else 0.5)
    out["z-score, dense 0.8→0.5 over coverage 0.1–0.3"] = lambda d, lx, cov: zscore(
        d, lx, 0.8 - 0.3 * min(1.0, max(0.0, (cov - 0.1) / 0.2)))
    for k in (5, 20):
        out[f"rrf k={k}"] = lambda d, lx, *_, k=k: sorted((s := rrf([[c for c, _ in d], [c for c, _ in lx]], k)), key=s.__getitem__, reverse=True)
    return out


def rankings(work: Path, corpus: Path, name: str) -> list[tuple[dict, Ranking, Ranking, dict[str, tuple[str, int]], float]]:
    kb = KnowledgeBase.open(resolve_paths(work / name), Settings(), name)
    searcher = kb._searcher  # the benchmark reaches into the search to score variants offline
    scope = Scope(None, None, None, None)
    questions = [json.loads(line) for line in (corpus / name / "questions_dev.jsonl").read_text().splitlines() if line]
    out = []
    for q in questions:
        dense = searcher.dense_ranking(q["question"], scope, FETCH)
        lexical = searcher.lexical_ranking(q["question"], scope, FETCH)
        ids = [c for c, _ in dense] + [c for c, _ in lexical]
        chunks = kb.catalog.chunks_by_id(ids)
        files = {d.doc_id: d.file_name for d in kb.documents()}
        where = {c: (files[ch.doc_id], ch.page) for c, ch in chunks.items()}
        out.append((q, dense, lexical, where, coverage(kb, q["question"], lexical)))
    kb.close()
    return out


def halves(name: str, data: list) -> dict[str, list]:
    """FinanceBench as its two halves (see the module), any other set whole."""
    if name != "financebench-dev":
        return {name: data}
    held = [d for d in data if int(hashlib.sha256(d[0]["id"].encode()).hexdigest(), 16) % 2]
    return {f"{name}:choose": [d for d in data if d not in held], f"{name}:held-out": held}


def score_variants(table: dict[str, dict[str, tuple[float, float, float]]], name: str, data: list) -> None:
    """Each variant's recall@5, recall@10 and MRR on one set, into ``table[variant][set]``."""
    for label, fuse in variants().items():
        r5 = r10 = mrr = 0.0
        for q, dense, lexical, where, cov in data:
            hits = [{"doc": where[c][0], "page": where[c][1]} for c in fuse(dense, lexical, cov)[:10] if c in where]
            r5 += score(q, hits, 5)[0]
            s10 = score(q, hits, 10)
            r10 += s10[0]
            mrr += s10[1]
        n = len(data)
        table.setdefault(label, {})[name] = (r5 / n, r10 / n, mrr / n)


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("corpus", type=Path)
    ap.add_argument("--work", type=Path, default=Path(".bench/retrieval"))
    ap.add_argument("--sets", default=",".join(SETS))
    args = ap.parse_args()
    table: dict[str, dict[str, tuple[float, float, float]]] = {}
    sets = []
    for whole in args.sets.split(","):
        for name, data in halves(whole, rankings(args.work, args.corpus, whole)).items():
            sets.append(name)
            score_variants(table, name, data)
    print("| variant | " + " | ".join(f"{s} R@5 / R@10 / MRR" for s in sets) + " | mean MRR |")
    print("|---|" + "---|" * (len(sets) + 1))
    for label, row in table.items():
        cells = " | ".join("{:.3f} / {:.3f} / {:.3f}".format(*row[s]) for s in sets)
        print(f"| {label} | {cells} | {sum(row[s][2] for s in sets) / len(sets):.3f} |")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
