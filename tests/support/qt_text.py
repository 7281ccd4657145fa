"""Finding text and links in a QTextBrowser the way a user sees them, and clicking them."""

from __future__ import annotations

from collections.abc import Iterator

from PySide6.QtCore import QPoint
from PySide6.QtGui import QTextCursor, QTextFragment
from PySide6.QtWidgets import QTabWidget, QTextBrowser


def fragments(browser: QTextBrowser) -> Iterator[QTextFragment]:
    block = browser.document().begin()
    while block.isValid():
        it = block.begin()
        while not it.atEnd():
            yield it.fragment()
            it += 1
        block = block.next()


def anchors(browser: QTextBrowser) -> list[tuple[str, str]]:
    """(text, href) of each link; a link made of several formats (bold '[1]' + location) is one link."""
    out: list[tuple[str, str]] = []
    end = -1
    for f in fragments(browser):
        href = f.charFormat().anchorHref() if f.charFormat().isAnchor() else ""
        if href and out and out[-1][1] == href and f.position() == end:
            out[-1] = (out[-1][0] + f.text(), href)
        elif href:
            out.append((f.text(), href))
        end = f.position() + f.length()
    return out


def blocks(browser: QTextBrowser) -> list[str]:
    out, block = [], browser.document().begin()
    while block.isValid():
        out.append(block.text())
        block = block.next()
    return out


def anchor_point(browser: QTextBrowser, href: str) -> QPoint:
    """The middle of the first anchor with ``href``, in viewport coordinates (its tab shown, scrolled into view)."""
    tabs = browser.parentWidget()
    while tabs is not None and not isinstance(tabs, QTabWidget):
        tabs = tabs.parentWidget()
    if tabs is not None:
        tabs.setCurrentIndex(next(i for i in range(tabs.count()) if tabs.widget(i).isAncestorOf(browser) or tabs.widget(i) is browser))
    frag = next(f for f in fragments(browser) if f.charFormat().anchorHref() == href)
    cursor = QTextCursor(browser.document())
    cursor.setPosition(frag.position())
    browser.setTextCursor(cursor)
    browser.ensureCursorVisible()
    left = browser.cursorRect(cursor)
    cursor.setPosition(frag.position() + frag.length())
    right = browser.cursorRect(cursor)
    return QPoint((left.left() + right.left()) // 2, left.center().y())
