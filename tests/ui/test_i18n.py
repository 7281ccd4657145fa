"""The German window: panels shown with the German translation installed, plural forms, German number
formats, the settings texts against the settings schema, and the translation file itself (complete, and
compiled into the .qm the app loads)."""

from __future__ import annotations

import xml.etree.ElementTree as ET
from collections.abc import Iterator
from datetime import UTC, datetime
from pathlib import Path
from typing import Any, Literal, get_args, get_origin

import pytest
from pydantic import BaseModel
from PySide6.QtCore import QCoreApplication, QLibraryInfo, QLocale, QTranslator
from PySide6.QtGui import QKeySequence
from PySide6.QtWidgets import QApplication, QComboBox, QGroupBox, QMessageBox, QPushButton

from desktop.bridge.kb_views import document_view, progress_view, report_view
from desktop.bridge.views import log_line, run_view, summary_view
from desktop.engine import events as ev
from desktop.engine.narrate import said
from desktop.engine.research_state import TaskRun
from desktop.engine.state import ClarifyRound, Pending, Plan, RetrievedChunk, RoundAnalysis, RunState, Todo
from desktop.engine.store import RunSummary
from desktop.kb.models import DocumentInfo, FileOutcome, IngestProgress, IngestReport
from desktop.kb.ingestion.notices import notice
from desktop.paths import resource_root
from desktop.settings import KbSettings, Settings
from desktop.ui import i18n, notice_texts, settings_texts
from desktop.ui.chat_panel import SEND_KEY, ChatPanel
from desktop.ui.history_dialog import RunHistoryDialog
from desktop.ui.kb_panel import KnowledgeBasePanel
from desktop.ui.progress_panel import ProgressPanel
from desktop.ui.settings_form import SettingsForm

TS = resource_root() / "resources" / "translations" / "rabbithole_de.ts"
NBSP = "\u00a0"  # German writes "45 %" with a space that does not break


@pytest.fixture
def german(qapp: QApplication) -> Iterator[None]:
    """The German translation for one test; English again afterwards, so other tests see English text."""
    locale = QLocale()
    assert i18n.install(qapp, "de") == "de"
    try:
        assert QCoreApplication.translate("KnowledgeBasePanel", "Add PDFs…") == "PDFs hinzufügen…", \
            "rabbithole_de.qm missing or stale: python scripts/update_translations.py --release"
        yield
    finally:
        i18n.install(qapp, "en")
        QLocale.setDefault(locale)


def _doc(warnings: int, pending: int = 0) -> DocumentInfo:
    return DocumentInfo(doc_id=str(warnings) * 64, file_name=f"d{warnings}.pdf", path=f"/d{warnings}.pdf", title="T",
                        language="de", pages=3, chunks=12, size_bytes=1, pending_embeddings=pending,
                        warnings=[notice("ocr_pages", count=2, pages="1, 2")] * warnings, ingested_at=datetime.now(UTC))


def _state() -> RunState:
    chunk = RetrievedChunk(chunk_id="c1", doc_id="d", doc="StrlSchG.pdf", page=52, section="§ 78",
                           text="Der Grenzwert beträgt 20 Millisievert.", query="q", round=1, rank=1)
    rnd = ClarifyRound(index=1, queries=["Grenzwert"], new_chunks=["c1"], duplicates=2,
                       analysis=RoundAnalysis(coverage=0.45, knowledge_gaps=["Beruflich?", "Öffentlich?"]),
                       questions=["Geht es um berufliche Exposition?"], answer="Beruflich")
    state = RunState(run_id="r1", question="Welche Grenzwerte gelten?", database="Sample", language="de",
                     status="waiting", pending=Pending(kind="answer", round=1))
    state.clarification.rounds = [rnd]
    state.clarification.chunks = {"c1": chunk}
    return state


# --- panels in German ------------------------------------------------------------------------------------


def test_kb_panel_in_german_with_plural_forms(qtbot: Any, german: None) -> None:
    panel = KnowledgeBasePanel()
    qtbot.addWidget(panel)
    buttons = {b.text() for b in panel.findChildren(QPushButton)}
    assert {"PDFs hinzufügen…", "Ordner hinzufügen…", "Letzter Importbericht…"} <= buttons
    panel.set_documents([document_view(d) for d in [_doc(1), _doc(2), _doc(0, pending=1234), _doc(0)]])
    status = [panel.model.data(panel.model.index(row, 2)) for row in range(4)]
    assert status == ["1 Warnung", "2 Warnungen", "1.234 noch einzubetten", "bereit"]

    panel.set_ingesting(True)
    panel.show_progress(progress_view(IngestProgress(stage="extract", files_done=1, files_total=1, pages_done=999,
                                                     pages_total=1500)))
    assert panel.progress_label.text().startswith("Einlesen: 1/1 Datei, 999/1.500 Seiten")
    panel.show_progress(progress_view(IngestProgress(stage="embed", embedded=1000, to_embed=2000, eta_s=75)))
    assert panel.progress_label.text() == "Einbetten: 1.000/2.000 Passagen (die Suche funktioniert bereits) · noch etwa 1:15"

    panel.show_report(report_view(IngestReport(database="Sample", files=[
        FileOutcome(path="/a.pdf", status="added"), FileOutcome(path="/b.pdf", status="added"),
        FileOutcome(path="/c.pdf", status="duplicate"),
        FileOutcome(path="/d.txt", status="rejected", reason=notice("not_pdf")),
        FileOutcome(path="/e.pdf", status="added", pages=1200, chunks=3, warnings=[
            notice("scanned_ocr_off", count=1200, pages="1, 2, …"), notice("text", text="a sentence of old")])])))
    assert panel.progress_label.text() == "3 hinzugefügt, 1 Duplikat, 1 abgelehnt"
    reports = [w for w in QApplication.topLevelWidgets() if isinstance(w, QMessageBox) and w.windowTitle() == "Importbericht"]
    text = reports[-1].text() if reports else ""
    assert "abgelehnt: d.txt — keine PDF-Datei (kein PDF-Kopf); nur PDF-Dateien können hinzugefügt werden" in text
    assert "Duplikat: c.pdf" in text
    assert "1.200 Seite(n) ohne Textebene (S. 1, 2, …): OCR ist in den Einstellungen ausgeschaltet" in text
    assert "    a sentence of old" in text  # stored by an older version: shown as it was written
    for box in reports:
        box.close()


def test_chat_panel_in_german(qtbot: Any, german: None) -> None:
    chat = ChatPanel()
    qtbot.addWidget(chat)
    key = SEND_KEY.toString(QKeySequence.SequenceFormat.NativeText)
    assert chat.send.toolTip() == key
    qt_de = Path(QLibraryInfo.path(QLibraryInfo.LibraryPath.TranslationsPath)) / "qtbase_de.qm"
    if qt_de.exists():  # Qt's own translation names the keys
        assert "Strg" in key
    chat.show_state(run_view(_state()))
    assert chat.send.text() == "Antwort senden" and chat.input.placeholderText() == f"Ihre Antwort… ({key})"
    assert chat.round_label.text() == "Runde 1/5 · 1 neue Passage, 2 bereits bekannt · 2 Lücken"
    text = chat.transcript.toPlainText()
    assert "Sie: Welche Grenzwerte gelten?" in text and "Sie: Beruflich" in text
    assert "1 neue Passage, 2 bereits bekannt; Abdeckung 45 %" in text  # (toPlainText makes the NBSP a space)
    assert chat.chunks.topLevelItem(0).text(0) == "Runde 1: 1 neu, 2 bereits bekannt"
    assert chat.coverage.text() == f"Abdeckung 45{NBSP}%"
    chat.coverage.setValue(100)  # the longest text fits the bar, as shown (was cut to "Abdeckung 4")
    chat.resize(500, 600)
    chat.show()
    qtbot.waitExposed(chat)
    assert chat.coverage.width() >= chat.coverage.fontMetrics().horizontalAdvance(chat.coverage.text()) + 16
    progress = ProgressPanel()
    qtbot.addWidget(progress)
    chat.message_of = progress.run_message  # as the window wires it
    done = _state().model_copy(update={"status": "done", "pending": None, "message": "The report is ready.",
                                       "message_key": "run_done"})
    chat.show_state(run_view(done))
    assert "Der Bericht ist fertig." in chat.transcript.toPlainText() and "ready" not in chat.transcript.toPlainText()


def test_progress_panel_and_history_in_german(qtbot: Any, german: None) -> None:
    panel = ProgressPanel()
    qtbot.addWidget(panel)
    state = _state().model_copy(update={"status": "running", "phase": "research", "pending": None,
                                        "plan": Plan(items=[Todo(id=0, task="Frage"), Todo(id=1, task="§ 78 prüfen")])})
    state.later.research.tasks = [TaskRun(task_id=1, status="running", extracted=3, followed=1)]
    state.usage.prompt_tokens, state.usage.completion_tokens = 12000, 345
    panel.show_state(run_view(state))
    assert panel.tasks.item(1).text().endswith("§ 78 prüfen — 3 gelesen, 1 Verweis")
    assert panel.stats.text().startswith(f"{QLocale().toString(state.usage.total_tokens)} Tokens · ")
    assert panel.stats.text().startswith("12.345 Tokens")
    for event in (ev.TaskStarted(task_id=1, task="§ 78 prüfen", chunks=1200),
                  ev.CoverageUpdated(round=1, coverage=0.45, gaps=["a", "b"]),
                  ev.ClarificationEnded(reason="user_end", summary="S", research_queries=["Grenzwert", "§ 78"]),
                  ev.TaskDone(task_id=1, status="skipped", findings=0, summary=None),
                  said(ev.Warning, "warn_drift", {"filtered": 3, "total": 4, "share": 0.75}),
                  said(ev.RunStopped, "run_cancelled", {}, status="cancelled")):
        line = log_line(event)
        assert line is not None
        panel.add_line(line)
    log = panel.log.toPlainText()
    assert "Aufgabe 1: § 78 prüfen (1.200 Passagen zu lesen)" in log
    assert f"Abdeckung 45{NBSP}%, 2 Lücke(n)" in log.replace(" %", f"{NBSP}%")
    assert "Klärung beendet (von Ihnen beendet); Suchanfragen der Recherche: Grenzwert | § 78" in log
    assert "Aufgabe 1 übersprungen: 0 Befund(e)" in log
    assert "Warnung: 3 von 4 Befunden (75 %) wichen von der Frage ab" in log.replace(NBSP, " ")
    assert "Abgebrochen; setzen Sie die Recherche fort, um hier weiterzumachen." in log
    assert "drifted" not in log and "Cancelled" not in log

    runs = [RunSummary(run_id="a", question="Q", database="Sample", status="waiting", phase="clarify",
                       created_at="2026-11-22T10:00:00", updated_at="2026-11-22T10:30:00"),
            RunSummary(run_id="b", question="Q", database="Sample", status="done", phase="report",
                       created_at="2026-11-22T10:00:00", updated_at="2026-11-22T10:30:00")]
    dialog = RunHistoryDialog([summary_view(r) for r in runs])
    qtbot.addWidget(dialog)
    shown = [[dialog.table.item(row, col).text() for col in (2, 3)] for row in range(2)]
    assert shown == [["Wartet auf Sie", "Klärung"], ["Abgeschlossen", "Bericht"]]


def test_settings_form_in_german(qtbot: Any, german: None) -> None:
    form = SettingsForm(KbSettings)
    qtbot.addWidget(form)
    assert form.label("fusion").text() == "Fusion"
    assert form.label("chunking.min_words").text() == "Min. Wortzahl"
    assert form.editor("chunking.min_words").toolTip() == \
        "Kleinere Stücke werden mit ihrem Nachbarn auf derselben Seite zusammengefasst."
    assert "Aufteilung in Passagen" in {box.title() for box in form.findChildren(QGroupBox)}
    fusion = form.editor("fusion")
    assert isinstance(fusion, QComboBox)
    assert [fusion.itemText(i) for i in range(fusion.count())] == ["Z-Score", "Reciprocal Rank Fusion (RRF)"]
    assert [fusion.itemData(i) for i in range(fusion.count())] == ["zscore", "rrf"]  # the values stay
    folders = SettingsForm(Settings, exclude={"schema_version", "llm", "kb", "research", "ui"})
    qtbot.addWidget(folders)
    assert folders.label("data_dir").text() == "Datenordner"
    assert "Durchsuchen…" in {b.text() for b in folders.findChildren(QPushButton)}


def test_english_is_back_after_german(qtbot: Any) -> None:
    """Runs after the German tests in this file: the fixture put English back."""
    panel = KnowledgeBasePanel()
    qtbot.addWidget(panel)
    assert "Add PDFs…" in {b.text() for b in panel.findChildren(QPushButton)}


# --- the settings texts against the schema ----------------------------------------------------------------


def _paths(model: type[BaseModel], prefix: str = "") -> Iterator[tuple[str, Any]]:
    for name, info in model.model_fields.items():
        if name == "schema_version":  # bookkeeping of the file, no setting
            continue
        yield f"{prefix}{name}", info
        if isinstance(info.annotation, type) and issubclass(info.annotation, BaseModel):
            yield from _paths(info.annotation, f"{prefix}{name}.")


def test_settings_texts_cover_every_field_with_its_description() -> None:
    """A field added, renamed or re-described in desktop/settings.py must be listed in settings_texts too."""
    fields = dict(_paths(Settings))
    assert set(settings_texts.FIELDS) == set(fields)  # no field without texts, no texts without a field
    for path, info in fields.items():
        label, description = settings_texts.FIELDS[path]
        assert label.strip(), path
        assert description == (info.description or ""), path
    literals = {path: get_args(info.annotation) for path, info in fields.items() if get_origin(info.annotation) is Literal}
    assert set(settings_texts.CHOICES) == set(literals)
    for path, values in literals.items():
        assert set(settings_texts.CHOICES[path]) == {str(v) for v in values}, path
        assert all(name.strip() for name in settings_texts.CHOICES[path].values()), path


# --- the translation file ----------------------------------------------------------------------------------


def _messages() -> Iterator[tuple[str, ET.Element]]:
    for context in ET.parse(TS).getroot().iter("context"):
        for message in context.iter("message"):
            yield context.findtext("name") or "", message


def test_translation_file_is_complete_and_compiled(qapp: QApplication) -> None:
    """Every message translated (plurals with both German forms), the settings texts among them, and the
    .qm compiled from this very .ts (run scripts/update_translations.py --release after editing)."""
    translator = QTranslator()
    assert translator.load(str(TS.with_suffix(".qm")))
    sources: dict[str, set[str]] = {}
    for context, message in _messages():
        source = message.findtext("source") or ""
        sources.setdefault(context, set()).add(source)
        translation = message.find("translation")
        assert translation is not None and translation.get("type") is None, (context, source)
        comment = message.findtext("comment")
        if message.get("numerus") == "yes":
            forms = [f.text or "" for f in translation.iter("numerusform")]
            assert len(forms) == 2 and all(forms), (context, source)
            assert [translator.translate(context, source, comment, n) for n in (1, 2)] == \
                forms, (context, source)
        else:
            assert translation.text, (context, source)
            assert translator.translate(context, source, comment) == translation.text, (context, source)
    texts = {t for label, description in settings_texts.FIELDS.values() for t in (label, description) if t}
    texts |= {name for names in settings_texts.CHOICES.values() for name in names.values()} - {"Deutsch", "English"}
    assert texts <= sources[settings_texts.CONTEXT]
    notices = {t for key, t in notice_texts.TEMPLATES.items() if key != "text"}
    assert notices <= sources[notice_texts.CONTEXT]


def test_the_window_has_words_for_every_notice_of_the_knowledge_base() -> None:
    """Each reason or warning the knowledge base gives a file has a template in the window, with the same
    values, so none reaches a German window as an English sentence."""
    import string

    from desktop.kb.ingestion.notices import ENGLISH

    assert set(notice_texts.TEMPLATES) == set(ENGLISH)
    names = lambda t: {f[1] for f in string.Formatter().parse(t) if f[1]}  # noqa: E731
    assert {k: names(t) for k, t in notice_texts.TEMPLATES.items()} == {k: names(t) for k, t in ENGLISH.items()}


def test_a_citation_copies_in_german(german: None) -> None:
    from desktop.ui.cite_text import cited, place

    assert cited("Der Grenzwert  beträgt\n20 Millisievert", [place("StrlSchG.pdf", 52, "§ 77")]) == \
        "„Der Grenzwert beträgt 20 Millisievert“ (StrlSchG § 77, S. 52)"
