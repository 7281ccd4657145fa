"""Write every format of a report into one folder, each file atomically.

Each file is written to a temporary name beside its target, flushed to disk and moved over the target
with os.replace, so a crash leaves either the old file or the new one, never half a file. One format
failing (a PDF layout error, a full disk) does not cost the others: they are written, then one
ExportError names what failed.
"""

from __future__ import annotations

import json
import os
import re
import uuid
from collections.abc import Callable, Iterable
from datetime import date
from pathlib import Path

from desktop.report.docx import to_docx
from desktop.report.html import to_html
from desktop.report.markdown import to_markdown
from desktop.report.model import Report
from desktop.report.pdf import to_pdf

FILE_NAMES: dict[str, str] = {
    "md": "report.md",
    "html": "report.html",
    "pdf": "report.pdf",
    "docx": "report.docx",
    "json": "report.json",
    "audit": "audit.jsonl",
}


class ExportError(RuntimeError):
    """Some formats could not be written; ``written`` holds the ones that were."""

    def __init__(self, errors: dict[str, BaseException], written: dict[str, Path]) -> None:
        self.errors = errors
        self.written = written
        detail = "; ".join(f"{fmt}: {type(e).__name__}: {e}" for fmt, e in errors.items())
        super().__init__(f"report export failed for {', '.join(errors)} ({detail})")


def report_json(report: Report) -> str:
    # pydantic writes non-ASCII characters as they are (no \u escapes), so umlauts stay readable
    return report.model_dump_json(indent=2) + "\n"


def audit_jsonl(events: Iterable[dict]) -> str:
    """One JSON object per line; values JSON does not know (datetimes, paths) are written as text."""
    return "".join(json.dumps(event, ensure_ascii=False, default=str) + "\n" for event in events)


def _fsync(path: Path) -> None:
    with open(path, "rb+") as f:
        os.fsync(f.fileno())


def write_atomic(target: Path, write: Callable[[Path], None]) -> Path:
    """Let ``write`` fill a temporary file beside ``target``, then move it into place."""
    tmp = target.with_name(f".{target.name}.{uuid.uuid4().hex[:12]}.tmp")
    try:
        write(tmp)
        _fsync(tmp)
        os.replace(tmp, target)
    finally:
        tmp.unlink(missing_ok=True)  # after a failure; after success it is already gone
    return target


def _text_writer(text: Callable[[], str]) -> Callable[[Path], None]:
    def write(path: Path) -> None:
        path.write_text(text(), encoding="utf-8", newline="\n")

    return write


def write_audit(out_dir: Path, events: Iterable[dict]) -> Path:
    """audit.jsonl alone (a run without a report yet), written like every other file."""
    return write_atomic(Path(out_dir) / FILE_NAMES["audit"], _text_writer(lambda: audit_jsonl(events)))


def _writers(report: Report, audit_events: Iterable[dict] | None) -> dict[str, Callable[[Path], None]]:
    # The module-level names are looked up when a writer runs, so a test can replace one of them.
    writers: dict[str, Callable[[Path], None]] = {
        "md": _text_writer(lambda: to_markdown(report)),
        "html": _text_writer(lambda: to_html(report)),
        "pdf": lambda path: to_pdf(report, path),
        "docx": lambda path: to_docx(report, path),
        "json": _text_writer(lambda: report_json(report)),
    }
    if audit_events is not None:
        # read inside the writer: a failing event source then costs only audit.jsonl
        events: Iterable[dict] = audit_events
        writers["audit"] = _text_writer(lambda: audit_jsonl(events))
    return writers


def file_stem(question: str, day: date, limit: int = 60) -> str:
    """A file name for a report a person can recognise: the day, then the question's first words, without
    characters Windows or macOS refuse ("2026-11-24 Welche effektive Jahresdosis darf"). The day leads: after
    the words, "… fiscal 2026-11-26" read as a fiscal year; first, a folder sorts the reports by day."""
    words = re.sub(r'[<>:"/\\|?*\x00-\x1f]', " ", question).split()
    head = ""
    for word in words:
        if len(head) + len(word) + 1 > limit:
            break
        head = f"{head} {word}".strip()
    return f"{day.isoformat()} {(head or 'Report').rstrip('. ')}"


def _file_name(fmt: str, stem: str) -> str:
    if stem == "report":  # the command line's fixed names (scripts rely on them)
        return FILE_NAMES[fmt]
    return f"{stem} audit.jsonl" if fmt == "audit" else f"{stem}{Path(FILE_NAMES[fmt]).suffix}"


def export_all(report: Report, out_dir: Path, audit_events: Iterable[dict] | None = None,
               formats: Iterable[str] | None = None, stem: str = "report") -> dict[str, Path]:
    """Write report.{md,html,pdf,docx,json} (and audit.jsonl when events are given), or only the
    ``formats`` named, named ``stem`` + extension (``STEM audit.jsonl``) unless the stem is "report";
    return their paths by format ("md", "html", "pdf", "docx", "json", "audit")."""
    out_dir = Path(out_dir)
    out_dir.mkdir(parents=True, exist_ok=True)
    written: dict[str, Path] = {}
    errors: dict[str, BaseException] = {}
    wanted = set(formats) if formats is not None else None
    for fmt, write in _writers(report, audit_events).items():
        if wanted is not None and fmt not in wanted:
            continue
        try:
            written[fmt] = write_atomic(out_dir / _file_name(fmt, stem), write)
        except Exception as e:  # noqa: BLE001 - any failure of one format must not stop the others
            errors[fmt] = e
    if errors:
        raise ExportError(errors, written)
    return written
