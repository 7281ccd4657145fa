"""The settings dialog and its schema-generated forms, against a real EngineBridge on a temporary data
folder and the fake Ollama server (no real LLM)."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any, Literal, get_args, get_origin

import pytest
from pydantic import BaseModel, ConfigDict, Field, model_validator
from pydantic.fields import FieldInfo
from PySide6.QtCore import QPoint, QPointF, Qt
from PySide6.QtGui import QWheelEvent
from PySide6.QtWidgets import (
    QAbstractButton, QApplication, QCheckBox, QComboBox, QDialogButtonBox, QDoubleSpinBox, QLineEdit, QPushButton, QSpinBox,
    QWidget,
)

from desktop.bridge.bridge import EngineBridge
from desktop.paths import AppPaths, resolve_paths
from desktop.settings import Settings, load_settings
from desktop.ui.settings_dialog import SettingsDialog
from desktop.ui.settings_form import SettingsForm, model_section
from support.fake_ollama import FakeOllama, down_url
from support.fake_ollama_replies import chat_model, embedding_model

CHAT = [chat_model("llama3.2:3b"), chat_model("qwen3:4b", "qwen3", thinking=True)]
EMBED = embedding_model("bge-m3", 1024)
PULLABLE = chat_model("qwen3:8b", "qwen3")
WAIT_MS = 10_000


@pytest.fixture
def fake() -> Iterator[FakeOllama]:
    with FakeOllama([*CHAT, EMBED], pullable=[PULLABLE], pull_delay=0.02) as server:
        yield server


@pytest.fixture
def settings(settings: Settings, fake: FakeOllama) -> Settings:
    """Overrides conftest's: the settings the bridge starts with and the dialogs are opened on."""
    return settings.changed(llm={"host": fake.url, "model": "llama3.2:3b"})


@pytest.fixture
def bridge(qtbot: Any, app_paths: AppPaths, settings: Settings) -> Iterator[EngineBridge]:
    engine_bridge = EngineBridge(app_paths, settings)
    yield engine_bridge
    engine_bridge.shutdown()


@pytest.fixture
def dialog(qtbot: Any, bridge: EngineBridge, settings: Settings) -> Iterator[SettingsDialog]:
    dlg = SettingsDialog(bridge, settings)
    qtbot.addWidget(dlg)
    dlg.show()
    yield dlg
    dlg.close()  # stops what it started before the bridge shuts down


def _click(qtbot: Any, button: QAbstractButton) -> None:
    qtbot.mouseClick(button, Qt.MouseButton.LeftButton)


def _type(qtbot: Any, widget: QWidget, text: str) -> None:
    edit = widget.lineEdit() if isinstance(widget, QComboBox) else widget
    assert isinstance(edit, QLineEdit)
    edit.clear()
    qtbot.keyClicks(edit, text)


def _button(dlg: SettingsDialog, which: QDialogButtonBox.StandardButton) -> QPushButton:
    return dlg.button_box.button(which)


def _choose(box: QWidget, value: str) -> None:
    assert isinstance(box, QComboBox)
    box.setCurrentIndex(box.findData(value))


def _leaves(model: type[BaseModel], prefix: str = "") -> Iterator[tuple[str, FieldInfo]]:
    for name, info in model.model_fields.items():
        if name == "schema_version":  # bookkeeping of the file, no setting
            continue
        if isinstance(info.annotation, type) and issubclass(info.annotation, BaseModel):
            yield from _leaves(info.annotation, f"{prefix}{name}.")
        else:
            yield f"{prefix}{name}", info


# --- generation ------------------------------------------------------------------------------------------


def test_every_setting_gets_a_widget_of_its_type(dialog: SettingsDialog) -> None:
    by_type = {bool: QCheckBox, int: QSpinBox, float: QDoubleSpinBox}
    leaves = list(_leaves(Settings))
    for path, info in leaves:
        widget = dialog.editor(path)
        assert isinstance(widget, QWidget), path
        if info.description:
            assert widget.toolTip() == info.description, path
        kind = info.annotation
        if kind in by_type:
            assert isinstance(widget, by_type[kind]), path
        elif get_origin(kind) is Literal:
            assert isinstance(widget, QComboBox), path
            assert [widget.itemData(i) for i in range(widget.count())] == list(get_args(kind))
        elif get_origin(kind) is tuple:
            assert len(widget.findChildren(QDoubleSpinBox)) == len(get_args(kind)), path
    shown = sum(len(form.leaf_paths()) for form in dialog._tab_forms)
    assert shown == len(leaves)  # and nothing else
    port = dialog.editor("kb.server.port")
    assert isinstance(port, QSpinBox) and (port.minimum(), port.maximum()) == (1, 65535)
    assert isinstance(dialog.editor("llm.model"), QComboBox) and dialog.model_box.isEditable()
    folder = dialog.editor("data_dir")
    assert isinstance(folder, QLineEdit)
    assert any(b.text() == "Browse…" for b in folder.parentWidget().findChildren(QPushButton))
    assert dialog.llm_form.label("timeout_s").text() == "Timeout (s)"
    assert dialog.llm_form.label("max_answer_tokens").text() == "Max answer tokens"
    assert [dialog.tabs.tabText(i) for i in range(4)] == ["LLM", "Knowledge base", "Research", "Folders"]
    extra = [n for n, i in Settings.model_fields.items() if model_section(i.annotation)]
    assert dialog.tabs.count() == 4 + len(set(extra) - {"llm", "kb", "research"})  # a new section: a new tab


def test_unchanged_dialog_gives_back_the_same_settings(dialog: SettingsDialog, settings: Settings) -> None:
    assert dialog.current_settings() == settings


class _Inner(BaseModel):
    model_config = ConfigDict(extra="forbid")
    depth: int = Field(2, ge=0, le=5, description="How deep.")


class _Demo(BaseModel):
    """Every kind of field the form knows, and one it does not (a list: JSON text)."""

    model_config = ConfigDict(extra="forbid")
    flag: bool = True
    count: int = Field(3, ge=1, le=9)
    ratio: float = Field(0.5, gt=0, le=1, description="A share.")
    colour: Literal["red", "green"] = "green"
    name: str = "x"
    note: str | None = None
    folder: Path | None = None
    pair: tuple[float, float] = (1.0, 2.0)
    tags: list[str] = Field(default_factory=list)
    inner: _Inner = Field(default_factory=_Inner)

    @model_validator(mode="after")
    def _not_both(self) -> _Demo:
        if self.name == "both" and self.flag:
            raise ValueError("name 'both' needs the flag off")
        return self


def test_form_builds_any_model_and_validates_it(qtbot: Any) -> None:
    form = SettingsForm(_Demo)
    qtbot.addWidget(form)
    form.show()
    assert form.value() == _Demo()
    assert set(form.leaf_paths()) == {*_Demo.model_fields} - {"inner"} | {"inner.depth"}
    form.editor("count").setValue(9)
    _type(qtbot, form.editor("tags"), '["a", "b"]')
    form.editor("folder").setText("/tmp/Ärger")  # keyClicks cannot type non-ASCII
    form.editor("pair").findChildren(QDoubleSpinBox)[1].setValue(4.5)
    form.editor("inner.depth").setValue(5)
    _choose(form.editor("colour"), "red")
    assert form.value() == _Demo(count=9, tags=["a", "b"], folder=Path("/tmp/Ärger"), pair=(1.0, 4.5),
                                 inner=_Inner(depth=5), colour="red")

    form.editor("ratio").setValue(0)  # the spin box allows the exclusive bound: pydantic names the problem
    _type(qtbot, form.editor("tags"), "[1")
    assert form.value() is None
    errors = form.errors()
    assert "greater than 0" in errors["ratio"] and "valid list" in errors["tags"]
    _type(qtbot, form.editor("tags"), "[]")  # editing a field takes its complaint away
    assert "tags" not in form.errors()
    form.editor("ratio").setValue(0.25)
    _type(qtbot, form.editor("name"), "both")
    assert form.value() is None and "needs the flag off" in form.errors()[""]

    form.restore_defaults()
    assert form.value() == _Demo() and form.errors() == {}
    form.set_value(_Demo(note="n", flag=False))
    assert form.editor("note").text() == "n" and not form.editor("flag").isChecked()


def test_wheel_changes_a_spin_box_only_when_it_has_focus(qtbot: Any) -> None:
    form = SettingsForm(_Inner)
    qtbot.addWidget(form)
    form.show()
    box = form.editor("depth")

    def wheel() -> None:
        QApplication.sendEvent(box, QWheelEvent(QPointF(5, 5), QPointF(5, 5), QPoint(0, 0), QPoint(0, 120),
                                                Qt.MouseButton.NoButton, Qt.KeyboardModifier.NoModifier,
                                                Qt.ScrollPhase.NoScrollPhase, False))

    wheel()
    assert box.value() == 2  # the page scrolls instead
    form.activateWindow()
    box.setFocus()
    qtbot.waitUntil(box.hasFocus)
    wheel()
    assert box.value() == 3


# --- validation, OK and Cancel ---------------------------------------------------------------------------


def test_invalid_values_block_ok_with_a_visible_message(qtbot: Any, dialog: SettingsDialog, bridge: EngineBridge,
                                                        app_paths: AppPaths) -> None:
    ok = _button(dialog, QDialogButtonBox.StandardButton.Ok)
    _choose(dialog.editor("kb.mode"), "server")
    dialog.editor("kb.server.host").clear()
    _click(qtbot, ok)
    assert dialog.isVisible() and not app_paths.settings_file.exists()
    assert dialog.tabs.currentIndex() == 1  # the tab with the problem is opened
    assert "host of the team's PostgreSQL server" in dialog.kb_form.errors()["server.host"]
    assert dialog.message.isVisible() and "1 field needs correcting" in dialog.message.text()

    _type(qtbot, dialog.editor("kb.server.host"), "db.team.local")
    dialog.editor("llm.timeout_s").setValue(0)
    dialog.editor("research.questions_min").setValue(3)
    dialog.editor("research.questions_max").setValue(2)
    _click(qtbot, ok)
    assert dialog.isVisible() and dialog.tabs.currentIndex() == 0
    assert "greater than 0" in dialog.llm_form.errors()["timeout_s"]
    assert "server.host" not in dialog.kb_form.errors()
    dialog.editor("llm.timeout_s").setValue(60)
    _click(qtbot, ok)
    questions_max = dialog.research_form.label("questions_max").text()  # the message names the field as shown
    assert dialog.isVisible() and f"more than “{questions_max}”" in dialog.research_form.errors()["questions_min"]

    dialog.editor("research.questions_max").setValue(4)
    with qtbot.waitSignal(bridge.llmHealth, timeout=WAIT_MS):  # apply_settings checks the new server
        _click(qtbot, ok)
    assert not dialog.isVisible() and dialog.result() == SettingsDialog.DialogCode.Accepted
    saved = load_settings(app_paths)
    assert (saved.kb.mode, saved.kb.server.host, saved.llm.timeout_s) == ("server", "db.team.local", 60.0)


def test_ok_writes_settings_json_and_cancel_does_not(qtbot: Any, bridge: EngineBridge, settings: Settings,
                                                     app_paths: AppPaths, tmp_path: Path) -> None:
    first = SettingsDialog(bridge, settings)
    qtbot.addWidget(first)
    first.show()
    first.editor("research.max_rounds").setValue(9)
    _click(qtbot, _button(first, QDialogButtonBox.StandardButton.Cancel))
    assert not first.isVisible() and not app_paths.settings_file.exists()
    assert bridge.settings.research.max_rounds == 5 and first.result_settings is None

    dlg = SettingsDialog(bridge, settings)
    qtbot.addWidget(dlg)
    dlg.show()
    assert dlg.editor("research.max_rounds").value() == 5  # the cancelled edit is gone
    dlg.editor("research.max_rounds").setValue(9)
    dlg.editor("kb.ocr").setChecked(False)
    dlg.editor("research.tier_weights").findChildren(QDoubleSpinBox)[2].setValue(0.25)
    _type(qtbot, dlg.editor("llm.api_key"), "sk-test")
    folder = tmp_path / "Übungsdaten"
    dlg.editor("data_dir").setText(str(folder))
    with qtbot.waitSignal(bridge.llmHealth, timeout=WAIT_MS):  # apply_settings checks the new server
        _click(qtbot, _button(dlg, QDialogButtonBox.StandardButton.Ok))
    assert not dlg.isVisible()
    saved = load_settings(app_paths)
    assert saved == dlg.result_settings == bridge.settings
    assert (saved.research.max_rounds, saved.kb.ocr, saved.llm.api_key) == (9, False, "sk-test")
    assert saved.research.tier_weights == (1.0, 0.7, 0.25) and saved.data_dir == folder
    assert json.loads(app_paths.settings_file.read_text(encoding="utf-8"))["data_dir"] == str(folder)


def test_restore_defaults_resets_only_the_current_tab(qtbot: Any, dialog: SettingsDialog) -> None:
    restore = _button(dialog, QDialogButtonBox.StandardButton.RestoreDefaults)
    dialog.editor("llm.temperature").setValue(0.9)
    dialog.editor("research.max_rounds").setValue(9)
    dialog.editor("research.drift_thresholds").findChildren(QDoubleSpinBox)[0].setValue(0.9)
    dialog.editor("data_dir").setText("/srv/rabbithole")
    dialog.tabs.setCurrentIndex(2)
    _click(qtbot, restore)
    new = dialog.current_settings()
    assert new is not None and new.research == Settings().research
    assert new.llm.temperature == 0.9 and new.data_dir == Path("/srv/rabbithole")
    dialog.tabs.setCurrentIndex(3)
    _click(qtbot, restore)
    dialog.tabs.setCurrentIndex(0)
    _click(qtbot, restore)
    new = dialog.current_settings()
    assert new is not None and new.data_dir is None and new.llm == Settings().llm


def test_server_fields_are_enabled_only_in_server_mode(qtbot: Any, dialog: SettingsDialog) -> None:
    fields = ("kb.server.host", "kb.server.port", "kb.server.sslmode", "kb.server.password")
    assert not any(dialog.editor(f).isEnabled() for f in fields)
    _choose(dialog.editor("kb.mode"), "server")
    assert all(dialog.editor(f).isEnabled() for f in fields)
    dialog.tabs.setCurrentIndex(1)
    _click(qtbot, _button(dialog, QDialogButtonBox.StandardButton.RestoreDefaults))
    assert dialog.editor("kb.mode").currentData() == "embedded"
    assert not any(dialog.editor(f).isEnabled() for f in fields)


def test_folders_tab_shows_the_effective_folder(qtbot: Any, dialog: SettingsDialog, app_paths: AppPaths) -> None:
    default = str(resolve_paths().data_dir)
    edit = dialog.editor("data_dir")
    assert default in edit.placeholderText() and default in dialog.folder_effective.text()
    _type(qtbot, edit, "/srv/rh-data")
    assert "/srv/rh-data" in dialog.folder_effective.text()
    page = dialog.tabs.widget(3)
    texts = " ".join(label.text() for label in page.findChildren(type(dialog.message)))
    assert str(app_paths.data_dir) in texts and "after Rabbithole restarts" in texts


def test_host_placeholder_names_ollama_host(qtbot: Any, bridge: EngineBridge, settings: Settings,
                                           monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("OLLAMA_HOST", "http://gpu-box:11434")
    dlg = SettingsDialog(bridge, settings)
    qtbot.addWidget(dlg)
    assert dlg.editor("llm.host").placeholderText() == "http://gpu-box:11434 (from $OLLAMA_HOST)"


def test_check_server_says_what_the_team_server_allows(qtbot: Any, dialog: SettingsDialog,
                                                       team_settings: Settings) -> None:
    typed = team_settings.kb.server
    dialog.resize(760, 900)  # the tab scrolls: where a late line of text once squeezed the fields above it
    dialog.tabs.setCurrentIndex(1)
    _choose(dialog.editor("kb.mode"), "server")
    dialog.editor("kb.server.port").setValue(typed.port)
    for name, value in (("database", typed.database), ("user", typed.user), ("password", "wrong")):
        dialog.editor(f"kb.server.{name}").setText(value)
    check = dialog.server_check
    _click(qtbot, check.button)
    qtbot.waitUntil(lambda: check.button.isEnabled() and "refused the login" in check.result.text(), timeout=WAIT_MS)
    assert "wrong" not in check.result.text()
    dialog.editor("kb.server.password").setText(typed.password or "")
    _click(qtbot, check.button)
    qtbot.waitUntil(lambda: check.button.isEnabled() and "Connected" in check.result.text(), timeout=WAIT_MS)
    assert "PostgreSQL 16" in check.result.text() and "pgvector 0.6" in check.result.text()
    assert "may add and remove documents" in check.result.text() and "not encrypted" in check.result.text()
    qtbot.wait(50)
    for name in ("host", "port", "database", "user", "password"):
        field = dialog.editor(f"kb.server.{name}")
        assert field.height() >= field.minimumSizeHint().height(), name


# --- the server: test, list, pull --------------------------------------------------------------------------


def test_connection_uses_the_typed_values(qtbot: Any, dialog: SettingsDialog, fake: FakeOllama) -> None:
    host = dialog.editor("llm.host")
    _type(qtbot, host, down_url())  # the saved host is the running fake: this must not reach it
    _click(qtbot, dialog.test_button)
    qtbot.waitUntil(lambda: "not running" in dialog.test_result.text(), timeout=WAIT_MS)
    assert "#c62828" in dialog.test_result.styleSheet() and dialog.test_button.isEnabled()

    _type(qtbot, host, fake.url)
    _click(qtbot, dialog.test_button)
    qtbot.waitUntil(lambda: dialog.test_result.text().startswith("Connected"), timeout=WAIT_MS)
    assert dialog.test_result.text() == f"Connected to {fake.url}, version 0.12.6, 3 models; model ready"

    _type(qtbot, dialog.editor("llm.model"), "qwen3:8b")
    _click(qtbot, dialog.test_button)
    qtbot.waitUntil(lambda: "not installed" in dialog.test_result.text(), timeout=WAIT_MS)

    dialog.editor("llm.timeout_s").setValue(0)  # invalid input is not sent anywhere
    _click(qtbot, dialog.test_button)
    assert "Correct the fields" in dialog.test_result.text()


def test_model_list_fills_from_the_server(qtbot: Any, dialog: SettingsDialog) -> None:
    _type(qtbot, dialog.model_box, "my-own:model")
    refresh = dialog.editor("llm.model").parentWidget().findChild(QPushButton)
    _click(qtbot, refresh)
    qtbot.waitUntil(lambda: dialog.model_box.count() == 2, timeout=WAIT_MS)
    assert [dialog.model_box.itemText(i) for i in range(2)] == ["llama3.2:3b", "qwen3:4b"]
    assert dialog.model_box.currentText() == "my-own:model"  # the list suggests; it does not overwrite
    embedders = [dialog.embedder_box.itemText(i) for i in range(dialog.embedder_box.count())]
    assert embedders == ["offline", "ollama:bge-m3:latest"]
    assert "2 chat models" in dialog._model_notes[0].text()

    _type(qtbot, dialog.editor("llm.host"), down_url())
    _click(qtbot, refresh)
    qtbot.waitUntil(lambda: "not running" in dialog._model_notes[0].text(), timeout=WAIT_MS)
    assert refresh.isEnabled() and dialog.model_box.count() == 2


def test_pull_shows_progress_and_finishes(qtbot: Any, dialog: SettingsDialog, fake: FakeOllama) -> None:
    seen: list[int] = []
    dialog.pull.pull_bar.valueChanged.connect(seen.append)
    _type(qtbot, dialog.editor("llm.model"), "qwen3:8b")
    _click(qtbot, dialog.pull.pull_button)
    assert not dialog.pull.pull_button.isEnabled() and dialog.pull.pull_cancel_button.isEnabled()
    qtbot.waitUntil(lambda: dialog.pull.pull_status.text() == "Pulled qwen3:8b; it is ready to use.", timeout=WAIT_MS)
    assert any(0 < v < 1000 for v in seen) and dialog.pull.pull_bar.value() == 1000
    assert "%" in dialog.pull.pull_bar.text() and dialog.pull.pull_bar.text().endswith("GB")
    assert dialog.pull.pull_button.isEnabled() and not dialog.pull.pull_cancel_button.isEnabled()
    assert fake.requests_to("/api/pull")[0].body["model"] == "qwen3:8b"
    qtbot.waitUntil(lambda: dialog.model_box.findText("qwen3:8b") >= 0, timeout=WAIT_MS)  # listed afterwards


def test_only_ollama_can_pull(dialog: SettingsDialog) -> None:
    assert dialog.pull.pull_button.isEnabled()
    _choose(dialog.editor("llm.backend"), "openai")
    assert not dialog.pull.pull_button.isEnabled()
    _choose(dialog.editor("llm.backend"), "ollama")
    assert dialog.pull.pull_button.isEnabled()


def test_pull_of_an_unknown_model_says_so(qtbot: Any, dialog: SettingsDialog) -> None:
    _type(qtbot, dialog.editor("llm.model"), "no-such-model:1b")
    _click(qtbot, dialog.pull.pull_button)
    qtbot.waitUntil(lambda: "cannot pull" in dialog.pull.pull_status.text(), timeout=WAIT_MS)
    assert "#c62828" in dialog.pull.pull_status.styleSheet() and dialog.pull.pull_button.isEnabled()


def test_cancel_stops_the_pull(qtbot: Any, dialog: SettingsDialog, bridge: EngineBridge,
                               monkeypatch: pytest.MonkeyPatch) -> None:
    ops: list[Any] = []
    start = bridge.pull_model
    monkeypatch.setattr(bridge, "pull_model", lambda *a, **k: ops.append(start(*a, **k)) or ops[-1])
    with FakeOllama(CHAT, pullable=[PULLABLE], pull_delay=0.3) as slow:  # 16 progress lines: about 5 s
        _type(qtbot, dialog.editor("llm.host"), slow.url)
        _type(qtbot, dialog.editor("llm.model"), "qwen3:8b")
        _click(qtbot, dialog.pull.pull_button)
        qtbot.waitUntil(lambda: 0 < dialog.pull.pull_bar.value() < 1000, timeout=WAIT_MS)
        assert "GB" in dialog.pull.pull_bar.text()
        _click(qtbot, dialog.pull.pull_cancel_button)
        assert dialog.pull.pull_status.text() == "Download cancelled." and dialog.pull.pull_bar.isHidden()
        assert dialog.pull.pull_button.isEnabled() and not dialog.pull.pull_cancel_button.isEnabled()
        qtbot.waitUntil(lambda: ops[0].done, timeout=WAIT_MS)
        assert ops[0].future.cancelled()
        qtbot.wait(700)  # more than two progress lines later: nothing moved
        assert dialog.pull.pull_status.text() == "Download cancelled." and dialog.pull.pull_bar.isHidden()
