"""The main window: knowledge base on the left, the research (clarify, plan, progress, report) in the
middle, the PDF viewer on the right; menus, shortcuts and the status bar. All work goes through the
bridge; the window only shows state and forwards commands."""

from __future__ import annotations

import time
from pathlib import Path

from PySide6.QtCore import Qt, QTimer, Signal
from PySide6.QtGui import QAction, QActionGroup, QKeySequence, QShowEvent
from PySide6.QtWidgets import (
    QApplication,
    QDockWidget,
    QLabel,
    QMainWindow,
    QMessageBox,
    QTabWidget,
    QVBoxLayout,
    QWidget,
)

from desktop import __version__
from desktop.bridge.bridge import EngineBridge
from desktop.bridge.kb_views import DocumentView, HealthView, IngestProgressView
from desktop.bridge.views import EstimateView, LogLine, RunSummaryView, RunView
from desktop.report.model import Citation
from desktop.settings import Settings
from desktop.ui import i18n
from desktop.ui.banner import Banner
from desktop.ui.chat_panel import ChatPanel
from desktop.ui.export_target import ask_export_target
from desktop.ui.guide_dialog import GuideDialog
from desktop.ui.history_dialog import RunHistoryDialog
from desktop.ui.icons import icon
from desktop.ui.kb_panel import KnowledgeBasePanel
from desktop.ui.pdf_pane import PdfPane
from desktop.ui.pdf_viewer import PdfViewer
from desktop.ui.plan_editor import PlanEditor
from desktop.ui.progress_panel import STOP_KEY, ProgressPanel
from desktop.ui.report_view import ACCEPTED_ONLY, ReportView
from desktop.ui.settings_dialog import SettingsDialog
from desktop.ui.theme import apply_theme
from desktop.ui.window_layout import fit_to_screen, size_docks

_HEALTH_INTERVAL_MS = 60_000
_HEALTH_RETRY_MS = 4_000  # while the LLM does not answer: its return is noticed within seconds
_BACKLOG_EVERY_S = 10.0  # how often an ingestion's embedding backlog is asked for while it goes down


class MainWindow(QMainWindow):
    closing = Signal()  # before the window closes: what it shows can still be read
    languageRequested = Signal(str)  # "system", "de" or "en": the app rebuilds the window in that language

    def __init__(self, bridge: EngineBridge) -> None:
        super().__init__()
        self.bridge = bridge
        self.state: RunView | None = None
        self.busy_now: set[str] = set()  # what the bridge said is running
        self.llm_ready = True  # until the first health check says otherwise: nothing is blocked on a guess
        self._export_folder: Path | None = None  # where the last export went
        self._ingesting_into: str | None = None
        self._backlog_asked = 0.0  # when the embedding backlog was last asked for during an ingestion
        self.setWindowTitle("Rabbithole")
        fit_to_screen(self, 1400, 880)
        self.kb = KnowledgeBasePanel()
        self.chat = ChatPanel()
        self.plan = PlanEditor()
        self.progress = ProgressPanel()
        self.chat.message_of = self.progress.run_message  # a run's message in the log's words
        self.report = ReportView()
        self.viewer = PdfViewer()
        self.banner = QLabel()
        self.banner.setWordWrap(True)
        self.banner.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.banner.setStyleSheet("background: #fef3c7; color: #78350f; padding: 8px; border-radius: 4px;")
        self.banner.hide()
        self.tabs = QTabWidget()
        for widget, title in ((self.chat, self.tr("1 Clarify")), (self.plan, self.tr("2 Plan")),
                              (self.progress, self.tr("3 Research")), (self.report, self.tr("4 Report"))):
            self.tabs.addTab(widget, title)
        center = QWidget()
        layout = QVBoxLayout(center)
        layout.addWidget(self.banner)
        self.error_banner = Banner()  # errors said in the window, not in a box that stops the user
        layout.addWidget(self.error_banner)
        layout.addWidget(self.tabs, 1)
        self.setCentralWidget(center)
        self.kb_dock = self._dock(self.kb, self.tr("Knowledge base"), Qt.DockWidgetArea.LeftDockWidgetArea, "kb")
        self.viewer_dock = self._dock(self.viewer, self.tr("PDF"), Qt.DockWidgetArea.RightDockWidgetArea, "pdf")
        self.pdf = PdfPane(self.viewer, self.viewer_dock, bridge, self.kb)
        self.default_docks = True  # False once a remembered or handed-over layout replaced the docks' sizes
        self._size_docks()
        self.guide: GuideDialog | None = None  # Help → User guide, made on first use
        self.llm_status, self.kb_status = QLabel(), QLabel()
        self.statusBar().addPermanentWidget(self.kb_status)
        self.statusBar().addPermanentWidget(self.llm_status)
        self._menus()
        self._connect()
        self.kb.set_databases(bridge.databases(), select=bridge.sample_database)
        if bridge.on_server:
            bridge.refresh_databases()
        self.health = QTimer(self, interval=_HEALTH_INTERVAL_MS, timeout=bridge.check_llm)
        self.health.start()
        bridge.check_llm()

    def _size_docks(self) -> None:
        size_docks(self, self.kb_dock, self.viewer_dock, self.kb)

    def showEvent(self, event: QShowEvent) -> None:  # noqa: N802
        # Set before the first paint too, but the docks take their final sizes from the layout of the
        # shown window: once more then (one extra layout pass at the first start).
        super().showEvent(event)
        if self.default_docks:
            self.default_docks = False
            QTimer.singleShot(0, self, self._size_docks)  # not after the window is gone

    def prepare_first_start(self) -> bool:
        """On a first start, build the sample database from the bundled laws (and their shipped
        vectors, so nothing is embedded); True when that started."""
        if not self.bridge.wants_sample():
            return False
        self.kb.set_ingesting(True)
        self.bridge.ingest(self.bridge.sample_database, [])
        return True

    def _dock(self, widget: QWidget, title: str, area: Qt.DockWidgetArea, name: str) -> QDockWidget:
        dock = QDockWidget(title, self)
        dock.setObjectName(name)
        dock.setWidget(widget)
        self.addDockWidget(area, dock)
        return dock

    # --- wiring -----------------------------------------------------------------------------------

    def _connect(self) -> None:
        b, kb = self.bridge, self.kb
        # The bridge outlives this window (a language switch builds a new one): what it tells the window
        # is connected here and cut in closeEvent, or a closed window's panels would still be called.
        self._bridge_links = [
            (b.runChanged, self.show_run), (b.logLine, self.progress.add_line), (b.runLog, self._show_log),
            (b.phaseStarted, self.progress.phase_started), (b.tokensUsed, self.progress.set_tokens),
            (b.draftText, self.progress.add_draft), (b.estimateReady, self._estimate), (b.error, self._error),
            (b.busy, self.show_busy), (b.llmHealth, self._health), (b.ingestProgress, self._ingest_progress),
            (b.ingestFinished, kb.show_report), (b.documentsChanged, self._documents),
            (b.databasesChanged, kb.set_databases), (b.backlogChanged, kb.set_backlog),
        ]
        for signal, slot in self._bridge_links:
            signal.connect(slot)
        kb.databaseSelected.connect(b.load_documents)
        kb.createRequested.connect(lambda name: b.create_database(name))
        kb.deleteRequested.connect(b.delete_database)
        kb.ingestRequested.connect(self._ingest)
        kb.cancelRequested.connect(b.cancel_ingest)
        kb.removeRequested.connect(b.remove_document)
        kb.metaRequested.connect(b.set_meta)
        kb.openRequested.connect(self.pdf.open_document)
        self.chat.startRequested.connect(self._start)
        self.chat.answerSubmitted.connect(lambda text, end: self._run_command(b.answer, text or None, end))
        self.plan.addRequested.connect(lambda task: self._run_command(b.add_todo, task))
        self.plan.removeRequested.connect(lambda i: self._run_command(b.remove_todo, i))
        self.plan.moveRequested.connect(lambda i, pos: self._run_command(b.move_todo, i, pos))
        self.plan.editRequested.connect(lambda i, task: self._run_command(b.edit_todo, i, task))
        self.plan.replanRequested.connect(lambda fb: self._run_command(b.replan, fb))
        self.plan.approveRequested.connect(self._approve)
        self.progress.skipRequested.connect(lambda i: self._run_command(b.skip_task, i))
        self.progress.cancelRequested.connect(self._cancel)
        self.progress.resumeRequested.connect(lambda: self._run_command(b.resume))
        self.report.citationActivated.connect(self.open_citation)
        self.chat.chunkOpened.connect(self.pdf.open_chunk)
        self.report.exportRequested.connect(self._export)
        self.report.reviewRequested.connect(self._review)
        self.pdf.error.connect(self._error)

    def _action(self, menu, text: str, slot, shortcut: str | QKeySequence.StandardKey | None = None,  # noqa: ANN001
                meaning: str | None = None) -> QAction:
        action = QAction(icon(meaning), text, self) if meaning else QAction(text, self)
        if shortcut is not None:
            action.setShortcut(QKeySequence(shortcut))
        action.triggered.connect(slot)
        menu.addAction(action)
        return action

    def _menus(self) -> None:
        bar = self.menuBar()
        file = bar.addMenu(self.tr("&File"))
        self._action(file, self.tr("Add PDFs…"), self.kb.add_files, "Ctrl+O", "add_file")
        self._action(file, self.tr("Add folder…"), self.kb.add_folder, "Ctrl+Shift+O", "add_folder")
        self._action(file, self.tr("Export report…"), lambda: self._export("all"), "Ctrl+E", "export")
        file.addSeparator()
        self._action(file, self.tr("Quit"), self.close, QKeySequence.StandardKey.Quit, "quit")
        research = bar.addMenu(self.tr("&Research"))
        self._action(research, self.tr("New question"), self._new_question, "Ctrl+N", "question")
        self._action(research, self.tr("History…"), self._history, "Ctrl+H", "history")
        self._action(research, self.tr("Stop run"), self._cancel, STOP_KEY, "stop")
        view = bar.addMenu(self.tr("&View"))
        view.addAction(self.kb_dock.toggleViewAction())  # a closed panel comes back from here
        view.addAction(self.viewer_dock.toggleViewAction())
        language = view.addMenu(self.tr("Language"))
        self.language_group = QActionGroup(self)  # one checked: the window's current choice
        for code, name in (("system", self.tr("System language")), ("en", "English"), ("de", "Deutsch")):
            action = self._action(language, name, lambda _=False, c=code: self._choose_language(c))
            action.setCheckable(True)
            action.setChecked(code == self.bridge.settings.ui.language)
            action.setData(code)
            self.language_group.addAction(action)
        settings = bar.addMenu(self.tr("&Settings"))
        self._action(settings, self.tr("Preferences…"), self._settings, "Ctrl+,", "settings")
        self._action(settings, self.tr("Check LLM connection"), self.bridge.check_llm, meaning="connection")
        help_menu = bar.addMenu(self.tr("&Help"))
        self._action(help_menu, self.tr("User guide"), self._guide, "F1", "guide")
        help_menu.addSeparator()
        self._action(help_menu, self.tr("About Rabbithole"), self._about, meaning="about")

    # --- run state ------------------------------------------------------------------------------

    def show_run(self, state: RunView) -> None:
        self.state = state
        self.bridge.current_run = state.run_id
        waiting = state.waiting_for
        self.chat.show_state(state)
        self.plan.set_plan(state.plan, editable=waiting == "approve_plan")
        self.progress.show_state(state)
        if state.report is not None:
            self.report.show_report(state.report)
        target = {"answer": self.chat, "approve_plan": self.plan}.get(waiting or "")
        if target is None:
            target = self.report if state.report else (self.progress if state.phase not in ("clarify",) else self.chat)
        self.tabs.setCurrentWidget(target)
        self._say_run_state(state)

    def _say_run_state(self, state: RunView, server_back: bool = False) -> None:
        """The banner says what stopped the shown run, and goes once its cause does: the run went on, or
        another run is shown. A paused run offers Resume in place."""
        message = self.progress.run_message(state) or state.message or ""
        if state.status == "failed" and message:
            self.error_banner.say(message, owner=state.run_id)
        elif state.status == "paused":
            if self.llm_ready and not server_back:
                self.bridge.check_llm()  # the run found the server gone: look again now, and then every few seconds
            text = self.tr("The LLM server answers again: resume the run to go on.") if server_back else message
            self.error_banner.say(text, "warning", owner=state.run_id,
                                  action=(self.tr("Resume"), lambda: self.bridge.resume(state.run_id)))
        elif self.error_banner.owner is not None:
            self.error_banner.clear()

    def _show_log(self, _run_id: str, lines: list[LogLine]) -> None:
        """Another run is shown: its own log replaces the last one's, with nothing of that run's draft."""
        self.progress.reset()
        for line in lines:
            self.progress.add_line(line)

    def _estimate(self, estimate: EstimateView) -> None:
        self.plan.estimate.show_estimate(estimate)
        self.progress.estimate.show_estimate(estimate)

    def show_busy(self, what: str, running: bool) -> None:
        (self.busy_now.add if running else self.busy_now.discard)(what)
        if what == "ingest":
            self.kb.set_ingesting(running)
        elif what in ("research", "plan", "skip"):
            self.chat.set_busy(running)
            self.plan.setEnabled(not running)
            if running:
                self.statusBar().showMessage(self.tr("Working…"))
            else:
                self.statusBar().clearMessage()

    def _error(self, message: str) -> None:
        self.error_banner.say(message)

    # --- commands -------------------------------------------------------------------------------

    def _start(self, question: str) -> None:
        self.error_banner.clear()  # a new question: the last one's error is past
        if not self.kb.database:
            self._error(self.tr("Choose or create a knowledge base first."))
            return
        self.progress.reset()
        self.plan.estimate.show_estimate(None)
        self.bridge.start_research(question, self.kb.database)

    def _run_command(self, command, *args) -> None:  # noqa: ANN001, ANN002
        if self.state is None:
            return
        command(self.state.run_id, *args)

    def _approve(self) -> None:
        self._run_command(self.bridge.approve)
        self.tabs.setCurrentWidget(self.progress)

    def _cancel(self) -> None:
        if self.state is not None and self.state.status == "running":
            self.bridge.cancel_run(self.state.run_id)

    def _new_question(self) -> None:
        self.state = None
        self.chat.show_state(None)
        self.plan.set_plan(None, editable=False)
        self.progress.show_state(None)
        self.tabs.setCurrentWidget(self.chat)
        self.chat.input.setFocus()

    def _ingest(self, database: str, paths: list[Path]) -> None:
        self._ingesting_into = database
        self.kb.set_ingesting(True)
        self.bridge.ingest(database, paths)

    def _ingest_progress(self, progress: IngestProgressView) -> None:
        self.kb.show_progress(progress)
        if progress.stage == "embed" and progress.embedded == 0 and self._ingesting_into:
            # read and indexed: the new documents are searchable and listed now, not once embedded
            self.bridge.load_documents(self._ingesting_into)
        elif progress.stage == "embed" and time.monotonic() - self._backlog_asked >= _BACKLOG_EVERY_S:
            self._backlog_asked = time.monotonic()
            self.bridge.refresh_backlog()  # what is still to embed, now and then while it goes down

    def _documents(self, database: str, docs: list[DocumentView]) -> None:
        if database == self.kb.database:
            self.kb.set_documents(docs)
            pending = sum(d.pending_embeddings for d in docs)
            self.kb_status.setText(self.tr("KB: {0} · %Ln document(s)", "", len(docs)).format(database)
                                   + (self.tr(" · %Ln chunk(s) to embed", "", pending) if pending else ""))

    def _health(self, health: HealthView) -> None:
        changed, self.llm_ready = self.llm_ready != (health.ok and health.model_ready), health.ok and health.model_ready
        self.health.setInterval(_HEALTH_INTERVAL_MS if self.llm_ready else _HEALTH_RETRY_MS)
        self.chat.set_llm_block(None if self.llm_ready else self.tr(
            "Research can start once the LLM server answers (see the message above)."))
        if changed and self.state is not None and self.state.status == "paused":
            self._say_run_state(self.state, server_back=self.llm_ready)  # say so beside Resume
        if self.llm_ready:
            self.llm_status.setText(self.tr("LLM: {0} ✓").format(self.bridge.settings.llm.model))
            self.banner.hide()
            return
        self.llm_status.setText(self.tr("LLM: not ready"))
        model = self.bridge.settings.llm.model
        if not health.ok:
            fix = self.tr("The LLM server does not answer. Start Ollama (ollama serve) or point Rabbithole to your "
                          "team's LLM server in Settings → LLM. The knowledge base works meanwhile.")
        else:
            fix = self.tr("The model {0} is not on the LLM server. Pull it (ollama pull {0}, or Settings → LLM → "
                          "Pull model) or choose another one in Settings → LLM. The knowledge base works "
                          "meanwhile.").format(model)
        self.banner.setText(fix + "\n" + self.tr("Details: {0}").format(health.message))
        self.banner.show()

    def open_citation(self, citation: Citation) -> None:
        self.pdf.open_citation(citation)

    def _export(self, fmt: str) -> None:
        """One format, every format ("all"), or every format with only the accepted claims (ACCEPTED_ONLY)."""
        if self.state is None or self.state.report is None:
            self._error(self.tr("There is no report to export yet."))
            return
        accepted = fmt == ACCEPTED_ONLY
        fmt = "all" if accepted else fmt
        target = ask_export_target(self, fmt, self.state.question, self._export_folder)
        if target is not None:
            self._export_folder, stem = target
            self.bridge.export_report(self.state.run_id, self._export_folder, self._exported, fmt, stem, accepted)

    def _review(self, target: str, status: str | None, note: str) -> None:
        if self.state is not None:
            self.bridge.review(self.state.run_id, target, status, note)

    def _exported(self, files: dict[str, Path]) -> None:
        # the folder only, its start left out when long: the file names ran into the status bar's permanent labels
        folder = next(iter(files.values())).parent
        shown = self.fontMetrics().elidedText(str(folder), Qt.TextElideMode.ElideLeft, self.width() // 3)
        self.statusBar().showMessage(self.tr("%n file(s) written to {folder}", "", len(files)).format(folder=shown),
                                     30_000)

    def _history(self) -> None:
        self.bridge.list_runs(self._show_history)  # read off the GUI thread: the store may be busy saving

    def _show_history(self, runs: list[RunSummaryView]) -> None:
        dialog = RunHistoryDialog(runs, self)
        dialog.openRequested.connect(lambda run_id: self.bridge.refresh_run(run_id))
        dialog.resumeRequested.connect(self.bridge.resume)
        dialog.open()

    def _settings(self) -> None:
        before = self.bridge.settings
        dialog = SettingsDialog(self.bridge, before, self)
        dialog.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)
        dialog.accepted.connect(lambda: self._settings_applied(before, dialog.result_settings))
        dialog.open()

    def _settings_applied(self, before: Settings, after: Settings | None) -> None:
        if after is None:
            return
        if after.data_dir != before.data_dir:
            self.statusBar().showMessage(self.tr("The new data folder is used from the next start."), 10_000)
        if (after.ui.theme, after.ui.text_size) != (before.ui.theme, before.ui.text_size):
            apply_theme(QApplication.instance(), after.ui.theme, after.ui.text_size)
        if after.ui.language != before.ui.language:
            self.languageRequested.emit(after.ui.language)

    def _choose_language(self, code: str) -> None:
        if code != self.bridge.settings.ui.language:
            self.languageRequested.emit(code)

    def _guide(self) -> None:
        """Help → User guide beside the window (not modal): one guide, brought to the front when open."""
        if self.guide is None:
            self.guide = GuideDialog(i18n.choose(self.bridge.settings.ui.language), self)
        self.guide.show()
        self.guide.raise_()
        self.guide.activateWindow()

    def _about(self) -> None:
        text = self.tr("Rabbithole {version} — offline research over your PDFs with a local LLM.\n"
                       "Data folder: {folder}").format(version=__version__, folder=self.bridge.paths.data_dir)
        box = QMessageBox(QMessageBox.Icon.Information, self.tr("About Rabbithole"), text, parent=self)
        box.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)
        box.open()  # not exec(): the window keeps working

    def closeEvent(self, event) -> None:  # noqa: ANN001, N802
        self.closing.emit()
        self.health.stop()
        for signal, slot in self._bridge_links:
            signal.disconnect(slot)
        self._bridge_links = []
        super().closeEvent(event)
