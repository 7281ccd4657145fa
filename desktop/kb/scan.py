"""Which files an ingest run looks at, and what has happened to each since the last run."""

from __future__ import annotations

import hashlib
import os
from dataclasses import dataclass
from pathlib import Path

from desktop.kb.models import FileOutcome

_HASH_BLOCK = 1 << 20


@dataclass(frozen=True)
class Candidate:
    path: Path
    explicit: bool  # named on the command line (a non-PDF is reported) rather than found in a folder


def sha256_file(path: Path) -> str:
    digest = hashlib.sha256()
    with open(path, "rb") as fh:
        while block := fh.read(_HASH_BLOCK):
            digest.update(block)
    return digest.hexdigest()


def expand(paths: list[Path]) -> tuple[list[Candidate], list[FileOutcome]]:
    """Files to look at (folders searched recursively for PDFs) and paths that cannot be read at all."""
    found: dict[Path, Candidate] = {}
    problems: list[FileOutcome] = []
    for raw in paths:
        path = Path(os.path.abspath(raw))
        if path.is_dir():
            try:
                files = sorted(p for p in path.rglob("*") if p.is_file() and p.suffix.lower() == ".pdf")
            except OSError as exc:
                problems.append(FileOutcome(path=str(path), status="rejected", reason=f"cannot read the folder: {exc.strerror}"))
                continue
            for f in files:
                found.setdefault(f, Candidate(f, explicit=False))
        elif path.exists() or path.is_symlink():
            found[path] = Candidate(path, explicit=True)
        else:
            problems.append(FileOutcome(path=str(path), status="rejected", reason="file or folder not found"))
    return list(found.values()), problems


def covered_by(path: str, roots: list[Path]) -> bool:
    """Whether a stored document path lies inside one of the scanned folders (or is one of the files)."""
    p = Path(path)
    for root in roots:
        root = Path(os.path.abspath(root))
        if p == root or root in p.parents:
            return True
    return False
