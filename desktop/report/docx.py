"""The report as a Word document (report.docx) with python-docx: for reviewers who annotate in Word.

Numbers that a reader checks against [n] markers (sources, the answer's numbered lists) are written
as text rather than Word auto-numbering, which continues across lists and could drift from the markers.
"""

from __future__ import annotations

import re
from pathlib import Path

from docx import Document
from docx.document import Document as DocxDocument
from docx.enum.text import WD_ALIGN_PARAGRAPH
from docx.shared import Pt, RGBColor
from docx.text.paragraph import Paragraph

from desktop.report.mdparse import Span, parse_blocks, parse_inline
from desktop.report.labels import (
    TIERS,
    citation_location,
    finding_location,
    labels_for,
    lang_key,
    one_line,
    phase_name,
    quality_rows,
    quoted,
    relevance,
    run_rows,
    seconds,
    table_quote,
    task_points,
    task_summary,
    task_title,
)
from desktop.report.review import review_rows, summary_line
from desktop.report.model import Citation, Report, ReportFinding

GREEN = RGBColor(0x1B, 0x6E, 0x2A)
AMBER = RGBColor(0x8A, 0x5A, 0x00)
GREY = RGBColor(0x55, 0x55, 0x55)
# Characters XML 1.0 forbids; PDF-extracted text sometimes carries them and python-docx would refuse it.
_XML_ILLEGAL = re.compile(r"[\x00-\x08\x0b\x0c\x0e-\x1f\ufffe\uffff]")
_MAX_PROPERTY = 255  # characters of a core property (title, subject) in a .docx


def clean(text: str) -> str:
    return _XML_ILLEGAL.sub(" ", text)


def _run(p: Paragraph, text: str, *, bold: bool = False, italic: bool = False,
         color: RGBColor | None = None, small: bool = False) -> None:
    run = p.add_run(clean(text))
    run.bold, run.italic = bold or None, italic or None
    if color is not None:
        run.font.color.rgb = color
    if small:
        run.font.size = Pt(8.5)


def _spans(p: Paragraph, spans: list[Span]) -> None:
    for s in spans:
        _run(p, s.text, bold=s.bold, italic=s.italic)


def _badge(p: Paragraph, report: Report, match: str) -> None:
    lab = labels_for(report)
    _run(p, f" \u2713 {lab['verified']}", bold=True, color=GREEN, small=True)
    if match == "fuzzy":
        _run(p, f" ({lab['fuzzy']})", small=True)


def _table(doc: DocxDocument, rows: list[tuple[str, str]]) -> None:
    table = doc.add_table(rows=0, cols=2)
    table.style = "Table Grid"
    for label, value in rows:
        cells = table.add_row().cells
        cells[0].text, cells[1].text = clean(label), clean(value)


def _quoted_table(doc: DocxDocument, table: tuple[list[str], list[list[str]]]) -> None:
    """A quote of table rows as a Word table under its header; figures right-aligned."""
    head, rows = table
    grid = doc.add_table(rows=0, cols=len(head))
    grid.style = "Table Grid"
    for n, values in enumerate([head, *rows]):
        cells = grid.add_row().cells
        for i, value in enumerate(values[:len(head)]):
            cells[i].text = clean(value)
            para = cells[i].paragraphs[0]
            if i:
                para.alignment = WD_ALIGN_PARAGRAPH.RIGHT
            for run in para.runs:
                run.bold = n == 0 or None


def _answer(doc: DocxDocument, report: Report) -> None:
    doc.add_heading(labels_for(report)["answer"], level=1)
    for b in parse_blocks(report.answer):
        if b.kind == "h":
            _spans(doc.add_heading("", level=min(b.level + 1, 9)), parse_inline(b.text))
        elif b.kind == "ul":
            for item in b.items:
                _spans(doc.add_paragraph(style="List Bullet"), parse_inline(item))
        elif b.kind == "ol":
            for i, item in enumerate(b.items, start=b.start):
                p = doc.add_paragraph(f"{i}. ", style="List")
                _spans(p, parse_inline(item))
        else:
            _spans(doc.add_paragraph(), parse_inline(b.text))


def _source(doc: DocxDocument, report: Report, c: Citation) -> None:
    p = doc.add_paragraph(style="List")
    _run(p, f"[{c.n}] ", bold=True)
    _run(p, f"{citation_location(report, c)} — ")
    if c.quote_verified and c.quote and (table := table_quote(c.table_header, c.quote)):
        _badge(p, report, c.match)
        _quoted_table(doc, table)
    elif c.quote_verified and c.quote:
        _run(p, quoted(report, c.quote), italic=True)
        _badge(p, report, c.match)
    else:
        _run(p, labels_for(report)["quote_not_verified"], color=AMBER)


def _sources(doc: DocxDocument, report: Report) -> None:
    lab = labels_for(report)
    doc.add_heading(lab["sources"], level=1)
    for c in sorted(report.citations, key=lambda c: c.n):
        _source(doc, report, c)
    if not report.citations:
        doc.add_paragraph(lab["no_sources"])


def _finding(doc: DocxDocument, report: Report, f: ReportFinding) -> None:
    lab = labels_for(report)
    p = doc.add_paragraph(style="List Bullet")
    _run(p, one_line(f.text) + (f" [{f.citation}]" if f.citation is not None else ""))
    _run(doc.add_paragraph(style="List Continue"),
         f"{finding_location(report, f)} · {relevance(report, f)}", color=GREY, small=True)
    for q in f.quotes:
        p = doc.add_paragraph(style="List Continue")
        if q.verified and (table := table_quote(q.table_header, q.text)):
            _badge(p, report, q.match)
            _quoted_table(doc, table)
        elif q.verified:
            _run(p, quoted(report, q.text), italic=True)
            _badge(p, report, q.match)
        else:
            _run(p, f"{lab['paraphrase']}: ", color=AMBER)
            _run(p, one_line(q.text))
    for text in f.paraphrases:
        p = doc.add_paragraph(style="List Continue")
        _run(p, f"{lab['paraphrase']}: ", color=AMBER)
        _run(p, one_line(text))
    if f.referenced_from:
        _run(doc.add_paragraph(style="List Continue"), f"{lab['referenced_from']}: {f.referenced_from}",
             color=GREY, small=True)


def _findings(doc: DocxDocument, report: Report) -> None:
    lab = labels_for(report)
    doc.add_heading(lab["findings"], level=1)
    for attr, key in TIERS:
        items: list[ReportFinding] = getattr(report.findings, attr)
        doc.add_heading(lab[key], level=2)
        for f in items:
            _finding(doc, report, f)
        if not items:
            doc.add_paragraph(lab["no_findings"])


def _filtered(doc: DocxDocument, report: Report) -> None:
    if not report.filtered and not report.drift_warning:
        return
    lab = labels_for(report)
    doc.add_heading(lab["filtered"], level=1)
    if report.drift_warning:
        p = doc.add_paragraph()
        _run(p, f"{lab['warning']}: ", bold=True, color=AMBER)
        _run(p, report.drift_warning)
    for f in report.filtered:
        _run(doc.add_paragraph(style="List Bullet"), one_line(f.text))
        detail = [f"{lab['reason']}: {f.filter_reason}"] if f.filter_reason else []
        detail += [f"{lab['drift_score']} {f.drift_score:.2f}"] if f.drift_score is not None else []
        meta = finding_location(report, f) + (f" · {'; '.join(detail)}" if detail else "")
        _run(doc.add_paragraph(style="List Continue"), meta, color=GREY, small=True)


def _quality(doc: DocxDocument, report: Report) -> None:
    lab = labels_for(report)
    doc.add_heading(lab["quality"], level=1)
    _table(doc, quality_rows(report))
    if report.quality.notes.strip():
        p = doc.add_paragraph()
        _run(p, f"{lab['notes']}: ", bold=True)
        _run(p, report.quality.notes)


def _tasks(doc: DocxDocument, report: Report) -> None:
    if not report.tasks:
        return
    lab = labels_for(report)
    doc.add_heading(lab["tasks"], level=1)
    for i, task in enumerate(report.tasks, start=1):
        p = doc.add_paragraph(style="List")
        _run(p, f"{i}. {task_title(task)}")
        if task.get("status"):
            _run(p, f" ({lab['status']}: {task['status']})", color=GREY, small=True)
        if summary := task_summary(task):
            _run(doc.add_paragraph(style="List Continue"), summary)
        for point in task_points(task):
            _run(doc.add_paragraph(style="List Continue"), f"· {point}")


def _review(doc: DocxDocument, report: Report) -> None:
    if (line := summary_line(report)) is None:
        return
    doc.add_heading(labels_for(report)["review"], level=1)
    _run(doc.add_paragraph(), line)
    for claim, verdict, note in review_rows(report):
        p = doc.add_paragraph(style="List Bullet")
        _run(p, f"{verdict}: ", bold=True)
        _run(p, claim + (f" \u2014 {note}" if note else ""))


def _run_meta(doc: DocxDocument, report: Report) -> None:
    lab = labels_for(report)
    doc.add_heading(lab["run"], level=1)
    rows = run_rows(report) + [(f"{lab['timings']}: {phase_name(report, t.phase)}", seconds(t.seconds)) for t in report.run.timings]
    _table(doc, rows)


def _property(text: str) -> str:
    value = clean(one_line(text))
    return value if len(value) <= _MAX_PROPERTY else value[: _MAX_PROPERTY - 1] + "…"


def build_docx(report: Report) -> DocxDocument:
    lab = labels_for(report)
    doc = Document()
    props = doc.core_properties
    # the file format holds at most 255 characters a property (seen: a FinanceBench question of 350)
    props.title, props.subject = (_property(report.title), _property(report.question))
    props.language, props.author = lang_key(report), "Rabbithole"
    doc.add_heading(clean(one_line(report.title)), level=0)
    p = doc.add_paragraph()
    _run(p, f"{lab['question']}: ", bold=True)
    _run(p, report.question)
    if report.scope.strip():
        p = doc.add_paragraph()
        _run(p, f"{lab['scope']}: ", bold=True)
        _run(p, report.scope)
    for part in (_answer, _sources, _review, _findings, _filtered, _quality, _tasks, _run_meta):
        part(doc, report)
    return doc


def to_docx(report: Report, path: Path) -> None:
    build_docx(report).save(str(path))
