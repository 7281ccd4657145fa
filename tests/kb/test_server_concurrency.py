"""Several workstations on one team server at once: two ingests into one knowledge base, searches during
an ingest, a workstation killed mid-ingest, and a reviewer's read-only account. Each workstation is
a KnowledgeBase of its own (its own connection), as on separate machines."""

from __future__ import annotations

import os
import shutil
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path

import psycopg
import pytest
from conftest import make_paths
from support import pdfs
from support.pg_server import PgServer

from desktop.kb.database import KnowledgeBase
from desktop.kb.errors import KbError, ReadOnlyDatabase
from desktop.kb.ingestion.seed import SEED_NAME, load_seed
from desktop.kb.server.connect import PASSWORD_ENV
from desktop.paths import AppPaths
from desktop.settings import Settings, save_settings

pytestmark = pytest.mark.server
SAMPLE = Path(__file__).resolve().parents[2] / "kb"


def _open(paths: AppPaths, settings: Settings, create: bool = False) -> KnowledgeBase:
    kb = KnowledgeBase.open(paths, settings, "Team", create=create)
    load_seed(kb.embedder.cache, SAMPLE / SEED_NAME, kb.embedder.model_id)  # the sample laws' vectors, shipped
    return kb


def _nothing_half_visible(kb: KnowledgeBase) -> None:
    """Every document another workstation sees is whole: all its pages, chunks in an unbroken run."""
    rows = kb.catalog.query("SELECT d.doc_id, d.pages, (SELECT COUNT(*) FROM pages p WHERE p.doc_id = d.doc_id) AS read, "
                            "(SELECT COUNT(*) FROM chunks c WHERE c.doc_id = d.doc_id) AS chunks, "
                            "(SELECT MAX(ordinal) FROM chunks c WHERE c.doc_id = d.doc_id) AS last FROM documents d")
    for r in rows:
        assert r["read"] == r["pages"] and r["chunks"] == r["last"] + 1, r
    assert kb.catalog.query("SELECT COUNT(*) AS n FROM chunks WHERE doc_id NOT IN (SELECT doc_id FROM documents)")[0]["n"] == 0


def test_two_workstations_ingest_at_once(tmp_path: Path, team_settings: Settings, embedding_cache_dir: Path) -> None:
    alice, bob = make_paths(tmp_path / "alice", embedding_cache_dir), make_paths(tmp_path / "bob", embedding_cache_dir)
    (tmp_path / "a").mkdir(), (tmp_path / "b").mkdir()
    shared = [shutil.copy(SAMPLE / "StrlSchG.pdf", tmp_path / d / "StrlSchG.pdf") for d in ("a", "b")]
    own = [pdfs.statute(tmp_path / "a" / "AliceG.pdf", "AliceG"), pdfs.statute(tmp_path / "b" / "BobG.pdf", "BobG",
                                                                              edition="2022-02-02")]
    _open(alice, team_settings, create=True).close()
    start, reports = threading.Barrier(2), {}

    def ingest(name: str, paths: AppPaths, files: list[Path]) -> None:
        with _open(paths, team_settings) as kb:
            start.wait()
            reports[name] = kb.ingest(files)

    workers = [threading.Thread(target=ingest, args=("alice", alice, [Path(shared[0]), own[0]])),
               threading.Thread(target=ingest, args=("bob", bob, [Path(shared[1]), own[1]]))]
    for w in workers:
        w.start()
    for w in workers:
        w.join(300)
    statuses = sorted(r.files[0].status for r in reports.values())
    assert statuses == ["added", "duplicate"]  # one stored StrlSchG, the other was told it is there
    assert all(r.files[1].status == "added" and not r.embed_error for r in reports.values()), \
        [(r.files[1].status, r.files[1].reason, r.embed_error) for r in reports.values()]
    with _open(alice, team_settings) as kb:
        assert sorted(d.file_name for d in kb.documents()) == ["AliceG.pdf", "BobG.pdf", "StrlSchG.pdf"]
        assert kb.verify() == [] and kb.pending_embeddings() == 0
        _nothing_half_visible(kb)
        assert kb.search("Strahlenschutzbeauftragter", k=3)[0].doc == "StrlSchG.pdf"


def test_a_search_during_an_ingest_sees_whole_documents_only(tmp_path: Path, team_settings: Settings,
                                                              embedding_cache_dir: Path) -> None:
    writer, reader = make_paths(tmp_path / "w", embedding_cache_dir), make_paths(tmp_path / "r", embedding_cache_dir)
    with _open(writer, team_settings, create=True) as kb:
        kb.ingest([SAMPLE / "NiSV.pdf"])
    done = threading.Event()

    def ingest() -> None:
        with _open(writer, team_settings) as kb:
            kb.ingest([SAMPLE / "StrlSchV.pdf", SAMPLE / "AtEV.pdf"])
        done.set()

    thread = threading.Thread(target=ingest)
    thread.start()
    seen, searches = set(), 0
    with _open(reader, team_settings) as kb:
        while not done.is_set():
            hits = kb.search("Laseranwendung Fachkunde", k=5, mode="lexical")
            assert hits and hits[0].doc == "NiSV.pdf"
            _nothing_half_visible(kb)
            seen.add(len(kb.documents()))
            searches += 1
        thread.join(60)
        assert len(kb.documents()) == 3 and kb.verify() == []
    assert searches > 5 and seen <= {1, 2, 3}


def test_a_workstation_killed_mid_ingest_leaves_no_half_document(tmp_path: Path, team_settings: Settings,
                                                                  embedding_cache_dir: Path) -> None:
    folder = tmp_path / "laws"
    folder.mkdir()
    for name in ("AtEV.pdf", "NiSV.pdf", "StrlSchV.pdf", "StrlSchG.pdf"):
        shutil.copy(SAMPLE / name, folder / name)
    doomed = make_paths(tmp_path / "doomed", embedding_cache_dir)
    password = team_settings.kb.server.password
    settings = team_settings.changed(kb={"server": {"password": None}})  # from the environment, as IT would
    save_settings(doomed, settings)
    _open(doomed, team_settings, create=True).close()
    cli = subprocess.Popen([sys.executable, "-m", "desktop", "kb", "ingest", str(folder), "--db", "Team",
                            "--data-dir", str(doomed.data_dir)], env={**os.environ, PASSWORD_ENV: password or ""},
                           stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    with _open(doomed, team_settings) as kb:
        deadline = time.monotonic() + 120
        while not kb.documents() and cli.poll() is None and time.monotonic() < deadline:
            time.sleep(0.05)
        os.kill(cli.pid, signal.SIGKILL)  # mid-way: one document stored, the next one being written
        cli.wait(30)
        assert cli.returncode == -signal.SIGKILL, cli.stderr.read()[-2000:] if cli.stderr else ""
        kept = len(kb.documents())
        assert 1 <= kept < 4
        _nothing_half_visible(kb)
        assert kb.verify() == []
        report = kb.ingest([folder])  # the next run finishes the work
        assert report.count("added") == 4 - kept and report.pending_embeddings == 0
        assert len(kb.documents()) == 4 and kb.verify() == []


def test_a_reviewer_may_search_but_not_change(tmp_path: Path, team_settings: Settings, pg: PgServer,
                                              embedding_cache_dir: Path) -> None:
    with psycopg.connect(pg.dsn(database=team_settings.kb.server.database), autocommit=True) as conn:
        conn.execute("DO $$ BEGIN IF NOT EXISTS (SELECT 1 FROM pg_roles WHERE rolname = 'rabbithole_read') THEN "
                     "CREATE ROLE rabbithole_read NOLOGIN; END IF; END $$")
        conn.execute("DROP ROLE IF EXISTS reviewer")
        conn.execute("CREATE ROLE reviewer LOGIN PASSWORD 'review-only' IN ROLE rabbithole_read")
    with _open(make_paths(tmp_path / "admin", embedding_cache_dir), team_settings, create=True) as kb:
        kb.ingest([SAMPLE / "NiSV.pdf"])
    reviewer = team_settings.changed(kb={"server": {"user": "reviewer", "password": "review-only"}})
    paths = make_paths(tmp_path / "reviewer", embedding_cache_dir)
    with _open(paths, reviewer) as kb:
        for mode in ("hybrid", "dense", "lexical"):
            assert kb.search("Fachkunde Laser", k=3, mode=mode)[0].doc == "NiSV.pdf"
        assert kb.pdf_file(kb.find_document("NiSV.pdf")).is_file()
        with pytest.raises(ReadOnlyDatabase, match="'reviewer' may search .* but not change them"):
            kb.ingest([pdfs.statute(tmp_path / "NewG.pdf", "NewG")])
        with pytest.raises(ReadOnlyDatabase):
            kb.remove_document("NiSV.pdf")
        assert [d.file_name for d in kb.documents()] == ["NiSV.pdf"]


def test_personal_accounts_write_through_a_group_role(tmp_path: Path, team_settings: Settings, pg: PgServer,
                                                      embedding_cache_dir: Path) -> None:
    """What one colleague's account made as the team's writer role, another's may change; what an account
    made without the role belongs to it alone, and the others are told they may only read."""
    database = team_settings.kb.server.database
    with psycopg.connect(pg.dsn(database=database), autocommit=True) as admin:
        for statement in ("DROP ROLE IF EXISTS alice", "DROP ROLE IF EXISTS bob", "DROP ROLE IF EXISTS writers",
                          "CREATE ROLE writers NOLOGIN", f"GRANT CREATE ON DATABASE {database} TO writers",
                          "CREATE ROLE alice LOGIN PASSWORD 'a' IN ROLE writers",
                          "CREATE ROLE bob LOGIN PASSWORD 'b' IN ROLE writers"):
            admin.execute(statement)

    def account(user: str, role: str | None) -> Settings:
        return team_settings.changed(kb={"server": {"user": user, "password": user[0], "role": role}})

    def workstation(user: str, role: str | None, name: str, create: bool = False) -> KnowledgeBase:
        kb = KnowledgeBase.open(make_paths(tmp_path / user, embedding_cache_dir), account(user, role), name, create=create)
        load_seed(kb.embedder.cache, SAMPLE / SEED_NAME, kb.embedder.model_id)
        return kb

    with workstation("alice", "writers", "Team", create=True) as kb:  # the writers' role owns it
        kb.ingest([SAMPLE / "NiSV.pdf"])
    with workstation("bob", "writers", "Team") as kb:
        assert kb.ingest([SAMPLE / "AtEV.pdf"]).count("added") == 1
        assert kb.remove_document("NiSV.pdf").file_name == "NiSV.pdf"
        assert [d.file_name for d in kb.documents()] == ["AtEV.pdf"] and kb.verify() == []
    with workstation("bob", None, "Solo", create=True) as kb:  # his own account owns this one
        kb.ingest([SAMPLE / "NiSV.pdf"])
    with pytest.raises(KbError, match="'alice' may not read the knowledge base 'Solo' .* belongs to another account"):
        workstation("alice", "writers", "Solo")
    with pytest.raises(KbError, match="may not act as the role 'admins'"):
        KnowledgeBase.open(make_paths(tmp_path / "carol", embedding_cache_dir), account("bob", "admins"), "Team")
