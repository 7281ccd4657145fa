# PyInstaller hook for PySide6.QtGui that replaces PyInstaller's own (hooks in --additional-hooks-dir /
# Analysis(hookspath=...) take precedence): the same collection, minus the Qt plugins Rabbithole never
# loads. They are dropped here, before the analysis follows their library dependencies: filtering the
# plugins out after the analysis would still leave what they link (GTK 3 for the gtk3 platform theme,
# QtQuick and QtQml for the virtual keyboard).
#
# Kept: the platforms xcb, wayland (Linux), windows (Windows), cocoa (macOS), offscreen and minimal
# (headless runs, the smoke test); input methods (compose, ibus: umlauts and dead keys), the
# xdg-desktop-portal theme, the xcb GL integrations and the Wayland client plugins; the SVG icon engine
# and the svg/ico/jpeg/gif image formats (desktop icon themes are SVG; PNG is built into QtGui).

import os

from PyInstaller.utils.hooks.qt import add_qt6_dependencies

hiddenimports, binaries, datas = add_qt6_dependencies(__file__)

_PLATFORMS = {"qxcb", "qwayland", "qwayland-generic", "qwayland-egl", "qwindows", "qcocoa", "qoffscreen", "qminimal"}
_IMAGE_FORMATS = {"qsvg", "qico", "qjpeg", "qgif"}
_DROP_KINDS = {"egldeviceintegrations", "generic", "networkinformation", "tls", "sqldrivers", "printsupport",
               "qmltooling", "accessiblebridge"}
_DROP_NAMES = {"qtvirtualkeyboardplugin", "qgtk3"}


def _plugin(dest: str, src: str) -> tuple[str, str] | None:
    """(plugin kind, plugin base name) when the file is a Qt plugin, else None."""
    parts = dest.replace("\\", "/").split("/")
    if "plugins" not in parts:
        return None
    kind = "/".join(parts[parts.index("plugins") + 1:])  # "platforms", or "platforms/darwin" on macOS
    name = os.path.basename(src).split(".")[0]
    name = name.removeprefix("lib")
    return kind, name


def _wanted(src: str, dest: str) -> bool:
    found = _plugin(dest, src)
    if found is None:
        return True
    kind, name = found
    if kind in _DROP_KINDS or name in _DROP_NAMES:
        return False
    if kind == "platforms":
        return name in _PLATFORMS
    if kind == "imageformats":
        return name in _IMAGE_FORMATS
    return True


binaries = [(src, dest) for src, dest in binaries if _wanted(src, dest)]
