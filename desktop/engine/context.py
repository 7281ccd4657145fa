"""What the LLM gets to read: excerpts of the knowledge base, most relevant first, within a token
budget — never "the first 3000 characters" — and helpers to show the dialogue so far."""

from __future__ import annotations

from collections.abc import Callable

from desktop.engine.prompts import LANGUAGE_NAMES, WRONG_LANGUAGE
from desktop.engine.state import ClarifyRound, RetrievedChunk
from desktop.kb.language import detect_language

_MIN_WORDS_FOR_LANGUAGE = 8  # below this, function-word counting cannot tell German from English


def excerpt(n: int, chunk: RetrievedChunk) -> str:
    where = f"{chunk.doc}, p. {chunk.page}" + (f", {chunk.section}" if chunk.section else "")
    return f"[{n}] ({where})\n{chunk.text.strip()}"


def budgeted_excerpts(chunks: list[RetrievedChunk], budget_tokens: int, count: Callable[[str], int]) -> tuple[str, list[str]]:
    """Excerpts in the given (relevance) order until the budget is spent; the last may be cut short.

    Returns the text and the ids of the chunks it shows.
    """
    parts: list[str] = []
    used: list[str] = []
    left = budget_tokens
    for chunk in chunks:
        text = excerpt(len(parts) + 1, chunk)
        cost = count(text)
        if cost > left:
            if left > 120:  # worth a partial excerpt rather than nothing
                share = max(0.0, (left - 20) / cost)
                parts.append(text[: int(len(text) * share)] + " …")
                used.append(chunk.chunk_id)
            break
        parts.append(text)
        used.append(chunk.chunk_id)
        left -= cost
    return ("\n\n".join(parts) if parts else "(no excerpts were found)"), used


def answers_block(rounds: list[ClarifyRound]) -> str:
    """The user's answers so far, for prompts ('' when there are none)."""
    lines = [f"- {r.answer}" for r in rounds if r.answer]
    return ("What the user has said so far:\n" + "\n".join(lines) + "\n\n") if lines else ""


def dialogue(rounds: list[ClarifyRound]) -> str:
    out = []
    for r in rounds:
        if r.questions:
            out.append(f"Round {r.index} questions:\n" + "\n".join(f"  - {q}" for q in r.questions))
        out.append(f"User: {r.answer}" if r.answer else "User: (no answer)")
    return "\n".join(out) if out else "(no questions were asked)"


def bullet_list(items: list[str], empty: str = "(none)") -> str:
    return "\n".join(f"- {i}" for i in items) if items else empty


def language_check(language: str, texts: Callable[[object], list[str]]) -> Callable[[object], str | None]:
    """A check for structured answers: their prose must be in the run's language."""

    def check(value: object) -> str | None:
        text = " ".join(texts(value))
        if len(text.split()) < _MIN_WORDS_FOR_LANGUAGE:
            return None
        found = detect_language(text, default=language)
        if found == language:
            return None
        return WRONG_LANGUAGE.format(found=LANGUAGE_NAMES.get(found, found),
                                     language=LANGUAGE_NAMES.get(language, language))

    return check
