"""Which files an ingest run looks at, and what has happened to each since the last run."""

from __future__ import annotations

import hashlib
import os
from pathlib import Path

from desktop.kb.models import FileOutcome
from desktop.kb.ingestion.notices import notice

_HASH_BLOCK = 1 << 20


def sha256_file(path: Path) -> str:
    digest = hashlib.sha256()
    with open(path, "rb") as fh:
        while block := fh.read(_HASH_BLOCK):
            digest.update(block)
    return digest.hexdigest()


def expand(paths: list[Path]) -> tuple[list[Path], list[FileOutcome]]:
    """Files to look at and paths that cannot be read at all. Folders are searched recursively for
    PDFs; a file named explicitly is always looked at, so a non-PDF gets its reason in the report."""
    found: dict[Path, None] = {}
    problems: list[FileOutcome] = []
    for raw in paths:
        path = Path(os.path.abspath(raw))
        if path.is_dir():
            try:
                files = sorted(p for p in path.rglob("*") if p.is_file() and p.suffix.lower() == ".pdf")
            except OSError as exc:
                problems.append(FileOutcome(path=str(path), status="rejected", reason=notice("folder_unreadable", error=str(exc.strerror))))
                continue
            found.update(dict.fromkeys(files))
        elif path.exists() or path.is_symlink():
            found[path] = None
        else:
            problems.append(FileOutcome(path=str(path), status="rejected", reason=notice("path_missing")))
    return list(found), problems


def covered_by(path: str, roots: list[Path]) -> bool:
    """Whether a stored document path lies inside one of the scanned folders (or is one of the files)."""
    p = Path(path)
    for root in roots:
        root = Path(os.path.abspath(root))
        if p == root or root in p.parents:
            return True
    return False
