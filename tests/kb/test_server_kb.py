"""A team knowledge base on a real PostgreSQL server (with pgvector) on 127.0.0.1: two data folders act
as two workstations; one ingests, the other lists, searches in every mode, resolves references and
opens a citation's PDF; the same facade and the same ranking as on a workstation."""

from __future__ import annotations

import hashlib
import math
import random
from collections import Counter
from pathlib import Path

import psycopg
import pytest
from conftest import make_paths
from support import pdfs
from support.pg_server import PgServer

from desktop.kb.database import KnowledgeBase, list_databases
from desktop.kb.storage.registry import delete_database
from desktop.kb.errors import DatabaseNotFound, KbError
from desktop.kb.search.lexical import query_terms
from desktop.kb.models import SearchFilter
from desktop.kb.search.hybrid import Scope
from desktop.kb.server import lexical as server_lexical
from desktop.paths import AppPaths
from desktop.settings import Settings

pytestmark = pytest.mark.server
SAMPLE = Path(__file__).resolve().parents[2] / "kb"
# a term longer than a PostgreSQL column name (63 bytes), which BM25 on the server reads its own way
LONG_WORD = "Grundstücksverkehrsgenehmigungszuständigkeitsübertragungsverordnungsentwurfsfassung"


def workstation(root: Path, cache: Path) -> AppPaths:
    return make_paths(root, cache)


def _laws(folder: Path) -> list[Path]:
    folder.mkdir(parents=True, exist_ok=True)
    return [pdfs.statute(folder / "TestG.pdf"),
            pdfs.statute(folder / "PrüfV.pdf", "PrüfV", "Verordnung über Prüfungen", sections=4, edition="2021-01-01"),
            pdfs.report(folder / "report.pdf", ["The annual report states a budget of 1,234.5 million euros.",
                                                "Staff turnover fell to 3.2 percent in the reporting year.",
                                                f"The committee named it the {LONG_WORD} programme."])]


def test_what_one_workstation_ingests_the_other_finds(tmp_path: Path, team_settings: Settings,
                                                      embedding_cache_dir: Path) -> None:
    alice = workstation(tmp_path / "alice", embedding_cache_dir)
    bob = workstation(tmp_path / "bob", tmp_path / "bob-cache")  # its own cache: no PDF fetched yet
    files = _laws(tmp_path / "alice-files")
    with KnowledgeBase.open(alice, team_settings, "Team", create=True) as kb:
        report = kb.ingest(files)
        assert [f.status for f in report.files] == ["added"] * 3 and report.pending_embeddings == 0
        assert not report.embed_error
    for f in files:  # the PDFs exist on Alice's disk only
        f.unlink()

    assert list_databases(bob, team_settings) == ["Team"]
    assert not (bob.databases_dir / "Team").exists()  # nothing of it on Bob's disk
    with KnowledgeBase.open(bob, team_settings, "Team") as kb:
        assert sorted(d.file_name for d in kb.documents()) == ["PrüfV.pdf", "TestG.pdf", "report.pdf"]
        for mode in ("hybrid", "dense", "lexical"):
            hits = kb.search("budget of the annual report", k=3, mode=mode)
            assert hits and hits[0].doc == "report.pdf", mode
        assert kb.search("1234.5 million", k=1, mode="lexical")[0].doc == "report.pdf"  # the number by its value
        assert kb.search("Grenzwert", k=5, mode="lexical", filt=None)
        section = kb.section("§ 3 PrüfV")
        assert section and all(c.section == "§ 3" for c in section)
        assert "Vorschrift Nummer 3" in section[0].text
        refs = kb.references("nach § 2 Abs. 1 TestG")
        assert refs and refs[0].targets[0].chunk_ids
        doc = kb.find_document("report.pdf")
        assert not Path(doc.path).exists()  # where Bob will keep it, not fetched yet
        local = kb.pdf_file(doc)  # the citation's PDF, fetched from the server
        assert local == Path(doc.path) and local.is_relative_to(bob.cache_dir)
        assert hashlib.sha256(local.read_bytes()).hexdigest() == doc.doc_id
        assert kb.verify() == []


def test_the_server_ranks_as_a_workstation_does(tmp_path: Path, team_settings: Settings, app_paths: AppPaths,
                                                settings: Settings, shortcuts: list[int]) -> None:
    files = [SAMPLE / "NiSV.pdf", SAMPLE / "AtEV.pdf", _laws(tmp_path / "files")[2]]
    queries = ["Fachkunde für Laseranwendungen am Menschen", "Ablieferung radioaktiver Abfälle an eine Anlage des Bundes",
               "staff turnover", "§ 4 NiSV", "Kosten und Entgelte der Endlagerung", "1.234,5", "Anlage 3",
               "Anlage und Anlagen für radioaktive Abfälle und Abfall",  # words sharing a stem: a term counted twice
               f"{LONG_WORD} committee programme"]
    rankings = {}
    for label, s, paths in (("embedded", settings, app_paths),
                            ("server", team_settings, workstation(tmp_path / "w", app_paths.cache_dir))):
        with KnowledgeBase.open(paths, s, "Same", create=True) as kb:
            kb.ingest(files)
            nisv = kb.find_document("NiSV.pdf").doc_id
            filters = {"all": None, "NiSV p. 2-6": SearchFilter(docs=[nisv], page_from=2, page_to=6)}
            rankings[label] = {(q, m, f): [(h.chunk_id, h.score) for h in kb.search(q, k=8, mode=m, filt=filt)]
                               for q in queries for m in ("lexical", "dense", "hybrid") for f, filt in filters.items()}
            rankings[label]["rank"] = kb.rank(queries[0], [c for c, _ in rankings[label][(queries[0], "lexical", "all")]])
            texts = [set(c.text.split()) for c in kb.catalog.chunks_where("1 = 1")]
            spread = Counter(w for t in texts for w in t if w.isalpha() and len(w) > 3)
            words = sorted(w for w, n in spread.items() if 0.03 * len(texts) <= n <= 0.4 * len(texts))
            bags = [" ".join(random.Random(n).sample(words, 6)) for n in range(40)]  # words in 3-40 % of chunks
            for q in queries + bags:  # the top 5 alone: on the server by its rarest terms first, as on a large base
                rankings[label][(q, "top 5")] = kb._lexical(query_terms(q), 5, Scope(None, None, None, None))
    for key, expected in rankings["embedded"].items():
        _assert_same_ranking(rankings["server"][key], expected, key)
    assert shortcuts, "no query took the MaxScore path"


@pytest.fixture
def shortcuts(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """BM25 on the server scoring few candidates first (MaxScore) even on a small base: the chunks its
    second pass had to score, one entry per query that took that path."""
    taken: list[int] = []
    scored = server_lexical._scored

    def spy(catalog, weights, idf, average, match, *rest):  # noqa: ANN001, ANN002
        if len(match) < len(weights):
            taken.append(len(match))
        return scored(catalog, weights, idf, average, match, *rest)

    monkeypatch.setattr(server_lexical, "CANDIDATES", 1)
    monkeypatch.setattr(server_lexical, "_scored", spy)
    return taken


def _assert_same_ranking(got: list[tuple[str, float]], expected: list[tuple[str, float]], key: object) -> None:
    """The same chunks with the same scores (to float precision); chunks of equal score may swap places."""
    assert len(got) == len(expected), key
    close = lambda a, b: math.isclose(a, b, rel_tol=1e-4, abs_tol=1e-7)  # noqa: E731
    score_of = dict(expected)
    for (cid, score), (want_id, want) in zip(got, expected):
        assert close(score, want), (key, cid, score, want_id, want)
        if cid != want_id:  # a tie: the chunk has the same score there, or both lists were cut in a tie
            assert close(score_of.get(cid, expected[-1][1]), want), (key, cid, want_id)


def test_removing_and_dropping_leave_nothing_behind(tmp_path: Path, team_settings: Settings,
                                                    embedding_cache_dir: Path) -> None:
    paths = workstation(tmp_path / "w", embedding_cache_dir)
    files = _laws(tmp_path / "files")
    with KnowledgeBase.open(paths, team_settings, "Temp", create=True) as kb:
        kb.ingest(files)
        kb.remove_document("TestG.pdf")
        assert sorted(d.file_name for d in kb.documents()) == ["PrüfV.pdf", "report.pdf"]
        assert kb.search("Vorschrift Nummer 6", k=10, mode="lexical")[0].doc == "PrüfV.pdf"
        assert kb.verify() == []
        counts = kb.catalog.raw("SELECT (SELECT COUNT(*) FROM chunks) AS c, (SELECT COUNT(*) FROM vectors) AS v, "
                                "(SELECT COUNT(*) FROM files) AS f")[0]
        assert counts["c"] == counts["v"] and counts["f"] == 2
    delete_database(paths, team_settings, "Temp")
    assert list_databases(paths, team_settings) == []
    with pytest.raises(DatabaseNotFound):
        KnowledgeBase.open(paths, team_settings, "Temp")


def test_a_wrong_password_or_a_dead_server_says_so_without_the_password(tmp_path: Path, team_settings: Settings,
                                                                          embedding_cache_dir: Path) -> None:
    paths = workstation(tmp_path / "w", embedding_cache_dir)
    wrong = team_settings.changed(kb={"server": {"password": "not-the-password"}})
    with pytest.raises(KbError, match="refused the login") as caught:
        list_databases(paths, wrong)
    assert "not-the-password" not in str(caught.value)
    dead = team_settings.changed(kb={"server": {"port": 1}})
    with pytest.raises(KbError, match="cannot reach the knowledge-base server rabbit_admin@127.0.0.1:1"):
        KnowledgeBase.open(paths, dead, "Team", create=True)


def test_a_dropped_connection_is_opened_again(tmp_path: Path, team_settings: Settings, pg: PgServer,
                                              embedding_cache_dir: Path) -> None:
    """The server restarted or ended the workstation's connection: the next search connects anew, with
    its session settings (the HNSW walk's breadth) set again."""
    with KnowledgeBase.open(workstation(tmp_path / "w", embedding_cache_dir), team_settings, "Team", create=True) as kb:
        kb.ingest([SAMPLE / "NiSV.pdf"])
        before = [h.chunk_id for h in kb.search("Fachkunde Laser", k=5)]
        with psycopg.connect(pg.dsn(database=team_settings.kb.server.database), autocommit=True) as admin:
            ended = admin.execute("SELECT pg_terminate_backend(pid) FROM pg_stat_activity "
                                  "WHERE application_name = 'rabbithole'").fetchall()
        assert ended
        assert [h.chunk_id for h in kb.search("Fachkunde Laser", k=5)] == before
        assert kb.catalog.raw("SHOW hnsw.ef_search")[0]["hnsw.ef_search"] == "200"
        kb.ingest([_laws(tmp_path / "more")[2]])  # and writes again
        assert len(kb.documents()) == 2


def test_a_database_without_pgvector_says_what_it_needs(tmp_path: Path, team_settings: Settings, pg: PgServer,
                                                        embedding_cache_dir: Path) -> None:
    with psycopg.connect(pg.dsn(database=team_settings.kb.server.database), autocommit=True) as admin:
        admin.execute("DROP EXTENSION vector")
        admin.execute("DROP ROLE IF EXISTS writer")
        admin.execute("CREATE ROLE writer LOGIN PASSWORD 'w'")
        admin.execute(f"GRANT CREATE ON DATABASE {team_settings.kb.server.database} TO writer")
    writer = team_settings.changed(kb={"server": {"user": "writer", "password": "w"}})
    with pytest.raises(KbError, match="lacks the pgvector extension and this account may not add it: IT runs "
                                      "CREATE EXTENSION vector"):
        KnowledgeBase.open(workstation(tmp_path / "w", embedding_cache_dir), writer, "Team", create=True)


def test_a_file_missing_here_leaves_a_colleagues_document_alone(tmp_path: Path, team_settings: Settings,
                                                                 embedding_cache_dir: Path) -> None:
    """On a workstation a vanished file leaves the index and a moved one is followed; on a team server the
    path is the colleague's who added it, so neither happens: the document stays as it was."""
    folder = tmp_path / "cases"
    law, prv, report = _laws(folder)
    with KnowledgeBase.open(workstation(tmp_path / "alice", embedding_cache_dir), team_settings, "Team",
                            create=True) as kb:
        assert kb.ingest([folder]).count("added") == 3
    copy = tmp_path / "bob-files" / "TestG.pdf"
    copy.parent.mkdir()
    copy.write_bytes(law.read_bytes())
    law.unlink(), prv.unlink()  # not on Bob's computer, whose folder has the same path
    with KnowledgeBase.open(workstation(tmp_path / "bob", embedding_cache_dir), team_settings, "Team") as kb:
        report_here = kb.ingest([folder, copy])
        assert [f.status for f in report_here.files] == ["unchanged", "duplicate"]  # report.pdf; the copy of TestG
        assert "TestG.pdf" in report_here.files[1].reason.text and str(law) in report_here.files[1].reason.text
        docs = {d.file_name: d for d in kb.documents()}
        assert sorted(docs) == ["PrüfV.pdf", "TestG.pdf", "report.pdf"]
        assert kb.catalog.doc_row(doc_id=docs["TestG.pdf"].doc_id)["path"] == str(law)  # not moved to Bob's copy
