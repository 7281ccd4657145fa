"""What a report shows as verified, checked again against the PDF: the corpus' verbatim rule
(``../shared/corpus/README.md``), the page texts PyMuPDF extracts, and the quotes a report.json shows.
Used by the real-model tests and the answer-quality benchmark; nothing here trusts the report's flags."""

from __future__ import annotations

import re
import unicodedata
from pathlib import Path
from typing import Any

_KEEP_BREAK = r"(?:und|oder|bis|sowie|bzw|als|wie)\b"
_HYPHEN_BREAK = re.compile(r"-[ \t]*\n\s*(?!" + _KEEP_BREAK + ")")
_WS = re.compile(r"\s+")


def verbatim_norm(text: str) -> str:
    """NFC, NBSP -> space, a line break right after a hyphen removed (unless the next word is
    und/oder/bis/sowie/bzw/als/wie), whitespace runs collapsed to one space."""
    text = unicodedata.normalize("NFC", text).replace("\u00a0", " ")
    text = _HYPHEN_BREAK.sub("-", text)
    return _WS.sub(" ", text).strip()


class PageTexts:
    """Page texts of PDFs (PyMuPDF ``page.get_text()``), read once each."""

    def __init__(self, pdf_dir: Path) -> None:
        self.pdf_dir = pdf_dir
        self._cache: dict[tuple[str, int], str | None] = {}

    def get(self, path: str | None, doc: str, page: int) -> str | None:
        key = (doc, page)
        if key not in self._cache:
            self._cache[key] = self._read(path, doc, page)
        return self._cache[key]

    def _read(self, path: str | None, doc: str, page: int) -> str | None:
        import pymupdf

        for candidate in (Path(path) if path else None, self.pdf_dir / doc):
            if candidate is not None and candidate.is_file():
                with pymupdf.open(candidate) as pdf:
                    if 1 <= page <= pdf.page_count:
                        return verbatim_norm(pdf[page - 1].get_text())
                    return None
        return None


def shown_quotes(report: dict[str, Any]) -> list[dict[str, Any]]:
    """Every quote the report shows as verified (citations and findings), once per (doc, page, text)."""
    seen: dict[tuple[str, int, str], dict[str, Any]] = {}
    for c in report.get("citations") or []:
        if c.get("quote") and c.get("quote_verified"):
            seen.setdefault((c.get("doc", ""), int(c.get("page") or 0), c["quote"]),
                            {"doc": c.get("doc", ""), "path": c.get("path"), "page": int(c.get("page") or 0),
                             "text": c["quote"]})
    for f in all_findings(report):
        for q in f.get("quotes") or []:
            if q.get("verified") and q.get("text"):
                page = int(q.get("page") or f.get("page") or 0)
                seen.setdefault((f.get("doc", ""), page, q["text"]),
                                {"doc": f.get("doc", ""), "path": f.get("path"), "page": page, "text": q["text"]})
    return list(seen.values())


def all_findings(report: dict[str, Any]) -> list[dict[str, Any]]:
    findings = report.get("findings") or {}
    if isinstance(findings, dict):
        return [f for tier in findings.values() if isinstance(tier, list) for f in tier]
    return list(findings) if isinstance(findings, list) else []


def check_quotes(report: dict[str, Any], pages: PageTexts) -> dict[str, Any]:
    quotes = shown_quotes(report)
    wrong = []
    for q in quotes:
        text = pages.get(q["path"], q["doc"], q["page"])
        if text is None or verbatim_norm(q["text"]) not in text:
            wrong.append({"doc": q["doc"], "page": q["page"], "quote": q["text"][:200]})
    good = len(quotes) - len(wrong)
    return {"verified_quotes": len(quotes), "verbatim_quotes": good,
            "verbatim_share": round(good / len(quotes), 3) if quotes else None, "not_verbatim": wrong[:5]}


