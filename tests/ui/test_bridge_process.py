"""What the composition root sets up for the window's process so that the GUI thread is not kept waiting for
the interpreter lock (see benchmarks/RESULTS.md, "The window's responsiveness")."""

from __future__ import annotations

import gc
import sys
from collections.abc import Iterator
from typing import Any

import pytest

from desktop.app import prepare_window_process
from desktop.bridge.bridge import EngineBridge
from desktop.kb.search.vector_process import child_process_enabled
from desktop.paths import AppPaths
from desktop.settings import Settings


@pytest.fixture
def bridge(qtbot: Any, app_paths: AppPaths, settings: Settings) -> Iterator[EngineBridge]:
    gc.unfreeze()
    interval = sys.getswitchinterval()
    prepare_window_process()
    b = EngineBridge(app_paths, settings)
    yield b
    b.shutdown()
    sys.setswitchinterval(interval)
    gc.unfreeze()


def test_the_window_process_keeps_lock_holders_off_the_gui_thread(bridge: EngineBridge) -> None:
    assert child_process_enabled()  # Chroma's calls hold the lock: its store runs in a child process
    assert sys.getswitchinterval() == pytest.approx(0.001)  # busy threads hand the lock over sooner
    assert gc.get_freeze_count() > 10_000  # a full collection does not walk the libraries' objects


def test_the_bridge_itself_changes_nothing_process_wide(qtbot: Any, app_paths: AppPaths, settings: Settings) -> None:
    """Process-wide setup belongs to the composition root: a bridge made in a test or a tool leaves the
    process as it was."""
    interval, frozen = sys.getswitchinterval(), gc.get_freeze_count()
    b = EngineBridge(app_paths, settings)
    try:
        assert not child_process_enabled()
        assert sys.getswitchinterval() == interval and gc.get_freeze_count() == frozen
    finally:
        b.shutdown()
