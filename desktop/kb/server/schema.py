"""Where the knowledge bases live on the server: the registry ``rabbithole.databases`` and one schema per
knowledge base with the same tables as a workstation's ``catalog.sqlite``, plus what SQLite's FTS5 and
Chroma keep elsewhere: each chunk's lexical terms (a ``tsvector`` for matching, term frequencies for
BM25), the document frequency of every term, the PDFs by content hash and the vectors (pgvector).

A chunk belongs to its document (deferred foreign key, deleted with it) and a vector to its chunk,
so removing a document is one statement that leaves nothing behind, and what one transaction wrote
is visible to every workstation at once or not at all.
"""

from __future__ import annotations

import hashlib
import re

REGISTRY_SCHEMA = "rabbithole"
# Readers get USAGE and SELECT on every knowledge base's schema when this role exists (docs/server.md).
READER_ROLE = "rabbithole_read"

REGISTRY_DDL = f"""
CREATE SCHEMA IF NOT EXISTS {REGISTRY_SCHEMA};
CREATE TABLE IF NOT EXISTS {REGISTRY_SCHEMA}.databases (
    name TEXT PRIMARY KEY, schema_name TEXT NOT NULL UNIQUE, created_at TIMESTAMPTZ NOT NULL DEFAULT now())
"""

KB_DDL = """
CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS counters (name TEXT PRIMARY KEY, n BIGINT NOT NULL);
INSERT INTO counters VALUES ('generation', 0), ('chunks', 0), ('tokens', 0) ON CONFLICT DO NOTHING;
CREATE TABLE IF NOT EXISTS documents (
    doc_id TEXT PRIMARY KEY, file_name TEXT NOT NULL, path TEXT NOT NULL, title TEXT NOT NULL,
    short_name TEXT, aliases TEXT NOT NULL DEFAULT '[]', language TEXT NOT NULL, pages INTEGER NOT NULL,
    size_bytes BIGINT NOT NULL, mtime DOUBLE PRECISION NOT NULL, issued TEXT, warnings TEXT NOT NULL DEFAULT '[]',
    meta TEXT NOT NULL DEFAULT '{}', tags TEXT NOT NULL DEFAULT '[]', ingested_at TEXT NOT NULL,
    scanned_pages INTEGER NOT NULL DEFAULT 0);
CREATE INDEX IF NOT EXISTS documents_path ON documents(path);
CREATE TABLE IF NOT EXISTS pages (
    doc_id TEXT NOT NULL REFERENCES documents ON DELETE CASCADE DEFERRABLE INITIALLY DEFERRED,
    page INTEGER NOT NULL, text TEXT NOT NULL, ocr INTEGER NOT NULL DEFAULT 0, PRIMARY KEY (doc_id, page));
CREATE TABLE IF NOT EXISTS chunks (
    chunk_id TEXT PRIMARY KEY,
    doc_id TEXT NOT NULL REFERENCES documents ON DELETE CASCADE DEFERRABLE INITIALLY DEFERRED,
    page INTEGER NOT NULL, ordinal INTEGER NOT NULL, char_start INTEGER NOT NULL, char_end INTEGER NOT NULL,
    section TEXT, section_title TEXT, heading_path TEXT, language TEXT NOT NULL, text TEXT NOT NULL,
    embedded INTEGER NOT NULL DEFAULT 0, kind TEXT NOT NULL DEFAULT 'text', box TEXT,
    terms TSVECTOR NOT NULL, tf JSONB NOT NULL, ntok INTEGER NOT NULL);
CREATE INDEX IF NOT EXISTS chunks_doc ON chunks(doc_id, ordinal);
CREATE INDEX IF NOT EXISTS chunks_page ON chunks(doc_id, page);
CREATE INDEX IF NOT EXISTS chunks_section ON chunks(doc_id, section);
CREATE INDEX IF NOT EXISTS chunks_todo ON chunks(embedded) WHERE embedded = 0;
CREATE INDEX IF NOT EXISTS chunks_terms ON chunks USING gin (terms);
CREATE TABLE IF NOT EXISTS sections (
    doc_id TEXT NOT NULL REFERENCES documents ON DELETE CASCADE DEFERRABLE INITIALLY DEFERRED,
    section TEXT NOT NULL, title TEXT, page INTEGER NOT NULL, ordinal INTEGER NOT NULL,
    PRIMARY KEY (doc_id, section, ordinal));
CREATE TABLE IF NOT EXISTS lexicon (term TEXT PRIMARY KEY, df INTEGER NOT NULL);
CREATE TABLE IF NOT EXISTS files (sha256 TEXT PRIMARY KEY, size BIGINT NOT NULL, content BYTEA NOT NULL);
CREATE TABLE IF NOT EXISTS vector_deletes (chunk_id TEXT PRIMARY KEY)
"""


def vectors_ddl(dimensions: int) -> str:
    """The vector table, made when the first vectors arrive (their length fixes the column's). The HNSW
    graph is built more thoroughly than pgvector's default (ef_construction 64): measured on LegalQuAD,
    the top 10 then match an exact search as closely as the embedded Chroma store's do."""
    return f"""
CREATE TABLE IF NOT EXISTS vectors (
    chunk_id TEXT PRIMARY KEY REFERENCES chunks ON DELETE CASCADE, doc_id TEXT NOT NULL,
    page INTEGER NOT NULL, section TEXT, embedding vector({int(dimensions)}) NOT NULL);
CREATE INDEX IF NOT EXISTS vectors_hnsw ON vectors USING hnsw (embedding vector_cosine_ops)
    WITH (m = 16, ef_construction = 128)
"""


def schema_name(database: str) -> str:
    """A readable, unique schema for a knowledge base's name ("Fälle 2024" → kb_f_lle_2024_1a2b3c4d)."""
    slug = re.sub(r"[^a-z0-9]+", "_", database.casefold()).strip("_")[:40]
    return f"kb_{slug}_{hashlib.sha1(database.encode()).hexdigest()[:8]}"


def statements(ddl: str) -> list[str]:
    return [s.strip() for s in ddl.split(";\n") if s.strip()]
