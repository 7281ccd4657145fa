"""Help → User guide: both guides exist and are shown in their language, every label the guide sets in
bold is a real label of the window in that language, links within the guide reach their heading and
links out of it open nothing, and a missing guide is said, not crashed on."""

from __future__ import annotations

import ast
import re
import xml.etree.ElementTree as ET
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from PySide6.QtCore import Qt, QUrl

from desktop.paths import resource_root
from desktop.report.labels import LABELS
from desktop.ui import guide_dialog
from desktop.ui.guide_dialog import GuideDialog

ROOT = resource_root()
GUIDES = {lang: ROOT / "resources" / "guide" / f"guide_{lang}.md" for lang in ("de", "en")}
TITLES = {"de": "Rabbithole-Benutzerhandbuch", "en": "Rabbithole user guide"}
TS = ROOT / "resources" / "translations" / "rabbithole_de.ts"

# Labels a first research cannot do without: (translation context, English source). The English guide
# must name each as the source says it, the German guide as the German translation says it.
KEY_LABELS = [
    ("MainWindow", "Add PDFs…"), ("MainWindow", "Add folder…"), ("KnowledgeBasePanel", "Last ingestion report…"),
    ("MainWindow", "Knowledge base"), ("MainWindow", "Preferences…"), ("MainWindow", "Check LLM connection"),
    ("SettingsTexts", "Server URL"), ("SettingsTexts", "Model"), ("SettingsTexts", "OpenAI-compatible"),
    ("MainWindow", "1 Clarify"), ("MainWindow", "2 Plan"), ("MainWindow", "3 Research"), ("MainWindow", "4 Report"),
    ("ChatPanel", "Start research"), ("ChatPanel", "Send answer"), ("ChatPanel", "End clarification"),
    ("PlanEditor", "Re-plan…"), ("PlanEditor", "Approve plan and start research"),
    ("ProgressPanel", "Skip task"), ("ProgressPanel", "Stop"), ("ProgressPanel", "Resume"), ("MainWindow", "Stop run"),
    ("ReportView", "Findings"), ("ReportView", "Filtered"), ("ReportView", "Export all"),
    ("PdfViewer", "Fit width"), ("PdfSearch", "No matches"),
    ("MainWindow", "Export report…"), ("MainWindow", "History…"), ("RunHistoryDialog", "Research history"),
    ("MainWindow", "Language"), ("MainWindow", "System language"), ("MainWindow", "About Rabbithole"),
    ("SettingsTexts", "Time budget (s)"), ("MainWindow", "LLM: not ready"),
]


def _text(lang: str) -> str:
    return GUIDES[lang].read_text(encoding="utf-8")


def _bold(text: str) -> list[str]:
    return re.findall(r"\*\*(.+?)\*\*", text)


def _ui_sources() -> set[str]:
    """Every string literal of desktop/ui (the window's English texts), menu mnemonics (&) dropped."""
    found: set[str] = set()
    for file in (ROOT / "desktop" / "ui").glob("*.py"):
        for node in ast.walk(ast.parse(file.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Constant) and isinstance(node.value, str):
                found.add(node.value.replace("&", ""))
    return found


def _german() -> dict[tuple[str, str], str]:
    """(context, English source) → German translation, as rabbithole_de.ts has it (& dropped)."""
    out = {}
    for context in ET.parse(TS).getroot().iter("context"):
        name = context.findtext("name")
        for message in context.iter("message"):
            translation = message.find("translation")
            text = translation.text if translation.text and translation.text.strip() else \
                " | ".join(n.text or "" for n in translation.iter("numerusform"))
            out[(name, message.findtext("source"))] = text.replace("&", "")
    return out


def _links(dialog: GuideDialog) -> list[str]:
    """The link targets in the shown guide, as the browser hands them to anchorClicked."""
    hrefs, block = [], dialog.browser.document().begin()
    while block.isValid():
        for fragment in (it.fragment() for it in _fragments(block)):
            if fragment.charFormat().anchorHref():
                hrefs.append(fragment.charFormat().anchorHref())
        block = block.next()
    return hrefs


def _fragments(block: Any) -> Iterator[Any]:
    it = block.begin()
    while not it.atEnd():
        yield it
        it += 1


# --- the dialog ---------------------------------------------------------------------------------


@pytest.mark.parametrize(("language", "shown"), [("de", "de"), ("en", "en"), ("system", "en"), ("fr", "en")])
def test_the_dialog_shows_the_guide_in_its_language(qtbot: Any, language: str, shown: str) -> None:
    assert all(path.is_file() for path in GUIDES.values())
    dialog = GuideDialog(language)
    qtbot.addWidget(dialog)
    text = dialog.browser.toPlainText()
    assert text.startswith(TITLES[shown])
    assert TITLES["de" if shown == "en" else "en"] not in text
    assert ("Wissensdatenbank" in text) == (shown == "de")
    assert dialog.windowTitle() == "User guide"
    assert not dialog.isModal()
    assert dialog.contents.count() >= 15  # a table of contents of the steps
    assert (dialog.width(), dialog.height()) == (760, 820)


def test_the_guides_tell_the_same_steps() -> None:
    headings = {lang: re.findall(r"^##+ ", _text(lang), re.MULTILINE) for lang in GUIDES}
    assert headings["de"] == headings["en"]
    assert 150 <= len(_text("en").splitlines()) <= 290  # about five printed pages: a guide, not a manual


def test_contents_and_links_within_the_guide_go_to_their_heading(qtbot: Any) -> None:
    for lang in GUIDES:
        dialog = GuideDialog(lang)
        qtbot.addWidget(dialog)
        dialog.show()
        qtbot.waitExposed(dialog)
        bar = dialog.browser.verticalScrollBar()
        last = dialog.contents.item(dialog.contents.count() - 1)
        qtbot.mouseClick(dialog.contents.viewport(), Qt.MouseButton.LeftButton,
                         pos=dialog.contents.visualItemRect(last).center())
        qtbot.waitUntil(lambda: bar.value() > 0)
        far = bar.value()
        dialog.browser.anchorClicked.emit(QUrl("#1-" + ("what-rabbithole-does" if lang == "en"
                                                         else "was-rabbithole-macht")))
        assert 0 < bar.value() < far / 4  # the first step, below the title and the introduction
        internal = _links(dialog)
        assert len(internal) == len(re.findall(r"\]\(#", _text(lang))) >= 3
        for href in internal:  # every link the guide makes reaches its heading, below the introduction
            bar.setValue(0)
            dialog.browser.anchorClicked.emit(QUrl(href))
            assert bar.value() > 0, href
            assert QUrl(href).fragment() in dialog.anchors
        end = bar.value()
        dialog.browser.anchorClicked.emit(QUrl("https://ollama.com"))  # offline: nothing opens, nothing moves
        assert bar.value() == end
        assert dialog.browser.source().isEmpty()


def test_the_guide_is_read_only_and_unchanged_by_its_anchors(qtbot: Any) -> None:
    dialog = GuideDialog("en")
    qtbot.addWidget(dialog)
    assert dialog.browser.isReadOnly()
    assert not dialog.browser.document().isModified()
    assert dialog.browser.textCursor().position() == 0  # opens at the top


# --- what the guide names ---------------------------------------------------------------------------


def test_every_bold_label_of_the_english_guide_is_in_the_window() -> None:
    known = _ui_sources() | set(LABELS["en"].values())
    assert sorted(set(_bold(_text("en"))) - known) == []


def test_every_bold_label_of_the_german_guide_is_in_the_german_window() -> None:
    sources = _ui_sources()
    known = set(_german().values()) | set(LABELS["de"].values()) | ({"Deutsch", "English"} & sources)
    assert sorted(set(_bold(_text("de"))) - known) == []


def test_the_key_labels_are_named_as_the_window_shows_them_in_each_language() -> None:
    sources, german = _ui_sources(), _german()
    en, de = _bold(_text("en")), _bold(_text("de"))
    for context, source in KEY_LABELS:
        assert source in sources, source
        assert source in en, f"English guide lacks **{source}**"
        assert german[(context, source)] in de, f"German guide lacks **{german[(context, source)]}**"


def test_the_german_guide_uses_the_windows_terms() -> None:
    text = _text("de")
    assert "Wissensdatenbank" in text and "Passage" in text
    assert "Wissensbasis" not in text and "Chunk" not in text


def test_the_installer_bundles_the_guide() -> None:
    spec = (ROOT / "packaging" / "rabbithole.spec").read_text(encoding="utf-8")
    assert '(str(ROOT / "resources" / "guide"), "resources/guide")' in spec


# --- a missing guide --------------------------------------------------------------------------------


def test_a_missing_guide_is_named_not_crashed_on(qtbot: Any, monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.setattr(guide_dialog, "resource_root", lambda: tmp_path)
    dialog = GuideDialog("de")
    qtbot.addWidget(dialog)
    missing = tmp_path / "resources" / "guide" / "guide_de.md"
    assert str(missing) in dialog.browser.toPlainText()
    assert dialog.contents.isHidden()
    assert not dialog.go_to("1-was-rabbithole-macht")
