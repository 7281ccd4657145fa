"""Server mode against a real ``chroma run`` on 127.0.0.1: the same code, vectors on the server."""

from __future__ import annotations

import shutil
import socket
import subprocess
import sys
import time
import urllib.request
from collections.abc import Iterator
from pathlib import Path

import chromadb
import pytest
from support import pdfs

from desktop.kb.database import KnowledgeBase
from desktop.kb.databases import delete_database
from desktop.kb.errors import KbError
from desktop.settings import Settings

pytestmark = pytest.mark.server


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@pytest.fixture(scope="module")
def chroma_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[int]:
    exe = shutil.which("chroma") or str(Path(sys.executable).with_name("chroma"))
    port = _free_port()
    proc = subprocess.Popen([exe, "run", "--path", str(tmp_path_factory.mktemp("chroma-server")), "--host", "127.0.0.1",
                             "--port", str(port)], stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    deadline = time.monotonic() + 60
    while True:
        try:
            urllib.request.urlopen(f"http://127.0.0.1:{port}/api/v2/heartbeat", timeout=1)
            break
        except OSError:
            if proc.poll() is not None or time.monotonic() > deadline:
                proc.kill()
                pytest.fail(f"chroma run did not start: {proc.stderr.read().decode()[-1000:]}")
            time.sleep(0.2)
    yield port
    proc.terminate()
    proc.wait(10)


def _server_settings(port: int) -> Settings:
    s = Settings()
    s.kb.ingest_workers = 0
    s.kb.mode = "server"
    s.kb.server_port = port
    return s


def test_ingest_and_search_through_a_chroma_server(app_paths, tmp_path: Path, chroma_server: int) -> None:  # noqa: ANN001
    settings = _server_settings(chroma_server)
    pdfs.report(tmp_path / "shared.pdf", ["The team stores its vectors on a shared Chroma server for everyone."])
    with KnowledgeBase.open(app_paths, settings, "Team KB", create=True) as kb:
        report = kb.ingest([tmp_path / "shared.pdf"])
        assert report.pending_embeddings == 0 and not report.embed_error
        hits = kb.search("vectors on a shared server", k=3, mode="dense")
        assert hits and hits[0].doc == "shared.pdf"
        assert kb.verify() == []
    # the vectors really live on the server, in the database's own collection
    client = chromadb.HttpClient(host="127.0.0.1", port=chroma_server)
    names = [c.name for c in client.list_collections()]
    assert "rabbithole-team-kb" in names
    assert client.get_collection("rabbithole-team-kb").count() == report.embedded
    delete_database(app_paths, settings, "Team KB")
    assert "rabbithole-team-kb" not in [c.name for c in client.list_collections()]


def test_unreachable_server_is_a_clear_error(app_paths, tmp_path: Path, chroma_server: int) -> None:  # noqa: ANN001
    pdfs.report(tmp_path / "a.pdf", ["Some text that can still be found lexically."])
    pdfs.report(tmp_path / "b.pdf", ["A second file added while the server is away."])
    with KnowledgeBase.open(app_paths, _server_settings(chroma_server), "Flaky", create=True) as kb:
        assert kb.ingest([tmp_path / "a.pdf"]).pending_embeddings == 0
    dead = _server_settings(_free_port())
    with KnowledgeBase.open(app_paths, dead, "Flaky") as kb:
        report = kb.ingest([tmp_path / "b.pdf"])
        # the text is indexed; its vectors wait for the server, and the report says why
        assert report.files[0].status == "added" and report.pending_embeddings > 0
        assert "vector store" in report.embed_error and "127.0.0.1" in report.embed_error
        assert kb.search("added while the server is away", k=1, mode="lexical")[0].doc == "b.pdf"
        for mode in ("dense", "hybrid"):
            with pytest.raises(KbError, match="vector store at http://127.0.0.1"):
                kb.search("found lexically", k=1, mode=mode)
    with KnowledgeBase.open(app_paths, _server_settings(chroma_server), "Flaky") as kb:
        assert kb.finish_embedding().pending_embeddings == 0
        assert kb.search("added while the server is away", k=1, mode="dense")[0].doc == "b.pdf"
