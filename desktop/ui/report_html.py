"""The report's sections in the window: report.html's renderer with the window's target and colours.

Markers link to ``cite:n`` and carry a tooltip, findings and their quotes link to ``finding:…`` (see
report_links); QTextBrowser shows Qt's rich-text subset, styled here for a light or dark palette.
"""

from __future__ import annotations

from collections.abc import Callable

from desktop.report import html
from desktop.report.model import Report
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


WINDOW = html.Target(cite_href=cite_href, finding_href=finding_href, rich_text=True)


def answer_html(report: Report) -> str:
    """The answer (markers open the viewer, with the source as tooltip), then the numbered sources."""
    return html.markdown_html(report, report.answer, WINDOW, heading_offset=1) + "\n" + html.sources_html(report, WINDOW)


def findings_html(report: Report) -> str:
    return html.findings_html(report, WINDOW)


def filtered_html(report: Report) -> str:
    return html.filtered_html(report, WINDOW)


# The report view's tabs, in order: answer, findings, filtered, quality, run.
SECTIONS: tuple[Callable[[Report], str], ...] = (
    answer_html, findings_html, filtered_html, html.quality_html, html.run_html)
