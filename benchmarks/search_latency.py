"""Search latency of the knowledge base at 10k and 100k chunks (hybrid / dense / lexical).

    python benchmarks/search_latency.py CORPUS_DIR [--sizes 10000 100000] [--data-dir DIR] [--queries N] [--rebuild]
                                       [--server SETTINGS.json | --local-server]

Builds one database per size under DATA_DIR (default .bench/search-latency; reused unless --rebuild)
through the real WorkstationCatalog (pages, chunks, lexical terms from ``index_terms``) and the real vector store
(embedded Chroma; with --server/--local-server the team server's PostgreSQL catalog and pgvector,
see bench_server.py), chunks marked embedded. Chunk texts are real: sentences of the corpus PDFs
(PyMuPDF ``page.get_text()``), recombined into ~100-word chunks with a fixed seed; each synthetic
document draws 70 % of its sentences from one source PDF (topical posting lists) and 30 % from all
PDFs of its language. Vectors are synthetic (embedding 100k chunks on two cores takes hours):
200 random unit "topic" centroids in 384 dimensions; a document centre lies at cos ~0.8 to its
topic, a chunk at cos ~0.8 to its document centre, so HNSW sees clustered, not uniform, data.

Queries are real questions from the corpus (de/en). "given vector" runs ``Searcher.search`` exactly
as ``KnowledgeBase.search`` does but with a stub ``embed_query`` returning a precomputed synthetic
query vector (a topic centroid plus noise, cos ~0.7 to it); "end to end" is ``KnowledgeBase.search``
with the real offline embedder. Prints JSON (also written to .bench/search_latency.json) and a
Markdown table for benchmarks/RESULTS.md.
"""

from __future__ import annotations

import argparse
import copy
import functools
import hashlib
import json
import os
import platform
import random
import re
import sqlite3
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import chromadb
import numpy as np
import pymupdf

from bench_server import add_arguments, schema_mb, settings_from

from desktop.kb.database import KnowledgeBase, list_databases
from desktop.kb.storage.registry import delete_database
from desktop.kb.ingestion.ingest import chunk_header, vector_metadata
from desktop.kb.language import detect_language
from desktop.kb.search.lexical import index_terms
from desktop.kb.models import Chunk, SearchFilter
from desktop.kb.search.hybrid import scope_for
from desktop.paths import AppPaths, resolve_paths
from desktop.settings import Settings

ROOT = Path(__file__).resolve().parent.parent
CORPUS = Path("../shared/corpus")  # replaced by the CORPUS_DIR argument
DIM, TOPICS, SEED, K = 384, 200, 1234, 10
_SENTENCE = re.compile(r"(?<=[.!?;:])\s+")


# --- corpus ------------------------------------------------------------------------------------

@functools.cache
def sentence_pool() -> list[tuple[str, str, list[str]]]:
    """(source stem, language, sentences) per corpus PDF; long table runs are cut to 40 words."""
    out = []
    for pdf in sorted([*CORPUS.glob("*/pdfs/*.pdf"), *CORPUS.glob("laws-de/*.pdf")]):
        with pymupdf.open(pdf) as doc:
            text = " ".join(page.get_text() for page in doc)
        sentences = []
        for s in _SENTENCE.split(" ".join(text.split())):
            words = s.split()
            sentences += [" ".join(words[i:i + 40]) for i in range(0, len(words), 40) if len(words) >= 3]
        if sentences:
            out.append((pdf.stem, detect_language(text[:20000]), sentences))
    return out


def unit(rng: np.random.Generator, centre: np.ndarray, noise: float) -> np.ndarray:
    """A unit vector at cos ~1/sqrt(1+noise²) to ``centre`` (random directions are ~orthogonal in 384-d)."""
    g = rng.standard_normal(centre.shape[-1]).astype(np.float32)
    v = centre + noise * g / np.linalg.norm(g)
    return v / np.linalg.norm(v)


def centroids() -> np.ndarray:
    """The topic centres of the synthetic vectors (random directions, hence nearly orthogonal)."""
    c = np.random.default_rng(SEED).standard_normal((TOPICS, DIM)).astype(np.float32)
    return c / np.linalg.norm(c, axis=1, keepdims=True)


# --- build -------------------------------------------------------------------------------------

def build(kb: KnowledgeBase, size: int, pool: list[tuple[str, str, list[str]]]) -> dict[str, float]:
    """Write ``size`` chunks the way Ingestor does (one transaction per document), then the vectors."""
    rng, vrng, cents = random.Random(SEED), np.random.default_rng(SEED + 1), centroids()
    by_lang = {lang: [s for _, l, ss in pool if l == lang for s in ss] for lang in ("de", "en")}
    started = time.perf_counter()
    written, docs, doc_centre = 0, 0, {}
    while written < size:
        stem, lang, own = pool[docs % len(pool)]
        doc_id = hashlib.sha256(f"bench-{docs}".encode()).hexdigest()
        short = stem if len(stem) <= 10 else None  # laws carry short names ("StrlSchG"), other PDFs do not
        title = stem.replace("_", " ")
        n_pages, ordinal, section = rng.randint(5, 120), 0, 0
        with kb.catalog.transaction() as db:
            for page in range(1, n_pages + 1):
                parts: list[str] = []
                for _ in range(rng.randint(2, 4)):
                    if written + ordinal >= size:
                        break
                    words: list[str] = []
                    while len(words) < 100:
                        words += rng.choice(own if rng.random() < 0.7 else by_lang[lang]).split()
                    text = " ".join(words)
                    start = sum(len(p) + 1 for p in parts)
                    if lang == "de" and rng.random() < 0.4:
                        section += 1
                    chunk = Chunk(chunk_id=f"{doc_id[:20]}:{ordinal:06d}", doc_id=doc_id, page=page, ordinal=ordinal,
                                  char_start=start, char_end=start + len(text), section=f"§ {section}" if section else None,
                                  language=detect_language(text, lang), text=text)
                    head = chunk_header(short, title, chunk)
                    kb.catalog.insert_chunk(db, chunk, index_terms(head, chunk.language), index_terms(text, chunk.language))
                    parts.append(text)
                    ordinal += 1
                kb.catalog.insert_page(db, doc_id, page, "\n".join(parts), False)
            kb.catalog.insert_document(db, {
                "doc_id": doc_id, "file_name": f"{stem}-{docs:04d}.pdf", "path": f"/bench/{stem}-{docs:04d}.pdf",
                "title": title, "short_name": short, "language": lang, "pages": n_pages, "size_bytes": 0, "mtime": 0.0,
            })
        doc_centre[doc_id] = unit(vrng, cents[vrng.integers(TOPICS)], 0.75)
        written += ordinal
        docs += 1
    catalog_s = time.perf_counter() - started
    client = getattr(kb.vectors, "client", None)  # Chroma caps a batch; the server takes any
    batch = min(5000, client.get_max_batch_size()) if client else 2000
    while todo := kb.catalog.to_embed(batch):
        vecs = np.stack([unit(vrng, doc_centre[c.doc_id], 0.75) for c in todo])
        kb.vectors.upsert([c.chunk_id for c in todo], vecs, [c.text for c in todo], [vector_metadata(c) for c in todo])
        kb.catalog.mark_embedded([c.chunk_id for c in todo])
    if not kb.on_server:
        kb.catalog.query("PRAGMA wal_checkpoint(TRUNCATE)")
    return {"documents": docs, "chunks": written, "catalog_s": round(catalog_s, 1),
            "vectors_s": round(time.perf_counter() - started - catalog_s, 1)}


def open_or_build(paths: AppPaths, settings: Settings, size: int, rebuild: bool) -> tuple[KnowledgeBase, dict[str, Any]]:
    name = f"bench-{size}"
    folder = paths.database_dir(name)
    if name in list_databases(paths, settings):
        kb = KnowledgeBase.open(paths, settings, name)
        info = json.loads(kb.catalog.get_meta("bench_build") or "{}")
        if not rebuild and info.get("chunks") == size and kb.catalog.count_embedded() == size == kb.vectors.count():
            return kb, info
        kb.close()
        delete_database(paths, settings, name)
    kb = KnowledgeBase.open(paths, settings, name, create=True, embedder="offline")
    info = build(kb, size, sentence_pool())
    if kb.on_server:
        info["disk_mb"] = schema_mb(kb)
    else:
        info["disk_mb"] = {part: round(sum(f.stat().st_size for f in folder.glob(glob) if f.is_file()) / 1e6, 1)
                           for part, glob in (("catalog", "catalog.sqlite*"), ("vectors", "chroma/**/*"))}
    kb.catalog.set_meta("bench_build", json.dumps(info))
    return kb, info


# --- queries and timing ------------------------------------------------------------------------

def questions(n: int) -> list[str]:
    """n real questions, the same share from each corpus (German and English), fixed seed."""
    sets = sorted(CORPUS.glob("*/questions_dev.jsonl"))
    rng, out = random.Random(SEED), []
    for i, file in enumerate(sets):
        qs = [json.loads(line)["question"] for line in file.read_text(encoding="utf-8").splitlines() if line.strip()]
        out += rng.sample(qs, min(len(qs), n // len(sets) + (i < n % len(sets))))
    return out


def stats(ms: list[float], cpu: list[float] | None = None) -> dict[str, float]:
    a = np.asarray(ms)
    out = {"p50": round(float(np.percentile(a, 50)), 2), "p95": round(float(np.percentile(a, 95)), 2),
           "mean": round(float(a.mean()), 2), "max": round(float(a.max()), 2), "n": len(ms)}
    if cpu:  # CPU time of this process (all threads): less disturbed than wall time on a busy machine
        out["cpu_p50"] = round(float(np.percentile(cpu, 50)), 2)
    return out


def timed(run: Callable[[Any], Any], items: list[Any], warmup: int = 10, keep: list[Any] | None = None) -> dict[str, float]:
    for item in items[:warmup]:
        run(item)
    ms, cpu = [], []
    for item in items:
        t, c = time.perf_counter(), time.process_time()
        out = run(item)
        ms.append((time.perf_counter() - t) * 1000)
        cpu.append((time.process_time() - c) * 1000)
        if keep is not None:
            keep.append(out)
    return stats(ms, cpu)


class Split:
    """Milliseconds per component of real searches: the calls a search makes are wrapped on these
    instances only, so the split follows the product code as it changes; the rest is fusion,
    chunk loading and hits."""

    def __init__(self, *targets: tuple[object, str, str]) -> None:
        self.ms: dict[str, list[float]] = {}
        self._now: dict[str, float] = {}
        self._wrapped = [(obj, attr) for obj, attr, _ in targets]
        for obj, attr, name in targets:
            self._wrap(obj, attr, name)

    def _wrap(self, obj: object, attr: str, name: str) -> None:
        inner = getattr(obj, attr)

        def call(*args: Any, **kwargs: Any) -> Any:
            t = time.perf_counter()
            try:
                return inner(*args, **kwargs)
            finally:
                self._now[name] = self._now.get(name, 0.0) + (time.perf_counter() - t) * 1000

        setattr(obj, attr, call)  # an instance attribute shadows the method

    def run(self, search: Callable[[], object]) -> None:
        self._now = {}
        t = time.perf_counter()
        search()
        total = (time.perf_counter() - t) * 1000
        for name, ms in [*self._now.items(), ("rest: fusion, chunk load, hits", total - sum(self._now.values())),
                         ("total", total)]:
            self.ms.setdefault(name, []).append(ms)

    def result(self, skip: int) -> dict[str, dict[str, float]]:
        for obj, attr in self._wrapped:
            delattr(obj, attr)
        return {name: stats(ms[skip:]) for name, ms in self.ms.items() if ms[skip:]}  # (a part a few searches call)


def machine() -> dict[str, Any]:
    cpu = next((line.split(":", 1)[1].strip() for line in Path("/proc/cpuinfo").read_text().splitlines()
                if line.startswith("model name")), platform.processor())
    return {"cpu": cpu, "cores": os.cpu_count(), "python": platform.python_version(), "chromadb": chromadb.__version__,
            "sqlite": sqlite3.sqlite_version, "load_avg_at_start": os.getloadavg()}


# --- main --------------------------------------------------------------------------------------

def forget_queries(kb: KnowledgeBase) -> None:
    """A user's new question is not among the embedder's recently embedded queries: time the model."""
    recent = getattr(kb.embedder, "_recent", None)
    if isinstance(recent, dict):
        recent.clear()


def measure(kb: KnowledgeBase, qs: list[str]) -> dict[str, Any]:
    rng, vrng, cents = random.Random(SEED), np.random.default_rng(SEED + 2), centroids()
    vec = {q: unit(vrng, cents[vrng.integers(TOPICS)], 1.0) for q in qs}
    picked = [rng.choice(kb.documents()) for _ in qs]
    filters: dict[str, list[SearchFilter | None]] = {
        "": [None] * len(qs),
        "+doc": [SearchFilter(docs=[d.doc_id]) for d in picked],
        "+pages 1-10": [SearchFilter(page_from=1, page_to=10)] * len(qs),
        "+doc+pages": [SearchFilter(docs=[d.doc_id], page_from=(p := rng.randint(1, max(1, d.pages - 9))), page_to=p + 9)
                       for d in picked],
    }
    searcher = copy.copy(kb._searcher)  # the product's searcher; only its query embedding is stubbed
    searcher.embed_query = vec.__getitem__

    def runner(mode: str) -> Callable[[Any], list[str]]:
        def run(item: tuple[str, SearchFilter | None]) -> list[str]:
            docs = kb._search_documents()  # as KnowledgeBase.search does, on every call
            return [h.chunk_id for h in searcher.search(item[0], K, mode, scope_for(docs, item[1]), docs)]  # type: ignore[arg-type]
        return run

    out: dict[str, Any] = {"given_vector": {}, "end_to_end": {}, "hybrid_split": {}}
    for label, filts in filters.items():
        for mode in ("hybrid", "dense", "lexical"):
            out["given_vector"][mode + label] = timed(runner(mode), list(zip(qs, filts)))
    for mode in ("hybrid", "dense", "lexical"):
        out["end_to_end"][mode] = timed(lambda q, m=mode: (forget_queries(kb), kb.search(q, K, m)), qs)  # type: ignore[misc]
    for label, filts in filters.items():
        dense = ((kb.vectors, "query", "pgvector query"), (kb.vectors, "vectors", "pgvector get")) if kb.on_server else (
            (kb.vectors.collection, "query", "chroma query"), (kb.vectors.collection, "get", "chroma get"))
        split = Split((kb, "_search_documents", "documents"), (kb.catalog, "has_embedded", "has_embedded()"), *dense,
                      (searcher, "lexical_ranking", "lexical (BM25)"), (searcher, "citation_ranking", "citations"))
        for item in [*zip(qs[:10], filts[:10]), *zip(qs, filts)]:  # the first ten warm up
            split.run(functools.partial(runner("hybrid"), item))
        out["hybrid_split"][f"hybrid{label}"] = split.result(skip=10)
    return out


def table(result: dict[str, Any]) -> str:
    """Markdown for benchmarks/RESULTS.md: latency per search, then the hybrid split by component."""
    sizes = result["sizes"]
    e = result["embed_query_ms"]
    rows = ["| chunks | search (ms) | p50 | p95 | mean | max | CPU p50 |",
            "|---:|---|---:|---:|---:|---:|---:|",
            f"| – | embed_query (offline e5-small) | {e['p50']} | {e['p95']} | {e['mean']} | {e['max']} | {e['cpu_p50']} |"]
    for size, r in sizes.items():
        for name, g in r["given_vector"].items():
            rows.append(f"| {int(size):,} | {name} | {g['p50']} | {g['p95']} | {g['mean']} | {g['max']} | {g['cpu_p50']} |")
        for name, g in r["end_to_end"].items():
            rows.append(f"| {int(size):,} | {name}, end to end with embed_query | {g['p50']} | {g['p95']} | {g['mean']} "
                        f"| {g['max']} | {g['cpu_p50']} |")
    for size, r in sizes.items():
        b = r["build"]
        rows.append(f"\nBuild {int(size):,} chunks ({b['documents']} documents): catalog {b['catalog_s']} s, vectors "
                    f"{b['vectors_s']} s; on disk catalog {b['disk_mb']['catalog']} MB, vectors {b['disk_mb']['vectors']} MB.")
    rows += ["", "Hybrid by component, p50 / p95 ms:", "",
             "| search | component | " + " | ".join(f"{int(n):,}" for n in sizes) + " |",
             "|---|---|" + "---:|" * len(sizes)]
    for search in next(iter(sizes.values()))["hybrid_split"]:
        for part in dict.fromkeys(p for r in sizes.values() for p in r["hybrid_split"][search]):
            cells = [sizes[n]["hybrid_split"][search].get(part, {}) for n in sizes]
            rows.append(f"| {search} | {part} | " + " | ".join(f"{c.get('p50')} / {c.get('p95')}" for c in cells) + " |")
    return "\n".join(rows)


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("corpus", type=Path, help="the evaluation corpus folder (sentences and questions)")
    ap.add_argument("--sizes", type=int, nargs="+", default=[10_000, 100_000])
    ap.add_argument("--data-dir", type=Path, default=ROOT / ".bench" / "search-latency")
    ap.add_argument("--queries", type=int, default=100)
    ap.add_argument("--rebuild", action="store_true")
    add_arguments(ap)
    args = ap.parse_args()
    settings = settings_from(args)
    global CORPUS
    CORPUS = args.corpus
    paths = resolve_paths(args.data_dir).ensure()
    qs = questions(args.queries)
    result: dict[str, Any] = {"machine": machine(), "config": {
        "backend": f"server: PostgreSQL ({settings.kb.server.host})" if settings.kb.mode == "server" else "embedded",
        "queries": len(qs), "k": K, "fetch_k": Settings().kb.fetch_k, "rrf_k": Settings().kb.rrf_k, "dim": DIM,
        "vectors": f"synthetic: {TOPICS} topic centroids, doc centre cos~0.8 to topic, chunk cos~0.8 to doc centre",
        "query_vectors": "given_vector: topic centroid + noise (cos~0.7); end_to_end: real offline embedder",
    }, "sizes": {}}
    for size in args.sizes:
        kb, build_info = open_or_build(paths, settings, size, args.rebuild)
        with kb:
            result["sizes"][str(size)] = {"build": build_info, **measure(kb, qs)}
            if "embed_query_ms" not in result:
                result["embed_query_ms"] = timed(lambda q: (forget_queries(kb), kb.embedder.embed_query(q)), qs)
    result["machine"]["load_avg_at_end"] = os.getloadavg()  # other work on the machine inflates wall times
    out = ROOT / ".bench" / ("search_latency_server.json" if settings.kb.mode == "server" else "search_latency.json")
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text(json.dumps(result, indent=2, ensure_ascii=False), encoding="utf-8")
    print(json.dumps(result, indent=2, ensure_ascii=False))
    print(table(result))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
