"""A window the app replaced (View → Language builds a new one on the same bridge) hears the bridge no
more: before, adding a file after a language switch raised "Internal C++ object (QComboBox) already
deleted" from the old window's knowledge-base panel."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from PySide6.QtCore import QCoreApplication, QEvent
from support.fake_ollama import FakeOllama
from support.fake_ollama_replies import chat_model

from desktop.ui.main_window import MainWindow


def test_a_replaced_window_hears_the_bridge_no_more(qtbot: Any, open_window: Callable[..., MainWindow]) -> None:
    with FakeOllama([chat_model("m:latest", "qwen3", 32768)]) as fake:
        kept = open_window(fake.url, "m:latest", 20)
        bridge = kept.bridge
        for _ in range(2):  # twice, as a user switching there and back
            replaced = MainWindow(bridge)
            replaced.show()
            replaced.close()
            replaced.deleteLater()
            QCoreApplication.sendPostedEvents(None, QEvent.Type.DeferredDelete)
        bridge.databasesChanged.emit(["Cases", "Sample"])  # what an ingest into a new database emits
        bridge.error.emit("a message only the open window shows")
        assert [kept.kb.databases.itemText(i) for i in range(kept.kb.databases.count())] == ["Cases", "Sample"]
