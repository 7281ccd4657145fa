"""German and English: the system's language unless the user chose one; Qt's own dialogs translated too."""

from __future__ import annotations

from PySide6.QtCore import QLibraryInfo, QLocale, QTranslator
from PySide6.QtWidgets import QApplication

from desktop.paths import resource_root

_installed: list[QTranslator] = []


def choose(preference: str) -> str:
    if preference in ("de", "en"):
        return preference
    return "de" if QLocale.system().language() == QLocale.Language.German else "en"


def install(app: QApplication, preference: str) -> str:
    """Load the translations for the chosen language; returns 'de' or 'en'."""
    for translator in _installed:
        app.removeTranslator(translator)
    _installed.clear()
    language = choose(preference)
    QLocale.setDefault(QLocale(QLocale.Language.German if language == "de" else QLocale.Language.English))
    ours = QTranslator(app)  # English: only the plural forms ("1 warning"); the source strings are English
    if ours.load(str(resource_root() / "resources" / "translations" / f"rabbithole_{language}.qm")):
        app.installTranslator(ours)
        _installed.append(ours)
    if language == "en":
        return language
    qt = QTranslator(app)
    if qt.load(QLocale(QLocale.Language.German), "qtbase", "_", QLibraryInfo.path(QLibraryInfo.LibraryPath.TranslationsPath)):
        app.installTranslator(qt)
        _installed.append(qt)
    return language
