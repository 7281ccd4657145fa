"""Where an exported report goes: a file name the user can recognise (the question's first words and
the day) in a folder they choose, remembered for the next export."""

from __future__ import annotations

from datetime import date
from pathlib import Path

import platformdirs
from PySide6.QtCore import QCoreApplication
from PySide6.QtWidgets import QFileDialog, QWidget

from desktop.report.export import FILE_NAMES, file_stem


def start_folder(last: Path | None) -> Path:
    """Where the dialog opens: the last export's folder, else Documents, else home — the first that exists
    (a fresh account may have no Documents folder, and the dialog then opened nowhere)."""
    for folder in (last, Path(platformdirs.user_documents_dir()), Path.home()):
        if folder is not None and folder.is_dir():
            return folder
    return Path.home()


def ask_export_target(parent: QWidget, fmt: str, question: str, folder: Path | None) -> tuple[Path, str] | None:
    """The folder and file stem for ``fmt`` ("all": every format and the audit trail), or None when the
    user cancels. One format is saved under a name the user may change; "all" asks for a folder."""
    stem = file_stem(question, date.today())
    start = start_folder(folder)
    if fmt == "all":
        title = QCoreApplication.translate("ExportTarget", "Export the report and its audit trail into…")
        chosen = QFileDialog.getExistingDirectory(parent, title, str(start))
        return (Path(chosen), stem) if chosen else None
    suffix = Path(FILE_NAMES[fmt]).suffix
    title = QCoreApplication.translate("ExportTarget", "Export the report as…")
    path, _ = QFileDialog.getSaveFileName(parent, title, str(start / f"{stem}{suffix}"), f"*{suffix}")
    if not path:
        return None
    return Path(path).parent, Path(path).name.removesuffix(suffix)
