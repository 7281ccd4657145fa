#!/usr/bin/env python3
"""Build the sample database for an installer: the real ingestion, run once at build time.

    python packaging/build_sample_db.py OUT_DIR

Runs ``ensure_sample`` (reading the bundled law PDFs, their shipped vectors from the seed) into a
throw-away data dir, copies the finished ``databases/Sample`` folder (catalog.sqlite + chroma/) to
``OUT_DIR/Sample`` and writes ``OUT_DIR/Sample.json`` describing it. The spec bundles OUT_DIR as
``kb/prebuilt/``; on a first start ``desktop.kb.storage.registry.install_prebuilt_sample`` copies it into the
user's data dir and points it at the bundled PDFs, so nothing is indexed.

Each step runs in its own process so that Chroma has closed its files before they are copied (the
same guarantee a user has between two command-line runs). The copy is then checked the way a first
start uses it: installed into a second throw-away data dir, searched, and its two stores compared.
"""

from __future__ import annotations

import json
import multiprocessing
import shutil
import sqlite3
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

SAMPLE = "Sample"
CHECK_QUERY = ("§ 78 StrlSchG", "StrlSchG.pdf", "§ 78")


def _build(data_dir: str, summary_file: str) -> None:
    from desktop.kb.database import KnowledgeBase
    from desktop.kb.storage.registry import SAMPLE_DB, ensure_sample
    from desktop.paths import resolve_paths, sample_kb_dir
    from desktop.settings import Settings

    paths = resolve_paths(data_dir).ensure()
    settings = Settings()
    report = ensure_sample(paths, settings, use_prebuilt=False)
    if report is None or report.cancelled or report.embed_error or report.pending_embeddings:
        raise SystemExit(f"the sample database did not build completely: {report}")
    rejected = [f for f in report.files if f.status == "rejected"]
    if rejected:
        raise SystemExit(f"sample PDFs were rejected: {rejected}")
    with KnowledgeBase.open(paths, settings, SAMPLE_DB) as kb:
        stats = kb.stats()
        problems = kb.verify()
    if problems:
        raise SystemExit(f"the built sample database is inconsistent: {problems}")
    Path(summary_file).write_text(json.dumps({
        "documents": stats["documents"], "chunks": stats["chunks"], "embedder": stats["embedder"],
        "chunking": stats["settings"], "build_source": str(sample_kb_dir()), "build_data_dir": str(paths.data_dir),
        "ingest_s": round(report.elapsed_s, 2),
    }))


def _check(out_dir: str, data_dir: str) -> None:
    """Install the copy as a first start would and search it; fail loudly when anything is off."""
    from desktop.kb.storage import registry
    from desktop.kb.database import KnowledgeBase
    from desktop.kb.ingestion.ingest import Ingestor
    from desktop.paths import resolve_paths
    from desktop.settings import Settings

    def no_ingest(*_args: object, **_kwargs: object) -> None:
        raise SystemExit("the prebuilt sample was not used: the first start would index the PDFs")

    registry.prebuilt_databases_dir = lambda: Path(out_dir)
    Ingestor.run = no_ingest  # type: ignore[method-assign]
    paths = resolve_paths(data_dir).ensure()
    settings = Settings()
    report = registry.ensure_sample(paths, settings)
    if report is None or report.count("added") == 0:
        raise SystemExit(f"installing the prebuilt sample failed: {report}")
    with KnowledgeBase.open(paths, settings, registry.SAMPLE_DB) as kb:
        problems = kb.verify()
        hits = kb.search(CHECK_QUERY[0], k=3)
    if problems:
        raise SystemExit(f"the installed prebuilt sample is inconsistent: {problems}")
    if not hits or (hits[0].doc, hits[0].section) != CHECK_QUERY[1:]:
        raise SystemExit(f"the installed prebuilt sample does not find {CHECK_QUERY[0]}: {hits[:1]}")


def _run(target, *args: str) -> None:
    process = multiprocessing.get_context("spawn").Process(target=target, args=args)
    process.start()
    process.join()
    if process.exitcode != 0:
        raise SystemExit(f"{target.__name__} failed (exit code {process.exitcode})")


def export(database: Path, dest: Path) -> None:
    """Copy a closed database folder; the catalog is rewritten compact, in one file (VACUUM INTO)."""
    if dest.exists():
        shutil.rmtree(dest)
    shutil.copytree(database, dest, ignore=shutil.ignore_patterns("catalog.sqlite*"))
    with sqlite3.connect(database / "catalog.sqlite") as db:
        db.execute("VACUUM INTO ?", (str(dest / "catalog.sqlite"),))
    db.close()


def main(argv: list[str]) -> int:
    if len(argv) != 1:
        print(__doc__.strip().splitlines()[2].strip(), file=sys.stderr)
        return 2
    out = Path(argv[0]).resolve()
    out.mkdir(parents=True, exist_ok=True)
    started = time.monotonic()
    with tempfile.TemporaryDirectory(prefix="rabbithole-sample-build-") as tmp:
        data_dir, summary_file = Path(tmp) / "data", Path(tmp) / "summary.json"
        _run(_build, str(data_dir), str(summary_file))
        export(data_dir / "databases" / SAMPLE, out / SAMPLE)
        summary = json.loads(summary_file.read_text())
    with tempfile.TemporaryDirectory(prefix="rabbithole-sample-check-") as tmp:
        _run(_check, str(out), tmp)
    from importlib.metadata import version

    from desktop import __version__

    size = sum(f.stat().st_size for f in (out / SAMPLE).rglob("*") if f.is_file())
    summary |= {"database": SAMPLE, "rabbithole": __version__, "chromadb": version("chromadb"),
                "built_at": time.strftime("%Y-%m-%dT%H:%M:%S%z"), "size_bytes": size,
                "build_s": round(time.monotonic() - started, 1)}
    (out / f"{SAMPLE}.json").write_text(json.dumps(summary, indent=2) + "\n")
    print(f"prebuilt sample: {summary['documents']} documents, {summary['chunks']} chunks, "
          f"{size / 1e6:.1f} MB in {out / SAMPLE} ({summary['build_s']} s)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
