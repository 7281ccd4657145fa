"""The session's knowledge bases as the window and the command line use them: list, create, delete, ingest,
search, documents and their metadata, references, checks, the team server's health. Each call runs in the session's counted
worker threads on a knowledge base the session opened once (``KnowledgeBases``); creating, deleting and
building the sample run while that database is closed there."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import TypeVar

from desktop.engine.resources import KnowledgeBases
from desktop.kb.database import KnowledgeBase, list_databases
from desktop.kb.errors import DatabaseNotFound, EmbedderMismatch
from desktop.kb.models import (
    DocumentInfo, IngestProgress, IngestReport, ResolvedReference, SearchFilter, SearchHit, SearchMode,
)
from desktop.kb.progress import CancelToken
from desktop.kb.server.health import ServerHealth, server_health
from desktop.kb.storage.registry import SAMPLE_DB, delete_database, ensure_sample
from desktop.paths import AppPaths
from desktop.settings import ServerSettings, Settings

T = TypeVar("T")
Progress = Callable[[IngestProgress], None]


def local_databases(paths: AppPaths) -> list[str]:
    """The workstation's knowledge bases (a folder listing, safe from any thread, the GUI's included)."""
    return list_databases(paths, Settings())


class Library:
    def __init__(self, paths: AppPaths, settings: Callable[[], Settings], kbs: KnowledgeBases) -> None:
        self._paths = paths
        self._settings = settings  # the session's current settings (replaced whole when they change)
        self._kbs = kbs

    async def use(self, name: str, fn: Callable[[KnowledgeBase], T]) -> T:
        """``fn(kb)`` in a worker thread on the named knowledge base."""
        return await self._kbs.use(name, fn)

    async def names(self) -> list[str]:
        """The knowledge bases: the workstation's, or the team server's (asked over the network)."""
        paths, settings = self._paths, self._settings()
        return await self._kbs.threads.run(lambda: list_databases(paths, settings))

    async def create(self, name: str, embedder: str | None = None) -> list[str]:
        """A new, empty knowledge base (``embedder`` fixed for it); the databases after."""
        paths, settings = self._paths, self._settings()

        def create() -> list[str]:
            KnowledgeBase.open(paths, settings, name, create=True, embedder=embedder).close()
            return list_databases(paths, settings)

        return await self._kbs.without(name, create)

    async def delete(self, name: str) -> list[str]:
        """Delete a knowledge base (its index, never the PDFs); the databases after."""
        paths, settings = self._paths, self._settings()

        def delete() -> list[str]:
            delete_database(paths, settings, name)
            return list_databases(paths, settings)

        return await self._kbs.without(name, delete)

    async def ingest(self, name: str, files: list[Path], progress: Progress | None = None,
                     cancel: CancelToken | None = None, *, embedder: str | None = None) -> IngestReport:
        """Add files or folders (``progress`` is called from a worker thread), into a database made for them
        if there is none (``embedder`` fixed for it; a database made with another one refuses). The sample
        database named with no files is built, or finished, from the bundled laws."""
        paths, settings = self._paths, self._settings()
        if name == SAMPLE_DB and not files:
            report = await self._kbs.without(name, lambda: ensure_sample(paths, settings, progress, cancel))
            return report or IngestReport(database=name)
        try:  # an open database stays open (closing it would restart its vector store)
            kb = await self._kbs.get(name)
        except DatabaseNotFound:
            await self._kbs.without(name, lambda: KnowledgeBase.open(paths, settings, name, create=True,
                                                                     embedder=embedder).close())
        else:
            if embedder is not None and embedder != kb.embedder_spec:
                raise EmbedderMismatch(name, kb.embedder_spec, embedder)
        return await self._kbs.use(name, lambda kb: kb.ingest(files, progress=progress, cancel=cancel))

    async def finish_embedding(self, name: str, progress: Progress | None = None,
                               cancel: CancelToken | None = None) -> IngestReport:
        """Embed the chunks still without a vector."""
        return await self._kbs.use(name, lambda kb: kb.finish_embedding(progress, cancel))

    async def documents(self, name: str) -> list[DocumentInfo]:
        return await self._kbs.use(name, lambda kb: kb.documents())

    async def backlog(self) -> dict[str, int]:
        """Chunks still to embed, by knowledge base (only those with some): what a search there finds by
        its words only for now."""
        counts = {name: await self._kbs.use(name, lambda kb: kb.pending_embeddings()) for name in await self.names()}
        return {name: n for name, n in counts.items() if n}

    async def document(self, name: str, ref: str) -> DocumentInfo:
        """A document by file name, path, short name or id."""
        return await self._kbs.use(name, lambda kb: kb.find_document(ref))

    async def stats(self, name: str) -> dict[str, object]:
        """Name, embedder, documents, chunks, chunks waiting for embedding, creation time."""
        return await self._kbs.use(name, lambda kb: kb.stats())

    async def pending(self, name: str) -> int:
        """Chunks still without a vector (lexical search finds them, dense search does not)."""
        return await self._kbs.use(name, lambda kb: kb.pending_embeddings())

    async def check(self, name: str) -> list[str]:
        """Where the text index, the vector store and the catalog disagree (none: empty)."""
        return await self._kbs.use(name, lambda kb: kb.verify())

    async def references(self, name: str, text: str, from_doc: str | None = None) -> list[ResolvedReference]:
        """The references in ``text`` (standing in the document ``from_doc`` names), resolved."""
        def resolve(kb: KnowledgeBase) -> list[ResolvedReference]:
            return kb.references(text, kb.find_document(from_doc).doc_id if from_doc else None)

        return await self._kbs.use(name, resolve)

    async def remove_document(self, name: str, doc: str) -> DocumentInfo:
        return await self._kbs.use(name, lambda kb: kb.remove_document(doc))

    async def set_meta(self, name: str, doc_id: str, key: str, value: str) -> DocumentInfo:
        return await self._kbs.use(name, lambda kb: kb.set_meta(doc_id, key, value))

    async def pdf_file(self, name: str, doc: str) -> Path:
        """The local copy of a document's PDF (fetched from the team server when it is not here yet)."""
        return await self._kbs.use(name, lambda kb: kb.pdf_file(kb.find_document(doc)))

    async def search(self, name: str, query: str, k: int = 10, filt: SearchFilter | None = None,
                     mode: SearchMode = "hybrid") -> list[SearchHit]:
        return await self._kbs.use(name, lambda kb: kb.search(query, k=k, mode=mode, filt=filt))

    async def server_health(self, server: ServerSettings) -> ServerHealth:
        """What the team's knowledge-base server says to these settings (as typed in a dialog)."""
        return await self._kbs.threads.run(lambda: server_health(server))
