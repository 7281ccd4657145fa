"""An upgrade keeps the user's settings and databases.

The settings file below is byte for byte what the previous release (d4e3a92) wrote with
``save_settings``: schema 1, every field it had, some changed by the user. The current code must load
it with every value kept and the fields added since then at their defaults, and find the user's
databases (made by the current code's store format) listed and searchable under the data dir the file
names. Fields were only added since that release, none renamed or removed, so schema 1 needs no
migration step; a field removed or renamed later must come with a MIGRATIONS entry, or this test fails
("extra fields not permitted").
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from pydantic import BaseModel
from support import pdfs

from desktop.kb.database import KnowledgeBase, list_databases
from desktop.paths import resolve_paths, with_data_dir
from desktop.settings import SCHEMA_VERSION, Settings, load_settings, save_settings

# desktop/settings.py at d4e3a92: Settings(...).model_dump_json(indent=2), data_dir set by the user.
PREVIOUS_RELEASE_SETTINGS = """\
{
  "schema_version": 1,
  "data_dir": __DATA_DIR__,
  "llm": {
    "backend": "ollama",
    "host": "http://gpu-box:11434",
    "api_key": null,
    "model": "llama3.1:8b",
    "context_size": 32768,
    "max_answer_tokens": 2048,
    "temperature": 0.2,
    "think": false,
    "timeout_s": 300.0,
    "retries": 2,
    "concurrency": 2
  },
  "kb": {
    "mode": "embedded",
    "server_host": "127.0.0.1",
    "server_port": 8000,
    "server_ssl": false,
    "default_embedder": "offline",
    "chunking": {
      "target_words": 150,
      "max_words": 220,
      "min_words": 25
    },
    "ingest_workers": 2,
    "pages_per_task": 25,
    "embed_batch": 16,
    "ocr": true,
    "ocr_languages": "deu+eng",
    "rrf_k": 40,
    "fetch_k": 80
  },
  "research": {
    "max_rounds": 3,
    "queries_per_round": 3,
    "k_per_query": 3,
    "questions_min": 2,
    "questions_max": 3,
    "clarify_token_budget": 120000,
    "analysis_context_tokens": 4000,
    "converge_coverage": 0.8,
    "converge_duplicate_share": 0.7,
    "converge_max_gaps": 2,
    "plan_min_items": 3,
    "plan_max_initial": 5,
    "plan_max_items": 15,
    "plan_context_tokens": 3000,
    "extract_k_per_query": 5,
    "max_chunks_per_task": 8,
    "rrf_k": 60,
    "extract_concurrency": 4,
    "context_turns": 3,
    "requests_per_turn": 3,
    "reference_depth": 2,
    "reference_budget_tokens": 30000,
    "reference_max_per_doc": 6,
    "tier1_min_relevance": 0.6,
    "drop_relevance": 0.2,
    "tier_weights": [
      1.0,
      0.7,
      0.4
    ],
    "drift_thresholds": [
      0.5,
      0.4,
      0.3
    ],
    "drift_min_primary": 3,
    "drift_warn_share": 0.3,
    "synthesis_context_tokens": 9000,
    "quality_threshold": 280,
    "synthesis_attempts": 3
  }
}
"""

CHANGED_BY_USER = {
    ("llm", "model"): "llama3.1:8b",
    ("llm", "host"): "http://gpu-box:11434",
    ("llm", "context_size"): 32768,
    ("kb", "rrf_k"): 40,
    ("kb", "fetch_k"): 80,
    ("kb", "ingest_workers"): 2,
    ("kb", "chunking", "target_words"): 150,
    ("research", "max_rounds"): 3,
}


def _leaves(obj: Any, prefix: tuple[str, ...] = ()) -> dict[tuple[str, ...], Any]:
    if isinstance(obj, dict):
        out: dict[tuple[str, ...], Any] = {}
        for key, value in obj.items():
            out.update(_leaves(value, (*prefix, key)))
        return out
    return {prefix: obj}


def _value(model: BaseModel, path: tuple[str, ...]) -> Any:
    for key in path:
        model = getattr(model, key)
    return model


def _write_previous_release_files(tmp_path: Path) -> tuple[Path, Path]:
    """The config folder with the old settings file, and the data dir it names with a database in it."""
    data_dir = tmp_path / "research-data"
    home = resolve_paths(tmp_path / "home").ensure()
    home.settings_file.write_text(PREVIOUS_RELEASE_SETTINGS.replace("__DATA_DIR__", json.dumps(str(data_dir))),
                                  encoding="utf-8")
    moved = with_data_dir(home, data_dir).ensure()
    law = pdfs.statute(tmp_path / "PruefG.pdf", abbreviation="PruefG", sections=4)
    builder = Settings().changed(kb={"ingest_workers": 0})
    with KnowledgeBase.open(moved, builder, "Akten 2024", create=True) as kb:
        report = kb.ingest([law])
    assert report.count("added") == 1 and report.pending_embeddings == 0
    return tmp_path / "home", data_dir


def test_previous_release_settings_load_with_every_value_kept_and_new_fields_defaulted(tmp_path: Path) -> None:
    home, data_dir = _write_previous_release_files(tmp_path)
    paths = resolve_paths(home)
    old = _leaves(json.loads(paths.settings_file.read_text(encoding="utf-8")))

    loaded = load_settings(paths)

    assert loaded.schema_version == SCHEMA_VERSION == 4
    assert loaded.data_dir == data_dir
    for path, value in CHANGED_BY_USER.items():
        assert _value(loaded, path) == value, path
    now = _leaves(loaded.model_dump(mode="json"))
    removed = {("research", "synthesis_attempts"), ("schema_version",),  # schema 2: the synthesis is structured
               ("kb", "server_host"), ("kb", "server_port"), ("kb", "server_ssl"),  # 3: server mode is PostgreSQL
               ("research", "reference_budget_tokens")}  # 4: references are followed while gathering evidence
    for path, value in old.items():  # every field of the previous release, as the user left it
        if path not in (("data_dir",),) and path not in removed:
            assert now[path] == value, path
    assert ("research", "synthesis_attempts") not in now
    defaults = _leaves(Settings().model_dump(mode="json"))
    added = {path for path in now if path not in old}
    assert {("kb", "fusion"), ("kb", "dense_weight"), ("ui", "language"), ("kb", "server", "host")} <= added
    for path in added:
        assert now[path] == defaults[path], path


def test_previous_release_databases_are_listed_and_searchable(tmp_path: Path) -> None:
    home, _data_dir = _write_previous_release_files(tmp_path)
    base = resolve_paths(home)
    settings = load_settings(base)
    paths = with_data_dir(base, settings.data_dir)  # what the window and the command line do

    assert list_databases(paths, settings) == ["Akten 2024"]
    with KnowledgeBase.open(paths, settings, "Akten 2024") as kb:
        assert kb.stats()["embedder"] == "offline" and kb.pending_embeddings() == 0
        assert kb.verify() == []
        hits = kb.search("Grenzwert 30 Millisievert", k=3)
        assert hits and hits[0].doc == "PruefG.pdf" and hits[0].section == "§ 3"
        assert kb.search("Genehmigung der Behörde", k=3, mode="dense")


def test_saving_after_an_upgrade_writes_the_new_fields_and_keeps_the_old_values(tmp_path: Path) -> None:
    home, _data_dir = _write_previous_release_files(tmp_path)
    paths = resolve_paths(home)
    loaded = load_settings(paths)
    save_settings(paths, loaded)  # e.g. the window switching its language
    written = json.loads(paths.settings_file.read_text(encoding="utf-8"))
    assert written["schema_version"] == SCHEMA_VERSION
    assert written["ui"] == {"language": "system", "text_size": 100, "theme": "system"}  # new fields, defaults
    assert written["kb"]["fusion"] == "zscore"
    assert written["llm"]["model"] == "llama3.1:8b" and written["kb"]["rrf_k"] == 40
    assert load_settings(paths) == loaded


def test_a_run_saved_by_the_previous_release_still_loads() -> None:
    """Its settings snapshot has synthesis_attempts, which schema 2 no longer knows."""
    from desktop.engine.state import RunState

    saved = RunState(run_id="abc123def456", question="Q?", database="Sample").model_dump(mode="json")
    saved["settings"]["synthesis_attempts"] = 3
    loaded = RunState.model_validate_json(json.dumps(saved))
    assert loaded.run_id == "abc123def456" and "synthesis_attempts" not in loaded.settings.model_dump()
