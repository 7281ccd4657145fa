"""Fixtures of the server-mode tests: one PostgreSQL server with pgvector for the session, and a
database of its own on it for each test."""

from __future__ import annotations

import itertools
from collections.abc import Iterator

import psycopg
import pytest
from support.pg_server import PgServer, start_server

from desktop.settings import Settings

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
    s = Settings()
    s.kb.ingest_workers = 0
    s.kb.mode = "server"
    s.kb.server.port, s.kb.server.database = pg.port, name
    s.kb.server.user, s.kb.server.password = "rabbit_admin", "test-secret-4711"
    return s
