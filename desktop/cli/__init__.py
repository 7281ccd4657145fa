"""The command line (docs/architecture.md §2, §6): ``rabbithole kb …`` and friends. Scripts and benchmarks rely on it."""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence

from desktop import __version__
from desktop.cli import kb as kb_commands
from desktop.cli import doctor as doctor_commands
from desktop.cli import models as models_commands
from desktop.cli import research as research_commands
from desktop.cli.console import err
from desktop.service import KbError
from desktop.paths import AppPaths, resolve_paths, with_data_dir
from desktop.settings import Settings, SettingsError, load_settings


def _common() -> argparse.ArgumentParser:
    common = argparse.ArgumentParser(add_help=False)
    common.add_argument("--data-dir", default=argparse.SUPPRESS, metavar="DIR",
                        help="keep all data (settings, databases, caches) under DIR (also $RABBITHOLE_DATA_DIR)")
    return common


def build_parser() -> argparse.ArgumentParser:
    common = _common()
    parser = argparse.ArgumentParser(
        prog="rabbithole",
        description="Rabbithole — offline research over your PDFs. Without a command, the desktop window opens.",
        parents=[common],
    )
    parser.add_argument("--version", action="version", version=f"rabbithole {__version__}")
    commands = parser.add_subparsers(dest="command", metavar="COMMAND")
    kb_commands.register(commands, common)
    research_commands.register(commands, common)
    doctor_commands.register(commands, common)
    models_commands.register(commands, common)
    return parser


def context(args: argparse.Namespace) -> tuple[AppPaths, Settings]:
    """Paths and settings for a command; a settings file that cannot be read falls back to defaults."""
    paths = resolve_paths(getattr(args, "data_dir", None))
    try:
        settings = load_settings(paths)
    except SettingsError as exc:
        err(f"warning: {exc}; using default settings for this run (the file is left as it is)")
        settings = Settings()
    if settings.data_dir and not getattr(args, "data_dir", None):
        paths = with_data_dir(paths, settings.data_dir)
    return paths.ensure(), settings


def main(argv: Sequence[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    handler = getattr(args, "handler", None)
    if handler is None:
        parser.print_help()
        return 2 if args.command else 0
    try:
        return int(handler(args, *context(args)) or 0)
    except KbError as exc:
        err(f"error: {exc}")
        return 1
    except KeyboardInterrupt:
        err("interrupted")
        return 130
    except BrokenPipeError:  # `rabbithole kb search … | head`
        sys.stderr.close()
        return 0
