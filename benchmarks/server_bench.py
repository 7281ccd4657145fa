"""Ingestion on the team server against the embedded default, and the cost of keeping PDFs on the server.

    python benchmarks/server_bench.py PDF_DIR [--cache FILE] [--workers N] [--server SETTINGS.json | --local-server]

Both backends ingest PDF_DIR into a fresh knowledge base with the same warm embedding cache (``--cache``,
an embeddings.sqlite of an earlier run, e.g. the retrieval benchmark's; without it the first run warms
it), so what differs is the writing: SQLite + FTS5 + embedded Chroma, or one PostgreSQL transaction per
document with pgvector. Then the PDFs: bytes stored on the server against the files' own size, and how
fast a workstation with an empty cache fetches them all (``KnowledgeBase.pdf_file``). Prints JSON.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import tempfile
import time
from pathlib import Path

from bench_server import add_arguments, schema_mb, settings_from

from desktop.kb.database import KnowledgeBase
from desktop.kb.storage.registry import delete_database
from desktop.paths import resolve_paths
from desktop.settings import Settings


def ingest(pdf_dir: Path, settings: Settings, cache: Path | None, workers: int) -> dict[str, object]:
    paths = resolve_paths(Path(tempfile.mkdtemp(prefix="server-bench-"))).ensure()
    if cache:
        paths.cache_dir.mkdir(parents=True, exist_ok=True)
        shutil.copy2(cache, paths.cache_dir / "embeddings.sqlite")
    settings = settings.changed(kb={"ingest_workers": workers})
    started = time.perf_counter()
    name = f"bench-ingest-{os.getpid()}"  # a fresh knowledge base, dropped afterwards
    with KnowledgeBase.open(paths, settings, name, create=True, embedder="offline") as kb:
        report = kb.ingest([pdf_dir])
        seconds = time.perf_counter() - started
        pages = sum(f.pages for f in report.files)
        out: dict[str, object] = {"pages": pages, "chunks": report.embedded, "seconds": round(seconds, 1),
                                  "pages_per_s": round(pages / seconds, 1), "embed_error": report.embed_error}
        if kb.on_server:
            out["schema_mb"] = schema_mb(kb)
            out["pdfs"] = pdf_store(kb, paths.cache_dir, pdf_dir)
    delete_database(paths, settings, name)
    return out | {"cache": str(paths.cache_dir / "embeddings.sqlite")}


def pdf_store(kb: KnowledgeBase, cache_dir: Path, pdf_dir: Path) -> dict[str, float]:
    """Bytes of the PDFs on the server against their files, and fetching them all into an empty cache."""
    stored = kb.catalog.raw("SELECT COALESCE(SUM(size), 0) AS raw, COALESCE(SUM(pg_column_size(content)), 0) AS disk "
                            "FROM files")[0]
    files = sum(p.stat().st_size for p in pdf_dir.rglob("*.pdf"))
    shutil.rmtree(cache_dir / "server-pdfs", ignore_errors=True)
    started = time.perf_counter()
    for doc in kb.documents():
        kb.pdf_file(doc)
    fetch = time.perf_counter() - started
    return {"files_mb": round(files / 1e6, 1), "stored_mb": round(float(stored["disk"]) / 1e6, 1),
            "fetch_all_s": round(fetch, 2), "fetch_mb_per_s": round(float(stored["raw"]) / 1e6 / fetch, 1)}


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("pdf_dir", type=Path)
    ap.add_argument("--cache", type=Path, help="a warm embeddings.sqlite for these PDFs")
    ap.add_argument("--workers", type=int, default=min(4, os.cpu_count() or 2))
    add_arguments(ap)
    args = ap.parse_args()
    server = settings_from(args)
    if server.kb.mode != "server":
        raise SystemExit("name a server: --server SETTINGS.json or --local-server")
    cache = args.cache
    result: dict[str, object] = {"corpus": str(args.pdf_dir), "workers": args.workers}
    if cache is None:  # a cold first run warms the cache both measured runs then share
        result["embedded_cold"] = ingest(args.pdf_dir, Settings(), None, args.workers)
        cache = Path(str(result["embedded_cold"]["cache"]))  # type: ignore[index]
    result["embedded"] = ingest(args.pdf_dir, Settings(), cache, args.workers)
    result["server"] = ingest(args.pdf_dir, server, cache, args.workers)
    print(json.dumps(result, indent=2))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
