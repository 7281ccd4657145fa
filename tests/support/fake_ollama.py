"""A fake Ollama server for tests: a real HTTP/1.1 server on 127.0.0.1 in a daemon thread, speaking
Ollama's wire format (``/api/...``) and the OpenAI-compatible routes Ollama and llama.cpp serve
(``/v1/...``), so the application is tested through the real ``ollama`` and ``httpx`` clients.

    with FakeOllama() as fake:
        fake.script("Hello", replies.truncated_json())
        client = ollama.Client(host=fake.url)

Answers to chat/generate come from a FIFO (``script``), then ``responder(request)``, then a default;
``faults=FaultPlan(rate, seed)`` then turns a random share of them into faults (listed in
``injected``). Besides Ollama's routes it serves llama.cpp's ``POST /tokenize``, and its /v1 answers
carry llama.cpp's ``timings`` and prompt-cache hits (the words a prompt shares with the start of the
model's previous one). Status codes and error texts follow Ollama's server/routes.go."""

from __future__ import annotations

import json
import socket
import threading
import time
from collections import deque
from collections.abc import Callable, Iterable, Iterator
from dataclasses import replace
from typing import Any

import pytest

from support import fake_ollama_replies as replies
from support.fake_http import Out, Server, down_url
from support.fake_ollama_replies import FakeModel, FaultKind, RecordedRequest, Reply, ReplyLike, Responder, canonical
from support.random_model import FaultPlan

__all__ = ["FakeOllama", "FaultPlan", "down_url", "fake_ollama", "fake_ollama_fixture", "replies"]

Body = dict[str, Any]


def _json(obj: Any, status: int = 200) -> Out:
    return Out(status, json.dumps(obj, ensure_ascii=False).encode())


def _stream(events: list[Body], sse: bool, reply: Reply | None = None) -> Out:
    """NDJSON lines (Ollama) or server-sent events ending in [DONE] (OpenAI), one chunk each."""
    reply = reply or Reply()
    dumped = [json.dumps(e, ensure_ascii=False).encode() for e in events]
    chunks = [*(b"data: %s\n\n" % d for d in dumped), b"data: [DONE]\n\n"] if sse else [d + b"\n" for d in dumped]
    return Out(200, content_type="text/event-stream" if sse else "application/x-ndjson", chunks=chunks,
                delay=reply.delay, chunk_delay=reply.chunk_delay, drop=reply.fault == "drop")


def _error(status: int, message: str, openai: bool = False, delay: float = 0.0) -> Out:
    """An error in Ollama's shape, or in OpenAI's on the /v1 routes."""
    if not openai:
        return replace(_json({"error": message}, status), delay=delay)
    kind = {400: "invalid_request_error", 404: "not_found_error"}.get(status, "api_error")
    return replace(_json({"error": {"message": message, "type": kind, "param": None, "code": None}}, status),
                   delay=delay)


def _missing(name: str) -> str:
    return f'model "{name}" not found, try pulling it first'


class FakeOllama:
    def __init__(self, models: Iterable[FakeModel] | None = None, *, pullable: Iterable[FakeModel] = (),
                 responder: Responder | None = None, version: str = "0.12.6",
                 reasoning_field: str = "reasoning", pull_delay: float = 0.0, faults: FaultPlan | None = None) -> None:
        """``models``: installed (default: ``replies.default_models()``); ``pullable``: what /api/pull can
        fetch; ``reasoning_field``: where /v1 puts thinking ("reasoning" like Ollama, "reasoning_content"
        like llama.cpp); ``pull_delay``: seconds between pull progress lines; ``faults``: random faults of
        chat calls (other routes are never faulted)."""
        self.models = {m.tag: m for m in (replies.default_models() if models is None else models)}
        self.pullable = {m.tag: m for m in pullable}
        self.responder = responder
        self.version = version
        self.reasoning_field = reasoning_field
        self.pull_delay = pull_delay
        self.faults = faults
        self.injected: list[tuple[str, FaultKind]] = []  # (path, kind) of each fault the plan injected
        self.errors: list[str] = []  # bugs of the fake itself, so a test can assert there were none
        self.port = 0
        self._requests: list[RecordedRequest] = []
        self._replies: deque[Reply] = deque()
        self._embed_faults: deque[Reply] = deque()
        self._loaded: dict[str, int] = {}  # model tag -> the num_ctx it was last used with
        self._down_after: dict[str, int] = {}
        self._last_prompt: dict[str, list[str]] = {}  # model tag -> words of its last /v1 prompt (the cache)
        self._lock = threading.Lock()
        self._stopping = threading.Event()
        self._server: Server | None = None
        self._routes: dict[tuple[str, str], Callable[[RecordedRequest, Body], Out]] = {
            ("GET", "/"): lambda r, b: Out(200, b"Ollama is running", "text/plain; charset=utf-8"),
            ("HEAD", "/"): lambda r, b: Out(200, b"", "text/plain; charset=utf-8"),
            ("GET", "/api/version"): lambda r, b: _json({"version": self.version}),
            ("GET", "/api/tags"): self._tags, ("GET", "/api/ps"): self._ps, ("POST", "/api/show"): self._show,
            ("POST", "/api/pull"): self._pull, ("POST", "/api/embed"): self._embed,
            ("POST", "/api/chat"): self._chat, ("POST", "/api/generate"): self._chat,
            ("GET", "/v1/models"): self._v1_models, ("POST", "/v1/chat/completions"): self._chat,
            ("POST", "/v1/embeddings"): self._embed,
            ("POST", "/tokenize"): lambda r, b: _json({"tokens": replies.tokenize(str(b.get("content") or ""))}),
        }

    # --- lifecycle -------------------------------------------------------------------------------

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    @property
    def running(self) -> bool:
        return self._server is not None

    def start(self) -> FakeOllama:
        """Listen, again on the same port after a stop, so a configured host stays valid."""
        if self._server is not None:
            raise RuntimeError("the fake Ollama server is already running")
        self._stopping.clear()
        self._server = Server(("127.0.0.1", self.port), self)
        self.port = self._server.server_address[1]
        threading.Thread(target=self._server.serve_forever, kwargs={"poll_interval": 0.02},
                         name=f"fake-ollama-{self.port}", daemon=True).start()
        return self

    def stop(self, _keep: socket.socket | None = None) -> None:
        """Stop listening and cut every open connection: clients then get "connection refused"."""
        with self._lock:
            server, self._server = self._server, None
        if server is not None:
            self._stopping.set()  # wakes slow answers
            server.shutdown()
            server.server_close()
            server.cut_connections(keep=_keep)

    def go_down_after(self, count: int, path: str = "/api/embed") -> None:
        """Answer ``count`` more requests to ``path``, then stop as if the process died."""
        with self._lock:
            self._down_after[path] = count
        if count <= 0:
            self.stop()

    def __enter__(self) -> FakeOllama:
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.stop()

    # --- scripting and inspection ----------------------------------------------------------------

    def script(self, *answers: ReplyLike) -> None:
        """Queue answers (text, a dict sent as JSON, a Reply or fault) for the next chat/generate
        requests of either API, in order."""
        with self._lock:
            self._replies.extend(replies.coerce(a) for a in answers)

    def script_embed(self, *faults: Reply) -> None:
        """Queue faults (http_500, not_found, slow, drop) for the next embedding requests."""
        with self._lock:
            self._embed_faults.extend(faults)

    def add_model(self, model: FakeModel) -> None:
        with self._lock:
            self.models[model.tag] = model

    def remove_model(self, name: str) -> None:
        with self._lock:
            self.models.pop(canonical(name), None)

    @property
    def requests(self) -> list[RecordedRequest]:
        with self._lock:
            return list(self._requests)

    def requests_to(self, path: str) -> list[RecordedRequest]:
        return [r for r in self.requests if r.path == path]

    def clear_requests(self) -> None:
        with self._lock:
            self._requests.clear()

    # --- dispatch --------------------------------------------------------------------------------

    def _handle(self, method: str, path: str, headers: dict[str, str], raw: bytes) -> Out:
        try:
            body = json.loads(raw) if raw else None
        except ValueError:
            return _error(400, "invalid character in request body")
        req = RecordedRequest(method, path, body, time.monotonic(), headers)
        with self._lock:
            self._requests.append(req)
        route = self._routes.get((method, path))
        if route is None:
            return Out(404, b"404 page not found", "text/plain")
        try:
            out = route(req, body if isinstance(body, dict) else {})
        except Exception as exc:  # a bug in the fake must fail loudly, not pass for a server fault
            self.errors.append(f"{method} {path}: {exc!r}")
            return _error(500, f"fake Ollama bug: {exc!r}")
        with self._lock:
            if path in self._down_after:
                self._down_after[path] -= 1
                out.close = self._down_after[path] == 0
                if out.close:
                    del self._down_after[path]
        return out

    def _model(self, name: str) -> FakeModel | None:
        with self._lock:
            return self.models.get(canonical(name)) if name else None

    def _mark_loaded(self, model: FakeModel, body: Body) -> None:
        with self._lock:
            self._loaded[model.tag] = int((body.get("options") or {}).get("num_ctx") or 4096)

    # --- models ----------------------------------------------------------------------------------

    def _tags(self, req: RecordedRequest, body: Body) -> Out:
        with self._lock:
            return _json({"models": [m.list_entry() for m in self.models.values()]})

    def _v1_models(self, req: RecordedRequest, body: Body) -> Out:
        with self._lock:
            return _json({"object": "list", "data": [{"id": t, "object": "model", "created": 1748772000,
                                                      "owned_by": "library"} for t in self.models]})

    def _ps(self, req: RecordedRequest, body: Body) -> Out:
        expires = replies.iso_now(minutes=5)  # Ollama's default keep_alive
        with self._lock:
            loaded = [(self.models[t], ctx) for t, ctx in self._loaded.items() if t in self.models]
        return _json({"models": [m.ps_entry(ctx, expires) for m, ctx in loaded]})

    def _show(self, req: RecordedRequest, body: Body) -> Out:
        name = body.get("model") or body.get("name") or ""
        if not name:
            return _error(400, "model is required")
        m = self._model(name)
        return _json(m.show()) if m else _error(404, f"model '{name}' not found")  # show's own wording

    def _pull(self, req: RecordedRequest, body: Body) -> Out:
        name, stream = body.get("model") or body.get("name") or "", body.get("stream", True) is not False
        if not name:
            return _error(400, "invalid model name")
        with self._lock:
            m = self.models.get(canonical(name)) or self.pullable.get(canonical(name))
        if m is None:  # streamed, the error is a line after "pulling manifest"; otherwise an HTTP 500
            error = "pull model manifest: file does not exist"
            return _stream([{"status": "pulling manifest"}, {"error": error}], False) if stream else _error(500, error)
        self.add_model(m)
        if not stream:
            return _json({"status": "success"})
        return _stream(m.pull_events(), False, Reply(chunk_delay=self.pull_delay))

    # --- embeddings ------------------------------------------------------------------------------

    def _embed(self, req: RecordedRequest, body: Body) -> Out:
        openai = req.path.startswith("/v1/")
        name, inputs = body.get("model") or "", replies.embed_inputs(body.get("input"))
        if inputs is None:
            return _error(400, "invalid input type", openai)
        m = self._model(name)
        if m is None:
            return _error(404, _missing(name), openai)
        with self._lock:
            fault = self._embed_faults.popleft() if self._embed_faults else Reply()
        if fault.fault in ("http_500", "not_found"):
            return _error(500, fault.error, openai, fault.delay) if fault.fault == "http_500" else \
                _error(404, _missing(name), openai, fault.delay)
        if body.get("truncate") is False and any(replies.count_tokens(t) > m.context_length for t in inputs):
            return _error(400, "the input length exceeds the context length", openai)
        self._mark_loaded(m, body)
        out = _json(replies.embed_answer(m, name, inputs, body.get("dimensions") or 0, openai))
        return replace(out, delay=fault.delay, drop=fault.fault == "drop")

    # --- chat and generate -----------------------------------------------------------------------

    def _next_reply(self, req: RecordedRequest) -> Reply:
        """The scripted FIFO first, then the responder, then the default answer."""
        with self._lock:
            if self._replies:
                return self._replies.popleft()
        answer = self.responder(req) if self.responder else None
        return Reply() if answer is None else replies.coerce(answer)

    def _faulted(self, req: RecordedRequest, reply: Reply) -> Reply:
        kind = self.faults.draw() if self.faults else None
        if kind is None or self.faults is None:
            return reply
        with self._lock:
            self.injected.append((req.path, kind))
        return self.faults.inject(kind, reply)

    def _cache_hit(self, model: FakeModel, prompt: str) -> int:
        """Prompt tokens llama.cpp would reuse from its cache: the words shared with the start of the
        model's previous prompt, never the whole prompt (its last token is always evaluated)."""
        words = prompt.split()
        with self._lock:
            previous, self._last_prompt[model.tag] = self._last_prompt.get(model.tag, []), words
        shared = next((i for i, (a, b) in enumerate(zip(previous, words)) if a != b), min(len(previous), len(words)))
        return min(shared, max(0, len(words) - 1))

    def _chat(self, req: RecordedRequest, body: Body) -> Out:
        """/api/chat, /api/generate and /v1/chat/completions: one model, three wire formats."""
        openai, generate = req.path.startswith("/v1/"), req.path == "/api/generate"
        name = body.get("model") or ""
        m = self._model(name)
        if refused := replies.refusal(m, name, body, "generate" if generate else "chat"):
            return _error(*refused, openai)
        assert m is not None  # refusal() answers for a missing model
        self._mark_loaded(m, body)
        prompt, think, limit = replies.read_request(body, m, openai, generate)
        if not openai and not (body.get("prompt") if generate else body.get("messages")):  # only loads the model
            empty = {"response": ""} if generate else {"message": {"role": "assistant", "content": ""}}
            return _json({"model": name, "created_at": replies.iso_now(), **empty, "done": True, "done_reason": "load"})
        c = replies.complete(self._faulted(req, self._next_reply(req)), prompt, think, limit,
                             self._cache_hit(m, prompt) if openai else 0)
        if c.reply.fault == "http_500":
            return _error(500, c.reply.error, openai, c.reply.delay)
        if c.reply.fault == "not_found":
            return _error(404, _missing(name), openai, c.reply.delay)
        stream = bool(body.get("stream")) if openai else body.get("stream") is not False  # Ollama's default: on
        if openai:
            usage = bool((body.get("stream_options") or {}).get("include_usage"))
            events = replies.openai_events(c, name, stream, usage, self.reasoning_field, f"chatcmpl-{req.time:.0f}")
        else:
            events = replies.ollama_events(c, name, generate, stream)
        if stream:
            return _stream(events, openai, c.reply)
        return replace(_json(events[0]), delay=c.reply.delay, drop=c.reply.fault == "drop")


def fake_ollama_fixture(*models: FakeModel, **options: Any) -> Any:
    """A pytest fixture serving a fresh ``FakeOllama(models or the defaults, **options)`` per test.
    Assign it in a test module; the name it gets there is the fixture's name:

        fake_ollama = fake_ollama_fixture()
        fake = fake_ollama_fixture(embedding_model("bge-m3", 384), pullable=[...])"""

    @pytest.fixture
    def serve() -> Iterator[FakeOllama]:
        with FakeOllama(list(models) if models else None, **options) as fake:
            yield fake

    return serve


fake_ollama = fake_ollama_fixture()  # the default models: ``from support.fake_ollama import fake_ollama``
