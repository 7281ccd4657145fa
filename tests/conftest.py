"""Shared fixtures. Every test runs against its own data folder; nothing touches a user's real data."""

from __future__ import annotations

import itertools
import os
from collections.abc import Iterator
from pathlib import Path

import psycopg
import pytest

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

from support.pg_server import PgServer, start_server  # noqa: E402

from desktop.kb.database import KnowledgeBase  # noqa: E402
from desktop.kb.storage.registry import SAMPLE_DB, ensure_sample  # noqa: E402
from desktop.kb.search.vector_process import serve_vectors_from_child_process  # noqa: E402
from desktop.paths import AppPaths  # noqa: E402
from desktop.settings import Settings  # noqa: E402

REPO = Path(__file__).resolve().parents[1]
CORPUS = REPO.parent / "shared" / "corpus"


def corpus_dir(name: str) -> Path:
    path = CORPUS / name
    if not path.is_dir():
        pytest.skip(f"the evaluation corpus is not beside the checkout ({path})")
    return path


@pytest.fixture(scope="session", autouse=True)
def _isolated_environment(tmp_path_factory: pytest.TempPathFactory) -> Iterator[None]:
    """Point the default data folder at a throw-away place and forget the user's LLM host."""
    mp = pytest.MonkeyPatch()
    mp.setenv("RABBITHOLE_DATA_DIR", str(tmp_path_factory.mktemp("default-data")))
    mp.delenv("OLLAMA_HOST", raising=False)
    yield
    mp.undo()


@pytest.fixture(autouse=True)
def _vectors_in_process() -> Iterator[None]:
    """The window's bridge moves Chroma into a child process for the whole process; tests that did
    not ask for that get the command line's in-process store."""
    yield
    serve_vectors_from_child_process(False)


@pytest.fixture(scope="session")
def embedding_cache_dir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """One embedding cache for the session: identical texts across tests are embedded once."""
    return tmp_path_factory.mktemp("embedding-cache")


def make_paths(root: Path, cache_dir: Path) -> AppPaths:
    return AppPaths(root, root / "config", cache_dir, root / "logs").ensure()


@pytest.fixture
def app_paths(tmp_path: Path, embedding_cache_dir: Path) -> AppPaths:
    return make_paths(tmp_path / "data", embedding_cache_dir)


@pytest.fixture
def settings() -> Settings:
    # read PDFs in-process: fast for small test files; worker processes have their own tests
    return Settings().changed(kb={"ingest_workers": 0})


@pytest.fixture
def kb(app_paths: AppPaths, settings: Settings) -> Iterator[KnowledgeBase]:
    with KnowledgeBase.open(app_paths, settings, "Test", create=True) as base:
        yield base


@pytest.fixture(scope="session")
def sample_paths(tmp_path_factory: pytest.TempPathFactory, embedding_cache_dir: Path) -> tuple[AppPaths, Settings]:
    """The bundled sample database, built once per session (from the shipped embedding seed)."""
    paths = make_paths(tmp_path_factory.mktemp("sample-data"), embedding_cache_dir)
    settings = Settings()
    report = ensure_sample(paths, settings)
    assert report is not None and not report.embed_error and report.pending_embeddings == 0
    return paths, settings


@pytest.fixture
def sample_kb(sample_paths: tuple[AppPaths, Settings]) -> Iterator[KnowledgeBase]:
    paths, settings = sample_paths
    with KnowledgeBase.open(paths, settings, SAMPLE_DB) as base:
        yield base


# --- a team server: PostgreSQL with pgvector on 127.0.0.1 (started when a test asks for it) ----------

_numbers = itertools.count(1)


@pytest.fixture(scope="session")
def pg() -> Iterator[PgServer]:
    server = start_server()
    if server is None:  # a failure, not a skip: the test extra installs one, so this is a broken set-up
        pytest.fail("no PostgreSQL with pgvector found: pip install -e '.[test]' brings one (pgserver), or "
                    "point RABBITHOLE_TEST_PG_BIN at the bin folder of one")
    yield server
    server.stop()


@pytest.fixture
def team_settings(pg: PgServer) -> Settings:
    """Settings of a workstation on the team's server, each test with a database of its own."""
    name = f"team_{next(_numbers)}"
    with psycopg.connect(pg.dsn(), autocommit=True) as conn:
        conn.execute(f"CREATE DATABASE {name}")
    with psycopg.connect(pg.dsn(database=name), autocommit=True) as conn:
        conn.execute("CREATE EXTENSION vector")  # what IT does once (docs/server.md)
    return Settings().changed(kb={"ingest_workers": 0, "mode": "server", "server": {
        "port": pg.port, "database": name, "user": "rabbit_admin", "password": "test-secret-4711"}})
