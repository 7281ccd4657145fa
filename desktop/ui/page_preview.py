"""A preview of the region of a page a quote stands in, for the review tab: rendered with PyMuPDF in a
thread of its own (a few milliseconds a region, but several per claim), handed back as a QImage."""

from __future__ import annotations

import logging
import threading
from pathlib import Path

import pymupdf
from PySide6.QtCore import QObject, Signal
from PySide6.QtGui import QImage

from desktop.report.model import Rect

log = logging.getLogger(__name__)
MARGIN = 24  # points of the page around the quote
DPI = 96


def render(path: Path, page: int, rects: list[Rect]) -> QImage | None:
    """The region around ``rects`` of 1-based ``page`` with the quote tinted, or None when the file or page
    cannot be read."""
    try:
        with pymupdf.open(path) as doc:
            p = doc[page - 1]
            box = pymupdf.Rect(min(r.x0 for r in rects), min(r.y0 for r in rects),
                               max(r.x1 for r in rects), max(r.y1 for r in rects))
            clip = (box + (-MARGIN, -MARGIN, MARGIN, MARGIN)) & p.rect
            for r in rects:  # the quote marked as in the viewer
                p.add_highlight_annot(pymupdf.Rect(r.x0, r.y0, r.x1, r.y1))
            pix = p.get_pixmap(clip=clip, dpi=DPI, annots=True)
            return QImage(pix.samples, pix.width, pix.height, pix.stride, QImage.Format.Format_RGB888).copy()
    except Exception:  # a moved or damaged file: no preview, the link to the page still says where
        log.warning("no preview of %s p. %s", path, page, exc_info=True)
        return None


class Previews(QObject):
    """Renders regions one request at a time; ``ready(key, image)`` arrives on the GUI thread."""

    ready = Signal(str, object)  # key, QImage

    def request(self, key: str, path: Path, page: int, rects: list[Rect]) -> None:
        if not rects:
            return

        def work() -> None:
            image = render(path, page, rects)
            if image is not None:
                try:
                    self.ready.emit(key, image)
                except RuntimeError:  # the panel is gone
                    pass

        threading.Thread(target=work, daemon=True, name="rabbithole-preview").start()
