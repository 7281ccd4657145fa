"""The HTTP plumbing of the fake Ollama server (``fake_ollama.py``): a threaded HTTP/1.1 server on
127.0.0.1 with keep-alive and chunked streams like Ollama's Go server, that can cut every open
connection when it stops, and ``down_url()``, an address where nothing listens.

``Out`` is how the fake answers one request; the server hands every request to its ``app``."""

from __future__ import annotations

import contextlib
import socket
import sys
import threading
from dataclasses import dataclass
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from socketserver import TCPServer
from typing import Any, Protocol
from urllib.parse import urlsplit


@dataclass
class Out:
    """How to answer one request; the handler turns it into bytes on the wire."""

    status: int = 200
    body: bytes = b""
    content_type: str = "application/json; charset=utf-8"
    chunks: list[bytes] | None = None  # sent with chunked transfer encoding when set
    delay: float = 0.0
    chunk_delay: float = 0.0
    drop: bool = False  # close the socket half-way through
    close: bool = False  # the server goes down with this answer ("Connection: close")


class App(Protocol):
    """What the server needs of the fake it serves."""

    _stopping: threading.Event  # set when the server stops: wakes slow answers

    def _handle(self, method: str, path: str, headers: dict[str, str], raw: bytes) -> Out: ...

    def stop(self, _keep: socket.socket | None = None) -> None: ...


class Server(ThreadingHTTPServer):
    daemon_threads = True
    allow_reuse_address = True

    def __init__(self, address: tuple[str, int], fake: App) -> None:
        self.fake = fake
        self.connections: set[socket.socket] = set()  # open ones, so stop() can cut kept-alive connections
        self.connections_lock = threading.Lock()
        super().__init__(address, Handler)

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
            with contextlib.suppress(OSError):
                conn.shutdown(socket.SHUT_RDWR)

    def handle_error(self, request: Any, client_address: Any) -> None:
        if not isinstance(sys.exc_info()[1], OSError):  # a client that went away is normal here
            super().handle_error(request, client_address)


class Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"  # keep-alive and chunked streams, like Ollama's Go server
    disable_nagle_algorithm = True  # else every answer on a kept-alive connection waits for a delayed ACK
    server: Server

    def log_message(self, format: str, *args: Any) -> None:  # noqa: A002 - keep test output quiet
        pass

    def _serve(self) -> None:
        fake, method = self.server.fake, self.command
        raw = self.rfile.read(int(self.headers.get("Content-Length") or 0))
        out = fake._handle(method, urlsplit(self.path).path, {k.lower(): v for k, v in self.headers.items()}, raw)
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

    do_GET = do_POST = do_HEAD = _serve

    def _cut(self) -> None:
        self.close_connection = True
        self.connection.shutdown(socket.SHUT_RDWR)


_DOWN: socket.socket | None = None


def down_url() -> str:
    """A URL on 127.0.0.1 where nothing listens: the port stays bound, so no one else takes it, but
    never accepts, so every connection is refused."""
    global _DOWN
    if _DOWN is None:
        _DOWN = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        _DOWN.bind(("127.0.0.1", 0))
    return f"http://127.0.0.1:{_DOWN.getsockname()[1]}"
