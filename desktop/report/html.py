"""The report as HTML: one renderer for the exported page (report.html, the PDF's input) and the window.

Everything the LLM wrote is untrusted: text is escaped, and the answer's Markdown goes through
``mdparse``'s small subset — never raw HTML. A ``Target`` says where the HTML is shown: what a [n]
marker and a finding link to, and whether it is Qt's rich-text subset (tooltips on links, tables laid
out by attributes, since QTextDocument ignores most box CSS) or a browser page (classes and CSS, kept
simple because MuPDF's Story lays out the same page for report.pdf).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from html import escape

from desktop.report.labels import (
    TIERS,
    citation_location,
    finding_location,
    labels_for,
    lang_key,
    location,
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
from desktop.report.mdparse import Span, parse_blocks, parse_inline
from desktop.report.model import Citation, QuoteView, Report, ReportFinding
from desktop.report.review import finding_key, review_rows, summary_line


@dataclass(frozen=True)
class Target:
    """``cite_href(n)`` is where source [n] opens; ``finding_href(group, index, quote)`` where a finding
    (or one of its quotes) opens, None when findings link nowhere."""

    cite_href: Callable[[int], str]
    finding_href: Callable[[str, int, int | None], str] | None = None
    rich_text: bool = False


PAGE = Target(cite_href=lambda n: f"#source-{n}")


def _e(text: str) -> str:
    return escape(text, quote=True)


# --- the answer's Markdown ----------------------------------------------------------------------------


def _cite_open(report: Report, n: int, target: Target) -> str:
    """The opening <a> of a link to source n. In the window its title is the tooltip, escaped once more
    because Qt decodes the attribute and then shows the result as rich text."""
    title = ""
    if target.rich_text:
        c = next(c for c in report.citations if c.n == n)
        title = f' title="{_e(citation_tooltip(report, c))}"'
    return f'<a class="cite" href="{_e(target.cite_href(n))}"{title}>'


def spans_html(report: Report, spans: list[Span], target: Target) -> str:
    known = {c.n for c in report.citations}
    out = []
    for s in spans:
        html = escape(s.text)
        if s.cite is not None and s.cite in known:  # a marker without a source stays text: no dead link
            html = f"{_cite_open(report, s.cite, target)}{html}</a>"
        if s.italic:
            html = f"<em>{html}</em>"
        if s.bold:
            html = f"<strong>{html}</strong>"
        out.append(html)
    return "".join(out)


def markdown_html(report: Report, markdown: str, target: Target = PAGE, heading_offset: int = 2) -> str:
    """Markdown (the answer's) as safe HTML; its headings move below the page's own h1/h2."""

    def inline(text: str) -> str:
        return spans_html(report, parse_inline(text), target)

    out = []
    for b in parse_blocks(markdown):
        if b.kind == "h":
            level = min(b.level + heading_offset, 6)
            out.append(f"<h{level}>{inline(b.text)}</h{level}>")
        elif b.kind in ("ul", "ol"):
            start = f' start="{b.start}"' if b.kind == "ol" and b.start != 1 else ""
            items = "".join(f"<li>{inline(i)}</li>" for i in b.items)
            out.append(f"<{b.kind}{start}>{items}</{b.kind}>")
        else:
            out.append(f"<p>{inline(b.text)}</p>")
    return "\n".join(out)


# --- quotes and sources -------------------------------------------------------------------------------


def badge(report: Report, match: str, target: Target = PAGE) -> str:
    lab = labels_for(report)
    pad = "&nbsp;" if target.rich_text else ""  # Qt has no padding on inline spans
    fuzzy = f' <span class="meta">({_e(lab["fuzzy"])})</span>' if match == "fuzzy" else ""
    return f'<span class="badge">{pad}\u2713 {_e(lab["verified"])}{pad}</span>{fuzzy}'


def table_html(table: tuple[list[str], list[list[str]]], target: Target = PAGE) -> str:
    """A quoted table's rows under its header, figures right-aligned as in the source."""
    head, rows = table
    right = " align=right" if target.rich_text else " class=num"

    def row(tag: str, cells: list[str]) -> str:
        return "<tr>" + "".join(f'<{tag}{"" if i == 0 else right}>{_e(c)}</{tag}>' for i, c in enumerate(cells)) + "</tr>"

    if target.rich_text:
        return ('<table border="1" cellspacing="0" cellpadding="3">' + row("th", head)
                + "".join(row("td", r) for r in rows) + "</table>")
    body = "".join(row("td", r) for r in rows)
    return f'<table class="quote-table"><thead>{row("th", head)}</thead><tbody>{body}</tbody></table>'


def _quote(report: Report, text: str, header: str | None, target: Target) -> str:
    """A verified quote: in quotation marks, or a table under its header when it is table rows."""
    table = table_quote(header, text)
    return table_html(table, target) if table else f'<i class="quote">{_e(quoted(report, text))}</i>'


def citation_tooltip(report: Report, c: Citation) -> str:
    """Rich text for the hover: number, document, page, and the quote only when it was verified."""
    lab = labels_for(report)
    head = f"<strong>[{c.n}]</strong> {_e(citation_location(report, c))}"
    if c.quote_verified and c.quote:
        return f"{head}<br>{_quote(report, c.quote, c.table_header, _TOOLTIP)}<br>\u2713 {_e(lab['verified'])}"
    return f"{head}<br>{_e(lab['quote_not_verified'])}"


_TOOLTIP = Target(cite_href=str, rich_text=True)


def source_html(report: Report, c: Citation, target: Target = PAGE) -> str:
    lab = labels_for(report)
    where = f"<strong>[{c.n}]</strong> {_e(citation_location(report, c))}"
    # in the window the source opens the viewer; on the page it is where its markers lead
    head = f"{_cite_open(report, c.n, target)}{where}</a>" if target.rich_text else where
    if c.quote_verified and c.quote and table_quote(c.table_header, c.quote):
        body = f"{badge(report, c.match, target)}{_quote(report, c.quote, c.table_header, target)}"
    elif c.quote_verified and c.quote:
        body = f"{_quote(report, c.quote, c.table_header, target)} {badge(report, c.match, target)}"
    else:
        body = f'<span class="unverified">{_e(lab["quote_not_verified"])}</span>'
    anchor = "" if target.rich_text else f' id="source-{c.n}"'  # Qt would split the line's text at an id
    return f'<p class="source"{anchor}>{head} \u2014 {body}</p>'


def sources_html(report: Report, target: Target = PAGE) -> str:
    lab = labels_for(report)
    out = [f"<h2>{_e(lab['sources'])}</h2>"]
    out += [source_html(report, c, target) for c in sorted(report.citations, key=lambda c: c.n)]
    return "\n".join(out if report.citations else [*out, f"<p>{_e(lab['no_sources'])}</p>"])


# --- findings -----------------------------------------------------------------------------------------


def _link(href: str | None, text_html: str, cls: str = "", title: str = "") -> str:
    if href is None:
        return f'<span class="{cls}">{text_html}</span>' if cls else text_html
    attrs = (f' class="{cls}"' if cls else "") + (f' title="{_e(title)}"' if title else "")
    return f'<a{attrs} href="{_e(href)}">{text_html}</a>'


def _href(target: Target, group: str, index: int, quote: int | None = None) -> str | None:
    return target.finding_href(group, index, quote) if target.finding_href else None


def _paraphrase(report: Report, text: str) -> str:
    # An unverified quote is the model's words: shown as a paraphrase, never in quotation marks.
    return f'<br><span class="unverified">{_e(labels_for(report)["paraphrase"])}:</span> {_e(one_line(text))}'


def _quote_line(report: Report, href: str | None, q: QuoteView, f: ReportFinding, target: Target) -> str:
    if not q.verified:
        return _paraphrase(report, q.text)
    where = location(report, f.doc, q.page, f.section)
    tip = f"<strong>{_e(where)}</strong>" if target.rich_text else ""
    if table := table_quote(q.table_header, q.text):
        # a table cannot sit inside a link: the rows' labels open the page, the table follows
        labels = "; ".join(r[0] for r in table[1] if r and r[0]) or where
        opener = f"{_link(href, _e(labels), 'quote', tip)} " if href else ""
        return f"<br>{opener}{badge(report, q.match, target)}{table_html(table, target)}"
    text = f"<i>{_e(quoted(report, q.text))}</i>"
    return f"<br>{_link(href, text, 'quote', tip)} {badge(report, q.match, target)}"


def finding_html(report: Report, group: str, index: int, f: ReportFinding, target: Target = PAGE) -> str:
    lab = labels_for(report)
    known = {c.n for c in report.citations}
    cite = ""
    if f.citation is not None:
        cite = f" {_cite_open(report, f.citation, target)}[{f.citation}]</a>" if f.citation in known else f" [{f.citation}]"
    meta = f"{finding_location(report, f)} \u00b7 {relevance(report, f)}"
    parts = [_link(_href(target, group, index), _e(one_line(f.text))) + cite, f'<br><span class="meta">{_e(meta)}</span>']
    parts += [_quote_line(report, _href(target, group, index, qi), q, f, target) for qi, q in enumerate(f.quotes)]
    parts += [_paraphrase(report, p) for p in f.paraphrases]
    if f.referenced_from:
        parts.append(f'<br><span class="meta">{_e(lab["referenced_from"])}: {_e(one_line(f.referenced_from))}</span>')
    if mark := report.review.get(finding_key(group, index)):
        note = f": {mark.note}" if mark.note else ""
        parts.append(f'<br><strong>{_e(lab["review"])}: {_e(lab[mark.status])}</strong>'
                     f' <span class="meta">({_e(mark.by)}){_e(note)}</span>')
    return f"<li>{''.join(parts)}</li>"


def findings_html(report: Report, target: Target = PAGE, level: int = 2) -> str:
    """The findings by tier, each tier a heading of ``level``."""
    lab = labels_for(report)
    out = []
    for attr, key in TIERS:
        items: list[ReportFinding] = getattr(report.findings, attr)
        out.append(f"<h{level}>{_e(lab[key])}</h{level}>")
        body = "".join(finding_html(report, attr, i, f, target) for i, f in enumerate(items))
        out.append(f"<ul>{body}</ul>" if items else f"<p>{_e(lab['no_findings'])}</p>")
    return "\n".join(out)


def filtered_html(report: Report, target: Target = PAGE) -> str:
    lab = labels_for(report)
    out = [f"<h2>{_e(lab['filtered'])}</h2>"]
    if report.drift_warning:
        out.append(f'<p class="warning"><strong>{_e(lab["warning"])}:</strong> {_e(report.drift_warning)}</p>')
    items = []
    for i, f in enumerate(report.filtered):
        detail = [finding_location(report, f)]
        if f.drift_score is not None:
            detail.append(f"{lab['drift_score']} {f.drift_score:.2f}")
        reason = f'<br>{_e(lab["reason"])}: {_e(one_line(f.filter_reason))}' if f.filter_reason else ""
        head = _link(_href(target, "filtered", i), _e(one_line(f.text)))
        items.append(f'<li>{head}<br><span class="meta">{_e(" · ".join(detail))}</span>{reason}</li>')
    out.append(f"<ul>{''.join(items)}</ul>" if items else f"<p>{_e(lab['no_findings'])}</p>")
    return "\n".join(out)


# --- review -------------------------------------------------------------------------------------------


def review_html(report: Report) -> str:
    """Who reviewed and when, and each claim's verdict with its note; empty before any mark."""
    if (line := summary_line(report)) is None:
        return ""
    lab = labels_for(report)
    items = "".join(f"<li><strong>{_e(verdict)}</strong>: {_e(claim)}"
                    + (f' <span class="meta">\u2014 {_e(note)}</span>' if note else "") + "</li>"
                    for claim, verdict, note in review_rows(report))
    return f"<h2>{_e(lab['review'])}</h2>\n<p>{_e(line)}</p>\n<ul>{items}</ul>"


# --- quality and run ------------------------------------------------------------------------------------


def rows_html(rows: list[tuple[str, str]]) -> str:
    body = "".join(f'<tr><td class="label">{_e(label)}</td><td>{_e(value)}</td></tr>' for label, value in rows)
    return f'<table class="rows" cellspacing="0" cellpadding="3">{body}</table>'


def quality_html(report: Report) -> str:
    lab = labels_for(report)
    out = [f"<h2>{_e(lab['quality'])}</h2>", rows_html(quality_rows(report))]
    if report.quality.notes.strip():
        out.append(f"<p><strong>{_e(lab['notes'])}:</strong> {_e(report.quality.notes)}</p>")
    return "\n".join(out)


def tasks_html(report: Report) -> str:
    lab = labels_for(report)
    items = []
    for task in report.tasks:
        status = f' <span class="meta">({_e(lab["status"])}: {_e(str(task["status"]))})</span>' if task.get("status") else ""
        summary = f"<br>{_e(s)}" if (s := task_summary(task)) else ""
        points = "".join(f"<br>\u00b7 {_e(p)}" for p in task_points(task))
        items.append(f"<li>{_e(task_title(task))}{status}{summary}{points}</li>")
    return f"<h2>{_e(lab['tasks'])}</h2>\n<ol>{''.join(items)}</ol>" if items else ""


def run_html(report: Report) -> str:
    """The run's facts and timings, then the plan's tasks with what each found."""
    lab = labels_for(report)
    out = [f"<h2>{_e(lab['run'])}</h2>", rows_html(run_rows(report))]
    if report.run.timings:
        out.append(f"<h3>{_e(lab['timings'])}</h3>")
        out.append(rows_html([(phase_name(report, t.phase), seconds(t.seconds)) for t in report.run.timings]))
    return "\n".join([*out, tasks_html(report)]).rstrip()


# --- the exported page --------------------------------------------------------------------------------

CSS = """
body { font-family: sans-serif; font-size: 11pt; line-height: 1.4; color: #222; margin: 2em auto; padding: 0 1em; max-width: 46em; }
h1 { font-size: 18pt; margin: 0 0 0.5em 0; }
h2 { font-size: 14pt; margin: 1.2em 0 0.4em 0; border-bottom: 1px solid #bbb; }
h3 { font-size: 12pt; margin: 1em 0 0.3em 0; }
h4, h5, h6 { font-size: 11pt; margin: 0.8em 0 0.2em 0; }
p { margin: 0.3em 0 0.5em 0; }
a.cite { color: #1a4f9c; text-decoration: none; }
.source { margin: 0.25em 0; }
.quote { font-style: italic; }
.quote-table { border-collapse: collapse; margin: 4px 0 8px; font-size: 0.92em; }
.quote-table th, .quote-table td { border: 1px solid #bbb; padding: 2px 6px; text-align: left; }
.quote-table .num { text-align: right; }
.badge { color: #1b6e2a; font-weight: bold; font-size: 9pt; }
.unverified { color: #8a5a00; font-size: 9pt; }
.meta { color: #555; font-size: 9pt; }
.warning { border: 1px solid #c77700; background-color: #fff4e0; padding: 0.4em; margin: 0.5em 0; }
table.rows { border-collapse: collapse; margin: 0.3em 0; }
table.rows td { border: 1px solid #ccc; padding: 0.15em 0.6em; }
"""


def body_html(report: Report) -> str:
    """The page body alone; the PDF export lays it out with its own page CSS."""
    lab = labels_for(report)
    parts = [f"<h1>{_e(report.title)}</h1>", f"<p><strong>{_e(lab['question'])}:</strong> {_e(report.question)}</p>"]
    if report.scope.strip():
        parts.append(f"<p><strong>{_e(lab['scope'])}:</strong> {_e(report.scope)}</p>")
    parts += [f"<h2>{_e(lab['answer'])}</h2>", markdown_html(report, report.answer), sources_html(report)]
    parts += [review] if (review := review_html(report)) else []
    parts += [f"<h2>{_e(lab['findings'])}</h2>", findings_html(report, level=3)]
    if report.filtered or report.drift_warning:
        parts.append(filtered_html(report))
    parts += [quality_html(report), run_html(report)]
    return "\n".join(parts)


def to_html(report: Report) -> str:
    return (
        f'<!DOCTYPE html>\n<html lang="{lang_key(report)}">\n<head>\n<meta charset="utf-8">\n'
        f'<meta name="viewport" content="width=device-width, initial-scale=1">\n'
        f"<title>{_e(one_line(report.title))}</title>\n<style>{CSS}</style>\n</head>\n"
        f"<body>\n{body_html(report)}\n</body>\n</html>\n"
    )
