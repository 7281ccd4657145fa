"""The sample database prebuilt when an installer is made (packaging/build_sample_db.py): a first start
copies it into the data dir, points its documents at the installed PDFs and indexes nothing; when it
does not fit the installation, the sample is built from the PDFs as before."""

from __future__ import annotations

import json
import os
import shutil
import sqlite3
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

import pytest
from conftest import REPO

from desktop.kb.storage import registry
from desktop.kb.ingestion import ingest
from desktop.kb.database import CATALOG_FILE, KnowledgeBase
from desktop.kb.ingestion.ingest import Ingestor
from desktop.kb.ingestion.scan import sha256_file
from desktop.paths import AppPaths
from desktop.settings import Settings

pytestmark = pytest.mark.slow

LAWS = {"StrlSchG.pdf", "StrlSchV.pdf", "AtG.pdf", "AtEV.pdf", "NiSV.pdf"}


@pytest.fixture(scope="module")
def prebuilt(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """What the installer bundles as kb/prebuilt/, made by the build script from this checkout's sample."""
    out = tmp_path_factory.mktemp("prebuilt")
    done = subprocess.run([sys.executable, str(REPO / "packaging" / "build_sample_db.py"), str(out)],
                          capture_output=True, text=True, timeout=900, cwd=REPO, check=False)
    assert done.returncode == 0, done.stdout[-2000:] + done.stderr[-4000:]
    return out


@pytest.fixture
def installed_kb(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, prebuilt: Path) -> Path:
    """An installation somewhere else than the checkout the sample was built from: the same PDFs,
    copied without their modification times, and the prebuilt sample beside them."""
    kb = tmp_path / "opt" / "rabbithole" / "kb"
    kb.mkdir(parents=True)
    for file in (REPO / "kb").iterdir():
        if file.is_file():
            shutil.copyfile(file, kb / file.name)
    monkeypatch.setattr(registry, "sample_kb_dir", lambda: kb)
    monkeypatch.setattr(registry, "prebuilt_databases_dir", lambda: prebuilt)
    return kb


@pytest.fixture
def no_indexing(monkeypatch: pytest.MonkeyPatch) -> None:
    def indexed(*_args: object, **_kwargs: object) -> None:
        raise AssertionError("the sample was indexed although a prebuilt one was there")

    monkeypatch.setattr(Ingestor, "run", indexed)
    monkeypatch.setattr(Ingestor, "embed_only", indexed)


def _doc_rows(paths: AppPaths) -> list[sqlite3.Row]:
    with sqlite3.connect(paths.database_dir(registry.SAMPLE_DB) / CATALOG_FILE) as db:
        db.row_factory = sqlite3.Row
        rows = db.execute("SELECT doc_id, file_name, path, size_bytes, mtime FROM documents").fetchall()
    db.close()
    return rows


def test_first_start_copies_the_prebuilt_sample_and_indexes_nothing(
        app_paths: AppPaths, settings: Settings, installed_kb: Path, no_indexing: None) -> None:
    report = registry.ensure_sample(app_paths, settings)
    assert report is not None and {f.status for f in report.files} == {"added"}
    assert {Path(f.path).name for f in report.files} == LAWS
    assert all(f.pages > 0 and f.chunks > 0 for f in report.files)
    assert registry.list_databases(app_paths, Settings()) == [registry.SAMPLE_DB]
    assert [p.name for p in app_paths.databases_dir.iterdir()] == [registry.SAMPLE_DB]  # no staging left
    assert registry.ensure_sample(app_paths, settings) is None  # complete: the next start does nothing

    for row in _doc_rows(app_paths):  # every path now names the installed file, with its size and mtime
        installed = installed_kb / row["file_name"]
        assert row["path"] == str(installed)
        assert (row["size_bytes"], row["mtime"]) == (installed.stat().st_size, installed.stat().st_mtime)
        assert row["doc_id"] == sha256_file(installed)

    with KnowledgeBase.open(app_paths, settings, registry.SAMPLE_DB) as kb:
        assert kb.embedder_spec == "offline" and kb.pending_embeddings() == 0
        assert kb.verify() == []
        hits = kb.search("§ 78 StrlSchG", k=3)
        assert (hits[0].doc, hits[0].section, hits[0].path) == ("StrlSchG.pdf", "§ 78", str(installed_kb / "StrlSchG.pdf"))
        dense = kb.search("Aufbewahrungsfrist für Aufzeichnungen über die Exposition", k=5, mode="dense")
        assert dense and all(h.path.startswith(str(installed_kb)) for h in dense)
        metadata = kb.vectors.collection.get(include=["metadatas"])["metadatas"]
    assert metadata and set().union(*metadata) <= {"doc_id", "page", "language", "section"}


def test_adding_the_installed_sample_folder_later_finds_every_file_unchanged(
        app_paths: AppPaths, settings: Settings, installed_kb: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    registry.install_prebuilt_sample(app_paths, settings, installed_kb)

    def hashed(path: Path) -> str:
        raise AssertionError(f"{path} was hashed: its stored size or mtime did not match")

    monkeypatch.setattr(ingest, "sha256_file", hashed)
    with KnowledgeBase.open(app_paths, settings, registry.SAMPLE_DB) as kb:
        report = kb.ingest([installed_kb])
    assert sorted((Path(f.path).name, f.status) for f in report.files) == sorted((n, "unchanged") for n in LAWS)


def test_the_prebuilt_copy_names_the_build_machine_only_in_document_paths(prebuilt: Path) -> None:
    built = json.loads((prebuilt / "Sample.json").read_text())
    assert built["embedder"] == "offline" and built["documents"] == len(LAWS)
    marks = [built["build_source"], built["build_data_dir"]]
    found = set()
    with sqlite3.connect(prebuilt / "Sample" / CATALOG_FILE) as db:
        tables = [r[0] for r in db.execute("SELECT name FROM sqlite_master WHERE type = 'table'")]
        for table in tables:
            cursor = db.execute(f'SELECT * FROM "{table}"')
            columns = [c[0] for c in cursor.description]
            for row in cursor:
                found.update((table, col) for col, value in zip(columns, row)
                             if isinstance(value, str) and any(m in value for m in marks))
    db.close()
    assert found == {("documents", "path")}  # the one column install_prebuilt_sample rewrites
    for file in (prebuilt / "Sample" / "chroma").rglob("*"):
        if file.is_file():
            data = file.read_bytes()
            assert not any(m.encode() in data for m in marks), f"{file} holds a build-time path"


def _other_embedder(s: Settings) -> Settings:
    return s.changed(kb={"default_embedder": "ollama:bge-m3"})


def _other_chunking(s: Settings) -> Settings:
    return s.changed(kb={"chunking": {"target_words": 90}})


def _server_mode(s: Settings) -> Settings:
    return s.changed(kb={"mode": "server"})


@pytest.mark.parametrize("change", [_other_embedder, _other_chunking, _server_mode], ids=lambda f: f.__name__[1:])
def test_a_prebuilt_sample_that_does_not_fit_the_settings_is_not_used(
        app_paths: AppPaths, settings: Settings, installed_kb: Path, change: Callable[[Settings], Settings]) -> None:
    assert registry.install_prebuilt_sample(app_paths, change(settings), installed_kb) is None
    assert registry.list_databases(app_paths, Settings()) == []
    assert not any(app_paths.databases_dir.iterdir())


def test_without_a_prebuilt_sample_nothing_is_copied(app_paths: AppPaths, settings: Settings, tmp_path: Path,
                                                     monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(registry, "prebuilt_databases_dir", lambda: tmp_path / "no-such-folder")
    assert registry.install_prebuilt_sample(app_paths, settings) is None
    assert registry.list_databases(app_paths, Settings()) == []


def test_an_existing_sample_is_never_replaced_by_the_prebuilt_one(
        app_paths: AppPaths, settings: Settings, installed_kb: Path, no_indexing: None) -> None:
    folder = app_paths.database_dir(registry.SAMPLE_DB)
    folder.mkdir(parents=True)
    (folder / "keep.txt").write_text("the user's")
    with pytest.raises(AssertionError, match="indexed"):  # an unfinished sample is finished by ingesting
        registry.ensure_sample(app_paths, settings)
    assert (folder / "keep.txt").read_text() == "the user's"


def test_a_changed_pdf_falls_back_to_building_the_sample(app_paths: AppPaths, settings: Settings,
                                                         installed_kb: Path) -> None:
    changed = installed_kb / "AtG.pdf"
    with open(changed, "ab") as fh:  # bytes after %%EOF: still a readable PDF, with another hash
        fh.write(b"\n% a later edition\n")
    assert registry.install_prebuilt_sample(app_paths, settings, installed_kb) is None
    assert not any(app_paths.databases_dir.iterdir())

    report = registry.ensure_sample(app_paths, settings)
    assert report is not None and report.pending_embeddings == 0 and not report.embed_error
    assert sorted((Path(f.path).name, f.status) for f in report.files) == sorted((n, "added") for n in LAWS)
    with KnowledgeBase.open(app_paths, settings, registry.SAMPLE_DB) as kb:
        atg = kb.find_document("AtG.pdf")
        assert atg.doc_id == sha256_file(changed) and atg.path == str(changed)
        assert kb.verify() == []


def test_the_prebuilt_sample_copies_out_of_a_read_only_installation(
        app_paths: AppPaths, settings: Settings, installed_kb: Path, prebuilt: Path, tmp_path: Path,
        monkeypatch: pytest.MonkeyPatch) -> None:
    read_only = tmp_path / "ro-prebuilt"
    shutil.copytree(prebuilt, read_only)
    for root, dirs, files in os.walk(read_only):
        for name in files:
            os.chmod(os.path.join(root, name), 0o444)
        for name in dirs:
            os.chmod(os.path.join(root, name), 0o555)
    monkeypatch.setattr(registry, "prebuilt_databases_dir", lambda: read_only)
    try:
        assert registry.install_prebuilt_sample(app_paths, settings, installed_kb) is not None
        catalog = app_paths.database_dir(registry.SAMPLE_DB) / CATALOG_FILE
        assert os.stat(catalog).st_mode & 0o200
    finally:
        for root, dirs, _files in os.walk(read_only):
            for name in dirs:
                os.chmod(os.path.join(root, name), 0o755)
