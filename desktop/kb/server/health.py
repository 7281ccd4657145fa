"""What a workstation can do on the team's server: reached or not, PostgreSQL and pgvector versions,
TLS, and whether the account may write. ``doctor`` and the settings dialog show it."""

from __future__ import annotations

from pydantic import BaseModel

from desktop.kb.errors import KbError
from desktop.kb.server.connect import connect, guarded, where
from desktop.kb.server.schema import REGISTRY_SCHEMA
from desktop.settings import ServerSettings


class ServerHealth(BaseModel):
    ok: bool
    where: str
    message: str = ""  # why not ok
    version: str = ""
    pgvector: str | None = None  # None: the extension is not installed in the database
    tls: bool = False
    can_write: bool = False
    databases: int = 0


def server_health(server: ServerSettings) -> ServerHealth:
    place = where(server)
    try:
        conn = connect(server)
    except KbError as exc:
        return ServerHealth(ok=False, where=place, message=str(exc))
    try:
        with guarded(server):
            row = conn.execute(
                "SELECT current_setting('server_version') AS version, "
                "(SELECT extversion FROM pg_extension WHERE extname = 'vector') AS pgvector, "
                "COALESCE((SELECT ssl FROM pg_stat_ssl WHERE pid = pg_backend_pid()), false) AS tls, "
                "has_database_privilege(current_database(), 'CREATE') AS can_create, "
                "to_regclass(%s) IS NOT NULL AS registry", (f"{REGISTRY_SCHEMA}.databases",)).fetchone()
            databases, can_write = 0, bool(row["can_create"])
            if row["registry"]:
                databases = conn.execute(f"SELECT COUNT(*) AS n FROM {REGISTRY_SCHEMA}.databases").fetchone()["n"]
                can_write = can_write or conn.execute(
                    f"SELECT has_table_privilege('{REGISTRY_SCHEMA}.databases', 'INSERT') AS w").fetchone()["w"]
    except KbError as exc:
        return ServerHealth(ok=False, where=place, message=str(exc))
    finally:
        conn.close()
    missing = "" if row["pgvector"] else (
        "the database lacks the pgvector extension: IT runs CREATE EXTENSION vector in it (docs/server.md)")
    return ServerHealth(ok=not missing, where=place, message=missing, version=row["version"], pgvector=row["pgvector"],
                        tls=bool(row["tls"]), can_write=can_write, databases=int(databases))
