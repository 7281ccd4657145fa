"""The window's panels on their own: plan model and editor, chat, progress, knowledge-base sidebar,
history, theme and language."""

from __future__ import annotations

from dataclasses import replace

from datetime import datetime, timezone
from pathlib import Path

from PySide6.QtCore import QMimeData, QPointF, Qt, QUrl
from PySide6.QtGui import QDropEvent
from PySide6.QtWidgets import QLabel, QTabWidget, QApplication

from desktop.bridge.kb_views import document_view, progress_view, report_view
from desktop.bridge.views import PlanView, estimate_view, log_line, run_view, summary_view
from desktop.engine import events as ev
from desktop.engine.state import ClarifyRound, Pending, Plan, RetrievedChunk, RoundAnalysis, RunState, Todo
from desktop.engine.store import RunSummary
from desktop.kb.models import DocumentInfo, FileOutcome, IngestProgress, IngestReport
from desktop.kb.ingestion.notices import notice
from desktop.llm.types import Usage
from desktop.ui.chat_panel import ChatPanel
from desktop.ui.history_dialog import RunHistoryDialog
from desktop.ui.kb_panel import KnowledgeBasePanel, duration, shown_name
from desktop.ui.plan_editor import PlanEditor, PlanModel
from desktop.ui.progress_panel import ProgressPanel


def _plan() -> Plan:
    return Plan(items=[Todo(id=0, task="Welche Grenzwerte gelten?"), Todo(id=1, task="§ 78 prüfen", subtasks=["Abs. 1"]),
                       Todo(id=2, task="Ausnahmen prüfen", context="Behörde")], revision=1)


def _waiting_state(kind: str = "answer") -> RunState:
    chunk = RetrievedChunk(chunk_id="c1", doc_id="d", doc="StrlSchG.pdf", page=52, section="§ 78",
                           text="Der Grenzwert der effektiven Dosis beträgt 20 Millisievert.", query="q", round=1, rank=1)
    rnd = ClarifyRound(index=1, queries=["Grenzwert Dosis"], new_chunks=["c1"], duplicates=2,
                       analysis=RoundAnalysis(coverage=0.45, knowledge_gaps=["Berufliche oder öffentliche Exposition?"]),
                       questions=["Geht es um berufliche Exposition?"])
    state = RunState(run_id="r1", question="Welche Grenzwerte gelten?", database="Sample", language="de",
                     status="waiting", pending=Pending(kind=kind, round=1))
    state.clarification.rounds = [rnd]
    state.clarification.chunks = {"c1": chunk}
    if kind == "approve_plan":
        state.phase, state.plan = "plan", _plan()
    return state


def _plan_view() -> PlanView:
    plan = run_view(_waiting_state("approve_plan")).plan
    assert plan is not None
    return plan


def test_plan_model_and_editor(qtbot) -> None:  # noqa: ANN001
    editor = PlanEditor()
    qtbot.addWidget(editor)
    editor.set_plan(_plan_view(), editable=True)
    model = editor.model
    assert model.rowCount() == 3 and "Abs. 1" in model.data(model.index(1))
    assert model.data(model.index(2), Qt.ItemDataRole.ToolTipRole) == "Behörde"
    plan = _plan_view()  # after a removal the ids have a gap: the tasks are numbered by place all the same
    editor.set_plan(replace(plan, items=(*plan.items[:2], replace(plan.items[2], id=4))), editable=True)
    assert [model.data(model.index(r)).split(".")[0] for r in range(3)] == ["0", "1", "2"]
    editor.set_plan(_plan_view(), editable=True)
    with qtbot.waitSignal(model.editRequested) as edit:
        assert not model.setData(model.index(1), "§ 78 Abs. 2 prüfen")  # shown once the engine accepted it
    assert edit.args == [1, "§ 78 Abs. 2 prüfen"]
    editor.view.setCurrentIndex(model.index(2))
    with qtbot.waitSignal(editor.moveRequested) as move:
        editor._move(-1)
    assert move.args == [2, 1]
    with qtbot.waitSignal(editor.removeRequested) as remove:
        editor._remove()
    assert remove.args == [2]
    qtbot.keyClicks(editor.new_task, "Check the annex")
    with qtbot.waitSignal(editor.addRequested) as add:
        qtbot.keyClick(editor.new_task, Qt.Key.Key_Return)
    assert add.args == ["Check the annex"]
    with qtbot.waitSignal(editor.approveRequested):
        editor.approve.click()
    editor.set_plan(_plan_view(), editable=False)
    assert not editor.approve.isEnabled()


def test_plan_model_is_a_valid_item_model(qtbot) -> None:  # noqa: ANN001
    from PySide6.QtTest import QAbstractItemModelTester

    model = PlanModel()
    QAbstractItemModelTester(model, QAbstractItemModelTester.FailureReportingMode.Fatal)
    model.set_plan(_plan_view())
    model.set_plan(None)


def test_chat_start_answer_and_end(qtbot) -> None:  # noqa: ANN001
    chat = ChatPanel()
    qtbot.addWidget(chat)
    qtbot.keyClicks(chat.input, "What is the dose limit?")
    with qtbot.waitSignal(chat.startRequested) as start:
        chat.send.click()
    assert start.args == ["What is the dose limit?"]
    chat.show_state(run_view(_waiting_state()))
    html = chat.transcript.toHtml()
    assert "Geht es um berufliche Exposition?" in html and "Round 1/5" in html
    assert chat.coverage.value() == 45 and "2 seen before" in chat.round_label.text()
    assert chat.chunks.topLevelItem(0).childCount() == 1
    chat.input.setPlainText("Berufliche Exposition")
    with qtbot.waitSignal(chat.answerSubmitted) as answer:
        chat.send.click()
    assert answer.args == ["Berufliche Exposition", False]
    with qtbot.waitSignal(chat.answerSubmitted) as end:
        chat.end.click()
    assert end.args == ["", True]


def test_progress_panel_events_draft_and_commands(qtbot) -> None:  # noqa: ANN001
    panel = ProgressPanel()
    qtbot.addWidget(panel)
    state = _waiting_state("approve_plan").model_copy(update={"status": "running", "phase": "research", "pending": None})
    panel.show_state(run_view(state))
    assert panel.tasks.count() == 3 and panel.skip.isEnabled() and panel.cancel.isEnabled() and not panel.resume.isEnabled()
    for event in (ev.TaskStarted(task_id=1, task="§ 78 prüfen", chunks=8),
                  ev.FindingAdded(task_id=1, finding_id="F1", tier=1, doc="StrlSchG.pdf", page=52, relevance=0.9,
                                  quotes=2, verified=2),
                  ev.TokenUsage(purpose="extract", call=Usage(prompt_tokens=900, completion_tokens=40),
                                total=Usage(prompt_tokens=12000, completion_tokens=345))):
        if (line := log_line(event)) is not None:
            panel.add_line(line)
    log = panel.log.toPlainText()
    assert "Task 1: § 78 prüfen (8 passages to read)" in log and "2 of 2 quotes verified" in log
    assert "extract" not in log  # token counts have their own counter, not log lines
    panel.add_draft("Der Grenzwert ", 1)
    panel.add_draft("beträgt 20 mSv [1].", 1)
    assert panel.draft.toPlainText() == "Der Grenzwert beträgt 20 mSv [1]."
    panel.add_draft("Neu.", 2)
    assert panel.draft.toPlainText() == "Neu."
    panel.tasks.setCurrentRow(2)
    with qtbot.waitSignal(panel.skipRequested) as skip:
        panel.skip.click()
    assert skip.args == [2]
    panel.show_state(run_view(state.model_copy(update={"status": "cancelled"})))
    assert panel.resume.isEnabled() and not panel.cancel.isEnabled()


def test_kb_panel_documents_progress_report_and_drop(qtbot, tmp_path: Path) -> None:  # noqa: ANN001
    panel = KnowledgeBasePanel()
    qtbot.addWidget(panel)
    panel.set_databases(["Cases", "Sample"], select="Sample")
    assert panel.database == "Sample"
    doc = DocumentInfo(doc_id="x" * 64, file_name="StrlSchG.pdf", path="/laws/StrlSchG.pdf", title="Strahlenschutzgesetz",
                       short_name="StrlSchG", language="de", pages=132, chunks=686, size_bytes=1, tags=["recht"],
                       warnings=[notice("scanned_ocr_off", count=1, pages="3")], ingested_at=datetime.now(timezone.utc))
    panel.set_documents([document_view(d) for d in [doc]])
    index = panel.model.index(0, 0)
    assert panel.model.data(index) == "StrlSchG" and "recht" in panel.model.data(index, Qt.ItemDataRole.ToolTipRole)
    assert "686 chunks" in panel.model.data(index, Qt.ItemDataRole.ToolTipRole)
    other = document_view(doc.model_copy(update={"file_name": "BGBl-2018-I-S-2034.pdf"}))
    assert shown_name(other) == "BGBl-2018-I-S-2034 [StrlSchG]"  # the short name where the file says less
    assert panel.model.data(panel.model.index(0, 2)) == "1 warning"
    panel.resize(340, 500)  # the sidebar's width: the document name must stay readable
    panel.show()
    qtbot.waitUntil(lambda: panel.table.columnWidth(0) > 0)
    widths = [panel.table.columnWidth(c) for c in range(3)]
    assert widths[0] >= 100 and widths[0] > max(widths[1:]), widths
    panel.set_ingesting(True)
    panel.show_progress(progress_view(IngestProgress(stage="embed", embedded=10, to_embed=40, eta_s=75)))
    assert panel.progress.value() == 10 and "1:15" in panel.progress_label.text()
    panel.show_progress(progress_view(IngestProgress(stage="embed", embedded=40, to_embed=40, eta_s=0)))
    assert panel.progress.maximum() == 0 and "Storing the vectors" in panel.progress_label.text()  # not "0:00 left"
    assert "left" not in panel.progress_label.text()
    panel.show_report(report_view(IngestReport(database="Sample", files=[
        FileOutcome(path="/a.pdf", status="added"), FileOutcome(path="/b.txt", status="rejected", reason=notice("not_pdf"))])))
    assert "1 added, 1 rejected" in panel.progress_label.text() and panel.report_button.isEnabled()
    for box in QApplication.topLevelWidgets():  # the report opens itself when a file was rejected
        if box.windowTitle() == "Ingestion report":
            assert "b.txt — not a PDF (no PDF header)" in box.text()
            assert box.detailedText() == ""  # two lines: "Show Details" would only repeat them
            box.close()
    data = QMimeData()
    data.setUrls([QUrl.fromLocalFile(str(tmp_path / "new.pdf"))])
    with qtbot.waitSignal(panel.ingestRequested) as dropped:
        panel.dropEvent(QDropEvent(QPointF(5, 5), Qt.DropAction.CopyAction, data, Qt.MouseButton.LeftButton,
                                   Qt.KeyboardModifier.NoModifier))
    assert dropped.args == ["Sample", [tmp_path / "new.pdf"]]
    assert duration(3725) == "1:02:05" and duration(None) == "?"


def test_history_dialog(qtbot) -> None:  # noqa: ANN001
    runs = [RunSummary(run_id="abc", question="Q1", database="Sample", status="done", phase="report",
                       created_at="2026-11-22T10:00:00", updated_at="2026-11-22T10:30:00")]
    dialog = RunHistoryDialog([summary_view(r) for r in runs])
    qtbot.addWidget(dialog)
    dialog.table.setCurrentCell(0, 0)
    with qtbot.waitSignal(dialog.resumeRequested) as resume:
        dialog._resume()
    assert resume.args == ["abc"] and dialog.table.item(0, 4).text() == "2026-11-22 10:30"


def test_the_estimate_is_shown_under_the_plan_and_beside_the_progress(qtbot) -> None:  # noqa: ANN001
    event = ev.EstimateReady(phase="plan", seconds=250, llm_calls=14, prompt_tokens=12000, answer_tokens=1800,
                             prompt_tps=71.3, answer_tps=10.2)
    estimate = estimate_view(event)
    editor, progress = PlanEditor(), ProgressPanel()
    qtbot.addWidget(editor)
    qtbot.addWidget(progress)
    assert editor.estimate.isHidden() and progress.estimate.isHidden()  # nothing measured, nothing said
    editor.estimate.show_estimate(estimate)
    progress.estimate.show_estimate(estimate)
    for label in (editor.estimate, progress.estimate):
        assert not label.isHidden()
        assert label.text() == ("Research and report take about 4 minutes on this LLM server (14 calls; it reads "
                                "71 and writes 10 tokens per second).")
    # beside the progress it spans the panel, a few lines, not a column between the counter and the buttons
    # (seen at 1280x720: fifteen lines high)
    progress.resize(560, 500)
    progress.show()
    qtbot.waitExposed(progress)
    assert progress.estimate.width() >= 0.9 * progress.contentsRect().width() - 40
    assert progress.estimate.geometry().bottom() < progress.cancel.geometry().top()
    progress.reset()
    assert progress.estimate.isHidden()
    editor.estimate.show_estimate(estimate_view(event.model_copy(update={"excerpts": 12, "excerpts_allowed": 32})))
    assert editor.estimate.text().endswith("To stay within the time budget, 12 of up to 32 excerpts are read "
                                           "(Settings: Research, time budget).")


def test_the_window_has_words_for_every_line_of_the_engine(qtbot) -> None:  # noqa: ANN001
    """Each narration key the engine writes has a template here, so no log line falls back to bare values."""
    from desktop.engine.narrate import IN_LOG

    panel = ProgressPanel()
    qtbot.addWidget(panel)
    assert set(panel._templates()) == set(IN_LOG)


def test_plan_shows_context_explains_a_lone_task_and_is_read_only_once_approved(qtbot) -> None:  # noqa: ANN001
    editor = PlanEditor()
    qtbot.addWidget(editor)
    editor.set_plan(_plan_view(), editable=True)
    assert "Behörde" in editor.model.data(editor.model.index(2))  # the context, not only in a tooltip
    assert editor.note.isHidden()
    assert all(b.isEnabled() for b in editor.edit_buttons) and editor.approve.isEnabled()

    only_question = PlanView(items=_plan_view().items[:1], note=None, approved=False)
    editor.set_plan(only_question, editable=True)
    assert not editor.note.isHidden() and "only your question" in editor.note.text()

    editor.set_plan(_plan_view(), editable=False)  # approved, researching or done
    assert not any(b.isEnabled() for b in editor.edit_buttons)
    assert not editor.approve.isEnabled() and not editor.new_task.isEnabled()


def test_the_clock_counts_the_runs_work_not_the_users_thinking(qtbot, monkeypatch) -> None:  # noqa: ANN001
    from desktop.ui import progress_panel

    clock = [1000.0]
    monkeypatch.setattr(progress_panel, "_now", lambda: clock[0])
    panel = ProgressPanel()
    qtbot.addWidget(panel)
    running = run_view(_waiting_state().model_copy(update={"status": "running", "pending": None}))
    panel.show_state(running)
    clock[0] += 40  # the engine works 40 s
    panel.show_state(run_view(_waiting_state()))  # then waits for the user's answer
    clock[0] += 600  # ten minutes of thinking
    assert panel.elapsed() == 40
    panel.show_state(running)  # answered: the run works on
    clock[0] += 5
    panel._tick()  # the panel's one-second timer does this
    assert panel.elapsed() == 45 and "45 s" in panel.stats.text()


def test_the_log_keeps_as_many_lines_to_reword_as_it_shows(qtbot) -> None:  # noqa: ANN001
    """A long run's log lines were all kept for a language switch, though the log shows only the last ones."""
    from desktop.ui import progress_panel

    panel = ProgressPanel()
    qtbot.addWidget(panel)
    for n in range(progress_panel._MAX_LOG_LINES + 50):
        panel.add_line(log_line(ev.TaskStarted(task_id=n, task="t", chunks=1)))
    assert len(panel.lines) == panel.log.blockCount() == progress_panel._MAX_LOG_LINES
    assert panel.lines[0].values["task_id"] == 50


def test_the_log_follows_its_newest_line_unless_the_reader_scrolled_up(qtbot) -> None:  # noqa: ANN001
    tabs, panel = QTabWidget(), ProgressPanel()
    qtbot.addWidget(tabs)
    tabs.addTab(QLabel("plan"), "Plan")
    tabs.addTab(panel, "Research")
    tabs.resize(700, 400)
    tabs.show()
    qtbot.waitExposed(tabs)
    line = log_line(ev.TaskStarted(task_id=1, task="§ 78 prüfen", chunks=8))
    bar = panel.log.verticalScrollBar()
    for _ in range(200):  # written while the reader looks at another tab
        panel.add_line(line)
    tabs.setCurrentWidget(panel)
    qtbot.waitUntil(lambda: bar.maximum() > 0)
    assert bar.value() == bar.maximum()  # the newest line in sight (was one line short)
    bar.setValue(10)  # reading an older line
    panel.add_line(line)
    assert bar.value() == 10


def test_the_questions_shown_can_be_answered_before_the_command_says_it_is_done(qtbot) -> None:  # noqa: ANN001
    """The run's state (waiting for an answer) arrives before the command's "not busy": the buttons follow
    the state; a click on End clarification in between was dropped (the window's end-to-end test hung)."""
    chat = ChatPanel()
    qtbot.addWidget(chat)
    chat.set_busy(True)  # the command that started the run
    chat.show_state(run_view(_waiting_state("answer")))
    assert chat.end.isEnabled() and chat.send.isEnabled()
    with qtbot.waitSignal(chat.answerSubmitted):
        qtbot.mouseClick(chat.end, Qt.MouseButton.LeftButton)
