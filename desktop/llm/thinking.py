"""Removing a model's thinking from its answer. Servers usually put it in a separate field, but some
models (or templates) write it inline as ``<think>…</think>``; that text is never part of the answer."""

from __future__ import annotations

OPEN, CLOSE = "<think>", "</think>"


def split_thinking(text: str) -> tuple[str, str]:
    """(answer, thinking) of a complete answer."""
    thoughts: list[str] = []
    answer: list[str] = []
    rest = text
    # Templates that open the tag themselves leave only "</think>" in the output: all before it is thought.
    close_at, open_at = rest.find(CLOSE), rest.find(OPEN)
    if close_at >= 0 and (open_at < 0 or close_at < open_at):
        thoughts.append(rest[:close_at])
        rest = rest[close_at + len(CLOSE):]
    while (start := rest.find(OPEN)) >= 0:
        answer.append(rest[:start])
        rest = rest[start + len(OPEN):]
        end = rest.find(CLOSE)
        if end < 0:  # cut off while thinking: the rest is thought, not answer
            thoughts.append(rest)
            rest = ""
            break
        thoughts.append(rest[:end])
        rest = rest[end + len(CLOSE):]
    answer.append(rest)
    return "".join(answer).strip(), "\n".join(t.strip() for t in thoughts if t.strip())


def merge_thinking(*parts: str | None) -> str | None:
    joined = "\n".join(p.strip() for p in parts if p and p.strip())
    return joined or None


def _partial_tag(buffer: str, tag: str) -> int:
    """Length of the longest end of ``buffer`` that may be the start of ``tag`` (wait for more)."""
    for size in range(min(len(tag) - 1, len(buffer)), 0, -1):
        if buffer.endswith(tag[:size]):
            return size
    return 0


class ThinkingFilter:
    """Streaming version of ``split_thinking``: feed pieces as they arrive, get the visible text back.
    Tags split across pieces are handled by holding back a possible tag start. A stray "</think>" is
    dropped; thinking streamed before it without an opening tag cannot be recalled (see split_thinking
    for the complete answer, which the audit trail keeps)."""

    def __init__(self) -> None:
        self._buffer = ""
        self._inside = False
        self._shown = False  # leading whitespace after a thought block is not shown
        self.thinking: list[str] = []

    def feed(self, piece: str) -> str:
        self._buffer += piece
        out: list[str] = []
        while True:
            if self._inside:
                end = self._buffer.find(CLOSE)
                if end < 0:
                    keep = _partial_tag(self._buffer, CLOSE)
                    self.thinking.append(self._buffer[: len(self._buffer) - keep])
                    self._buffer = self._buffer[len(self._buffer) - keep:]
                    break
                self.thinking.append(self._buffer[:end])
                self._buffer, self._inside = self._buffer[end + len(CLOSE):], False
                continue
            hits = [(i, t) for t in (OPEN, CLOSE) if (i := self._buffer.find(t)) >= 0]
            if not hits:
                keep = max(_partial_tag(self._buffer, OPEN), _partial_tag(self._buffer, CLOSE))
                out.append(self._buffer[: len(self._buffer) - keep])
                self._buffer = self._buffer[len(self._buffer) - keep:]
                break
            at, tag = min(hits)
            out.append(self._buffer[:at])
            self._buffer, self._inside = self._buffer[at + len(tag):], tag == OPEN
        return self._show("".join(out))

    def flush(self) -> str:
        """What is left at the end of the stream (an unfinished tag start is text after all)."""
        rest, self._buffer = ("" if self._inside else self._buffer), ""
        return self._show(rest)

    def _show(self, text: str) -> str:
        if not self._shown:
            text = text.lstrip()
            self._shown = bool(text)
        return text
