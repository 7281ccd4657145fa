"""The report as one self-contained HTML page (report.html), also the input of the PDF export.

Everything the LLM wrote is untrusted: text is escaped, and the answer's Markdown goes through the
small converter below (paragraphs, headings, lists, bold, italic, [n] markers) — never raw HTML.
The markup stays simple because MuPDF's Story lays out the same page for report.pdf.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from html import escape

from desktop.report.labels import (
    TIERS,
    citation_location,
    finding_location,
    labels_for,
    lang_key,
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
from desktop.report.model import Citation, Report, ReportFinding

# --- the small Markdown converter -----------------------------------------------------------------


@dataclass
class Span:
    """A run of inline text; ``cite`` is the source number when the run is a [n] marker."""

    text: str
    bold: bool = False
    italic: bool = False
    cite: int | None = None


@dataclass
class Block:
    kind: str  # "p", "h" (level 1-6), "ul", "ol"
    text: str = ""
    level: int = 0
    items: list[str] = field(default_factory=list)
    start: int = 1


_H = re.compile(r"^(#{1,6})\s+(.*?)\s*#*\s*$")
_UL = re.compile(r"^\s*[-*+]\s+(.*)$")
_OL = re.compile(r"^\s*(\d{1,9})[.)]\s+(.*)$")
_INLINE = re.compile(
    r"\*\*\*(?P<bi>.+?)\*\*\*"
    r"|\*\*(?P<b>.+?)\*\*"
    r"|\*(?P<i>[^*\s](?:[^*]*?[^*\s])?)\*"
    r"|\[(?P<cite>\d+(?:\s*[,;–-]\s*\d+)*)\]"
)
_NUMBER = re.compile(r"\d+")


def parse_blocks(markdown: str) -> list[Block]:
    """Split Markdown into paragraphs, headings and (flat) lists; unknown syntax stays text."""
    blocks: list[Block] = []
    current: Block | None = None
    for line in markdown.replace("\r\n", "\n").split("\n"):
        if not line.strip():
            current = None
        elif m := _H.match(line):
            blocks.append(Block("h", m.group(2), level=len(m.group(1))))
            current = None
        elif (m := _UL.match(line)) or (m := _OL.match(line)):
            kind = "ul" if m.re is _UL else "ol"
            if current is None or current.kind != kind:
                start = int(m.group(1)) if kind == "ol" else 1
                current = Block(kind, start=start)
                blocks.append(current)
            current.items.append(m.group(m.lastindex or 1))
        elif current is not None and current.kind in ("ul", "ol"):
            current.items[-1] += " " + line.strip()  # a wrapped list item
        elif current is not None:
            current.text += " " + line.strip()  # a soft line break, as in Markdown
        else:
            current = Block("p", line.strip())
            blocks.append(current)
    return blocks


def parse_inline(text: str, bold: bool = False, italic: bool = False) -> list[Span]:
    """Bold, italic and [n] markers ('[1]', '[1, 3]', '[2–4]'); everything else is plain text."""
    spans: list[Span] = []
    pos = 0
    for m in _INLINE.finditer(text):
        if m.start() > pos:
            spans.append(Span(text[pos : m.start()], bold, italic))
        if m.group("bi") is not None:
            spans += parse_inline(m.group("bi"), True, True)
        elif m.group("b") is not None:
            spans += parse_inline(m.group("b"), True, italic)
        elif m.group("i") is not None:
            spans += parse_inline(m.group("i"), bold, True)
        else:
            spans += _cite_spans(m.group("cite"), bold, italic)
        pos = m.end()
    if pos < len(text):
        spans.append(Span(text[pos:], bold, italic))
    return spans


def _cite_spans(inner: str, bold: bool, italic: bool) -> list[Span]:
    if inner.isdigit():
        return [Span(f"[{inner}]", bold, italic, cite=int(inner))]
    # "[1, 3]": each number links on its own, the punctuation stays plain text
    spans, pos = [Span("[", bold, italic)], 0
    for m in _NUMBER.finditer(inner):
        if m.start() > pos:
            spans.append(Span(inner[pos : m.start()], bold, italic))
        spans.append(Span(m.group(), bold, italic, cite=int(m.group())))
        pos = m.end()
    return spans + [Span("]", bold, italic)]


def spans_html(spans: list[Span], known: set[int]) -> str:
    out = []
    for s in spans:
        html = escape(s.text)
        if s.cite is not None and s.cite in known:  # a marker without a source stays text: no dead link
            html = f'<a class="cite" href="#source-{s.cite}">{html}</a>'
        if s.italic:
            html = f"<em>{html}</em>"
        if s.bold:
            html = f"<strong>{html}</strong>"
        out.append(html)
    return "".join(out)


def markdown_html(markdown: str, known: set[int], heading_offset: int = 2) -> str:
    """The answer's Markdown as safe HTML; its headings move below the page's own h1/h2."""
    out = []
    for b in parse_blocks(markdown):
        if b.kind == "h":
            level = min(b.level + heading_offset, 6)
            out.append(f"<h{level}>{spans_html(parse_inline(b.text), known)}</h{level}>")
        elif b.kind in ("ul", "ol"):
            start = f' start="{b.start}"' if b.kind == "ol" and b.start != 1 else ""
            items = "".join(f"<li>{spans_html(parse_inline(i), known)}</li>" for i in b.items)
            out.append(f"<{b.kind}{start}>{items}</{b.kind}>")
        else:
            out.append(f"<p>{spans_html(parse_inline(b.text), known)}</p>")
    return "\n".join(out)


# --- the page --------------------------------------------------------------------------------------

CSS = """
body { font-family: sans-serif; font-size: 11pt; line-height: 1.4; color: #222; margin: 2em auto; padding: 0 1em; max-width: 46em; }
h1 { font-size: 18pt; margin: 0 0 0.5em 0; }
h2 { font-size: 14pt; margin: 1.2em 0 0.4em 0; border-bottom: 1px solid #bbb; }
h3 { font-size: 12pt; margin: 1em 0 0.3em 0; }
h4, h5, h6 { font-size: 11pt; margin: 0.8em 0 0.2em 0; }
p { margin: 0.3em 0 0.5em 0; }
a.cite { color: #1a4f9c; text-decoration: none; }
.source { margin: 0.25em 0; }
.n { font-weight: bold; }
.quote { font-style: italic; }
.quote-table { border-collapse: collapse; margin: 4px 0 8px; font-size: 0.92em; }
.quote-table th, .quote-table td { border: 1px solid #bbb; padding: 2px 6px; text-align: left; }
.quote-table .num { text-align: right; }
.badge { color: #1b6e2a; font-weight: bold; font-size: 9pt; }
.unverified { color: #8a5a00; font-size: 9pt; }
.meta { color: #555; font-size: 9pt; }
.warning { border: 1px solid #c77700; background-color: #fff4e0; padding: 0.4em; margin: 0.5em 0; }
table { border-collapse: collapse; margin: 0.3em 0; }
td { border: 1px solid #ccc; padding: 0.15em 0.6em; }
"""


def _e(text: str) -> str:
    return escape(text, quote=True)


def _badge(report: Report, match: str) -> str:
    lab = labels_for(report)
    fuzzy = f" ({_e(lab['fuzzy'])})" if match == "fuzzy" else ""
    return f'<span class="badge">\u2713 {_e(lab["verified"])}</span>{fuzzy}'


def _cite_link(n: int | None, known: set[int]) -> str:
    if n is None:
        return ""
    return f' <a class="cite" href="#source-{n}">[{n}]</a>' if n in known else f" [{n}]"


def table_html(table: tuple[list[str], list[list[str]]]) -> str:
    """A quoted table's rows under its header; figures right-aligned as in the source."""
    head, rows = table

    def cells(tag: str, values: list[str]) -> str:
        return "".join(f'<{tag}{"" if i == 0 else " class=num"}>{_e(v)}</{tag}>' for i, v in enumerate(values))

    body = "".join(f"<tr>{cells('td', r)}</tr>" for r in rows)
    return f'<table class="quote-table"><thead><tr>{cells("th", head)}</tr></thead><tbody>{body}</tbody></table>'


def _quote_html(report: Report, text: str, header: str | None, match: str) -> str:
    if table := table_quote(header, text):
        return f"{_badge(report, match)}{table_html(table)}"
    return f'<span class="quote">{_e(quoted(report, text))}</span> {_badge(report, match)}'


def source_html(report: Report, c: Citation) -> str:
    lab = labels_for(report)
    head = f'<span class="n">[{c.n}]</span> {_e(citation_location(report, c))} — '
    if c.quote_verified and c.quote:
        body = _quote_html(report, c.quote, c.table_header, c.match)
    else:
        body = f'<span class="unverified">{_e(lab["quote_not_verified"])}</span>'
    return f'<p class="source" id="source-{c.n}">{head}{body}</p>'


def _finding_html(report: Report, f: ReportFinding, known: set[int]) -> str:
    lab = labels_for(report)
    meta = f'<span class="meta">{_e(finding_location(report, f))} · {_e(lab["relevance"])} {f.relevance:.2f}</span>'
    parts = [f"{_e(one_line(f.text))}{_cite_link(f.citation, known)}<br>{meta}"]
    for q in f.quotes:
        if q.verified:
            parts.append(f"<br>{_quote_html(report, q.text, q.table_header, q.match)}")
        else:
            parts.append(f'<br><span class="unverified">{_e(lab["paraphrase"])}:</span> {_e(one_line(q.text))}')
    parts += [f'<br><span class="unverified">{_e(lab["paraphrase"])}:</span> {_e(one_line(p))}' for p in f.paraphrases]
    if f.referenced_from:
        parts.append(f'<br><span class="meta">{_e(lab["referenced_from"])}: {_e(f.referenced_from)}</span>')
    return f"<li>{''.join(parts)}</li>"


def _header(report: Report) -> list[str]:
    lab = labels_for(report)
    out = [f"<h1>{_e(report.title)}</h1>", f"<p><strong>{_e(lab['question'])}:</strong> {_e(report.question)}</p>"]
    if report.scope.strip():
        out.append(f"<p><strong>{_e(lab['scope'])}:</strong> {_e(report.scope)}</p>")
    return out


def _answer(report: Report, known: set[int]) -> list[str]:
    return [f"<h2>{_e(labels_for(report)['answer'])}</h2>", markdown_html(report.answer, known)]


def _sources(report: Report) -> list[str]:
    lab = labels_for(report)
    out = [f"<h2>{_e(lab['sources'])}</h2>"]
    out += [source_html(report, c) for c in sorted(report.citations, key=lambda c: c.n)]
    return out if report.citations else out + [f"<p>{_e(lab['no_sources'])}</p>"]


def _findings(report: Report, known: set[int]) -> list[str]:
    lab = labels_for(report)
    out = [f"<h2>{_e(lab['findings'])}</h2>"]
    for attr, key in TIERS:
        items: list[ReportFinding] = getattr(report.findings, attr)
        out.append(f"<h3>{_e(lab[key])}</h3>")
        body = "".join(_finding_html(report, f, known) for f in items)
        out.append(f"<ul>{body}</ul>" if items else f"<p>{_e(lab['no_findings'])}</p>")
    return out


def _filtered(report: Report) -> list[str]:
    if not report.filtered and not report.drift_warning:
        return []
    lab = labels_for(report)
    out = [f"<h2>{_e(lab['filtered'])}</h2>"]
    if report.drift_warning:
        out.append(f'<p class="warning"><strong>{_e(lab["warning"])}:</strong> {_e(report.drift_warning)}</p>')
    items = []
    for f in report.filtered:
        detail = [f"{lab['reason']}: {f.filter_reason}"] if f.filter_reason else []
        detail += [f"{lab['drift_score']} {f.drift_score:.2f}"] if f.drift_score is not None else []
        meta = _e(finding_location(report, f) + (f" · {'; '.join(detail)}" if detail else ""))
        items.append(f'<li>{_e(one_line(f.text))}<br><span class="meta">{meta}</span></li>')
    return out + ([f"<ul>{''.join(items)}</ul>"] if items else [])


def _table(rows: list[tuple[str, str]]) -> str:
    body = "".join(f"<tr><td>{_e(label)}</td><td>{_e(value)}</td></tr>" for label, value in rows)
    return f"<table>{body}</table>"


def _quality(report: Report) -> list[str]:
    lab = labels_for(report)
    out = [f"<h2>{_e(lab['quality'])}</h2>", _table(quality_rows(report))]
    if report.quality.notes.strip():
        out.append(f"<p><strong>{_e(lab['notes'])}:</strong> {_e(report.quality.notes)}</p>")
    return out


def _tasks(report: Report) -> list[str]:
    if not report.tasks:
        return []
    lab = labels_for(report)
    items = []
    for task in report.tasks:
        status = f' <span class="meta">({_e(lab["status"])}: {_e(str(task["status"]))})</span>' if task.get("status") else ""
        summary = f"<br>{_e(s)}" if (s := task_summary(task)) else ""
        points = "".join(f"<br>· {_e(p)}" for p in task_points(task))
        items.append(f"<li>{_e(task_title(task))}{status}{summary}{points}</li>")
    return [f"<h2>{_e(lab['tasks'])}</h2>", f"<ol>{''.join(items)}</ol>"]


def _run(report: Report) -> list[str]:
    lab = labels_for(report)
    rows = run_rows(report) + [(f"{lab['timings']}: {t.phase}", seconds(t.seconds)) for t in report.run.timings]
    return [f"<h2>{_e(lab['run'])}</h2>", _table(rows)]


def body_html(report: Report) -> str:
    """The page body alone; the PDF export lays it out with its own page CSS."""
    known = {c.n for c in report.citations}
    parts = _header(report) + _answer(report, known) + _sources(report) + _findings(report, known)
    parts += _filtered(report) + _quality(report) + _tasks(report) + _run(report)
    return "\n".join(parts)


def to_html(report: Report) -> str:
    return (
        f'<!DOCTYPE html>\n<html lang="{lang_key(report)}">\n<head>\n<meta charset="utf-8">\n'
        f'<meta name="viewport" content="width=device-width, initial-scale=1">\n'
        f"<title>{_e(one_line(report.title))}</title>\n<style>{CSS}</style>\n</head>\n"
        f"<body>\n{body_html(report)}\n</body>\n</html>\n"
    )
