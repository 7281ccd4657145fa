"""A command's session: each command that reads knowledge bases, runs or the LLM server opens the service's
``Session`` for its own run (``asyncio.run``) and closes it before it returns."""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable
from typing import TypeVar

from desktop.cli.console import ProgressPrinter, err, interruptible
from desktop.paths import AppPaths
from desktop.service import SAMPLE_DB, CancelToken, Session, local_databases
from desktop.settings import Settings

T = TypeVar("T")


def in_session(paths: AppPaths, settings: Settings, work: Callable[[Session], Awaitable[T]]) -> T:
    """``work(session)`` on a session of its own, closed after it (Ctrl+C as the command arranged it)."""
    async def main() -> T:
        async with Session(paths, settings) as session:
            return await work(session)

    return asyncio.run(main())


async def sample_first(session: Session, database: str) -> None:
    """The sample database is built from the bundled laws on its first use (Ctrl+C stops it, resumable)."""
    if database != SAMPLE_DB or session.settings.kb.mode == "server" or SAMPLE_DB in local_databases(session.paths):
        return
    err(f"setting up the '{SAMPLE_DB}' database from the bundled laws (first use only)…")
    cancel = CancelToken()
    with interruptible(cancel):
        await session.library.ingest(SAMPLE_DB, [], ProgressPrinter(), cancel)
