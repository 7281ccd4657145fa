"""Help → User guide: the offline guide (``resources/guide/guide_<language>.md``) in a text browser,
with its headings as a table of contents beside it. A link to a heading (``[…](#exporting)``) scrolls
there; any other link opens nothing: the guide, like the app, never goes online."""

from __future__ import annotations

import re
from pathlib import Path

from PySide6.QtCore import Qt, QUrl
from PySide6.QtGui import QTextCharFormat, QTextCursor
from PySide6.QtWidgets import (
    QDialog,
    QDialogButtonBox,
    QListWidget,
    QListWidgetItem,
    QSplitter,
    QTextBrowser,
    QVBoxLayout,
    QWidget,
)

from desktop.paths import resource_root

LANGUAGES = ("de", "en")


def guide_language(language: str) -> str:
    """"de" or "en"; any other code gets the English guide."""
    return language if language in LANGUAGES else "en"


def guide_path(language: str) -> Path:
    return resource_root() / "resources" / "guide" / f"guide_{guide_language(language)}.md"


def slug(heading: str) -> str:
    """A heading's anchor as GitHub writes it: lower case, punctuation dropped, spaces as hyphens
    ("3. Adding PDFs" → "3-adding-pdfs"), umlauts kept."""
    return re.sub(r"\s", "-", re.sub(r"[^\w\s-]", "", heading.strip().lower()))


class GuideDialog(QDialog):
    """Not modal: open it with ``show()`` and keep working in the window beside it."""

    def __init__(self, language: str, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.language = guide_language(language)
        self.path = guide_path(self.language)
        self.setWindowTitle(self.tr("User guide"))
        self.setModal(False)
        self.resize(760, 820)
        self.browser = QTextBrowser()
        self.browser.setOpenLinks(False)  # links are ours to follow: headings only, nothing outside
        self.browser.setOpenExternalLinks(False)
        self.browser.anchorClicked.connect(self._follow)
        self.contents = QListWidget()
        self.contents.setObjectName("guide-contents")
        self.contents.setWordWrap(True)  # long headings wrap rather than hide behind a scroll bar
        self.contents.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        self.contents.itemActivated.connect(self._go_to_item)
        self.contents.itemClicked.connect(self._go_to_item)
        split = QSplitter(Qt.Orientation.Horizontal)
        split.addWidget(self.contents)
        split.addWidget(self.browser)
        split.setStretchFactor(1, 1)
        split.setSizes([200, 560])
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Close)
        buttons.rejected.connect(self.close)
        layout = QVBoxLayout(self)
        layout.addWidget(split, 1)
        layout.addWidget(buttons)
        self.anchors: dict[str, int] = {}  # anchor name → block number of its heading
        self._load()

    # --- content --------------------------------------------------------------------------------

    def _load(self) -> None:
        try:
            text = self.path.read_text(encoding="utf-8")
        except OSError as exc:
            self.browser.setPlainText(self.tr("The user guide could not be found: {path}\n({error})\n\n"
                                              "Reinstall Rabbithole to get it back.")
                                      .format(path=self.path, error=exc.strerror or exc))
            self.contents.hide()
            return
        self.browser.setMarkdown(text)
        self._mark_headings()
        self.contents.setVisible(self.contents.count() > 0)

    def _mark_headings(self) -> None:
        """Give every heading its anchor name (so ``scrollToAnchor`` finds it) and list levels 2 and 3."""
        block = self.browser.document().begin()
        while block.isValid():
            level = block.blockFormat().headingLevel()
            title = block.text().strip()
            if level and title:
                name = slug(title)
                self.anchors.setdefault(name, block.blockNumber())
                cursor = QTextCursor(block)
                cursor.movePosition(QTextCursor.MoveOperation.EndOfBlock, QTextCursor.MoveMode.KeepAnchor)
                anchor = QTextCharFormat()
                anchor.setAnchor(True)
                anchor.setAnchorNames([name])
                cursor.mergeCharFormat(anchor)
                if level in (2, 3):
                    item = QListWidgetItem(("    " if level == 3 else "") + title)
                    item.setData(Qt.ItemDataRole.UserRole, name)
                    self.contents.addItem(item)
            block = block.next()
        self.browser.document().setModified(False)
        self.browser.moveCursor(QTextCursor.MoveOperation.Start)

    # --- navigation -----------------------------------------------------------------------------

    def go_to(self, name: str) -> bool:
        """Scroll to the heading with this anchor; False when the guide has none."""
        if name not in self.anchors:
            return False
        self.browser.scrollToAnchor(name)
        return True

    def _go_to_item(self, item: QListWidgetItem) -> None:
        self.go_to(item.data(Qt.ItemDataRole.UserRole))

    def _follow(self, url: QUrl) -> None:
        """Only links within the guide are followed; web addresses and files open nothing (offline)."""
        if url.hasFragment() and not url.scheme() and not url.path():
            self.go_to(url.fragment())
