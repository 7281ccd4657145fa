"""The report's sections as HTML for QTextBrowser (Qt's rich-text subset: tables, spans, simple CSS).

The exporter's HTML is for browsers; this is for the window: markers link to ``cite:n`` and carry a
tooltip, findings and their quotes link to ``finding:…`` (see report_links). Everything the LLM wrote
is escaped; the answer's Markdown goes through the exporter's safe converter, never as raw HTML.
"""

from __future__ import annotations

import re
from html import escape

from desktop.report.html import markdown_html
from desktop.report.labels import (
    TIERS,
    citation_location,
    finding_location,
    labels_for,
    location,
    one_line,
    quality_rows,
    quoted,
    run_rows,
    seconds,
    table_quote,
    task_points,
    task_summary,
    task_title,
)
from desktop.report.model import Citation, QuoteView, Report, ReportFinding
from desktop.ui.report_links import cite_href, finding_href

# Class selectors work in QTextDocument's default style sheet; grid/flex and most box CSS do not.
# Two palettes because the window follows the system's light or dark scheme (desktop.ui.theme).
_COLORS: dict[bool, dict[str, str]] = {
    False: {"badge": "#1b6e2a", "badge_bg": "#e3f3e5", "unverified": "#8a5a00", "meta": "#555555",
            "warning": "#7a4100", "warning_bg": "#fff4e0"},
    True: {"badge": "#81c995", "badge_bg": "#1e3a24", "unverified": "#f0b35a", "meta": "#9aa0a6",
           "warning": "#f6c26b", "warning_bg": "#3a2a10"},
}


def style_sheet(dark: bool, text_color: str) -> str:
    """``text_color`` is the palette's: a quote is a link, but should read as quoted text, not as a URL."""
    c = _COLORS[dark]
    return (
        "a { text-decoration: none; }\n"
        f"a.quote {{ color: {text_color}; font-style: italic; }}\n"
        f".badge {{ color: {c['badge']}; background-color: {c['badge_bg']}; font-weight: bold; }}\n"
        f".unverified {{ color: {c['unverified']}; }}\n"
        f".meta {{ color: {c['meta']}; }}\n"
        f".warning {{ color: {c['warning']}; background-color: {c['warning_bg']}; }}\n"
        f"td.label {{ color: {c['meta']}; padding-right: 12px; }}\n"
    )


# The converter links known markers to '#source-n'; its output is escaped text plus its own tags, so
# this pattern cannot match anything the LLM wrote (its quotes arrive as &quot;).
_SOURCE_LINK = re.compile(r'<a class="cite" href="#source-(\d+)">')


def _e(text: str) -> str:
    return escape(text, quote=True)


# --- sources and their tooltips ---------------------------------------------------------------------


def badge(report: Report, match: str) -> str:
    lab = labels_for(report)
    fuzzy = f' <span class="meta">({_e(lab["fuzzy"])})</span>' if match == "fuzzy" else ""
    return f'<span class="badge">&nbsp;\u2713 {_e(lab["verified"])}&nbsp;</span>{fuzzy}'


def table_markup(table: tuple[list[str], list[list[str]]]) -> str:
    """A quoted table's rows under its header, in the rich text Qt lays out (attributes, not CSS)."""
    head, rows = table

    def row(tag: str, cells: list[str]) -> str:
        return "<tr>" + "".join(f'<{tag}{"" if i == 0 else " align=right"}>{_e(c)}</{tag}>'
                                for i, c in enumerate(cells)) + "</tr>"

    return ('<table border="1" cellspacing="0" cellpadding="3">' + row("th", head)
            + "".join(row("td", r) for r in rows) + "</table>")


def _quote_markup(report: Report, text: str, header: str | None) -> str:
    """A verified quote: in quotation marks, or a table under its header when it is table rows."""
    table = table_quote(header, text)
    return table_markup(table) if table else f"<i>{_e(quoted(report, text))}</i>"


def citation_tooltip(report: Report, c: Citation) -> str:
    """Rich text for the hover: number, document, page, and the quote only when it was verified."""
    lab = labels_for(report)
    head = f"<b>[{c.n}]</b> {_e(citation_location(report, c))}"
    if c.quote_verified and c.quote:
        return f"{head}<br>{_quote_markup(report, c.quote, c.table_header)}<br>\u2713 {_e(lab['verified'])}"
    return f"{head}<br>{_e(lab['quote_not_verified'])}"


def _cite_open(report: Report, c: Citation) -> str:
    """The opening <a> of a marker; its title is the tooltip, escaped once more because Qt decodes
    the attribute and then shows the result as rich text."""
    return f'<a class="cite" href="{cite_href(c.n)}" title="{_e(citation_tooltip(report, c))}">'


def cite_link(report: Report, n: int, inner_html: str | None = None) -> str:
    """``inner_html`` is already escaped; a marker without a source stays text: no dead link."""
    inner = inner_html if inner_html is not None else f"[{n}]"
    by_n = {c.n: c for c in report.citations}
    return f"{_cite_open(report, by_n[n])}{inner}</a>" if n in by_n else inner


def source_html(report: Report, c: Citation) -> str:
    lab = labels_for(report)
    head = cite_link(report, c.n, f"<b>[{c.n}]</b> {_e(citation_location(report, c))}")
    if c.quote_verified and c.quote and table_quote(c.table_header, c.quote):
        body = f"{badge(report, c.match)}{_quote_markup(report, c.quote, c.table_header)}"
    elif c.quote_verified and c.quote:
        body = f"{_quote_markup(report, c.quote, c.table_header)} {badge(report, c.match)}"
    else:
        body = f'<span class="unverified">{_e(lab["quote_not_verified"])}</span>'
    return f"<p>{head} \u2014 {body}</p>"


def answer_html(report: Report) -> str:
    """The answer (markers as ``cite:n`` links with tooltips), then the numbered sources."""
    lab = labels_for(report)
    known = {c.n for c in report.citations}
    body = markdown_html(report.answer, known, heading_offset=1)
    by_n = {c.n: c for c in report.citations}
    relinked = _SOURCE_LINK.sub(lambda m: _cite_open(report, by_n[int(m.group(1))]), body)
    parts = [relinked, f"<h2>{_e(lab['sources'])}</h2>"]
    parts += [source_html(report, c) for c in sorted(report.citations, key=lambda c: c.n)]
    if not report.citations:
        parts.append(f"<p>{_e(lab['no_sources'])}</p>")
    return "\n".join(parts)


# --- findings ---------------------------------------------------------------------------------------


def _quote_line(report: Report, href: str, q: QuoteView, doc: str, section: str | None) -> str:
    lab = labels_for(report)
    if q.verified and (table := table_quote(q.table_header, q.text)):
        # a table cannot sit inside a link: the rows' labels open the page, the table follows
        where = location(report, doc, q.page, section)
        labels = "; ".join(r[0] for r in table[1] if r and r[0]) or where
        link = f'<a class="quote" href="{href}" title="{_e(f"<b>{_e(where)}</b>")}">{_e(labels)}</a>'
        return f"<br>{link} {badge(report, q.match)}{table_markup(table)}"
    if q.verified:
        tooltip = f"<b>{_e(location(report, doc, q.page, section))}</b>"
        link = f'<a class="quote" href="{href}" title="{_e(tooltip)}">{_e(quoted(report, q.text))}</a>'
        return f"<br>{link} {badge(report, q.match)}"
    # An unverified quote is the model's words: shown as a paraphrase, never in quotation marks.
    return f'<br><span class="unverified">{_e(lab["paraphrase"])}:</span> {_e(one_line(q.text))}'


def finding_html(report: Report, group: str, index: int, f: ReportFinding) -> str:
    lab = labels_for(report)
    cite = f" {cite_link(report, f.citation)}" if f.citation is not None else ""
    head = f'<a href="{finding_href(group, index)}">{_e(one_line(f.text))}</a>{cite}'
    meta = f"{finding_location(report, f)} \u00b7 {lab['relevance']} {f.relevance:.2f}"
    parts = [head, f'<br><span class="meta">{_e(meta)}</span>']
    parts += [_quote_line(report, finding_href(group, index, qi), q, f.doc, f.section) for qi, q in enumerate(f.quotes)]
    parts += [f'<br><span class="unverified">{_e(lab["paraphrase"])}:</span> {_e(one_line(p))}' for p in f.paraphrases]
    if f.referenced_from:
        parts.append(f'<br><span class="meta">{_e(lab["referenced_from"])}: {_e(one_line(f.referenced_from))}</span>')
    return f"<li>{''.join(parts)}</li>"


def findings_html(report: Report) -> str:
    lab = labels_for(report)
    out = []
    for attr, key in TIERS:
        items: list[ReportFinding] = getattr(report.findings, attr)
        out.append(f"<h2>{_e(lab[key])}</h2>")
        body = "".join(finding_html(report, attr, i, f) for i, f in enumerate(items))
        out.append(f"<ul>{body}</ul>" if items else f"<p>{_e(lab['no_findings'])}</p>")
    return "\n".join(out)


def filtered_html(report: Report) -> str:
    lab = labels_for(report)
    out = [f"<h2>{_e(lab['filtered'])}</h2>"]
    if report.drift_warning:
        out.append(f'<p class="warning"><b>{_e(lab["warning"])}:</b> {_e(report.drift_warning)}</p>')
    items = []
    for i, f in enumerate(report.filtered):
        detail = [finding_location(report, f)]
        if f.drift_score is not None:
            detail.append(f"{lab['drift_score']} {f.drift_score:.2f}")
        reason = f'<br>{_e(lab["reason"])}: {_e(one_line(f.filter_reason))}' if f.filter_reason else ""
        head = f'<a href="{finding_href("filtered", i)}">{_e(one_line(f.text))}</a>'
        items.append(f'<li>{head}<br><span class="meta">{_e(" · ".join(detail))}</span>{reason}</li>')
    out.append(f"<ul>{''.join(items)}</ul>" if items else f"<p>{_e(lab['no_findings'])}</p>")
    return "\n".join(out)


# --- quality and run ----------------------------------------------------------------------------------


def rows_html(rows: list[tuple[str, str]]) -> str:
    body = "".join(f'<tr><td class="label">{_e(label)}</td><td>{_e(value)}</td></tr>' for label, value in rows)
    return f'<table cellspacing="0" cellpadding="3">{body}</table>'


def quality_html(report: Report) -> str:
    lab = labels_for(report)
    out = [f"<h2>{_e(lab['quality'])}</h2>", rows_html(quality_rows(report))]
    if report.quality.notes.strip():
        out.append(f"<p><b>{_e(lab['notes'])}:</b> {_e(report.quality.notes)}</p>")
    return "\n".join(out)


def _tasks_html(report: Report) -> list[str]:
    lab = labels_for(report)
    items = []
    for task in report.tasks:
        status = f' <span class="meta">({_e(lab["status"])}: {_e(str(task["status"]))})</span>' if task.get("status") else ""
        summary = f"<br>{_e(s)}" if (s := task_summary(task)) else ""
        points = "".join(f"<br>\u00b7 {_e(p)}" for p in task_points(task))
        items.append(f"<li>{_e(task_title(task))}{status}{summary}{points}</li>")
    return [f"<h2>{_e(lab['tasks'])}</h2>", f"<ol>{''.join(items)}</ol>"] if items else []


def run_html(report: Report) -> str:
    lab = labels_for(report)
    out = [f"<h2>{_e(lab['run'])}</h2>", rows_html(run_rows(report))]
    if report.run.timings:
        out.append(f"<h3>{_e(lab['timings'])}</h3>")
        out.append(rows_html([(t.phase, seconds(t.seconds)) for t in report.run.timings]))
    return "\n".join(out + _tasks_html(report))
