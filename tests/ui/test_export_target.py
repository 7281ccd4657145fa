"""Exporting a report from the window: a file name the user recognises (the question's first words and
the day), in a folder they choose, and a confirmation that says where the files are."""

from __future__ import annotations

from collections.abc import Callable
from datetime import date
from pathlib import Path
from typing import Any

import pytest
from PySide6.QtWidgets import QFileDialog
from support.fake_ollama import FakeOllama
from support.fake_ollama_replies import chat_model
from support.stored_run import stored_run

from desktop.bridge.views import run_view
from desktop.paths import AppPaths
from desktop.report.export import file_stem
from desktop.ui.main_window import MainWindow

QUESTION = "Welche Dosisgrenzwerte gelten nach § 80 StrlSchG für die Bevölkerung?"


@pytest.fixture
def window(open_window: Callable[..., MainWindow], app_paths: AppPaths) -> Any:
    state = stored_run(app_paths, QUESTION)
    with FakeOllama([chat_model("m:latest", "qwen3", 32768)]) as fake:
        win = open_window(fake.url, "m:latest", 20)
        win.show_run(run_view(state))
        yield win


def test_one_format_is_saved_under_the_name_the_user_keeps_or_types(qtbot: Any, window: MainWindow, tmp_path: Path,
                                                                    monkeypatch: pytest.MonkeyPatch) -> None:
    suggested: list[str] = []

    def save_as(parent: object, title: str, proposal: str, filter_: str) -> tuple[str, str]:
        suggested.append(proposal)
        return str(tmp_path / "Grenzwerte Bevölkerung.md"), filter_

    monkeypatch.setattr(QFileDialog, "getSaveFileName", save_as)
    window._export("md")
    target = tmp_path / "Grenzwerte Bevölkerung.md"
    qtbot.waitUntil(target.exists, timeout=20_000)
    assert Path(suggested[0]).name == file_stem(QUESTION, date.today()) + ".md"
    assert Path(suggested[0]).name.startswith(f"{date.today().isoformat()} Welche Dosisgrenzwerte gelten nach § 80")
    qtbot.waitUntil(lambda: "1 file written to" in window.statusBar().currentMessage(), timeout=20_000)
    assert tmp_path.name in window.statusBar().currentMessage()  # the folder, its start left out if long
    assert (tmp_path / "Grenzwerte Bevölkerung.md").is_file()


def test_all_formats_go_into_the_chosen_folder_named_after_the_question(
        qtbot: Any, window: MainWindow, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(QFileDialog, "getExistingDirectory", lambda *args: str(tmp_path))
    window._export("all")
    stem = file_stem(QUESTION, date.today())
    names = {f"{stem}.md", f"{stem}.html", f"{stem}.pdf", f"{stem}.docx", f"{stem}.json", f"{stem} audit.jsonl"}
    qtbot.waitUntil(lambda: names <= {p.name for p in tmp_path.iterdir()}, timeout=30_000)
    qtbot.waitUntil(lambda: "6 files written to" in window.statusBar().currentMessage(), timeout=20_000)


def test_the_file_name_starts_with_the_day_and_the_dialog_opens_where_a_folder_exists(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from desktop.ui.export_target import start_folder

    assert file_stem("What was the fiscal", date(2026, 11, 26)) == "2026-11-26 What was the fiscal"
    monkeypatch.setattr("platformdirs.user_documents_dir", lambda: str(tmp_path / "Documents"))  # a fresh account
    assert start_folder(None) == Path.home()
    assert start_folder(tmp_path / "gone") == Path.home() and start_folder(tmp_path) == tmp_path
