"""The command line's contract on a team server: ``kb ingest|list|search|refs|meta|remove|drop`` and
``doctor`` behave as on a workstation, with the password from the environment."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from conftest import make_paths
from support import pdfs

from desktop.cli import main
from desktop.kb.server.connect import PASSWORD_ENV
from desktop.settings import Settings, save_settings

pytestmark = pytest.mark.server


def _workstation(root: Path, cache: Path, settings: Settings) -> str:
    paths = make_paths(root, cache)
    stored = settings.changed(kb={"server": {"password": None}})  # never in the file here: the environment has it
    save_settings(paths, stored)
    return str(paths.data_dir)


def _json(capsys: pytest.CaptureFixture[str], *argv: str) -> Any:
    assert main(list(argv)) == 0
    return json.loads(capsys.readouterr().out)


def test_the_command_line_on_a_team_server(tmp_path: Path, team_settings: Settings, embedding_cache_dir: Path,
                                           capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(PASSWORD_ENV, team_settings.kb.server.password or "")
    alice = _workstation(tmp_path / "alice", embedding_cache_dir, team_settings)
    bob = _workstation(tmp_path / "bob", embedding_cache_dir, team_settings)
    law = pdfs.statute(tmp_path / "TestG.pdf")
    report = _json(capsys, "kb", "ingest", str(law), "--db", "Akten", "--json", "--data-dir", alice)
    assert report["files"][0]["status"] == "added"

    listed = _json(capsys, "kb", "list", "--db", "Akten", "--json", "--data-dir", bob)
    assert [d["file_name"] for d in listed] == ["TestG.pdf"]
    hits = _json(capsys, "kb", "search", "Grenzwert 30 Millisievert", "--db", "Akten", "--json", "--data-dir", bob)
    assert hits and hits[0]["doc"] == "TestG.pdf"
    refs = _json(capsys, "kb", "refs", "§ 3 Abs. 1 TestG", "--db", "Akten", "--json", "--data-dir", bob)
    assert refs[0]["status"] == "resolved" and refs[0]["targets"][0]["doc"] == "TestG.pdf"
    meta = _json(capsys, "kb", "meta", "TestG.pdf", "--db", "Akten", "--set", "tags=prüfen", "--json", "--data-dir", bob)
    assert meta["tags"] == ["prüfen"]
    listed = _json(capsys, "kb", "list", "--db", "Akten", "--json", "--data-dir", alice)
    assert listed[0]["tags"] == ["prüfen"]  # Bob's tag, seen by Alice

    assert main(["kb", "remove", "TestG.pdf", "--db", "Akten", "--data-dir", bob]) == 0
    assert "removed TestG.pdf" in capsys.readouterr().out
    assert _json(capsys, "kb", "list", "--db", "Akten", "--json", "--data-dir", alice) == []
    assert main(["kb", "drop", "--db", "Akten", "--yes", "--data-dir", alice]) == 0
    capsys.readouterr()
    assert main(["kb", "list", "--db", "Akten", "--data-dir", bob]) == 1
    assert "No database named 'Akten'" in capsys.readouterr().err


def test_doctor_checks_the_team_server(tmp_path: Path, team_settings: Settings, embedding_cache_dir: Path,
                                       capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(PASSWORD_ENV, team_settings.kb.server.password or "")
    data = _workstation(tmp_path / "w", embedding_cache_dir, team_settings)
    main(["doctor", "--json", "--data-dir", data])
    checks = {c["name"]: c for c in json.loads(capsys.readouterr().out)}
    server = checks["knowledge-base server"]
    assert server["level"] == "ok" and "pgvector 0.6" in server["detail"] and "may add and remove" in server["detail"]

    monkeypatch.setenv(PASSWORD_ENV, "wrong")
    main(["doctor", "--json", "--data-dir", data])
    checks = {c["name"]: c for c in json.loads(capsys.readouterr().out)}
    assert checks["knowledge-base server"]["level"] == "fail" and "refused the login" in checks["knowledge-base server"]["detail"]
    assert checks["databases"]["level"] == "fail"
