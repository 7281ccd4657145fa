"""The Ollama embedding provider against the fake Ollama server: vectors, prefixes, ingest and dense
search through ``/api/embed``, and the messages a user gets when the model or the server is missing."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import ollama
import pytest
from support import pdfs
from support.fake_ollama import FakeOllama, down_url, fake_ollama_fixture, replies
from support.fake_ollama_replies import chat_model, embedding_model

from desktop.kb.database import KnowledgeBase
from desktop.kb.search.embeddings import EmbeddingServer, OllamaEmbedder, make_embedder
from desktop.kb.errors import EmbedderMismatch, EmbedderUnavailable
from desktop.paths import AppPaths
from desktop.settings import Settings

E5 = "jeffh/intfloat-multilingual-e5-small:f16"
DIM = 384
REPORT = ["Revenue grew by 12 percent in fiscal 2023 driven by cloud services.",
          "The board approved a dividend of two euros per share for shareholders."]


fake = fake_ollama_fixture(embedding_model("bge-m3", DIM), embedding_model(E5, DIM), chat_model("llama3.2:3b"),
                           pullable=[embedding_model("all-minilm", 256)])


@pytest.fixture
def app_paths(tmp_path: Path) -> AppPaths:
    """Overrides conftest's: an embedding cache of this test's own, so every chunk reaches the server."""
    return AppPaths(tmp_path / "data", tmp_path / "config", tmp_path / "cache", tmp_path / "logs").ensure()


@pytest.fixture
def settings(settings: Settings, fake: FakeOllama) -> Settings:
    return settings.changed(llm={"host": fake.url})


@pytest.fixture
def docs(tmp_path: Path) -> Path:
    folder = tmp_path / "docs"
    folder.mkdir()
    pdfs.statute(folder / "TestG.pdf", abbreviation="TestG", sections=4)
    pdfs.report(folder / "report.pdf", REPORT)
    return folder


def _inputs(fake: FakeOllama) -> list[str]:
    return [text for r in fake.requests_to("/api/embed") for text in r.body["input"]]


def test_vectors_are_normalised_with_the_models_dimension(fake: FakeOllama) -> None:
    embedder = make_embedder("ollama:bge-m3", EmbeddingServer(fake.url))
    assert isinstance(embedder, OllamaEmbedder) and embedder.model_id == "ollama/bge-m3"
    passages = embedder.embed_passages(["Grenzwert für die Strahlenexposition", "cloud revenue", "Grenzwert"])
    query = embedder.embed_query("Grenzwert")
    assert passages.shape == (3, DIM) and passages.dtype == np.float32 and query.shape == (DIM,)
    assert np.allclose(np.linalg.norm(passages, axis=1), 1.0) and np.isclose(np.linalg.norm(query), 1.0)
    assert embedder.dim == DIM
    scores = passages @ query
    assert scores[2] > scores[0] > scores[1]
    first = fake.requests_to("/api/embed")[0].body
    assert first["model"] == "bge-m3" and first["truncate"] is True and len(first["input"]) == 3
    assert embedder.embed_passages([]).shape == (0, DIM)


def test_e5_models_get_their_prefixes_and_others_do_not(fake: FakeOllama) -> None:
    OllamaEmbedder(E5, fake.url).embed_passages(["Die Behörde prüft."])
    OllamaEmbedder(E5, fake.url).embed_query("Wer prüft?")
    OllamaEmbedder("bge-m3", fake.url).embed_query("Wer prüft?")
    assert _inputs(fake) == ["passage: Die Behörde prüft.", "query: Wer prüft?", "Wer prüft?"]


def test_ingest_embeds_every_chunk_and_dense_search_finds_the_right_document(
        app_paths: AppPaths, settings: Settings, fake: FakeOllama, docs: Path) -> None:
    settings = settings.changed(kb={"embed_batch": 4})
    with KnowledgeBase.open(app_paths, settings, "Dense", create=True, embedder="ollama:bge-m3") as kb:
        report = kb.ingest([docs])
        chunks = sum(f.chunks for f in report.files)
        assert report.embed_error is None and chunks >= 5
        assert report.embedded == chunks and kb.pending_embeddings() == 0
        calls = fake.requests_to("/api/embed")
        assert all(c.body["model"] == "bge-m3" and 1 <= len(c.body["input"]) <= 4 for c in calls)
        sent = _inputs(fake)
        assert len(sent) == chunks
        for cid in kb.catalog.all_chunk_ids():
            chunk = kb.chunk(cid)
            assert chunk is not None and sum(chunk.text in s for s in sent) >= 1

        fake.clear_requests()
        money = kb.search("cloud services revenue fiscal", k=3, mode="dense")
        law = kb.search("Behörde prüft Unterlagen Genehmigung", k=3, mode="dense")
        assert money[0].doc == "report.pdf" and law[0].doc == "TestG.pdf"
        assert _inputs(fake) == ["cloud services revenue fiscal", "Behörde prüft Unterlagen Genehmigung"]
        assert kb.stats()["embedder"] == "ollama:bge-m3"


def test_a_missing_model_says_how_to_pull_it(app_paths: AppPaths, settings: Settings, fake: FakeOllama,
                                             docs: Path) -> None:
    with pytest.raises(EmbedderUnavailable) as err:
        OllamaEmbedder("all-minilm", fake.url).embed_query("x")
    assert "ollama pull all-minilm" in str(err.value) and fake.url in str(err.value)

    with KnowledgeBase.open(app_paths, settings, "Pull", create=True, embedder="ollama:all-minilm") as kb:
        report = kb.ingest([docs])
        assert report.embed_error is not None and "ollama pull all-minilm" in report.embed_error
        chunks = sum(f.chunks for f in report.files)
        assert report.embedded == 0 and kb.pending_embeddings() == chunks > 0
        assert kb.search("dividend shareholders", k=3, mode="lexical")[0].doc == "report.pdf"

        # the user follows the advice; the next run finishes the job
        assert ollama.Client(host=fake.url).pull("all-minilm").status == "success"
        done = kb.finish_embedding()
        assert done.embed_error is None and done.embedded == chunks and kb.pending_embeddings() == 0


def test_a_dead_server_says_ollama_is_not_running(app_paths: AppPaths, settings: Settings, docs: Path) -> None:
    dead = down_url()
    with pytest.raises(EmbedderUnavailable) as err:
        OllamaEmbedder("bge-m3", dead).embed_passages(["x"])
    assert str(err.value).startswith(f"Ollama is not running at {dead}")
    assert isinstance(err.value.__cause__, ConnectionError)

    settings = settings.changed(llm={"host": dead})
    with KnowledgeBase.open(app_paths, settings, "Dead", create=True, embedder="ollama:bge-m3") as kb:
        report = kb.ingest([docs])
        assert report.embed_error is not None and f"Ollama is not running at {dead}" in report.embed_error
        assert kb.pending_embeddings() > 0 and kb.search("Genehmigung", k=1, mode="lexical")
        # with no vectors to compare, a search by meaning reads the lexical index rather than finding nothing
        assert kb.search("Genehmigung", k=1, mode="semantic") == kb.search("Genehmigung", k=1, mode="lexical")


def test_reopening_with_another_embedder_is_refused_with_how_to_reindex(app_paths: AppPaths,
                                                                        settings: Settings) -> None:
    KnowledgeBase.open(app_paths, settings, "Offline", create=True, embedder="offline").close()
    with pytest.raises(EmbedderMismatch) as err:
        KnowledgeBase.open(app_paths, settings, "Offline", embedder="ollama:bge-m3")
    message = str(err.value)
    assert "indexed with the embedder 'offline', not 'ollama:bge-m3'" in message
    assert "rabbithole kb drop --db 'Offline' --yes" in message and "--embedder ollama:bge-m3" in message
    with KnowledgeBase.open(app_paths, settings, "Offline") as kb:  # the recorded embedder still opens it
        assert kb.embedder_spec == "offline"


def test_server_dying_mid_ingest_leaves_chunks_pending_until_it_is_back(
        app_paths: AppPaths, settings: Settings, fake: FakeOllama, docs: Path) -> None:
    settings = settings.changed(kb={"embed_batch": 2})
    fake.go_down_after(1, "/api/embed")  # the first batch is embedded, then Ollama dies
    with KnowledgeBase.open(app_paths, settings, "Dies", create=True, embedder="ollama:bge-m3") as kb:
        report = kb.ingest([docs])
        chunks = sum(f.chunks for f in report.files)
        assert not fake.running and report.embed_error is not None
        assert f"Ollama is not running at {fake.url}" in report.embed_error
        assert kb.pending_embeddings() == chunks - 2 > 0 and kb.catalog.count_embedded() == 2
        assert kb.search("dividend shareholders", k=3, mode="lexical")[0].doc == "report.pdf"

        fake.start()
        again = kb.ingest([docs])
        assert {f.status for f in again.files} == {"unchanged"}
        assert again.embed_error is None and again.embedded == chunks - 2 and kb.pending_embeddings() == 0
        assert kb.search("dividend shareholders", k=3, mode="dense")[0].doc == "report.pdf"
        assert kb.verify() == []


def test_the_report_counts_chunks_embedded_before_the_server_died(
        app_paths: AppPaths, settings: Settings, fake: FakeOllama, docs: Path) -> None:
    settings = settings.changed(kb={"embed_batch": 2})
    fake.go_down_after(1, "/api/embed")
    with KnowledgeBase.open(app_paths, settings, "Count", create=True, embedder="ollama:bge-m3") as kb:
        report = kb.ingest([docs])
        assert report.embed_error is not None and report.embedded == kb.catalog.count_embedded() == 2


def test_hybrid_search_without_any_vectors_needs_no_server(app_paths: AppPaths, settings: Settings,
                                                          docs: Path) -> None:
    settings = settings.changed(llm={"host": down_url()})
    with KnowledgeBase.open(app_paths, settings, "Lexical", create=True, embedder="ollama:bge-m3") as kb:
        kb.ingest([docs])
        assert kb.catalog.count_embedded() == 0
        assert kb.search("dividend shareholders", k=3)[0].doc == "report.pdf"


@pytest.mark.parametrize("fault", [replies.drop(), replies.slow(2.0)], ids=["dropped", "timeout"])
def test_a_broken_connection_is_an_embedder_problem(fake: FakeOllama, fault: replies.Reply) -> None:
    fake.script_embed(fault)
    with pytest.raises(EmbedderUnavailable) as err:
        OllamaEmbedder("bge-m3", fake.url, timeout=0.3).embed_query("x")
    assert fake.url in str(err.value)
