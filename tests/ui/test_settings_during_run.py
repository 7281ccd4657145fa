"""Settings applied in the window while a research step runs: the step is stopped and awaited on the
engine's loop before anything closes, the run stays resumable and resumes, and the GUI thread never
joins a process (the knowledge base's vector store runs in a child process, as in the app)."""

from __future__ import annotations

import multiprocessing.process
import shutil
import threading
import time
from collections.abc import Callable, Iterator
from typing import Any

import pytest
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QDialogButtonBox
from support import fake_ollama_replies as replies
from support.fake_ollama import FakeOllama
from support.fake_ollama_replies import chat_model
from support.research_llm import QUESTION_EN, ResearchLLM

from desktop.engine import events as ev
from desktop.kb.storage.registry import SAMPLE_DB
from desktop.paths import AppPaths
from desktop.service import Session
from desktop.settings import Settings
from desktop.ui.main_window import MainWindow
from desktop.ui.settings_dialog import SettingsDialog

MODEL = "research-test:latest"
WAIT_MS = 60_000


@pytest.fixture
def slow_llm() -> Iterator[tuple[FakeOllama, ResearchLLM]]:
    llm = ResearchLLM()
    llm.once["RetrievalAnalysis"] = [replies.slow(30, llm.default("RetrievalAnalysis", "en", ""))]
    with FakeOllama([chat_model(MODEL, "qwen3", 32768)], responder=llm) as fake:
        yield fake, llm


@pytest.fixture
def joins_on_gui_thread(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """Names of the processes the GUI thread joined (waited for)."""
    joined: list[str] = []
    real_join = multiprocessing.process.BaseProcess.join

    def join(self: multiprocessing.process.BaseProcess, timeout: float | None = None) -> None:
        if threading.current_thread() is threading.main_thread():
            joined.append(self.name)
        real_join(self, timeout)

    monkeypatch.setattr(multiprocessing.process.BaseProcess, "join", join)
    return joined


@pytest.fixture
def window(open_window: Callable[[str, str, float], MainWindow], sample_paths: tuple[AppPaths, Settings],
           app_paths: AppPaths, slow_llm: tuple[FakeOllama, ResearchLLM]) -> MainWindow:
    sample, _ = sample_paths
    shutil.copytree(sample.database_dir(SAMPLE_DB), app_paths.database_dir(SAMPLE_DB))  # built once a session
    return open_window(slow_llm[0].url, MODEL, 60)


def test_settings_applied_during_a_step_stop_it_and_the_run_resumes(
        qtbot: Any, window: MainWindow, joins_on_gui_thread: list[str], monkeypatch: pytest.MonkeyPatch) -> None:
    bridge = window.bridge
    events: list[ev.Event] = []
    errors: list[str] = []
    loads: list[str] = []
    bridge.engineEvent.connect(events.append)
    bridge.error.connect(errors.append)
    qtbot.waitUntil(lambda: window.kb.database == SAMPLE_DB, timeout=WAIT_MS)
    real_load = Session.load

    async def load(self: Session, run_id: str) -> object:
        loads.append(run_id)
        return await real_load(self, run_id)

    monkeypatch.setattr(Session, "load", load)

    window.chat.input.setPlainText(QUESTION_EN)
    qtbot.mouseClick(window.chat.send, Qt.MouseButton.LeftButton)
    qtbot.waitUntil(lambda: any(isinstance(e, ev.ChunksRetrieved) for e in events), timeout=WAIT_MS)
    # the new run is shown while its first step works, before the start command has returned
    qtbot.waitUntil(lambda: window.state is not None and window.state.question == QUESTION_EN, timeout=WAIT_MS)
    assert window.state.running and bridge.current_run == events[0].run_id
    assert loads == []  # shown from the state the engine saved, not reloaded from disk
    # the analysis call now waits 30 s for the server: new settings arrive meanwhile
    dialog = SettingsDialog(bridge, bridge.settings, window)
    qtbot.addWidget(dialog)
    dialog.show()
    dialog.editor("research.max_rounds").setValue(4)
    started = time.monotonic()
    ok = dialog.findChild(QDialogButtonBox).button(QDialogButtonBox.StandardButton.Ok)
    qtbot.mouseClick(ok, Qt.MouseButton.LeftButton)
    assert time.monotonic() - started < 1.0  # the GUI thread did not wait for the step or the store

    qtbot.waitUntil(lambda: window.state is not None and window.state.status == "cancelled", timeout=WAIT_MS)
    assert window.progress.resume.isEnabled()
    assert any(isinstance(e, ev.RunStopped) and e.status == "cancelled" for e in events)

    qtbot.mouseClick(window.progress.resume, Qt.MouseButton.LeftButton)
    qtbot.waitUntil(lambda: window.state is not None and window.state.waiting_for == "answer", timeout=WAIT_MS)
    assert window.state.current_round.questions
    assert errors == [] and joins_on_gui_thread == []


def test_deleting_a_database_joins_no_process_on_the_gui_thread(
        qtbot: Any, window: MainWindow, joins_on_gui_thread: list[str]) -> None:
    bridge = window.bridge
    with qtbot.waitSignal(bridge.documentsChanged, timeout=WAIT_MS):
        bridge.load_documents(SAMPLE_DB)  # opens its vector store in a child process
    with qtbot.waitSignal(bridge.databasesChanged, timeout=WAIT_MS) as changed:
        bridge.delete_database(SAMPLE_DB)
    assert SAMPLE_DB not in changed.args[0] and joins_on_gui_thread == []
