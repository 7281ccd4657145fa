"""Settings → Knowledge base → Team server: a "Check server" button that asks the server as typed (in
the background) and says what is wrong or what this workstation may do there."""

from __future__ import annotations

from collections.abc import Callable

from PySide6.QtCore import QObject
from PySide6.QtWidgets import QLabel, QPushButton

from desktop.bridge.bridge import EngineBridge
from desktop.bridge.kb_views import ServerHealthView
from desktop.bridge.worker import Op
from desktop.settings import ServerSettings
from desktop.ui.model_pull import ERROR_COLOR, OK_COLOR, WARN_COLOR, say, status_label
from desktop.ui.settings_form import hbox


class ServerCheck(QObject):
    """The button row and the result line, placed by the dialog as rows of the tab's own form, below the
    server's group (a word-wrapped label inside the group's nested form does not grow it when it wraps:
    the fields above were squeezed)."""

    def __init__(self, bridge: EngineBridge, typed: Callable[[QLabel], ServerSettings | None],
                 track: Callable[[Op], None], parent: QObject | None = None) -> None:
        super().__init__(parent)
        self._bridge = bridge
        self._typed = typed  # the server settings as typed, or None (said on the label given)
        self._track = track  # the dialog cancels what is still running when it closes
        self.button = QPushButton(self.tr("Check server"), clicked=self.check)
        self.button_row = hbox(self.button)
        self.result = status_label()

    def check(self) -> None:
        server = self._typed(self.result)
        if server is None:
            return
        self.button.setEnabled(False)
        say(self.result, self.tr("Connecting to {server}…").format(server=f"{server.host}:{server.port}"))
        self._track(self._bridge.check_kb_server(server, self._show, self._failed))

    def _show(self, health: ServerHealthView) -> None:
        self.button.setEnabled(True)
        if not health.ok:
            say(self.result, health.message, ERROR_COLOR)
            return
        rights = (self.tr("this account may add and remove documents") if health.can_write
                  else self.tr("this account may search, not change (read-only)"))
        tls = self.tr("encrypted (TLS)") if health.tls else self.tr("not encrypted")
        text = self.tr("Connected to PostgreSQL {version} with pgvector {pgvector}, {tls}; {count} knowledge "
                       "base(s); {rights}").format(version=health.version, pgvector=health.pgvector, tls=tls,
                                                   count=health.databases, rights=rights)
        say(self.result, text, OK_COLOR if health.tls else WARN_COLOR)

    def _failed(self, exc: object) -> None:
        self.button.setEnabled(True)
        say(self.result, str(exc), ERROR_COLOR)
