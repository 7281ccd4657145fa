"""What the window remembers between starts: its size and layout (docks, splitters), the open PDF and
page, each document's zoom, and the run it showed. Kept in ``window.json`` beside settings.json; a file that is missing,
unreadable or from another version is ignored (the window opens as on a first start)."""

from __future__ import annotations

import base64
import json
import logging
from pathlib import Path
from typing import Any

from PySide6.QtCore import QByteArray, Qt
from PySide6.QtWidgets import QSplitter

from desktop.paths import AppPaths
from desktop.ui.main_window import MainWindow

log = logging.getLogger(__name__)
VERSION = 2  # 2: the window's place as its inner rectangle, not Qt's saveGeometry


def place_of(window: MainWindow) -> list[int]:
    """Where the window's inner area is (x, y, width, height; its normal size when maximised) and whether
    it is maximised. Qt's saveGeometry/restoreGeometry moved a window by its frame's title bar on each
    round (25 px down after a language switch, X11): the inner rectangle restores where it was."""
    g = window.normalGeometry() if window.isMaximized() else window.geometry()
    return [g.x(), g.y(), g.width(), g.height(), int(window.isMaximized())]


def put(window: MainWindow, place: list[int]) -> None:
    x, y, width, height, maximised = (int(v) for v in place)
    window.setGeometry(x, y, width, height)
    if maximised:
        window.setWindowState(window.windowState() | Qt.WindowState.WindowMaximized)


def _b64(data: QByteArray) -> str:
    return base64.b64encode(bytes(data.data())).decode("ascii")


def _bytes(text: str) -> QByteArray:
    return QByteArray(base64.b64decode(text))


def remember(paths: AppPaths, window: MainWindow) -> None:
    pdf = window.viewer.path
    data: dict[str, Any] = {
        "version": VERSION, "place": place_of(window), "layout": _b64(window.saveState()),
        "splitters": {s.objectName(): _b64(s.saveState()) for s in window.findChildren(QSplitter) if s.objectName()},
        "pdf": [str(pdf), window.viewer.current_page()] if pdf else None,
        "run": window.state.run_id if window.state else None,
        "database": window.kb.database,
        "zooms": window.viewer.zooms,
    }
    tmp = paths.window_file.with_suffix(".tmp")
    try:
        paths.window_file.parent.mkdir(parents=True, exist_ok=True)
        tmp.write_text(json.dumps(data), encoding="utf-8")
        tmp.replace(paths.window_file)
    except OSError as exc:  # a read-only config folder costs the memory, not the close
        log.warning("cannot keep the window's layout in %s: %s", paths.window_file, exc)


def recall(paths: AppPaths, window: MainWindow) -> None:
    """Restore what ``remember`` kept; the run is reloaded through the bridge."""
    try:
        data = json.loads(paths.window_file.read_text(encoding="utf-8"))
        if data.get("version") != VERSION:
            return
        put(window, data["place"])
        window.restoreState(_bytes(data["layout"]))
        window.default_docks = False
        for splitter in window.findChildren(QSplitter):
            if state := data.get("splitters", {}).get(splitter.objectName()):
                splitter.restoreState(_bytes(state))
    except (OSError, ValueError, KeyError, TypeError):
        return  # nothing (usable) kept: the window opens as on a first start
    zooms = data.get("zooms")
    if isinstance(zooms, dict):  # each document's zoom, as the reader left it
        window.viewer.zooms = {str(k): v for k, v in zooms.items() if v in ("text", "width", "page")
                               or isinstance(v, int | float)}
    if data.get("database") in window.bridge.databases():
        window.kb.set_databases(window.bridge.databases(), select=data["database"])
    if data.get("pdf") and Path(data["pdf"][0]).is_file():
        window.viewer_dock.show()
        window.viewer.open(Path(data["pdf"][0]), int(data["pdf"][1]))
    if data.get("run"):
        window.bridge.refresh_run(data["run"])
