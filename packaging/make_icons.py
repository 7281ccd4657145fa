#!/usr/bin/env python3
"""Render the application icon from resources/icons/rabbithole.svg (run after changing the SVG):

    QT_QPA_PLATFORM=offscreen .venv/bin/python packaging/make_icons.py

writes resources/icons/rabbithole.png (256 px: the Linux menus, the window) and
packaging/windows/rabbithole.ico (16-256 px, PNG-compressed entries, as Windows Vista and later read
them). ``--iconset DIR`` instead writes the PNGs of a macOS iconset (16-1024 px), which
packaging/macos/build_macos.sh turns into an .icns with iconutil.
"""

from __future__ import annotations

import struct
import sys
from pathlib import Path

from PySide6.QtCore import QBuffer, QByteArray, QIODevice, Qt
from PySide6.QtGui import QGuiApplication, QImage, QPainter
from PySide6.QtSvg import QSvgRenderer

ROOT = Path(__file__).resolve().parents[1]
SVG = ROOT / "resources" / "icons" / "rabbithole.svg"
ICO_SIZES = (16, 24, 32, 48, 64, 128, 256)


def render(renderer: QSvgRenderer, size: int) -> bytes:
    image = QImage(size, size, QImage.Format.Format_ARGB32)
    image.fill(Qt.GlobalColor.transparent)
    painter = QPainter(image)
    painter.setRenderHint(QPainter.RenderHint.Antialiasing)
    renderer.render(painter)
    painter.end()
    data = QByteArray()
    buffer = QBuffer(data)
    buffer.open(QIODevice.OpenModeFlag.WriteOnly)
    image.save(buffer, "PNG")
    return bytes(data)


def ico(images: dict[int, bytes]) -> bytes:
    """An ICO file whose entries are PNG images (ICONDIR, one ICONDIRENTRY each, then the data)."""
    header = struct.pack("<HHH", 0, 1, len(images))
    offset = len(header) + 16 * len(images)
    entries, blobs = b"", b""
    for size, png in sorted(images.items()):
        side = 0 if size >= 256 else size  # 0 means 256
        entries += struct.pack("<BBBBHHII", side, side, 0, 0, 1, 32, len(png), offset)
        blobs += png
        offset += len(png)
    return header + entries + blobs


def main(argv: list[str]) -> int:
    QGuiApplication(sys.argv[:1])
    renderer = QSvgRenderer(str(SVG))
    if not renderer.isValid():
        raise SystemExit(f"cannot read {SVG}")
    if argv[:1] == ["--iconset"] and len(argv) == 2:
        iconset = Path(argv[1])
        iconset.mkdir(parents=True, exist_ok=True)
        for size in (16, 32, 128, 256, 512):
            (iconset / f"icon_{size}x{size}.png").write_bytes(render(renderer, size))
            (iconset / f"icon_{size}x{size}@2x.png").write_bytes(render(renderer, 2 * size))
        return 0
    (ROOT / "resources" / "icons" / "rabbithole.png").write_bytes(render(renderer, 256))
    (ROOT / "packaging" / "windows" / "rabbithole.ico").write_bytes(ico({s: render(renderer, s) for s in ICO_SIZES}))
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
