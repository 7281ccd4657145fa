"""Entry point and composition root: ``rabbithole`` with a command runs the command line; without one
(or with only ``--data-dir``) it opens the desktop window."""

from __future__ import annotations

import argparse
import gc
import logging
import multiprocessing
import sys
from collections.abc import Sequence
from logging.handlers import RotatingFileHandler


def _gui_args(args: list[str]) -> argparse.Namespace | None:
    """The window's own options, or None when the arguments name a command for the command line."""
    parser = argparse.ArgumentParser(prog="rabbithole", add_help=False)
    parser.add_argument("--data-dir")
    known, rest = parser.parse_known_args(args)
    return None if rest else known


def main(argv: Sequence[str] | None = None) -> int:
    multiprocessing.freeze_support()  # a frozen build's worker processes start through this entry point
    args = list(sys.argv[1:] if argv is None else argv)
    gui = _gui_args(args)
    if gui is None:
        from desktop import cli

        return cli.main(args)
    return run_window(gui.data_dir)


def _log_to_file(paths) -> None:  # noqa: ANN001
    handler = RotatingFileHandler(paths.log_dir / "rabbithole.log", maxBytes=2_000_000, backupCount=3, encoding="utf-8")
    handler.setFormatter(logging.Formatter("%(asctime)s %(levelname)s %(name)s: %(message)s"))
    logging.getLogger().addHandler(handler)
    logging.getLogger().setLevel(logging.INFO)


def prepare_window_process() -> None:
    """Process-wide choices for the window's process, made once here rather than by a component.

    The GUI thread shares the interpreter lock with the engine's threads: Chroma holds it through each
    call, so its store runs in a child process; pure-Python work (indexing, stemming) hands the lock over
    every millisecond instead of every five, so a Qt slot waits less for it. A full garbage collection
    walks every object alive, the libraries' too (100-200 ms with Qt, Chroma and PyMuPDF loaded) and
    holds the lock throughout: what exists at start-up is frozen out of it (call this after the imports).
    """
    from desktop.kb.search.vector_process import serve_vectors_from_child_process

    serve_vectors_from_child_process()
    sys.setswitchinterval(0.001)
    gc.freeze()


def run_window(data_dir: str | None = None, argv: list[str] | None = None) -> int:
    from PySide6.QtGui import QIcon
    from PySide6.QtWidgets import QApplication, QMessageBox

    from desktop.bridge.bridge import EngineBridge
    from desktop.paths import resource_root, resolve_paths, with_data_dir
    from desktop.settings import Settings, SettingsError, load_settings
    from desktop.ui import i18n
    from desktop.ui.theme import apply_theme
    from desktop.ui.window_host import WindowHost

    app = QApplication.instance() or QApplication(argv or sys.argv[:1])
    app.setApplicationName("Rabbithole")
    app.setDesktopFileName("rabbithole")  # Wayland and task bars match the window to rabbithole.desktop
    app.setWindowIcon(QIcon(str(resource_root() / "resources" / "icons" / "rabbithole.png")))
    paths = resolve_paths(data_dir)
    problem = None
    try:
        settings = load_settings(paths)
    except SettingsError as exc:
        settings, problem = Settings(), str(exc)
    if settings.data_dir and not data_dir:
        paths = with_data_dir(paths, settings.data_dir)
    paths.ensure()
    _log_to_file(paths)
    apply_theme(app, settings.ui.theme, settings.ui.text_size)
    i18n.install(app, settings.ui.language)
    prepare_window_process()
    bridge = EngineBridge(paths, settings)
    host = WindowHost(app, bridge, paths)
    window = host.open(recall_layout=True)
    if problem:
        QMessageBox.warning(window, "Rabbithole", f"{problem}\nThe default settings are used for now.")
    window.prepare_first_start()
    app.aboutToQuit.connect(bridge.shutdown)
    return app.exec()


if __name__ == "__main__":
    raise SystemExit(main())
