"""A soak of many thousand PySide6 calls in a fresh interpreter.

PySide6 6.12.0 on Python 3.11 crashed after a few thousand Qt calls returning None (a reference-count
bug on None); Python 3.12 makes None immortal. This runs the kind of calls that crashed, in a
subprocess so that a crash fails the test instead of killing the test run.
"""

from __future__ import annotations

import os
import subprocess
import sys

import pytest

SOAK = r"""
import sys
from PySide6.QtCore import QObject, QTimer, Signal, QCoreApplication
from PySide6.QtWidgets import QApplication, QLabel, QListWidget

class Emitter(QObject):
    fired = Signal(object)

app = QApplication(sys.argv)
seen = []
emitter = Emitter()
emitter.fired.connect(seen.append)
label = QLabel()
items = QListWidget()
for i in range(60000):
    label.setText(str(i))            # returns None
    label.setToolTip(None if i % 2 else "x")
    emitter.fired.emit(None)         # None through a signal
    emitter.setProperty("p", None)
    if i % 1000 == 0:
        items.addItem(str(i))
        QCoreApplication.processEvents()
QTimer.singleShot(0, app.quit)
app.exec()
assert len(seen) == 60000 and items.count() == 60
print("ok", sys.version_info[:2])
"""


@pytest.mark.slow
def test_many_thousand_qt_calls_do_not_crash() -> None:
    env = {**os.environ, "QT_QPA_PLATFORM": "offscreen"}
    done = subprocess.run([sys.executable, "-c", SOAK], capture_output=True, text=True, timeout=300, env=env)
    assert done.returncode == 0, f"exit {done.returncode}\n{done.stdout}\n{done.stderr[-3000:]}"
    assert done.stdout.startswith("ok")


def test_interpreter_is_the_supported_one() -> None:
    assert sys.version_info[:2] == (3, 12), "Rabbithole supports Python 3.12 (PySide6 6.12 crashes on 3.11)"
