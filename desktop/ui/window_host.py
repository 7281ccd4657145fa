"""The app's main window, and its replacement when the user picks another language: Qt translates
widgets as they are made, so View → Language builds the window anew on the same bridge. What the user
had in front of them carries over (``window_carry``): the shown run, the research log and draft,
the database, the open PDF and page, the last ingestion report, what is still running, the layout.
The first window opens as the last was left (``window_memory``)."""

from __future__ import annotations

from PySide6.QtCore import QObject
from PySide6.QtWidgets import QApplication

from desktop.bridge.bridge import EngineBridge
from desktop.paths import AppPaths
from desktop.settings import save_settings
from desktop.ui import i18n
from desktop.ui.main_window import MainWindow
from desktop.ui.window_carry import Carried, carry, take_over
from desktop.ui.window_memory import recall, remember


class WindowHost(QObject):
    def __init__(self, app: QApplication, bridge: EngineBridge, paths: AppPaths) -> None:
        super().__init__()
        self.app = app
        self.bridge = bridge
        self.paths = paths
        self.window: MainWindow | None = None

    def open(self, recall_layout: bool = False, carried: Carried | None = None) -> MainWindow:
        """A new main window; ``recall_layout``: as the last one was left (the app's first window);
        ``carried``: what the window it replaces showed. Either is restored before the window shows: a
        shown window's geometry moves by its frame (25 px down after a language switch)."""
        window = MainWindow(self.bridge)
        window.languageRequested.connect(self.switch_language)
        window.closing.connect(lambda: remember(self.paths, window))
        if recall_layout:
            recall(self.paths, window)
        if carried is not None:
            take_over(window, carried)
        window.show()
        self.window = window
        return window

    def switch_language(self, language: str) -> MainWindow:
        """Save the choice, install the translation and replace the window; the bridge, its run and its
        knowledge bases carry on untouched."""
        old = self.window
        # a new value, not apply_settings: that would stop a running step, and the session never reads the language
        self.bridge.settings = self.bridge.settings.changed(ui={"language": language})
        save_settings(self.paths, self.bridge.settings)
        i18n.install(self.app, language)
        new = self.open(carried=carry(old) if old is not None else None)
        if old is not None:
            old.close()  # cuts its connections to the bridge
            old.deleteLater()
        return new
