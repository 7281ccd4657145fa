"""The command line as the benchmarks drive it: ``python -m desktop …`` in a subprocess on a data folder,
its ``--json`` summary, and whether a PDF folder is the bundled sample (then its database is built from
the shipped vectors instead of being ingested)."""

from __future__ import annotations

import filecmp
import json
import subprocess
import sys
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]


def rabbithole(argv: list[str], data: Path, **kwargs: Any) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "desktop", *argv, "--data-dir", str(data)], cwd=ROOT,
                          text=True, **kwargs)


def engine_version() -> str:
    """The commit the runs use, with ``+changes`` when the product's code differs from it (so results of
    different engines are never mixed up)."""
    head = subprocess.run(["git", "rev-parse", "--short", "HEAD"], cwd=ROOT, capture_output=True, text=True)
    dirty = subprocess.run(["git", "status", "--porcelain", "--", "desktop"], cwd=ROOT, capture_output=True, text=True)
    version = head.stdout.strip() or "unknown"
    return version + ("+changes" if dirty.stdout.strip() else "")


def is_bundled_sample(pdf_dir: Path) -> bool:
    """PDF_DIR holds exactly the PDFs of the bundled sample database (same names, same bytes)."""
    bundled = sorted((ROOT / "kb").glob("*.pdf"))
    given = sorted(pdf_dir.glob("*.pdf"))
    return bool(bundled) and [p.name for p in bundled] == [p.name for p in given] and all(
        filecmp.cmp(a, b, shallow=False) for a, b in zip(bundled, given, strict=True))


def parse_summary(stdout: str) -> dict | None:
    """The --json summary on stdout (the last JSON object printed)."""
    text = stdout.strip()
    for start in [0] + [i + 1 for i, ch in enumerate(text) if ch == "\n" and text[i + 1:i + 2] == "{"][::-1]:
        try:
            value = json.loads(text[start:])
            return value if isinstance(value, dict) else None
        except ValueError:
            continue
    return None
