"""Where Rabbithole keeps its files.

Every location comes from platformdirs unless the user names a data directory (``--data-dir`` or
``RABBITHOLE_DATA_DIR``); then *everything* — settings, databases, caches, logs — lives under it, so
tests and benchmarks never touch a user's real data.
"""

from __future__ import annotations

import os
import sys
from dataclasses import dataclass
from pathlib import Path

import platformdirs

APP_NAME = "Rabbithole"
DATA_DIR_ENV = "RABBITHOLE_DATA_DIR"


@dataclass(frozen=True)
class AppPaths:
    data_dir: Path
    config_dir: Path
    cache_dir: Path
    log_dir: Path

    @property
    def settings_file(self) -> Path:
        return self.config_dir / "settings.json"

    @property
    def window_file(self) -> Path:
        """The window's size, layout, open PDF and shown run, kept between starts."""
        return self.config_dir / "window.json"

    @property
    def databases_dir(self) -> Path:
        return self.data_dir / "databases"

    @property
    def runs_file(self) -> Path:
        return self.data_dir / "runs.sqlite"

    def database_dir(self, name: str) -> Path:
        return self.databases_dir / name

    def ensure(self) -> "AppPaths":
        for p in (self.data_dir, self.config_dir, self.cache_dir, self.log_dir, self.databases_dir):
            p.mkdir(parents=True, exist_ok=True)
        return self


def _under(root: Path) -> AppPaths:
    return AppPaths(root, root / "config", root / "cache", root / "logs")


def resolve_paths(data_dir: str | os.PathLike[str] | None = None) -> AppPaths:
    """The command-line value wins, then the environment, then the platform's standard places."""
    explicit = data_dir or os.environ.get(DATA_DIR_ENV)
    if explicit:
        return _under(Path(explicit).expanduser().resolve())
    dirs = platformdirs.PlatformDirs(APP_NAME, appauthor=False)
    return AppPaths(
        Path(dirs.user_data_dir), Path(dirs.user_config_dir), Path(dirs.user_cache_dir), Path(dirs.user_log_dir)
    )


def with_data_dir(paths: AppPaths, data_dir: Path) -> AppPaths:
    """Databases and caches move to a user-chosen folder; the settings file stays where it was found."""
    moved = _under(data_dir.expanduser().resolve())
    return AppPaths(moved.data_dir, paths.config_dir, moved.cache_dir, moved.log_dir)


def resource_root() -> Path:
    """Folder holding ``kb/`` and ``resources/``: the bundle when frozen, else the source checkout."""
    bundle = getattr(sys, "_MEIPASS", None)
    if bundle:
        return Path(bundle)
    return Path(__file__).resolve().parent.parent


def sample_kb_dir() -> Path:
    return resource_root() / "kb"


def prebuilt_databases_dir() -> Path:
    """Databases built when the installer was made (the sample, so a first start indexes nothing).

    Only a packaged build has this folder; in a source checkout it does not exist and the sample is
    built from the PDFs on first use.
    """
    return sample_kb_dir() / "prebuilt"
