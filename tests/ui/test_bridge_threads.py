"""What the bridge keeps for the GUI thread is written on the GUI thread: lists fetched in a worker
thread come back as values, and the bridge stores them where the window reads them."""

from __future__ import annotations

import threading
from typing import Any

import pytest

from desktop.service import library as library_module
from desktop.bridge.bridge import EngineBridge
from desktop.paths import AppPaths
from desktop.settings import Settings


class ProbedBridge(EngineBridge):
    """Records the thread of every write of the team server's database list."""

    def __init__(self, *args: Any) -> None:
        self.writers: list[threading.Thread] = []
        super().__init__(*args)

    @property
    def _server_databases(self) -> list[str]:
        return self.__dict__.get("_probe", [])

    @_server_databases.setter
    def _server_databases(self, names: list[str]) -> None:
        self.writers.append(threading.current_thread())
        self.__dict__["_probe"] = names


def test_the_team_servers_list_is_kept_on_the_gui_thread(qtbot: Any, app_paths: AppPaths, settings: Settings,
                                                        monkeypatch: pytest.MonkeyPatch) -> None:
    listing: list[threading.Thread] = []

    def list_databases(paths: AppPaths, s: Settings) -> list[str]:
        listing.append(threading.current_thread())
        return ["Cases", "Statutes"]

    monkeypatch.setattr(library_module, "list_databases", list_databases)
    b = ProbedBridge(app_paths, settings.changed(kb={"mode": "server"}))
    try:
        with qtbot.waitSignal(b.databasesChanged, timeout=10_000) as changed:
            b.refresh_databases()
        assert changed.args == [["Cases", "Statutes"]] and b.databases() == ["Cases", "Statutes"]
        assert listing and listing[0] is not threading.main_thread()  # the network stays off the GUI thread
        assert b.writers[1:] and all(t is threading.main_thread() for t in b.writers)  # [0]: __init__
        assert all(t.name.startswith("rabbithole-work") for t in listing)  # a counted thread, not asyncio's pool
    finally:
        b.shutdown()
