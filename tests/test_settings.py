"""Settings: typed defaults, round trip, migration, bad files never overwritten, data-dir precedence."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from pydantic import ValidationError

from desktop import settings as settings_module
from desktop.paths import DATA_DIR_ENV, resolve_paths
from desktop.settings import SCHEMA_VERSION, KbSettings, Settings, SettingsError, load_settings, migrate, save_settings


def test_defaults_and_round_trip(tmp_path: Path) -> None:
    paths = resolve_paths(tmp_path).ensure()
    assert load_settings(paths) == Settings()  # no file: defaults
    s = Settings().changed(kb={"chunking": {"target_words": 90}}, llm={"host": "http://gpu-box:11434"})
    save_settings(paths, s)
    loaded = load_settings(paths)
    assert loaded.kb.chunking.target_words == 90 and loaded.llm.resolved_host() == "http://gpu-box:11434"
    assert json.loads(paths.settings_file.read_text())["schema_version"] == SCHEMA_VERSION


def test_settings_are_values_changed_only_into_a_new_copy() -> None:
    s = Settings()
    with pytest.raises(ValidationError, match="frozen"):
        s.llm.host = "http://elsewhere:11434"  # type: ignore[misc]
    with pytest.raises(ValidationError, match="frozen"):
        s.kb = KbSettings()  # type: ignore[misc]
    t = s.changed(kb={"server": {"port": 5433}, "ingest_workers": 0}, llm={"model": "llama3.2:3b"})
    assert (t.kb.server.port, t.kb.ingest_workers, t.llm.model) == (5433, 0, "llama3.2:3b")
    assert t.kb.server.host == s.kb.server.host and t.kb.chunking == s.kb.chunking  # merged, not replaced
    assert t.research == s.research and t.llm.timeout_s == s.llm.timeout_s
    assert (s.kb.server.port, s.llm.model) == (5432, "qwen3:8b")  # the original is untouched
    assert s.llm.changed(host="http://gpu-box:11434") == s.llm.model_copy(update={"host": "http://gpu-box:11434"})
    with pytest.raises(ValidationError, match="kb.server.port"):
        s.changed(kb={"server": {"port": 70000}})  # validated like a loaded file
    with pytest.raises(ValidationError, match="Extra inputs"):
        s.changed(llm={"hots": "http://typo:11434"})
    assert s.changed() == s


def test_invalid_values_are_refused_with_the_field_named(tmp_path: Path) -> None:
    paths = resolve_paths(tmp_path).ensure()
    paths.settings_file.write_text(json.dumps({"schema_version": 3, "kb": {"server": {"port": 70000}}}))
    with pytest.raises(SettingsError, match="kb.server.port"):
        load_settings(paths)
    assert "70000" in paths.settings_file.read_text()  # the user's file is left as it was


def test_unreadable_and_future_files(tmp_path: Path) -> None:
    paths = resolve_paths(tmp_path).ensure()
    paths.settings_file.write_text("{not json")
    with pytest.raises(SettingsError, match="cannot read"):
        load_settings(paths)
    paths.settings_file.write_text(json.dumps({"schema_version": SCHEMA_VERSION + 1}))
    with pytest.raises(SettingsError, match="newer Rabbithole"):
        load_settings(paths)


def test_migration_steps_run_in_order(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(settings_module, "SCHEMA_VERSION", 3)
    monkeypatch.setitem(settings_module.MIGRATIONS, 1, lambda raw: {**raw, "steps": ["1→2"]})
    monkeypatch.setitem(settings_module.MIGRATIONS, 2, lambda raw: {**raw, "steps": raw["steps"] + ["2→3"]})
    assert migrate({"schema_version": 1}) == {"schema_version": 3, "steps": ["1→2", "2→3"]}


def test_a_chroma_server_setup_moves_to_the_postgres_server_settings(tmp_path: Path) -> None:
    paths = resolve_paths(tmp_path).ensure()
    paths.settings_file.write_text(json.dumps({"schema_version": 2, "kb": {
        "mode": "server", "server_host": "kb.example.org", "server_port": 8000, "server_ssl": True}}))
    loaded = load_settings(paths)
    assert loaded.kb.mode == "server"
    assert (loaded.kb.server.host, loaded.kb.server.port, loaded.kb.server.sslmode) == ("kb.example.org", 5432, "require")
    paths.settings_file.write_text(json.dumps({"schema_version": 2, "kb": {"server_port": 8000}}))
    assert load_settings(paths).kb.server == Settings().kb.server  # nothing set: the defaults


def test_data_dir_precedence(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(DATA_DIR_ENV, str(tmp_path / "from-env"))
    assert resolve_paths().data_dir == tmp_path / "from-env"
    assert resolve_paths(tmp_path / "explicit").data_dir == tmp_path / "explicit"
    paths = resolve_paths(tmp_path / "explicit")
    # everything lives under an explicit data dir, so tests never touch a user's files
    for p in (paths.config_dir, paths.cache_dir, paths.log_dir, paths.databases_dir):
        assert tmp_path / "explicit" in p.parents
    monkeypatch.delenv(DATA_DIR_ENV)
    assert "Rabbithole" in str(resolve_paths().data_dir) or "rabbithole" in str(resolve_paths().data_dir)


def test_llm_host_falls_back_to_environment(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("OLLAMA_HOST", "http://10.0.0.5:11434")
    assert Settings().llm.resolved_host() == "http://10.0.0.5:11434"
    monkeypatch.delenv("OLLAMA_HOST")
    assert Settings().llm.resolved_host() == "http://127.0.0.1:11434"
