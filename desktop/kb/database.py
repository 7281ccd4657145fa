"""One knowledge base: the facade the CLI, the engine and the UI use.

Embedded (one workstation), a database is a folder under the data dir holding ``catalog.sqlite``
(documents, chunks, lexical index) and ``chroma/`` (vectors). In server mode it is a schema on the
team's PostgreSQL server holding all of it (desktop.kb.server), which every workstation opens alike.
The embedder is fixed when the database is created and recorded in it; opening it with another one
is refused with a message saying how to re-index.
"""

from __future__ import annotations

import hashlib
import json
import os
import re
import threading
from pathlib import Path

import numpy as np

from desktop.kb.search import fts
from desktop.kb.search import retrieval
from desktop.kb.storage.catalog import SqlCatalog
from desktop.kb.storage.workstation import WorkstationCatalog
from desktop.kb.search.embedcache import CachedEmbedder, EmbeddingCache
from desktop.kb.search.embeddings import EmbeddingServer, make_embedder
from desktop.kb.errors import (
    DatabaseNotFound,
    DocumentNotFound,
    EmbedderMismatch,
    KbError,
)
from desktop.kb.ingestion.ingest import Ingestor
from desktop.kb.lazy import locked_cached_property
from desktop.kb.models import (
    Chunk,
    DocumentInfo,
    IngestReport,
    ResolvedReference,
    SearchFilter,
    SearchHit,
    SearchMode,
)
from desktop.kb.progress import CancelToken, ProgressCallback
from desktop.kb.references.parse import parse_references
from desktop.kb.references.resolver import resolve
from desktop.kb.search.hybrid import Scope, Searcher, scope_for
from desktop.kb.references.sections import SectionIndex
from desktop.kb.server.catalog import ServerCatalog, list_server_databases
from desktop.kb.server.vectors import ServerVectorStore
from desktop.kb.search.vector_process import VectorStoreProcess
from desktop.kb.search.vectors import VectorStore
from desktop.paths import AppPaths
from desktop.settings import Settings

CATALOG_FILE = "catalog.sqlite"
_NAME = re.compile(r"^[\w][\w .\-]{0,63}$")
# Keys of user metadata with a meaning of their own; any other key is a free field.
LIST_KEYS = ("tags",)


def list_databases(paths: AppPaths, settings: Settings) -> list[str]:
    """The knowledge bases of this workstation, or on the server in server mode (which it asks)."""
    if settings.kb.mode == "server":
        return list_server_databases(settings.kb.server)
    root = paths.databases_dir
    if not root.is_dir():
        return []
    return sorted(p.name for p in root.iterdir() if (p / CATALOG_FILE).is_file())


def check_name(name: str) -> str:
    if not _NAME.match(name) or name.strip() != name:
        raise KbError(f"'{name}' is not a usable database name: use letters, digits, spaces, '.', '-', '_' (at most 64)")
    return name


class KnowledgeBase:
    def __init__(self, name: str, folder: Path, paths: AppPaths, settings: Settings, embedder: str | None = None,
                 *, create: bool = False) -> None:
        self.name = name
        self.folder = folder
        self.paths = paths
        self.settings = settings
        self.catalog: SqlCatalog = (ServerCatalog(settings.kb.server, name, create=create) if settings.kb.mode == "server"
                                    else WorkstationCatalog(folder / CATALOG_FILE))
        recorded = self.catalog.get_meta("embedder")
        self.embedder_spec = embedder or recorded or settings.kb.default_embedder
        if recorded is None:
            self.catalog.set_meta("embedder", self.embedder_spec)
            self.catalog.set_meta("chunking", settings.kb.chunking.model_dump_json())
        elif recorded != self.embedder_spec:
            self.catalog.close()
            raise EmbedderMismatch(name, recorded, self.embedder_spec)
        if not self.on_server:
            fts.upgrade(self.catalog)  # a database indexed by an older version is indexed again, once
        self.sections = SectionIndex(self.catalog)
        self._doc_cache: tuple[tuple[int, int], list[DocumentInfo]] | None = None

    @classmethod
    def open(cls, paths: AppPaths, settings: Settings, name: str, *, create: bool = False,
             embedder: str | None = None) -> "KnowledgeBase":
        folder = paths.database_dir(check_name(name))
        if settings.kb.mode == "server":
            known = list_server_databases(settings.kb.server)
            if name not in known and not create:
                raise DatabaseNotFound(name, known)
            return cls(name, folder, paths, settings, embedder, create=name not in known)
        if not (folder / CATALOG_FILE).exists() and not create:
            raise DatabaseNotFound(name, list_databases(paths, settings))
        return cls(name, folder, paths, settings, embedder)

    def close(self) -> None:
        store = self.__dict__.get("vectors")
        if isinstance(store, VectorStoreProcess):
            store.close()
        self.catalog.close()

    @property
    def on_server(self) -> bool:
        """Whether this knowledge base lives on the team's server (other workstations share it)."""
        return self.catalog.shared

    def __enter__(self) -> "KnowledgeBase":
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    # --- components, opened when first needed ---------------------------------------------------

    @locked_cached_property
    def embedder(self) -> CachedEmbedder:
        inner = make_embedder(self.embedder_spec, EmbeddingServer.of(self.settings))
        return CachedEmbedder(inner, EmbeddingCache(self.paths.cache_dir / "embeddings.sqlite"))

    @locked_cached_property
    def vectors(self) -> VectorStore | VectorStoreProcess | ServerVectorStore:
        return self.catalog.vector_store(self.name, self.embedder_spec, EmbeddingServer.of(self.settings).host)

    @locked_cached_property
    def _searcher(self) -> Searcher:
        return Searcher(self.catalog, self._dense, self._embed_query, self.settings.kb.fetch_k, self.settings.kb.rrf_k,
                        self._cited_units, lambda ids: self.vectors.vectors(ids), self.settings.kb.fusion,
                        self.settings.kb.dense_weight, lexical=self._lexical)

    def _lexical(self, terms: list[tuple[str, ...]], limit: int, scope: Scope) -> list[tuple[str, float]]:
        where, params = scope.sql_where()
        return self.catalog.lexical(terms, limit, where, params, scope.doc_ids)

    def _cited_units(self, query: str) -> list[list[Chunk]]:
        """The chunks of every unit a query cites and this database holds ("§ 78 StrlSchG")."""
        units = []
        for ref in self.references(query):
            for target in ref.targets:
                if target.chunk_ids:
                    chunks = self.catalog.chunks_by_id(target.chunk_ids)
                    units.append([chunks[c] for c in target.chunk_ids if c in chunks])
        return units

    def _dense(self, vector: np.ndarray, k: int, where: dict | None) -> list[tuple[str, float]]:
        return self.vectors.query(vector, k, where)

    def _embed_query(self, query: str) -> np.ndarray:
        return self.embedder.embed_query(query)

    # --- ingestion ------------------------------------------------------------------------------

    def ingest(self, paths: list[Path], progress: ProgressCallback | None = None,
               cancel: CancelToken | None = None) -> IngestReport:
        ingestor = Ingestor(self.catalog, lambda: self.vectors, lambda: self.embedder, self.settings.kb, progress, cancel)
        return ingestor.run(paths, self.name)

    def finish_embedding(self, progress: ProgressCallback | None = None, cancel: CancelToken | None = None) -> IngestReport:
        ingestor = Ingestor(self.catalog, lambda: self.vectors, lambda: self.embedder, self.settings.kb, progress, cancel)
        return ingestor.embed_only(self.name)

    def pending_embeddings(self) -> int:
        return self.catalog.count_to_embed()

    def vector_coverage(self) -> tuple[int, int]:
        """(chunks still without a vector, all chunks): a search meanwhile finds the former by their words only."""
        missing = self.catalog.count_to_embed()
        return missing, missing + self.catalog.count_embedded()

    # --- documents ------------------------------------------------------------------------------

    def documents(self) -> list[DocumentInfo]:
        return self._as_local(self.catalog.documents())

    def find_document(self, ref: str) -> DocumentInfo:
        """A document by doc id (or a unique prefix of at least 8 characters), file name, path or short name."""
        docs = self.documents()
        for test in (
            lambda d: d.doc_id == ref,
            lambda d: d.path == ref or d.path == str(Path(ref).expanduser().resolve()),
            lambda d: d.file_name == ref,
            lambda d: len(ref) >= 8 and d.doc_id.startswith(ref),
            lambda d: (d.short_name or "").casefold() == ref.casefold(),
        ):
            found = [d for d in docs if test(d)]
            if len(found) == 1:
                return found[0]
            if len(found) > 1:
                raise KbError(f"'{ref}' names {len(found)} documents; use the doc id: "
                              + ", ".join(f"{d.doc_id[:12]} ({d.path})" for d in found))
        raise DocumentNotFound(ref, self.name)

    def _local_copy(self, doc_id: str) -> Path:
        """Where this workstation keeps the PDF of a document on the server (by content hash, for every
        knowledge base alike)."""
        return self.paths.cache_dir / "server-pdfs" / f"{doc_id}.pdf"

    def _as_local(self, docs: list[DocumentInfo]) -> list[DocumentInfo]:
        """Documents as this workstation opens them: on a server, ``path`` is the local copy's (see pdf_file)."""
        if not self.on_server:
            return docs
        return [d.model_copy(update={"path": str(self._local_copy(d.doc_id))}) for d in docs]

    def pdf_file(self, doc: DocumentInfo) -> Path:
        """The document's PDF on this workstation: where it was ingested or, from a server, a copy fetched
        once into the cache and checked against its content hash (the doc id)."""
        if not self.on_server:
            return Path(doc.path)
        local = self._local_copy(doc.doc_id)
        if local.is_file():
            return local
        data = self.catalog.file_bytes(doc.doc_id)
        if data is None or hashlib.sha256(data).hexdigest() != doc.doc_id:
            raise KbError(f"the server holds no intact copy of {doc.file_name}: ingest it again from its folder")
        local.parent.mkdir(parents=True, exist_ok=True)
        part = local.with_suffix(f".{os.getpid()}.{threading.get_ident()}.part")
        part.write_bytes(data)
        os.replace(part, local)  # another thread or process fetching it too writes the same bytes
        return local

    def remove_document(self, ref: str) -> DocumentInfo:
        doc = self.find_document(ref)
        self.catalog.delete_document(doc.doc_id)
        self._flush_vector_deletes()
        return doc

    def _flush_vector_deletes(self) -> None:
        ids = self.catalog.pending_vector_deletes()
        if ids:
            self.vectors.delete(ids)
            self.catalog.clear_vector_deletes(ids)

    def set_meta(self, ref: str, key: str, value: str) -> DocumentInfo:
        """Set (or with an empty value, clear) a user field; ``tags`` takes a comma-separated list."""
        doc = self.find_document(ref)
        key = key.strip()
        if not key:
            raise KbError("metadata needs a key: --set KEY=VALUE")
        with self.catalog.transaction() as db:
            if key in LIST_KEYS:
                tags = [t.strip() for t in value.split(",") if t.strip()]
                self.catalog.update_document(db, doc.doc_id, tags=tags)
            else:
                meta = dict(doc.meta)
                if value:
                    meta[key] = value
                else:
                    meta.pop(key, None)
                self.catalog.update_document(db, doc.doc_id, meta=meta)
        return self.find_document(doc.doc_id)

    # --- search and retrieval -------------------------------------------------------------------

    def _search_documents(self) -> list[DocumentInfo]:
        """Documents without chunk counts, kept until the catalog changes (a search needs their names)."""
        version = self.catalog.version()
        if self._doc_cache is None or self._doc_cache[0] != version:
            self._doc_cache = (version, self._as_local(self.catalog.documents(counts=False)))
        return self._doc_cache[1]

    def search(self, query: str, k: int = 10, mode: SearchMode = "hybrid", filt: SearchFilter | None = None) -> list[SearchHit]:
        documents = self._search_documents()
        return self._searcher.search(query, k, mode, scope_for(documents, filt), documents)

    def search_many(self, queries: list[str], k: int = 10, mode: SearchMode = "hybrid",
                    filt: SearchFilter | None = None) -> list[list[SearchHit]]:
        """Several searches with their queries embedded in one batch (what the engine does each round)."""
        documents = self._search_documents()
        scope = scope_for(documents, filt)
        vectors: list[np.ndarray | None] = [None] * len(queries)
        if mode != "lexical" and queries and self.catalog.has_embedded():
            vectors = list(self.embedder.embed_queries(queries))
        return [self._searcher.search(q, k, mode, scope, documents, v) for q, v in zip(queries, vectors)]

    def rank(self, query: str, chunk_ids: list[str]) -> list[tuple[str, float]]:
        """Chunks ordered by the cosine similarity of their stored vectors to ``query``, best first;
        chunks without a vector yet follow in the given order with a score of 0."""
        if not chunk_ids:
            return []
        stored = self.vectors.vectors(chunk_ids) if self.catalog.has_embedded() else {}
        vector = self.embedder.embed_query(query) if stored else None
        scored = sorted(((c, float(stored[c] @ vector)) for c in chunk_ids if c in stored), key=lambda x: -x[1])
        return scored + [(c, 0.0) for c in chunk_ids if c not in stored]

    def neighbours(self, chunk_id: str, before: int = 1, after: int = 1) -> list[Chunk]:
        return retrieval.neighbours(self.catalog, chunk_id, before, after)

    def pages(self, doc_ref: str, first: int, last: int | None = None, max_pages: int = 20) -> list[retrieval.PageText]:
        return retrieval.pages(self.catalog, self.find_document(doc_ref).doc_id, first, last, max_pages)

    def chunk(self, chunk_id: str) -> Chunk | None:
        return self.catalog.chunks_by_id([chunk_id]).get(chunk_id)

    # --- consistency ----------------------------------------------------------------------------

    def verify(self) -> list[str]:
        """Problems between catalog and vector store (empty when consistent)."""
        problems = []
        in_store = self.vectors.all_ids()
        known = self.catalog.all_chunk_ids()
        embedded = self.catalog.all_chunk_ids(embedded_only=True)
        queued = set(self.catalog.pending_vector_deletes())
        orphans = in_store - known - queued
        missing = embedded - in_store
        if orphans:
            problems.append(f"{len(orphans)} vectors without a chunk")
        if missing:
            problems.append(f"{len(missing)} chunks marked embedded but without a vector")
        bad = self.catalog.query("SELECT COUNT(*) AS n FROM chunks WHERE doc_id NOT IN (SELECT doc_id FROM documents)")
        if bad[0]["n"]:
            problems.append(f"{bad[0]['n']} chunks without a document")
        return problems + self.catalog.check()

    def stats(self) -> dict[str, object]:
        return {
            "name": self.name,
            "embedder": self.embedder_spec,
            "documents": len(self.documents()),
            "chunks": len(self.catalog.all_chunk_ids()),
            "pending_embeddings": self.pending_embeddings(),
            "created_at": self.catalog.get_meta("created_at"),
            "settings": json.loads(self.catalog.get_meta("chunking") or "{}"),
        }

    # --- references -----------------------------------------------------------------------------

    def references(self, text: str, from_doc: str | None = None) -> list[ResolvedReference]:
        """The references in ``text`` (as if it stood in document ``from_doc``), resolved in this database."""
        return resolve(parse_references(text), self.sections, from_doc=from_doc, context=text)

    def section(self, citation: str, from_doc: str | None = None) -> list[Chunk]:
        """The chunks of the unit a citation names, e.g. "§ 5 StrlSchG" or "Anlage 4 StrlSchV"."""
        for ref in self.references(citation, from_doc):
            for target in ref.targets:
                if target.chunk_ids:
                    chunks = self.catalog.chunks_by_id(target.chunk_ids)
                    return [chunks[c] for c in target.chunk_ids if c in chunks]
        return []
