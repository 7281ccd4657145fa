"""A fake Ollama server for tests: a real HTTP/1.1 server on 127.0.0.1 in a daemon thread, speaking
Ollama's wire format (``/api/...``) and the OpenAI-compatible routes Ollama and llama.cpp serve
(``/v1/...``), so the application is tested through the real ``ollama`` and ``httpx`` clients.

    with FakeOllama() as fake:
        fake.script("Hello", replies.truncated_json())
        client = ollama.Client(host=fake.url)

Answers to chat/generate come from a FIFO (``script``), then ``responder(request)``, then a default.
Error bodies and status codes follow Ollama's server (server/routes.go)."""

from __future__ import annotations

import json
import socket
import threading
import time
from collections import deque
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, replace
from datetime import datetime, timedelta, timezone
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from socketserver import TCPServer
from typing import Any
from urllib.parse import urlsplit

import pytest

from support import fake_ollama_replies as replies
from support.fake_ollama_replies import FakeModel, RecordedRequest, Reply, ReplyLike, Responder, canonical

__all__ = ["FakeOllama", "FakeModel", "RecordedRequest", "Reply", "replies", "down_url", "fake_ollama"]

NDJSON = "application/x-ndjson"
JSON = "application/json; charset=utf-8"
SSE = "text/event-stream"


@dataclass
class _Out:
    """How to answer one request; the handler turns it into bytes on the wire."""

    status: int = 200
    body: bytes = b""
    content_type: str = JSON
    chunks: list[bytes] | None = None  # sent with chunked transfer encoding when set
    delay: float = 0.0
    chunk_delay: float = 0.0
    drop: bool = False  # close the socket half-way through
    close: bool = False  # "Connection: close": the server goes down after this answer


def _json(obj: Any, status: int = 200) -> _Out:
    return _Out(status, json.dumps(obj, ensure_ascii=False).encode())


def _now() -> str:
    return datetime.now(timezone.utc).isoformat().replace("+00:00", "Z")


def _openai_error(status: int, message: str) -> _Out:
    kind = {400: "invalid_request_error", 404: "not_found_error"}.get(status, "api_error")
    return _json({"error": {"message": message, "type": kind, "param": None, "code": None}}, status)


def _failure(reply: Reply, name: str, openai: bool) -> _Out | None:
    """The error answer of an http_500 or not_found fault."""
    if reply.fault not in ("http_500", "not_found"):
        return None
    status = 500 if reply.fault == "http_500" else 404
    error = reply.error if status == 500 else f'model "{name}" not found, try pulling it first'
    return replace(_openai_error(status, error) if openai else _json({"error": error}, status), delay=reply.delay)


class FakeOllama:
    def __init__(self, models: Iterable[FakeModel] | None = None, *, pullable: Iterable[FakeModel] = (),
                 responder: Responder | None = None, version: str = "0.12.6",
                 reasoning_field: str = "reasoning", pull_delay: float = 0.0) -> None:
        """``pullable``: models /api/pull can fetch; ``reasoning_field``: where /v1 puts thinking
        ("reasoning" like Ollama, "reasoning_content" like llama.cpp)."""
        self.models = {m.tag: m for m in (replies.default_models() if models is None else models)}
        self.pullable = {m.tag: m for m in pullable}
        self.responder = responder
        self.version = version
        self.reasoning_field = reasoning_field
        self.pull_delay = pull_delay
        self.errors: list[str] = []  # bugs of the fake itself, so a test can assert there were none
        self._requests: list[RecordedRequest] = []
        self._replies: deque[Reply] = deque()
        self._embed_faults: deque[Reply] = deque()
        self._loaded: dict[str, int] = {}  # model tag -> num_ctx it was last used with
        self._down_after: dict[str, int] = {}
        self._route_table = self._routes()
        self._lock = threading.Lock()
        self._stopping = threading.Event()
        self._server: _Server | None = None
        self._thread: threading.Thread | None = None
        self.port = 0

    # --- lifecycle -------------------------------------------------------------------------------

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    @property
    def running(self) -> bool:
        return self._server is not None

    def start(self) -> FakeOllama:
        """Listen (again, on the same port after a stop, so a configured host stays valid)."""
        if self._server is not None:
            raise RuntimeError("the fake Ollama server is already running")
        self._stopping.clear()
        self._server = _Server(("127.0.0.1", self.port), self)
        self.port = self._server.server_address[1]
        self._thread = threading.Thread(target=self._server.serve_forever, kwargs={"poll_interval": 0.02},
                                        name=f"fake-ollama-{self.port}", daemon=True)
        self._thread.start()
        return self

    def stop(self, _keep: socket.socket | None = None) -> None:
        """Stop listening and cut every open connection: clients then get "connection refused"."""
        with self._lock:
            server, self._server = self._server, None
        if server is None:
            return
        self._stopping.set()  # wakes slow answers
        server.shutdown()
        server.server_close()
        server.cut_connections(keep=_keep)

    def go_down_after(self, count: int, path: str = "/api/embed") -> None:
        """Answer ``count`` more requests to ``path``, then stop as if the process died."""
        if count <= 0:
            self.stop()
        else:
            with self._lock:
                self._down_after[path] = count

    def __enter__(self) -> FakeOllama:
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.stop()

    # --- scripting and inspection ----------------------------------------------------------------

    def script(self, *answers: ReplyLike) -> None:
        """Queue answers for the next chat/generate requests (both APIs), in order."""
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

    def _handle(self, method: str, path: str, headers: dict[str, str], raw: bytes) -> _Out:
        try:
            body = json.loads(raw) if raw else None
        except ValueError:
            return _json({"error": "invalid character in request body"}, 400)
        req = RecordedRequest(method, path, body, time.monotonic(), headers)
        with self._lock:
            self._requests.append(req)
        route = self._route_table.get((method, path))
        if route is None:
            return _Out(404, b"404 page not found", "text/plain")
        try:
            out = route(req, body if isinstance(body, dict) else {})
        except Exception as exc:  # a bug in the fake must fail loudly, not look like a server fault
            self.errors.append(f"{method} {path}: {exc!r}")
            return _json({"error": f"fake Ollama bug: {exc!r}"}, 500)
        with self._lock:
            left = self._down_after.get(path)
            if left is not None:
                self._down_after[path] = left - 1
                out.close = left == 1
        return out

    def _routes(self) -> dict[tuple[str, str], Callable[[RecordedRequest, dict[str, Any]], _Out]]:
        return {
            ("GET", "/"): lambda r, b: _Out(200, b"Ollama is running", "text/plain; charset=utf-8"),
            ("HEAD", "/"): lambda r, b: _Out(200, b"", "text/plain; charset=utf-8"),
            ("GET", "/api/version"): lambda r, b: _json({"version": self.version}),
            ("GET", "/api/tags"): self._tags, ("GET", "/api/ps"): self._ps, ("POST", "/api/show"): self._show,
            ("POST", "/api/pull"): self._pull, ("POST", "/api/embed"): self._embed,
            ("POST", "/api/chat"): self._chat, ("POST", "/api/generate"): self._chat,
            ("GET", "/v1/models"): self._v1_models, ("POST", "/v1/chat/completions"): self._v1_chat,
            ("POST", "/v1/embeddings"): self._embed,
        }

    def _model(self, name: str) -> FakeModel | None:
        with self._lock:
            return self.models.get(canonical(name)) if name else None

    def _mark_loaded(self, model: FakeModel, body: dict[str, Any]) -> None:
        with self._lock:
            self._loaded[model.tag] = int((body.get("options") or {}).get("num_ctx") or 4096)

    # --- model management ------------------------------------------------------------------------

    def _tags(self, req: RecordedRequest, body: dict[str, Any]) -> _Out:
        with self._lock:
            return _json({"models": [m.list_entry() for m in self.models.values()]})

    def _ps(self, req: RecordedRequest, body: dict[str, Any]) -> _Out:
        expires = (datetime.now(timezone.utc) + timedelta(minutes=5)).isoformat().replace("+00:00", "Z")
        with self._lock:
            loaded = [(self.models[t], ctx) for t, ctx in self._loaded.items() if t in self.models]
        return _json({"models": [m.ps_entry(ctx, expires) for m, ctx in loaded]})

    def _show(self, req: RecordedRequest, body: dict[str, Any]) -> _Out:
        name = body.get("model") or body.get("name") or ""
        if not name:
            return _json({"error": "model is required"}, 400)
        m = self._model(name)
        # Ollama's show handler words it differently from chat and embed
        return _json(m.show()) if m else _json({"error": f"model '{name}' not found"}, 404)

    def _pull(self, req: RecordedRequest, body: dict[str, Any]) -> _Out:
        name = body.get("model") or body.get("name") or ""
        stream = body.get("stream", True) is not False
        if not name:
            return _json({"error": "invalid model name"}, 400)
        with self._lock:
            m = self.models.get(canonical(name)) or self.pullable.get(canonical(name))
        if m is None:
            error = "pull model manifest: file does not exist"
            # streamed, the error arrives as a line after "pulling manifest"; otherwise as HTTP 500
            return self._ndjson([{"status": "pulling manifest"}, {"error": error}]) if stream else _json({"error": error}, 500)
        self.add_model(m)
        return self._ndjson(m.pull_events(), self.pull_delay) if stream else _json({"status": "success"})

    # --- embeddings ------------------------------------------------------------------------------

    def _embed(self, req: RecordedRequest, body: dict[str, Any]) -> _Out:
        openai = req.path.startswith("/v1/")
        fail = _openai_error if openai else (lambda status, msg: _json({"error": msg}, status))
        name, raw = body.get("model") or "", body.get("input")
        if isinstance(raw, list) and all(isinstance(t, str) for t in raw):
            inputs = raw
        elif isinstance(raw, str) or raw is None:
            inputs = [raw] if raw else []
        else:
            return fail(400, "invalid input type")
        m = self._model(name)
        if m is None:
            return fail(404, f'model "{name}" not found, try pulling it first')
        with self._lock:
            fault = self._embed_faults.popleft() if self._embed_faults else Reply()
        if failed := _failure(fault, name, openai):
            return failed
        if body.get("truncate") is False and any(replies.count_tokens(t) > m.context_length for t in inputs):
            return fail(400, "the input length exceeds the context length")
        self._mark_loaded(m, body)
        out = _json(replies.embed_answer(m, name, inputs, body.get("dimensions") or 0, openai))
        return replace(out, delay=fault.delay, drop=fault.fault == "drop")

    # --- chat and generate -----------------------------------------------------------------------

    def _complete(self, req: RecordedRequest, prompt: str, think: bool, limit: int | None) -> replies.Completion:
        """The next answer: scripted FIFO first, then the responder, then the default."""
        with self._lock:
            reply = self._replies.popleft() if self._replies else None
        if reply is None:
            answer = self.responder(req) if self.responder else None
            reply = Reply() if answer is None else replies.coerce(answer)
        return replies.complete(reply, prompt, think, limit)

    def _chat(self, req: RecordedRequest, body: dict[str, Any]) -> _Out:
        generate, name = req.path == "/api/generate", body.get("model") or ""
        m = self._model(name)
        refused = replies.refusal(m, name, body, "generate" if generate else "chat")
        if refused:
            return _json({"error": refused[1]}, refused[0])
        assert m is not None
        messages = body.get("messages") or []
        prompt = f"{body.get('system') or ''} {body.get('prompt') or ''}" if generate else \
            " ".join(replies.text_of(msg.get("content")) for msg in messages)
        self._mark_loaded(m, body)
        if not (body.get("prompt") if generate else messages):  # an empty request only loads the model
            empty = {"response": ""} if generate else {"message": {"role": "assistant", "content": ""}}
            return _json({"model": name, "created_at": _now(), **empty, "done": True, "done_reason": "load"})
        # a thinking model thinks unless told not to, as Ollama does since 0.9
        think = "thinking" in m.capabilities and body.get("think") is not False
        c = self._complete(req, prompt, think, (body.get("options") or {}).get("num_predict"))
        if failed := _failure(c.reply, name, openai=False):
            return failed
        stream = body.get("stream", True) is not False  # Ollama streams unless told not to
        events = replies.ollama_events(c, name, generate, stream, _now)
        out = self._ndjson(events, c.reply.chunk_delay) if stream else _json(events[0])
        return replace(out, delay=c.reply.delay, drop=c.reply.fault == "drop")

    def _v1_models(self, req: RecordedRequest, body: dict[str, Any]) -> _Out:
        with self._lock:
            tags = list(self.models)
        return _json({"object": "list", "data": [{"id": t, "object": "model", "created": 1748772000,
                                                  "owned_by": "library"} for t in tags]})

    def _v1_chat(self, req: RecordedRequest, body: dict[str, Any]) -> _Out:
        name = body.get("model") or ""
        m = self._model(name)
        refused = replies.refusal(m, name, body, "chat")
        if refused:
            return _openai_error(*refused)
        assert m is not None
        self._mark_loaded(m, body)
        prompt = " ".join(replies.text_of(msg.get("content")) for msg in body.get("messages") or [])
        think = "thinking" in m.capabilities and body.get("reasoning_effort") != "none"
        c = self._complete(req, prompt, think, body.get("max_completion_tokens") or body.get("max_tokens"))
        if failed := _failure(c.reply, name, openai=True):
            return failed
        stream = bool(body.get("stream"))
        events = replies.openai_events(c, name, stream, bool((body.get("stream_options") or {}).get("include_usage")),
                                       self.reasoning_field, f"chatcmpl-{req.time:.0f}")
        if not stream:
            return replace(_json(events[0]), delay=c.reply.delay, drop=c.reply.fault == "drop")
        chunks = [b"data: " + json.dumps(e, ensure_ascii=False).encode() + b"\n\n" for e in events]
        return _Out(200, content_type=SSE, chunks=chunks + [b"data: [DONE]\n\n"], delay=c.reply.delay,
                    chunk_delay=c.reply.chunk_delay, drop=c.reply.fault == "drop")

    @staticmethod
    def _ndjson(events: list[dict[str, Any]], chunk_delay: float = 0.0) -> _Out:
        chunks = [json.dumps(e, ensure_ascii=False).encode() + b"\n" for e in events]
        return _Out(200, content_type=NDJSON, chunks=chunks, chunk_delay=chunk_delay)


class _Server(ThreadingHTTPServer):
    daemon_threads = True
    allow_reuse_address = True

    def __init__(self, address: tuple[str, int], fake: FakeOllama) -> None:
        self.fake = fake
        self.connections: set[socket.socket] = set()
        self.connections_lock = threading.Lock()
        super().__init__(address, _Handler)

    def server_bind(self) -> None:
        TCPServer.server_bind(self)  # HTTPServer's version does a slow reverse DNS lookup
        self.server_name, self.server_port = "127.0.0.1", self.server_address[1]

    def process_request(self, request: Any, client_address: Any) -> None:
        with self.connections_lock:
            self.connections.add(request)
        super().process_request(request, client_address)

    def shutdown_request(self, request: Any) -> None:
        with self.connections_lock:
            self.connections.discard(request)
        super().shutdown_request(request)

    def cut_connections(self, keep: socket.socket | None = None) -> None:
        with self.connections_lock:
            open_now = [c for c in self.connections if c is not keep]
        for conn in open_now:
            try:
                conn.shutdown(socket.SHUT_RDWR)
            except OSError:
                pass

    def handle_error(self, request: Any, client_address: Any) -> None:
        import sys

        if not isinstance(sys.exc_info()[1], OSError):  # a client that went away is normal here
            super().handle_error(request, client_address)


class _Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"  # keep-alive and chunked streams, like Ollama's Go server
    server: _Server

    def log_message(self, format: str, *args: Any) -> None:  # noqa: A002 - quiet test output
        pass

    def do_GET(self) -> None:
        self._serve("GET")

    def do_POST(self) -> None:
        self._serve("POST")

    def do_HEAD(self) -> None:
        self._serve("HEAD")

    def _serve(self, method: str) -> None:
        fake = self.server.fake
        raw = self.rfile.read(int(self.headers.get("Content-Length") or 0))
        out = fake._handle(method, urlsplit(self.path).path, dict(self.headers.items()), raw)
        if out.close:  # die before answering, so the client's next request finds the port closed
            fake.stop(_keep=self.connection)
        elif out.delay:
            fake._stopping.wait(out.delay)
        self.send_response(out.status)
        self.send_header("Content-Type", out.content_type)
        if out.close:
            self.send_header("Connection", "close")
            self.close_connection = True
        if out.chunks is None:
            self.send_header("Content-Length", str(len(out.body)))
            self.end_headers()
            if method != "HEAD":
                self.wfile.write(out.body[: len(out.body) // 2] if out.drop else out.body)
            if out.drop:
                self._cut()
            return
        self.send_header("Transfer-Encoding", "chunked")
        self.end_headers()
        for i, chunk in enumerate(out.chunks):
            if out.drop and i == len(out.chunks) // 2:
                return self._cut()
            if i and out.chunk_delay:
                fake._stopping.wait(out.chunk_delay)
            self.wfile.write(b"%x\r\n%s\r\n" % (len(chunk), chunk))
        self.wfile.write(b"0\r\n\r\n")

    def _cut(self) -> None:
        self.close_connection = True
        self.connection.shutdown(socket.SHUT_RDWR)


_DOWN: socket.socket | None = None


def down_url() -> str:
    """A URL on 127.0.0.1 where nothing listens: the port stays bound (no one else can take it) but
    never accepts, so every connection is refused."""
    global _DOWN
    if _DOWN is None:
        _DOWN = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        _DOWN.bind(("127.0.0.1", 0))
    return f"http://127.0.0.1:{_DOWN.getsockname()[1]}"


@pytest.fixture
def fake_ollama() -> Iterator[FakeOllama]:
    """A running fake with the default models; import it into a test module to use it."""
    with FakeOllama() as fake:
        yield fake
