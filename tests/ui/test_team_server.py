"""The window on a team server: the knowledge bases another workstation made are listed (fetched in the
background, the window never waits), no sample is built there, and a document's PDF, which exists only
on the server, opens in the viewer."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from conftest import make_paths
from PySide6.QtWidgets import QApplication
from support.fake_ollama import FakeOllama
from support.fake_ollama_replies import chat_model

from desktop.bridge.bridge import EngineBridge
from desktop.kb.database import KnowledgeBase
from desktop.settings import Settings
from desktop.ui.window_host import WindowHost

SAMPLE = Path(__file__).resolve().parents[2] / "kb"
WAIT_MS = 60_000


def test_a_workstation_window_on_the_team_server(qtbot: Any, qapp: QApplication, team_settings: Settings,
                                                 embedding_cache_dir: Path, tmp_path: Path) -> None:
    colleague = make_paths(tmp_path / "colleague", embedding_cache_dir)
    app_paths = make_paths(tmp_path / "here", tmp_path / "here-cache")  # a cache of its own: no PDF fetched yet
    with KnowledgeBase.open(colleague, team_settings, "Team", create=True) as kb:
        assert kb.ingest([SAMPLE / "NiSV.pdf"]).count("added") == 1
    with FakeOllama([chat_model("research-test:latest", "qwen3", 32768)]) as fake:
        settings = team_settings.changed(llm={"host": fake.url, "model": "research-test:latest"})
        bridge = EngineBridge(app_paths, settings)
        host = WindowHost(qapp, bridge, app_paths)
        try:
            win = host.open()
            assert not win.prepare_first_start()  # the team's server gets no sample of this workstation's
            qtbot.waitUntil(lambda: win.kb.database == "Team", timeout=WAIT_MS)
            qtbot.waitUntil(lambda: [d.file_name for d in win.kb.model.docs] == ["NiSV.pdf"], timeout=WAIT_MS)
            doc = win.kb.model.docs[0]
            assert not Path(doc.path).exists()  # only on the server so far
            win.pdf.open_document(doc)
            qtbot.waitUntil(lambda: win.viewer.path == Path(doc.path), timeout=WAIT_MS)
            assert Path(doc.path).is_file() and Path(doc.path).is_relative_to(app_paths.cache_dir)
            assert bridge.databases() == ["Team"]
        finally:
            if host.window is not None:
                host.window.close()
            bridge.shutdown()
