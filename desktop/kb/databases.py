"""The set of databases under the data dir: the bundled sample, and deleting one."""

from __future__ import annotations

import shutil

from desktop.kb.database import CATALOG_FILE, KnowledgeBase, check_name, list_databases
from desktop.kb.errors import DatabaseNotFound, KbError
from desktop.kb.models import IngestReport
from desktop.kb.progress import CancelToken, ProgressCallback
from desktop.kb.seed import SEED_NAME, load_seed
from desktop.paths import AppPaths, sample_kb_dir
from desktop.settings import Settings

SAMPLE_DB = "Sample"

__all__ = ["SAMPLE_DB", "delete_database", "ensure_sample", "list_databases"]


def ensure_sample(paths: AppPaths, settings: Settings, progress: ProgressCallback | None = None,
                  cancel: CancelToken | None = None) -> IngestReport | None:
    """Build (or finish building) the sample database from the bundled law PDFs.

    Returns the ingest report when there was work to do, None when the sample was already complete.
    """
    source = sample_kb_dir()
    if not source.is_dir() or not any(source.glob("*.pdf")):
        raise KbError(f"the sample knowledge base is missing from this installation ({source})")
    folder = paths.database_dir(SAMPLE_DB)
    if (folder / CATALOG_FILE).exists():
        with KnowledgeBase.open(paths, settings, SAMPLE_DB) as kb:
            if kb.documents() and kb.pending_embeddings() == 0:
                return None
    with KnowledgeBase.open(paths, settings, SAMPLE_DB, create=True) as kb:
        load_seed(kb.embedder.cache, source / SEED_NAME, kb.embedder.model_id)
        return kb.ingest([source], progress=progress, cancel=cancel)


def delete_database(paths: AppPaths, settings: Settings, name: str) -> None:
    """Remove a database's folder (and its collection on a Chroma server)."""
    folder = paths.database_dir(check_name(name))
    if not (folder / CATALOG_FILE).exists():
        raise DatabaseNotFound(name, list_databases(paths))
    if settings.kb.mode == "server":
        with KnowledgeBase.open(paths, settings, name) as kb:
            kb.vectors.drop()
    shutil.rmtree(folder)
