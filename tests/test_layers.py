"""The dependency map of docs/architecture.md §2, checked on the source of every module.

    ui → bridge → service → engine → {kb, llm}, and cli → service; report is used by engine, service,
    bridge, ui and cli; config (settings, paths) is below all; kb and llm never import engine, service,
    ui, bridge or cli; llm never imports kb; only ui/ and bridge/ (and the composition root app.py) touch Qt.

The window (ui) reads the engine only through the bridge's views; the bridge and the command line are
adapters over the service's session and reach neither kb, llm nor engine (the types they show come from
``desktop.service``).
"""

from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

import pytest

PACKAGE = Path(__file__).resolve().parents[1] / "desktop"
QT_MODULES = ("PySide6", "shiboken6", "qasync", "PyQt5", "PyQt6", "qtpy", "qtawesome")
CONFIG = ("desktop.settings", "desktop.paths")

# Which parts of the package each part may import (besides itself, the standard library and third
# parties). ``desktop`` alone is the package's __init__ (its version).
ALLOWED: dict[str, tuple[str, ...]] = {
    "desktop.ui": ("desktop", "desktop.bridge", "desktop.report", *CONFIG),
    "desktop.bridge": ("desktop.service", "desktop.report", *CONFIG),
    "desktop.service": ("desktop.engine", "desktop.kb", "desktop.llm", "desktop.report", *CONFIG),
    "desktop.engine": ("desktop.kb", "desktop.llm", "desktop.report", *CONFIG),
    "desktop.cli": ("desktop", "desktop.service", "desktop.report", *CONFIG),
    "desktop.kb": CONFIG,
    "desktop.llm": CONFIG,
    "desktop.report": CONFIG,
    "desktop.settings": ("desktop.paths",),
    "desktop.paths": (),
    "desktop.app": ("desktop",),  # the composition root wires everything
    "desktop.__main__": ("desktop.app",),
    "desktop": (),
}
QT_ALLOWED = ("desktop.ui", "desktop.bridge", "desktop.app")


def _imports(source: str, module: str = "", package: bool = False) -> set[str]:
    """The modules ``source`` imports, relative imports resolved against ``module`` (a package's
    ``__init__`` is the package itself: ``from . import x`` there stays inside it)."""
    names: set[str] = set()
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Import):
            names.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            names.add(node.module)
        elif isinstance(node, ast.ImportFrom) and node.level:
            parts = module.split(".")
            base = ".".join(parts[:len(parts) - node.level + (1 if package else 0)])
            if node.module:
                names.add(f"{base}.{node.module}")
            else:  # ``from .. import x``: x may be a module of that package
                names.update(f"{base}.{alias.name}" for alias in node.names)
    return names


def _part(module: str) -> str:
    """The part of the map a module belongs to: the longest key of ALLOWED it lies in."""
    return max((p for p in ALLOWED if module == p or module.startswith(p + ".")), key=len)


def _inside(name: str, prefix: str) -> bool:
    return name == prefix or name.startswith(prefix + ".")


def violations(module: str, imports: set[str]) -> list[str]:
    """What ``module`` may not import of the map, Qt included."""
    part = _part(module)
    bad = []
    for name in sorted(imports):
        if name.split(".")[0] in QT_MODULES and not any(_inside(module, q) for q in QT_ALLOWED):
            bad.append(f"{module} imports {name} (Qt)")
        elif _inside(name, "desktop") and not _inside(name, part):
            target = _part(name)
            allowed = ALLOWED[part]
            if part == "desktop.app" or (target in allowed and (target != "desktop" or name == "desktop")):
                continue
            bad.append(f"{module} imports {name}")
    return bad


def _modules() -> list[tuple[str, set[str]]]:
    out = []
    for file in sorted(PACKAGE.rglob("*.py")):
        rel = file.relative_to(PACKAGE.parent).with_suffix("").as_posix().replace("/", ".")
        module = rel.removesuffix(".__init__")
        out.append((module, _imports(file.read_text(encoding="utf-8"), module, file.name == "__init__.py")))
    return out


def test_every_module_keeps_to_the_map() -> None:
    assert [v for module, imports in _modules() for v in violations(module, imports)] == []


def test_every_module_belongs_to_a_part_of_the_map() -> None:
    assert all(_part(module) for module, _ in _modules())


@pytest.mark.parametrize(("module", "source"), [
    ("desktop.ui.chat_panel", "from desktop.engine.state import RunState"),  # ui past the bridge
    ("desktop.ui.kb_panel", "from desktop.kb.models import DocumentInfo"),
    ("desktop.ui.main_window", "from desktop.llm.types import Health"),
    ("desktop.ui.main_window", "import desktop.cli"),
    ("desktop.bridge.bridge", "from desktop.engine.runner import ResearchEngine"),  # adapters past the service
    ("desktop.bridge.views", "from desktop.engine.state import RunState"),
    ("desktop.bridge.kb_views", "from desktop.kb.models import DocumentInfo"),
    ("desktop.bridge.bridge", "from desktop.llm.factory import make_backend"),
    ("desktop.cli.research", "from desktop.engine.runner import ResearchEngine"),
    ("desktop.cli.models", "from desktop.llm.factory import make_backend"),
    ("desktop.cli.kb", "from desktop.kb.database import KnowledgeBase"),
    ("desktop.cli.doctor", "from desktop.kb.search.embeddings import OfflineEmbedder"),
    ("desktop.service.session", "from desktop.bridge.bridge import EngineBridge"),  # the service knows no adapter
    ("desktop.service.session", "from desktop.cli import research"),
    ("desktop.engine.runner", "from desktop.service import Session"),  # the engine knows no service
    ("desktop.kb.database", "from desktop.service import Session"),
    ("desktop.bridge.bridge", "from desktop.ui.main_window import MainWindow"),  # a layer importing one above
    ("desktop.bridge.bridge", "from desktop.cli import main"),
    ("desktop.engine.runner", "from desktop.bridge.bridge import EngineBridge"),
    ("desktop.engine.runner", "import desktop.ui"),
    ("desktop.engine.runner", "from desktop.cli.console import err"),
    ("desktop.kb.database", "from desktop.engine.state import RunState"),  # kb and llm know no engine
    ("desktop.kb.search.hybrid", "from desktop.ui import i18n"),
    ("desktop.kb.search.hybrid", "from desktop.bridge.views import RunView"),
    ("desktop.kb.search.hybrid", "from desktop.cli import kb"),
    ("desktop.llm.base", "from desktop.engine import events"),
    ("desktop.llm.base", "from desktop.ui.theme import apply_theme"),
    ("desktop.llm.base", "from desktop.bridge import bridge"),
    ("desktop.llm.base", "from desktop.cli import models"),
    ("desktop.llm.base", "from desktop.kb.models import Chunk"),  # llm never imports kb
    ("desktop.report.model", "from desktop.engine.state import RunState"),  # report below engine, ui and cli
    ("desktop.report.model", "from desktop.kb.models import Chunk"),
    ("desktop.settings", "from desktop.kb.models import Chunk"),  # config below all
    ("desktop.paths", "from desktop.settings import Settings"),
    ("desktop.cli.kb", "from desktop.ui.kb_panel import KnowledgeBasePanel"),  # the terminal needs no window
    ("desktop.cli.kb", "from desktop.bridge.bridge import EngineBridge"),
    ("desktop.engine.runner", "from PySide6.QtCore import QObject"),  # Qt only in ui, bridge and app
    ("desktop.kb.database", "import qasync"),
    ("desktop.cli.research", "import shiboken6"),
])
def test_the_rule_catches_a_violation_of_each_kind(module: str, source: str) -> None:
    assert violations(module, _imports(source)) != []


@pytest.mark.parametrize(("module", "package", "source"), [
    ("desktop.kb.search.hybrid", False, "from ...engine.state import RunState"),
    ("desktop.kb.search.hybrid", False, "from ... import engine"),
    ("desktop.kb.database", False, "from .. import ui"),
    ("desktop.engine", True, "from ..ui import main_window"),
    ("desktop.engine.runner", False, "from ..bridge.bridge import EngineBridge"),
    ("desktop.kb.server.catalog", False, "from ...llm import types"),
])
def test_a_relative_import_is_held_to_the_map(module: str, package: bool, source: str) -> None:
    assert violations(module, _imports(source, module, package)) != []


@pytest.mark.parametrize(("module", "package", "source"), [
    ("desktop.kb.search.hybrid", False, "from ..models import Chunk\nfrom . import lexical"),
    ("desktop.kb.server.catalog", False, "from ..models import Chunk"),
    ("desktop.engine", True, "from .state import RunState\nfrom . import runner"),
    ("desktop.ui.main_window", False, "from ..bridge.views import RunView"),
])
def test_a_relative_import_inside_the_map_passes(module: str, package: bool, source: str) -> None:
    assert violations(module, _imports(source, module, package)) == []


@pytest.mark.parametrize(("module", "source"), [
    ("desktop.ui.main_window", "from desktop.bridge.views import RunView\nfrom desktop.report.model import Citation"),
    ("desktop.ui.settings_dialog", "from desktop.settings import Settings\nfrom desktop.paths import resolve_paths"),
    ("desktop.ui.main_window", "from PySide6.QtWidgets import QMainWindow"),
    ("desktop.bridge.views", "from desktop.service import RunState, DocumentInfo\nfrom desktop.report.model import Report"),
    ("desktop.cli.research", "from desktop.service import Session\nfrom desktop.cli.console import err"),
    ("desktop.service.session", "from desktop.engine.runner import ResearchEngine\nfrom desktop.kb.database import KnowledgeBase"),
    ("desktop.engine.step_context", "from desktop.kb.database import KnowledgeBase\nfrom desktop.llm.types import Usage"),
    ("desktop.cli.kb", "from desktop.service import Session\nfrom desktop import __version__"),
    ("desktop.app", "from desktop.ui.main_window import MainWindow\nfrom desktop import cli"),
])
def test_the_rule_lets_the_map_through(module: str, source: str) -> None:
    assert violations(module, _imports(source)) == []


def test_headless_commands_load_no_qt() -> None:
    """Importing the CLI, knowledge base and settings at run time pulls in no Qt module either."""
    code = (
        "import sys, desktop.cli, desktop.kb.database, desktop.kb.storage.registry, desktop.settings\n"
        f"bad = [m for m in sys.modules if m.split('.')[0] in {QT_MODULES!r}]\n"
        "print(bad); sys.exit(1 if bad else 0)"
    )
    done = subprocess.run([sys.executable, "-c", code], check=False, capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stdout + done.stderr
