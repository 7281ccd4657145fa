"""Text copied with its citation, in the window's language: “…” (StrlSchG § 77, p. 52), German
„…“ (StrlSchG § 77, S. 52) — what a reviewer pastes into a memo with its source attached."""

from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import QCoreApplication


def place(doc: str, page: int, section: str | None = None) -> str:
    """'StrlSchG § 77, p. 52': the document without ".pdf", its section where known, the page."""
    name = Path(doc).stem if doc.lower().endswith(".pdf") else doc
    where = f"{name} {' '.join(section.split())}" if section else name
    return QCoreApplication.translate("Citation", "{where}, p. {page}").format(where=where, page=page)


def cited(text: str, places: list[str]) -> str:
    """``text`` in the language's quotation marks, its places after it."""
    return QCoreApplication.translate("Citation", "“{text}” ({places})").format(
        text=" ".join(text.split()), places="; ".join(places))
