"""The settings dialog: tabs generated from the settings schema (``settings_form``) plus the LLM server
tools: test the connection, list the models, pull one (``model_pull``). The tools use the values typed
in the dialog, not the saved ones, and every server call goes through the bridge, so the dialog never
blocks."""

from __future__ import annotations

import os
from pathlib import Path

from pydantic import ValidationError
from PySide6.QtCore import QLocale, Qt
from PySide6.QtGui import QShowEvent
from PySide6.QtWidgets import (
    QComboBox, QDialog, QDialogButtonBox, QFrame, QLabel, QLineEdit, QPushButton,
    QScrollArea, QTabWidget, QVBoxLayout, QWidget,
)

from desktop.bridge.bridge import EngineBridge, user_message
from desktop.bridge.kb_views import HealthView, ModelView
from desktop.bridge.worker import Op
from desktop.paths import resolve_paths
from desktop.settings import KbSettings, LlmSettings, ResearchSettings, ServerSettings, Settings
from desktop.ui.model_pull import ERROR_COLOR, GB, OK_COLOR, WARN_COLOR, ModelPull, say, status_label
from desktop.ui.server_check import ServerCheck
from desktop.ui.settings_form import ComboBox, Editor, SettingsForm, field_label, hbox, model_section

OFFLINE_EMBEDDER = "offline"


class SettingsDialog(QDialog):
    """Edit ``settings``; OK validates everything and hands the result to ``bridge.apply_settings``."""

    def __init__(self, bridge: EngineBridge, settings: Settings, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setWindowTitle(self.tr("Settings"))
        self.resize(760, 700)
        self._bridge = bridge
        self.result_settings: Settings | None = None  # what OK applied
        self._closed = False  # results arriving after close are dropped
        self._ops: list[Op] = []
        self._listed_backend = "ollama"
        self._refresh_buttons: list[QPushButton] = []
        self._model_notes: list[QLabel] = []

        self.model_box, model_editor = self._model_picker()
        self.embedder_box, embedder_editor = self._model_picker()
        self.embedder_box.addItem(OFFLINE_EMBEDDER)
        self.llm_form = SettingsForm(LlmSettings, settings.llm, overrides={"model": model_editor})
        self.kb_form = SettingsForm(KbSettings, settings.kb, overrides={"default_embedder": embedder_editor})
        self.research_form = SettingsForm(ResearchSettings, settings.research)
        self._sections: dict[str, SettingsForm] = {"llm": self.llm_form, "kb": self.kb_form,
                                                   "research": self.research_form}
        extra = {name: SettingsForm(section, getattr(settings, name)) for name, info in Settings.model_fields.items()
                 if (section := model_section(info.annotation)) and name not in self._sections}
        self._sections.update(extra)
        # top-level values that are no section (the data folder); the schema version is no setting
        self.folders_form = SettingsForm(Settings, settings, exclude={"schema_version", *self._sections})

        self.tabs = QTabWidget()
        self._tab_forms: list[SettingsForm] = []
        self._add_tab(self.llm_form, self.tr("LLM"))
        self._add_tab(self.kb_form, self.tr("Knowledge base"))
        self._add_tab(self.research_form, self.tr("Research"))
        self._add_tab(self.folders_form, self.tr("Folders"), self._folder_notes())
        for name, form in extra.items():  # a new settings section gets a tab of its own
            self._add_tab(form, field_label(name))
        self._add_llm_tools()
        self.server_check = ServerCheck(self._bridge, self._typed_server, self._track, self)
        for widget in (self.server_check.result, self.server_check.button_row):  # each lands right below: in reverse
            self.kb_form.insert_after("server", widget)
        mode = self.kb_form.editor("mode")
        if isinstance(mode, QComboBox):
            mode.currentIndexChanged.connect(self._sync_server_fields)
        self._sync_server_fields()

        self.message = status_label()
        self.button_box = QDialogButtonBox(QDialogButtonBox.StandardButton.Ok | QDialogButtonBox.StandardButton.Cancel
                                           | QDialogButtonBox.StandardButton.RestoreDefaults)
        restore = self.button_box.button(QDialogButtonBox.StandardButton.RestoreDefaults)
        restore.setToolTip(self.tr("Put this tab's settings back to their defaults"))
        restore.clicked.connect(self.restore_defaults)
        self.button_box.accepted.connect(self.accept)
        self.button_box.rejected.connect(self.reject)
        layout = QVBoxLayout(self)
        for widget in (self.tabs, self.message, self.button_box):
            layout.addWidget(widget)

    # --- building ---------------------------------------------------------------------------------------------

    def _add_tab(self, form: SettingsForm, title: str, below: QWidget | None = None) -> None:
        page = QWidget()
        column = QVBoxLayout(page)
        for widget in (form, below) if below is not None else (form,):
            column.addWidget(widget)
        column.addStretch(1)
        scroll = QScrollArea(widgetResizable=True, frameShape=QFrame.Shape.NoFrame)
        scroll.setWidget(page)
        self.tabs.addTab(scroll, title)
        self._tab_forms.append(form)

    def _model_picker(self) -> tuple[QComboBox, Editor]:
        """An editable combo of the server's models with a Refresh button: any name can be typed."""
        box = ComboBox()
        box.setEditable(True)
        box.setInsertPolicy(QComboBox.InsertPolicy.NoInsert)
        refresh = QPushButton(self.tr("Refresh"), clicked=self.refresh_models,
                              toolTip=self.tr("Ask the server (as typed on the LLM tab) which models it has"))
        note = status_label()
        self._refresh_buttons.append(refresh)
        self._model_notes.append(note)
        cell = QWidget()
        column = QVBoxLayout(cell)
        column.setContentsMargins(0, 0, 0, 0)
        column.addWidget(hbox(box, refresh, grow=box))
        column.addWidget(note)
        return box, Editor(cell, lambda: box.currentText().strip(), box.setCurrentText, input=box,
                           changed=(box.editTextChanged,))

    def _add_llm_tools(self) -> None:
        host = self.llm_form.editor("host")
        if isinstance(host, QLineEdit):  # empty means this: say what it resolves to now
            source = self.tr("from $OLLAMA_HOST") if os.environ.get("OLLAMA_HOST") else self.tr("default")
            host.setPlaceholderText(f"{LlmSettings().resolved_host()} ({source})")
        self.test_button = QPushButton(self.tr("Test connection"), clicked=self.test_connection)
        self.test_result = status_label()
        for widget in (self.test_result, hbox(self.test_button)):  # each lands right below: add in reverse
            self.llm_form.insert_after("api_key", widget)
        self.pull = ModelPull(self._bridge, self._typed_llm, self.refresh_models)
        self.llm_form.insert_after("model", self.pull)
        backend = self.llm_form.editor("backend")
        if isinstance(backend, QComboBox):  # only Ollama can pull
            backend.currentIndexChanged.connect(lambda: self.pull.set_backend(backend.currentData() == "ollama"))

    def _sync_server_fields(self) -> None:
        """The team server's fields matter only in server mode."""
        mode = self.kb_form.editor("mode")
        server = isinstance(mode, QComboBox) and mode.currentData() == "server"
        self.kb_form.editor("server").setEnabled(server)
        self.server_check.button_row.setVisible(server)
        if not server:
            say(self.server_check.result, "")

    def _folder_notes(self) -> QWidget:
        self._default_data_dir = resolve_paths().data_dir
        edit = self.folders_form.editor("data_dir")
        self.folder_effective = status_label()
        if isinstance(edit, QLineEdit):
            edit.setPlaceholderText(self.tr("{path} (default)").format(path=self._default_data_dir))
            edit.textChanged.connect(self._show_effective_folder)
        in_use = QLabel(self.tr("In use now: {path}").format(path=self._bridge.paths.data_dir), wordWrap=True)
        note = QLabel(self.tr("Empty means the platform's data folder. A change applies after Rabbithole restarts."),
                      wordWrap=True)
        box = QWidget()
        column = QVBoxLayout(box)
        for label in (self.folder_effective, in_use, note):
            column.addWidget(label)
        self._show_effective_folder(edit.text() if isinstance(edit, QLineEdit) else "")
        return box

    def _show_effective_folder(self, text: str) -> None:
        path = Path(text.strip()).expanduser() if text.strip() else self._default_data_dir
        say(self.folder_effective, self.tr("Databases will live in: {path}").format(path=path))

    # --- values -------------------------------------------------------------------------------------------------

    def editor(self, path: str) -> QWidget:
        """The input widget of a setting by its dotted path in ``Settings`` ("kb.chunking.max_words")."""
        form, rest = self._form_for(path)
        return form.editor(rest)

    def _form_for(self, path: str) -> tuple[SettingsForm, str]:
        head, _, rest = path.partition(".")
        return (self._sections[head], rest) if head in self._sections else (self.folders_form, path)

    def current_settings(self) -> Settings | None:
        """The settings as typed, validated; None (with the problems shown in red) when any is invalid."""
        say(self.message, "")
        top = self.folders_form.value()
        sections = {name: form.value() for name, form in self._sections.items()}
        if top is None or any(v is None for v in sections.values()):
            return None
        try:
            new = Settings.model_validate({**dict(top), **sections})
        except ValidationError as exc:  # only a rule across sections can get here
            say(self.message, "; ".join(e["msg"] for e in exc.errors()), ERROR_COLOR)
            return None
        problems = self._problems(new)
        for path, text in problems:
            form, rest = self._form_for(path)
            form.set_error(rest, text)
        return None if problems else new

    def _problems(self, s: Settings) -> list[tuple[str, str]]:
        """Rules the schema cannot say field by field."""
        found: list[tuple[str, str]] = []
        if not s.llm.model:
            found.append(("llm.model", self.tr("Choose or type a model name.")))
        if s.kb.mode == "server" and not s.kb.server.host:
            found.append(("kb.server.host", self.tr("Server mode needs the host of the team's PostgreSQL server.")))
        spec = s.kb.default_embedder
        kind, _, model = spec.partition(":")
        if spec != OFFLINE_EMBEDDER and not (kind in ("ollama", "openai") and model):
            found.append(("kb.default_embedder", self.tr(
                "Use 'offline', 'ollama:MODEL' (e.g. ollama:bge-m3) or 'openai:MODEL' (an OpenAI-compatible server).")))
        c, r = s.kb.chunking, s.research
        between = self.tr("Must lie between “{low}” and “{high}”.")  # the labels the form shows
        if not c.min_words <= c.target_words <= c.max_words:
            found.append(("kb.chunking.target_words", between.format(
                low=field_label("kb.chunking.min_words"), high=field_label("kb.chunking.max_words"))))
        if r.questions_min > r.questions_max:
            found.append(("research.questions_min", self.tr("Must not be more than “{other}”.").format(
                other=field_label("research.questions_max"))))
        if not r.plan_min_items <= r.plan_max_initial <= r.plan_max_items:
            found.append(("research.plan_max_initial", between.format(
                low=field_label("research.plan_min_items"), high=field_label("research.plan_max_items"))))
        return found

    def _point_at_errors(self) -> None:
        """Open the first tab with a problem, scroll to it, and say how many there are."""
        counts = [len(form.errors()) for form in self._tab_forms]
        first = next((i for i, n in enumerate(counts) if n), None)
        if first is not None:
            self.tabs.setCurrentIndex(first)
            form, path = self._tab_forms[first], next(iter(self._tab_forms[first].errors()))
            widget = form.editor(path) if path else form
            scroll = self.tabs.widget(first)
            if isinstance(scroll, QScrollArea):
                scroll.ensureWidgetVisible(widget)
            widget.setFocus()
        if not self.message.text():
            say(self.message, self.tr("%n field(s) need correcting (marked in red).", "", sum(counts)), ERROR_COLOR)

    def accept(self) -> None:
        new = self.current_settings()
        if new is None:
            self._point_at_errors()
            return
        try:
            self._bridge.apply_settings(new)
        except OSError as exc:  # a read-only or full disk: keep the dialog and the typed values
            say(self.message, self.tr("Could not save the settings: {error}").format(error=exc), ERROR_COLOR)
            return
        self.result_settings = new
        super().accept()

    def restore_defaults(self) -> None:
        """Defaults for the fields of the current tab only."""
        self._tab_forms[self.tabs.currentIndex()].restore_defaults()
        self._sync_server_fields()

    def done(self, result: int) -> None:
        """Closing stops what the dialog started (a pull too: Ollama resumes it next time)."""
        self._closed = True
        for op in self._ops:
            op.cancel()
        self._ops.clear()
        self.pull.stop()
        super().done(result)

    def showEvent(self, event: QShowEvent) -> None:  # noqa: N802 - Qt's name
        self._closed = False
        super().showEvent(event)

    # --- the server: test, list, pull ------------------------------------------------------------------------

    def _track(self, op: Op) -> None:
        self._ops = [o for o in self._ops if not o.done] + [op]

    def _typed_llm(self, label: QLabel) -> LlmSettings | None:
        llm = self.llm_form.value()
        if not isinstance(llm, LlmSettings):
            say(label, self.tr("Correct the fields marked in red first."), ERROR_COLOR)
            return None
        return llm

    def _typed_server(self, label: QLabel) -> ServerSettings | None:
        kb = self.kb_form.value()
        if not isinstance(kb, KbSettings):
            say(label, self.tr("Correct the fields marked in red first."), ERROR_COLOR)
            return None
        return kb.server

    def test_connection(self) -> None:
        llm = self._typed_llm(self.test_result)
        if llm is None:
            return
        self.test_button.setEnabled(False)
        say(self.test_result, self.tr("Connecting to {host}…").format(host=llm.resolved_host()))
        self._track(self._bridge.check_llm(llm, self._on_health, self._on_check_failed))

    def _on_health(self, health: HealthView) -> None:
        if self._closed:
            return
        self.test_button.setEnabled(True)
        if not health.ok:
            say(self.test_result, health.message, ERROR_COLOR)
            return
        models = self.tr("%n model(s)", "", len(health.models))
        ready = self.tr("model ready") if health.model_ready else self.tr("model not installed: pull it or choose another")
        text = (self.tr("Connected to {host}, version {version}, {models}; {ready}") if health.version
                else self.tr("Connected to {host}, {models}; {ready}"))
        say(self.test_result, text.format(host=health.host, version=health.version, models=models, ready=ready),
             OK_COLOR if health.model_ready else WARN_COLOR)

    def refresh_models(self) -> None:
        llm = self._typed_llm(self._model_notes[0])
        if llm is None:
            return
        self._listed_backend = llm.backend
        for button in self._refresh_buttons:
            button.setEnabled(False)
        self._track(self._bridge.list_models(self._on_models, llm=llm, on_error=self._on_list_failed))

    def _end_listing(self, text: str, color: str | None) -> None:
        for button in self._refresh_buttons:
            button.setEnabled(True)
        for note in self._model_notes:
            say(note, text, color)

    def _on_models(self, models: list[ModelView]) -> None:
        if self._closed:
            return
        chat = [m for m in models if not m.capabilities or "completion" in m.capabilities]
        self._fill(self.model_box, [(m.name, self._describe(m)) for m in chat])
        embedders = [(OFFLINE_EMBEDDER, self.tr("The bundled e5-small; needs no server"))]
        if self._listed_backend == "ollama":
            embedders += [(f"ollama:{m.name}", self._describe(m)) for m in models if "embedding" in m.capabilities]
        self._fill(self.embedder_box, embedders)
        self._end_listing(self.tr("%n chat model(s) on the server", "", len(chat)), None)

    @staticmethod
    def _fill(box: QComboBox, items: list[tuple[str, str]]) -> None:
        typed = box.currentText()  # the list is a suggestion: what was typed stays
        box.clear()
        for name, tip in items:
            box.addItem(name)
            box.setItemData(box.count() - 1, tip, Qt.ItemDataRole.ToolTipRole)
        box.setCurrentText(typed)

    def _describe(self, m: ModelView) -> str:
        size = self.tr("{size} GB").format(size=QLocale().toString(m.size_bytes / GB, "f", 1)) if m.size_bytes else None
        parts = [m.parameter_size, m.family, size,
                 self.tr("context {n}").format(n=QLocale().toString(m.context_length)) if m.context_length else None]
        return ", ".join(p for p in parts if p)

    def _on_check_failed(self, exc: BaseException) -> None:
        """A check that failed outright (not an unhealthy answer): say why beside the button."""
        if not self._closed:
            self.test_button.setEnabled(True)
            say(self.test_result, user_message(exc), ERROR_COLOR)

    def _on_list_failed(self, exc: BaseException) -> None:
        if not self._closed:
            self._end_listing(user_message(exc), ERROR_COLOR)
