"""A real PostgreSQL server with pgvector on 127.0.0.1 for the server-mode tests.

The binaries come from ``RABBITHOLE_TEST_PG_BIN`` (a folder with initdb and pg_ctl whose server has
the ``vector`` extension) or else from the PyPI wheel ``pgserver`` (PostgreSQL 16 with pgvector, in
the test extra). The wheel's Python module is not imported: it would start servers of its own and
write lock files; only its binaries are used.

PostgreSQL refuses to run as root, which CI is: then the binaries are copied to a folder any user
can reach and run as ``nobody``. The cluster listens on a free port of 127.0.0.1 only, with
password (SCRAM) authentication, like a server IT runs.
"""

from __future__ import annotations

import importlib.util
import os
import shutil
import socket
import subprocess
import tempfile
from dataclasses import dataclass
from pathlib import Path

SUPERUSER = "rabbit_admin"
PASSWORD = "test-secret-4711"


def binaries() -> Path | None:
    """The folder holding initdb/pg_ctl/postgres, or None when no PostgreSQL with pgvector is installed."""
    configured = os.environ.get("RABBITHOLE_TEST_PG_BIN")
    if configured:
        return Path(configured)
    spec = importlib.util.find_spec("pgserver")
    if spec is None or not spec.submodule_search_locations:
        return None
    folder = Path(next(iter(spec.submodule_search_locations))) / "pginstall" / "bin"
    return folder if any((folder / name).exists() for name in ("initdb", "initdb.exe")) else None


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@dataclass
class PgServer:
    root: Path
    bin: Path
    port: int
    user: str | None  # the system user the server runs as (None: the current one)

    @property
    def data(self) -> Path:
        return self.root / "data"

    def dsn(self, user: str = SUPERUSER, password: str = PASSWORD, database: str = "postgres") -> str:
        return f"host=127.0.0.1 port={self.port} dbname={database} user={user} password={password}"

    def _run(self, *args: str) -> subprocess.CompletedProcess[str]:
        return subprocess.run([str(self.bin / args[0]), *args[1:]], capture_output=True, text=True, check=False,
                              user=self.user, cwd=self.root)

    def start(self) -> None:
        pwfile = self.root / "pw"
        pwfile.write_text(PASSWORD)
        self._chown(pwfile)
        done = self._run("initdb", "-D", str(self.data), "-U", SUPERUSER, "--auth=scram-sha-256",
                         f"--pwfile={pwfile}", "-E", "UTF8", "--locale=C.UTF-8", "--no-sync")
        if done.returncode:
            raise RuntimeError(f"initdb failed: {done.stderr or done.stdout}")
        options = f"-h 127.0.0.1 -p {self.port} -k {self.root} -c fsync=off -c full_page_writes=off"
        done = self._run("pg_ctl", "-D", str(self.data), "-w", "-l", str(self.root / "log"), "-o", options, "start")
        if done.returncode:
            raise RuntimeError(f"PostgreSQL did not start: {done.stderr or done.stdout}\n{self.log()}")

    def stop(self) -> None:
        self._run("pg_ctl", "-D", str(self.data), "-m", "immediate", "stop")
        shutil.rmtree(self.root, ignore_errors=True)

    def log(self) -> str:
        path = self.root / "log"
        return path.read_text(errors="replace") if path.exists() else ""

    def _chown(self, path: Path) -> None:
        if self.user:
            shutil.chown(path, self.user)


def _copy_installation(bin_dir: Path, into: Path) -> Path:
    """Copy the installation of ``bin_dir`` (with the wheel's shared libraries, which its binaries find at
    ``$ORIGIN/../../../pgserver.libs``) below ``into``; the copy's bin folder."""
    install = bin_dir.parent
    libs = install.parent.parent / "pgserver.libs"
    if libs.is_dir():
        shutil.copytree(libs, into / "pgserver.libs", symlinks=True)
        target = into / "pgserver" / install.name
    else:
        target = into / install.name
    shutil.copytree(install, target, symlinks=True)
    return target / bin_dir.name


def start_server() -> PgServer | None:
    """A fresh cluster on a free port of 127.0.0.1, or None when no PostgreSQL with pgvector is installed."""
    found = binaries()
    if found is None:
        return None
    root = Path(tempfile.mkdtemp(prefix="rabbithole-pg-"))
    user = None
    install = found
    if getattr(os, "geteuid", lambda: -1)() == 0:  # PostgreSQL refuses root: a copy any user can reach, run as nobody
        user = "nobody"
        install = _copy_installation(found, root / "pg")
        for path in (root, *root.rglob("*")):
            if not path.is_symlink():
                os.chmod(path, os.stat(path).st_mode | 0o055 | (0o011 if path.is_dir() else 0))
        shutil.chown(root, user)
    server = PgServer(root, install, _free_port(), user)
    server.start()
    return server
