"""The dependency rules of DESIGN §2, checked on the source: only ui/ and bridge/ (and the composition
root app.py) touch Qt; kb and llm know nothing of the engine; the engine knows no UI."""

from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

import pytest

PACKAGE = Path(__file__).resolve().parents[1] / "desktop"
QT_MODULES = ("PySide6", "shiboken6", "qasync", "PyQt5", "PyQt6")


def _imports(file: Path) -> set[str]:
    tree = ast.parse(file.read_text(encoding="utf-8"), filename=str(file))
    names: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            names.add(node.module)
    return names


def _modules() -> list[tuple[str, set[str]]]:
    out = []
    for file in sorted(PACKAGE.rglob("*.py")):
        rel = file.relative_to(PACKAGE.parent).with_suffix("").as_posix().replace("/", ".")
        out.append((rel, _imports(file)))
    return out


def _violations(allowed_prefixes: tuple[str, ...], forbidden: tuple[str, ...], only: tuple[str, ...] = ("desktop",)) -> list[str]:
    bad = []
    for module, imports in _modules():
        if not module.startswith(only) or module.startswith(allowed_prefixes):
            continue
        for name in imports:
            if name.split(".")[0] in forbidden or name.startswith(tuple(f + "." for f in forbidden)) or name in forbidden:
                bad.append(f"{module} imports {name}")
    return bad


def test_only_ui_bridge_and_app_import_qt() -> None:
    assert _violations(("desktop.ui", "desktop.bridge", "desktop.app"), QT_MODULES) == []


@pytest.mark.parametrize("layer", ["desktop.kb", "desktop.llm"])
def test_kb_and_llm_do_not_import_the_engine_or_ui(layer: str) -> None:
    assert _violations((), ("desktop.engine", "desktop.ui", "desktop.bridge", "desktop.cli"), only=(layer,)) == []


def test_engine_does_not_import_ui_or_bridge() -> None:
    assert _violations((), ("desktop.ui", "desktop.bridge"), only=("desktop.engine",)) == []


def test_the_rule_catches_a_violation(tmp_path: Path) -> None:
    file = tmp_path / "bad.py"
    file.write_text("from PySide6.QtCore import QObject\nimport qasync\n")
    assert _imports(file) == {"PySide6.QtCore", "qasync"}


def test_headless_commands_load_no_qt() -> None:
    """Importing the CLI, knowledge base and settings at run time pulls in no Qt module either."""
    code = (
        "import sys, desktop.cli, desktop.kb.database, desktop.kb.databases, desktop.settings\n"
        f"bad = [m for m in sys.modules if m.split('.')[0] in {QT_MODULES!r}]\n"
        "print(bad); sys.exit(1 if bad else 0)"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stdout + done.stderr
