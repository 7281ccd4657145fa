"""Ingestion throughput and memory.

    python benchmarks/ingest_bench.py PDF_DIR [--data-dir DIR] [--db NAME] [--workers N] [--no-embed] [--big-pages N]

1. extraction + chunking alone, in this process on one core: pages/s (with table detection, and
   without it for comparison);
2. the same through the worker pool (``--workers``): pages/s;
3. end to end with the offline embedder into a fresh database (``--data-dir`` keeps it for the
   retrieval benchmark): wall time, pages/s, chunks embedded per second, peak memory;
4. ``--big-pages N``: one PDF of N pages (the corpus concatenated) read through the pool, to show
   that memory stays bounded on a very large file.

Prints one JSON object; copy the figures into benchmarks/RESULTS.md.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import resource
import sys
import tempfile
import time
from pathlib import Path

import pymupdf

from desktop.kb.ingestion.chunking import chunk_page
from desktop.kb.database import KnowledgeBase
from desktop.kb.ingestion.docinfo import probe
from desktop.kb.ingestion.pages import ExtractionPool, ExtractJob
from desktop.kb.ingestion.pdf import open_pdf, read_page
from desktop.paths import resolve_paths
from desktop.settings import ChunkingSettings, Settings


def _rss_mb(who: int) -> float:
    return resource.getrusage(who).ru_maxrss / 1024.0


def extract_inline(pdfs: list[Path], tables: bool = True) -> dict[str, float]:
    """Open, probe, read and chunk every page in this process (one core); with or without table detection."""
    pages = chunks = table_chunks = 0
    sizes = ChunkingSettings(tables=tables)
    started = time.perf_counter()
    for path in pdfs:
        doc = open_pdf(path)
        info = probe(doc, path)
        for i in range(doc.page_count):
            pieces = chunk_page(read_page(doc, i), info.body_size, info.furniture, sizes)
            chunks += len(pieces)
            table_chunks += sum(p.table for p in pieces)
        pages += doc.page_count
        doc.close()
    seconds = time.perf_counter() - started
    return {"pages": pages, "chunks": chunks, "table_chunks": table_chunks, "seconds": round(seconds, 2),
            "pages_per_s": round(pages / seconds, 1)}


def extract_pool(pdfs: list[Path], workers: int, pages_per_task: int = 25) -> dict[str, float]:
    pool = ExtractionPool(workers)
    pages = 0
    started = time.perf_counter()
    try:
        for path in pdfs:
            doc = open_pdf(path)
            info = probe(doc, path)
            jobs = [ExtractJob(str(path), a, min(a + pages_per_task, doc.page_count), info.body_size, info.furniture,
                               ChunkingSettings(), None, info.language) for a in range(0, doc.page_count, pages_per_task)]
            doc.close()
            for results in pool.run(jobs, lambda: False):
                pages += len(results)
    finally:
        pool.close()
    seconds = time.perf_counter() - started
    return {"workers": workers, "pages": pages, "seconds": round(seconds, 2), "pages_per_s": round(pages / seconds, 1)}


def end_to_end(pdf_dir: Path, data_dir: Path, workers: int, db: str) -> dict[str, object]:
    settings = Settings().changed(kb={"ingest_workers": workers})
    paths = resolve_paths(data_dir).ensure()
    embed_time: list[float] = []
    started = time.perf_counter()

    def progress(p) -> None:  # noqa: ANN001
        if p.stage == "embed" and not embed_time:
            embed_time.append(time.perf_counter())

    with KnowledgeBase.open(paths, settings, db, create=True, embedder="offline") as kb:
        report = kb.ingest([pdf_dir], progress=progress)
    total = time.perf_counter() - started
    pages = sum(f.pages for f in report.files)
    embed_s = total - (embed_time[0] - started) if embed_time else 0.0
    return {
        "files": {s: report.count(s) for s in ("added", "unchanged", "rejected")},
        "pages": pages,
        "chunks_embedded": report.embedded,
        "seconds": round(total, 1),
        "pages_per_s": round(pages / total, 2) if total else None,
        "extract_seconds": round(total - embed_s, 1),
        "embed_seconds": round(embed_s, 1),
        "chunks_per_s_embedding": round(report.embedded / embed_s, 2) if embed_s else None,
        "cache_hits": None,
        "embed_error": report.embed_error,
    }


def big_file(pdfs: list[Path], pages: int, workers: int) -> dict[str, object]:
    """Concatenate the corpus into one PDF of ``pages`` pages and read it through the pool."""
    out = Path(tempfile.mkdtemp()) / "big.pdf"
    big = pymupdf.open()
    while big.page_count < pages:
        for path in pdfs:
            src = pymupdf.open(path)
            big.insert_pdf(src, to_page=min(src.page_count, pages - big.page_count) - 1)
            src.close()
            if big.page_count >= pages:
                break
    big.save(out)
    big.close()
    result = extract_pool([out], workers)
    result["file_mb"] = round(out.stat().st_size / 1e6, 1)
    out.unlink()
    return result


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("pdf_dir", type=Path)
    ap.add_argument("--data-dir", type=Path, help="database folder to build (kept); default: a temporary one")
    ap.add_argument("--db", default="bench", help="database name (the retrieval benchmark reuses one named after its set)")
    ap.add_argument("--workers", type=int, default=min(4, os.cpu_count() or 2))
    ap.add_argument("--no-embed", action="store_true", help="skip the end-to-end run")
    ap.add_argument("--big-pages", type=int, default=0)
    args = ap.parse_args()
    pdfs = sorted(args.pdf_dir.rglob("*.pdf"))
    if not pdfs:
        print(f"no PDFs under {args.pdf_dir}", file=sys.stderr)
        return 1
    result: dict[str, object] = {
        "machine": f"{platform.machine()}, {os.cpu_count()} cores, {platform.python_version()}",
        "pymupdf": pymupdf.VersionBind,
        "corpus": str(args.pdf_dir),
        "files": len(pdfs),
    }
    result["extract_chunk_one_core"] = extract_inline(pdfs)
    result["extract_chunk_one_core_no_tables"] = extract_inline(pdfs, tables=False)
    result["rss_after_inline_mb"] = round(_rss_mb(resource.RUSAGE_SELF), 1)
    result["extract_chunk_pool"] = extract_pool(pdfs, args.workers)
    if args.big_pages:
        result["big_file"] = big_file(pdfs, args.big_pages, args.workers)
        result["peak_worker_rss_mb"] = round(_rss_mb(resource.RUSAGE_CHILDREN), 1)
    if not args.no_embed:
        data_dir = args.data_dir or Path(tempfile.mkdtemp())
        result["end_to_end"] = end_to_end(args.pdf_dir, data_dir, args.workers, args.db)
    result["peak_rss_mb"] = round(_rss_mb(resource.RUSAGE_SELF), 1)
    result["peak_worker_rss_mb"] = round(_rss_mb(resource.RUSAGE_CHILDREN), 1)
    print(json.dumps(result, indent=2))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
