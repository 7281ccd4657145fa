"""Connections to the team's PostgreSQL server, and its failures as messages a user can act on.

The password comes from the settings, else ``$RABBITHOLE_DB_PASSWORD``, else libpq's own sources
(``$PGPASSWORD``, ``~/.pgpass``); it is never part of a message or a log line: ``where`` names the
server as ``user@host:port/database``.
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import psycopg
from psycopg import errors as pg_errors
from psycopg import sql
from psycopg.rows import dict_row

from desktop.kb.errors import ConcurrentChange, KbError, ReadOnlyDatabase, ServerUnavailable
from desktop.settings import ServerSettings

PASSWORD_ENV = "RABBITHOLE_DB_PASSWORD"


def where(server: ServerSettings) -> str:
    return f"{server.user}@{server.host}:{server.port}/{server.database}"


def connect_args(server: ServerSettings) -> dict[str, Any]:
    args: dict[str, Any] = {
        "host": server.host, "port": server.port, "dbname": server.database, "user": server.user,
        "sslmode": server.sslmode, "connect_timeout": server.connect_timeout_s, "application_name": "rabbithole",
    }
    password = server.password or os.environ.get(PASSWORD_ENV)
    if password:
        args["password"] = password
    if server.sslrootcert:
        args["sslrootcert"] = server.sslrootcert
    return args


def connect(server: ServerSettings) -> psycopg.Connection[dict[str, Any]]:
    """An autocommit connection with dict rows; transactions are opened explicitly. With a group role
    set, the session acts as that role, so what one member writes the others may change too."""
    try:
        conn = psycopg.connect(**connect_args(server), autocommit=True, row_factory=dict_row)
    except psycopg.Error as exc:
        raise translate(exc, server) from exc
    if server.role:
        try:
            conn.execute(sql.SQL("SET ROLE {}").format(sql.Identifier(server.role)))
        except psycopg.Error as exc:
            conn.close()
            raise ServerUnavailable(f"the account '{server.user}' may not act as the role '{server.role}' on "
                                    f"{where(server)}: ask IT to grant it, or clear the role in the settings") from exc
    return conn


def translate(exc: BaseException, server: ServerSettings) -> KbError:
    """One message per kind of failure; psycopg's own text is kept (it never holds the password)."""
    detail = str(exc).strip().splitlines()[0] if str(exc).strip() else type(exc).__name__
    if isinstance(exc, pg_errors.UniqueViolation):
        return ConcurrentChange(f"another workstation wrote the same entry at the same moment: {detail}")
    if isinstance(exc, pg_errors.InsufficientPrivilege | pg_errors.ReadOnlySqlTransaction):
        return ReadOnlyDatabase(server.user, where(server))
    if isinstance(exc, pg_errors.UndefinedFile) and "vector" in detail:
        return ServerUnavailable(f"the server {where(server)} lacks the pgvector extension "
                                 f"(IT installs it: docs/server.md): {detail}")
    if isinstance(exc, psycopg.OperationalError):
        if "password authentication failed" in detail or "no password supplied" in detail:
            return ServerUnavailable(f"the server {where(server)} refused the login: check the user and the password "
                                     f"(settings, ${PASSWORD_ENV} or ~/.pgpass)")
        return ServerUnavailable(f"cannot reach the knowledge-base server {where(server)}: {detail}")
    return ServerUnavailable(f"the knowledge-base server {where(server)} failed: {detail}")


@contextmanager
def guarded(server: ServerSettings) -> Iterator[None]:
    """Run database work; psycopg's failures leave as KbError (the ingest stops, the window says why)."""
    try:
        yield
    except psycopg.Error as exc:
        raise translate(exc, server) from exc
