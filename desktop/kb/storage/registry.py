"""The set of databases under the data dir: the bundled sample, and deleting one.

A packaged build carries the sample database ready-made (built by the real ingestion when the
installer was made, ``prebuilt_databases_dir()``). A first start copies it into the user's data dir
and points its documents at the bundled PDFs instead of reading and embedding them again; when the
copy does not fit this installation (other PDFs, another embedder or chunking, a team server) the
sample is built from the PDFs as before.
"""

from __future__ import annotations

import json
import logging
import os
import shutil
import sqlite3
import tempfile
import time
from pathlib import Path

from desktop.kb.storage.workstation import WorkstationCatalog
from desktop.kb.database import CATALOG_FILE, KnowledgeBase, check_name, list_databases
from desktop.kb.errors import DatabaseNotFound, KbError
from desktop.kb.models import FileOutcome, IngestReport
from desktop.kb.progress import CancelToken, ProgressCallback
from desktop.kb.ingestion.scan import expand, sha256_file
from desktop.kb.ingestion.seed import SEED_NAME, load_seed
from desktop.kb.server.catalog import drop_server_database
from desktop.paths import AppPaths, prebuilt_databases_dir, sample_kb_dir
from desktop.settings import Settings

SAMPLE_DB = "Sample"

__all__ = ["SAMPLE_DB", "delete_database", "ensure_sample", "install_prebuilt_sample", "list_databases"]

log = logging.getLogger(__name__)


def ensure_sample(paths: AppPaths, settings: Settings, progress: ProgressCallback | None = None,
                  cancel: CancelToken | None = None, *, use_prebuilt: bool = True) -> IngestReport | None:
    """Build (or finish building) the sample database from the bundled law PDFs.

    A packaged build copies its prebuilt sample instead when the user has none yet. Returns the
    ingest report when there was work to do, None when the sample was already complete.
    """
    source = sample_kb_dir()
    if not source.is_dir() or not any(source.glob("*.pdf")):
        raise KbError(f"the sample knowledge base is missing from this installation ({source})")
    folder = paths.database_dir(SAMPLE_DB)
    if use_prebuilt and not folder.exists():
        installed = install_prebuilt_sample(paths, settings, source)
        if installed is not None:
            return installed
    if (folder / CATALOG_FILE).exists():
        with KnowledgeBase.open(paths, settings, SAMPLE_DB) as kb:
            if kb.documents() and kb.pending_embeddings() == 0:
                return None
    with KnowledgeBase.open(paths, settings, SAMPLE_DB, create=True) as kb:
        load_seed(kb.embedder.cache, source / SEED_NAME, kb.embedder.model_id)
        return kb.ingest([source], progress=progress, cancel=cancel)


# --- the prebuilt sample ---------------------------------------------------------------------------


def install_prebuilt_sample(paths: AppPaths, settings: Settings, source: Path | None = None) -> IngestReport | None:
    """Copy the bundled, ready-made sample database into the data dir and point it at the bundled PDFs.

    Returns a report listing its documents as added, or None when there is no prebuilt sample or it
    does not fit (the caller then builds the sample from the PDFs). Never leaves half a database:
    the copy is prepared beside the databases and moved into place in one step.
    """
    started = time.monotonic()
    source = source or sample_kb_dir()
    prebuilt = prebuilt_databases_dir() / SAMPLE_DB
    if not (prebuilt / CATALOG_FILE).is_file():
        return None
    if settings.kb.mode != "embedded":
        log.info("prebuilt sample not used: the knowledge bases live on the team's server")
        return None
    folder = paths.database_dir(SAMPLE_DB)
    folder.parent.mkdir(parents=True, exist_ok=True)
    _remove_stale_staging(folder.parent)
    staging = Path(tempfile.mkdtemp(prefix=_STAGING_PREFIX, dir=folder.parent))
    try:
        copy = staging / SAMPLE_DB
        shutil.copytree(prebuilt, copy)
        _make_writable(copy)
        outcomes = _adopt(copy / CATALOG_FILE, settings, source)
        if outcomes is None:
            return None
        try:
            os.replace(copy, folder)  # atomic on one file system; fails if another process got there first
        except OSError:
            if (folder / CATALOG_FILE).exists():
                return None  # someone else installed it meanwhile: the caller checks that one
            raise
    finally:
        shutil.rmtree(staging, ignore_errors=True)
    log.info("installed the prebuilt sample database (%d documents) in %.2f s", len(outcomes), time.monotonic() - started)
    return IngestReport(database=SAMPLE_DB, files=outcomes, elapsed_s=time.monotonic() - started)


_STAGING_PREFIX = ".install-sample-"


def _remove_stale_staging(databases_dir: Path) -> None:
    """What an installation killed half-way left behind (a fresh one may belong to another process)."""
    for leftover in databases_dir.glob(f"{_STAGING_PREFIX}*"):
        try:
            if time.time() - leftover.stat().st_mtime > 600:
                shutil.rmtree(leftover, ignore_errors=True)
        except OSError:
            pass


def _make_writable(folder: Path) -> None:
    """Files copied out of a read-only installation (a .deb under /opt, Program Files) keep its modes."""
    for root, dirs, files in os.walk(folder):
        for name in dirs:
            p = os.path.join(root, name)
            os.chmod(p, os.stat(p).st_mode | 0o700)
        for name in files:
            p = os.path.join(root, name)
            os.chmod(p, os.stat(p).st_mode | 0o600)


def _adopt(catalog_file: Path, settings: Settings, source: Path) -> list[FileOutcome] | None:
    """Check the copied catalog against this installation and rewrite what points at the build machine.

    Its documents must be exactly the bundled PDFs (same content hash, which is the doc id), fully
    embedded, made with the embedder and chunking this installation would use. The paths, sizes and
    modification times of the documents then become those of the bundled files, so a later ingest of
    the sample folder finds them unchanged without hashing.
    """
    files = expand([source])[0]
    bundled = {p.name: p for p in files}
    if len(bundled) != len(files):
        log.warning("prebuilt sample not used (two bundled PDFs share a name); building it from the PDFs")
        return None
    catalog = WorkstationCatalog(catalog_file)
    try:
        reason = _mismatch(catalog, settings, bundled)
        if reason:
            log.warning("prebuilt sample not used (%s); building it from the PDFs", reason)
            return None
        outcomes = []
        with catalog.transaction() as db:
            for row in catalog.doc_rows():
                pdf = bundled[row["file_name"]]
                st = pdf.stat()
                catalog.update_document(db, row["doc_id"], path=str(pdf), mtime=st.st_mtime, size_bytes=st.st_size)
        for doc in catalog.documents():
            outcomes.append(FileOutcome(path=doc.path, status="added", doc_id=doc.doc_id, pages=doc.pages,
                                        chunks=doc.chunks, warnings=doc.warnings))
        return outcomes
    except sqlite3.Error as exc:
        log.warning("prebuilt sample not used (its catalog cannot be read: %s); building it from the PDFs", exc)
        return None
    finally:
        catalog.close()


def _mismatch(catalog: WorkstationCatalog, settings: Settings, bundled: dict[str, Path]) -> str | None:
    """Why the copied catalog cannot serve as this installation's sample, or None when it can."""
    embedder = catalog.get_meta("embedder")
    if embedder != settings.kb.default_embedder:
        return f"it was made with the embedder '{embedder}', the settings ask for '{settings.kb.default_embedder}'"
    chunking = json.loads(catalog.get_meta("chunking") or "null")
    if chunking != settings.kb.chunking.model_dump(mode="json"):
        return "it was chunked with other settings"
    rows = catalog.doc_rows()
    if not rows or catalog.count_to_embed() or catalog.pending_vector_deletes():
        return "it is incomplete"
    names = {r["file_name"] for r in rows}
    if names != set(bundled) or len(names) != len(rows):
        return f"it holds {sorted(names)}, the installation has {sorted(bundled)}"
    for row in rows:
        if sha256_file(bundled[row["file_name"]]) != row["doc_id"]:
            return f"{row['file_name']} differs from the file it was built from"
    return None


def delete_database(paths: AppPaths, settings: Settings, name: str) -> None:
    """Remove a database: its folder, or in server mode its schema on the server (for every workstation)."""
    if settings.kb.mode == "server":
        known = list_databases(paths, settings)
        if name not in known:
            raise DatabaseNotFound(name, known)
        drop_server_database(settings.kb.server, check_name(name))
        return
    folder = paths.database_dir(check_name(name))
    if not (folder / CATALOG_FILE).exists():
        raise DatabaseNotFound(name, list_databases(paths, settings))
    shutil.rmtree(folder)
