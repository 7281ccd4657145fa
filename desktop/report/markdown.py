"""The report as Markdown (report.md): readable as plain text, renders sensibly in any Markdown viewer.

Unverified quotes never appear in quotation marks: a reviewer must be able to trust that quoted words
are the source's own words.
"""

from __future__ import annotations

import re

from desktop.report.labels import (
    TIERS,
    citation_location,
    finding_location,
    labels_for,
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

# A "<" that opens a tag: the LLM wrote the text, and many Markdown viewers pass raw HTML through.
# "Dosis < 1 mSv" keeps its "<"; "<script>" becomes "&lt;script>" and shows as text.
_TAG_OPEN = re.compile(r"<(?=[A-Za-z/!?])")
_HEADING = re.compile(r"^(#{1,6})(?=\s)", re.M)


def md_safe(text: str) -> str:
    return _TAG_OPEN.sub("&lt;", text)


def inline(text: str) -> str:
    """Single-line, tag-safe text for list items and headings."""
    return md_safe(one_line(text))


def demote_headings(markdown: str, by: int = 2) -> str:
    """The answer sits under '## Answer'; its own '#' headings move below that level (at most ######)."""
    return _HEADING.sub(lambda m: "#" * min(len(m.group(1)) + by, 6), markdown)


def table_lines(table: tuple[list[str], list[list[str]]], indent: str = "") -> list[str]:
    """A quoted table's rows under its header, as a Markdown table."""
    head, rows = table

    def row(cells: list[str]) -> str:
        return indent + "| " + " | ".join(inline(c) for c in cells) + " |"

    return [row(head), indent + "|" + "|".join(["---", *["---:"] * (len(head) - 1)]) + "|", *map(row, rows)]


def source_line(report: Report, c: Citation) -> str:
    """'[n] file.pdf, p. 12, § 5 — “quote” (verified)' or '... — quote not verified' without the quote; a
    quote of table rows as a table under the line."""
    lab = labels_for(report)
    head = f"[{c.n}] {inline(citation_location(report, c))}"
    if c.quote_verified and c.quote:
        badge = lab["verified"] + (f", {lab['fuzzy']}" if c.match == "fuzzy" else "")
        if table := table_quote(c.table_header, c.quote):
            return "\n".join([f"{head} ({badge}):", "", *table_lines(table)])
        return f"{head} — {md_safe(quoted(report, c.quote))} ({badge})"
    return f"{head} — {lab['quote_not_verified']}"


def _finding_lines(report: Report, f: ReportFinding) -> list[str]:
    lab = labels_for(report)
    cite = f" [{f.citation}]" if f.citation is not None else ""
    lines = [f"- {inline(f.text)} — {inline(finding_location(report, f))}{cite} ({relevance(report, f)})"]
    for q in f.quotes:
        if q.verified and (table := table_quote(q.table_header, q.text)):
            lines += [f"  - ({lab['verified']}, {lab['page']} {q.page}):", "", *table_lines(table, "    "), ""]
        elif q.verified:
            lines.append(f"  - {md_safe(quoted(report, q.text))} ({lab['verified']}, {lab['page']} {q.page})")
        else:
            lines.append(f"  - {lab['paraphrase']}: {inline(q.text)}")
    lines += [f"  - {lab['paraphrase']}: {inline(p)}" for p in f.paraphrases]
    if f.referenced_from:
        lines.append(f"  - {lab['referenced_from']}: {inline(f.referenced_from)}")
    return lines


def _header(report: Report) -> list[str]:
    lab = labels_for(report)
    lines = [f"# {inline(report.title)}", "", f"**{lab['question']}:** {inline(report.question)}", ""]
    if report.scope.strip():
        lines += [f"**{lab['scope']}:** {inline(report.scope)}", ""]
    return lines


def _answer(report: Report) -> list[str]:
    return [f"## {labels_for(report)['answer']}", "", md_safe(demote_headings(report.answer.strip())), ""]


def _sources(report: Report) -> list[str]:
    lab = labels_for(report)
    lines = [f"## {lab['sources']}", ""]
    for c in sorted(report.citations, key=lambda c: c.n):
        lines += [source_line(report, c), ""]
    if not report.citations:
        lines += [lab["no_sources"], ""]
    return lines


def _findings(report: Report) -> list[str]:
    lab = labels_for(report)
    lines = [f"## {lab['findings']}", ""]
    for attr, key in TIERS:
        items: list[ReportFinding] = getattr(report.findings, attr)
        lines += [f"### {lab[key]}", ""]
        for f in items:
            lines += _finding_lines(report, f)
        lines += ([] if items else [lab["no_findings"]]) + [""]
    return lines


def _filtered(report: Report) -> list[str]:
    if not report.filtered and not report.drift_warning:
        return []
    lab = labels_for(report)
    lines = [f"## {lab['filtered']}", ""]
    if report.drift_warning:
        lines += [f"> **{lab['warning']}:** {inline(report.drift_warning)}", ""]
    for f in report.filtered:
        reason = f"{lab['reason']}: {inline(f.filter_reason)}" if f.filter_reason else ""
        drift = f"{lab['drift_score']} {f.drift_score:.2f}" if f.drift_score is not None else ""
        detail = "; ".join(x for x in (reason, drift) if x)
        lines.append(f"- {inline(f.text)} — {inline(finding_location(report, f))}" + (f" ({detail})" if detail else ""))
    return lines + [""]


def _quality(report: Report) -> list[str]:
    lab = labels_for(report)
    lines = [f"## {lab['quality']}", ""] + [f"- {label}: {value}" for label, value in quality_rows(report)]
    if report.quality.notes.strip():
        lines += ["", f"{lab['notes']}: {inline(report.quality.notes)}"]
    return lines + [""]


def _tasks(report: Report) -> list[str]:
    if not report.tasks:
        return []
    lab = labels_for(report)
    lines = [f"## {lab['tasks']}", ""]
    for i, task in enumerate(report.tasks, start=1):
        status = f" ({lab['status']}: {inline(str(task['status']))})" if task.get("status") else ""
        lines.append(f"{i}. {inline(task_title(task))}{status}")
        if summary := task_summary(task):
            lines.append(f"   {inline(summary)}")
        lines += [f"   - {md_safe(p)}" for p in task_points(task)]
    return lines + [""]


def _run(report: Report) -> list[str]:
    lab = labels_for(report)
    lines = [f"## {lab['run']}", ""] + [f"- {label}: {inline(value)}" for label, value in run_rows(report)]
    if report.run.timings:
        lines.append(f"- {lab['timings']}:")
        lines += [f"  - {inline(phase_name(report, t.phase))}: {seconds(t.seconds)}" for t in report.run.timings]
    return lines + [""]


def _review(report: Report) -> list[str]:
    if (line := summary_line(report)) is None:
        return []
    lab = labels_for(report)
    lines = [f"## {lab['review']}", "", inline(line), ""]
    for claim, verdict, note in review_rows(report):
        lines.append(f"- **{inline(verdict)}**: {md_safe(claim)}" + (f" — {inline(note)}" if note else ""))
    return lines + [""]


def to_markdown(report: Report) -> str:
    parts = (_header, _answer, _sources, _review, _findings, _filtered, _quality, _tasks, _run)
    lines = [line for part in parts for line in part(report)]
    return "\n".join(lines).rstrip() + "\n"
