"""report.html: self-contained, everything escaped, [n] markers link to their source, badges only on
verified quotes."""

from __future__ import annotations

import re
from html.parser import HTMLParser

from desktop.report.html import markdown_html, to_html
from desktop.report.mdparse import parse_blocks, parse_inline
from desktop.report.model import Report


class _Collector(HTMLParser):
    def __init__(self) -> None:
        super().__init__()
        self.tags: list[str] = []
        self.ids: list[str] = []
        self.hrefs: list[str] = []
        self.srcs: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.tags.append(tag)
        a = dict(attrs)
        self.ids += [a["id"]] if a.get("id") else []
        self.hrefs += [a["href"]] if a.get("href") else []
        self.srcs += [a["src"]] if a.get("src") else []


def _parse(html: str) -> _Collector:
    c = _Collector()
    c.feed(html)
    return c


def test_untrusted_text_is_escaped(report_de: Report) -> None:
    report_de.title = "Titel <img src=x onerror=alert(1)>"
    report_de.findings.primary[0].text = "<b>fett</b> & mehr"
    html = to_html(report_de)
    page = _parse(html)
    assert "script" not in page.tags and "img" not in page.tags and "b" not in page.tags
    assert "&lt;script&gt;alert(&#x27;x&#x27;)&lt;/script&gt;" in html
    assert "Titel &lt;img src=x onerror=alert(1)&gt;" in html
    assert "&lt;b&gt;fett&lt;/b&gt; &amp; mehr" in html
    assert "<script>alert('x')</script>" not in html


def test_self_contained(report_de: Report) -> None:
    html = to_html(report_de)
    page = _parse(html)
    assert page.srcs == [] and "link" not in page.tags and "script" not in page.tags
    assert all(h.startswith("#") for h in page.hrefs)  # no external resource or link
    assert '<html lang="de">' in html and '<meta charset="utf-8">' in html and "<style>" in html


def test_every_marker_links_to_its_source(report_de: Report) -> None:
    html = to_html(report_de)
    page = _parse(html)
    assert {f"source-{c.n}" for c in report_de.citations} <= set(page.ids)
    assert len(page.ids) == len(set(page.ids))
    targets = {h[1:] for h in page.hrefs}
    assert targets == {"source-1", "source-2", "source-3"} and targets <= set(page.ids)
    assert '<a class="cite" href="#source-1">[1]</a>' in html
    # "[1, 2]" links each number; "[9]" has no source and stays text rather than a dead link
    assert '[<a class="cite" href="#source-1">1</a>, <a class="cite" href="#source-2">2</a>]' in html
    assert "[9]" in html and "#source-9" not in html


def test_badge_only_on_verified_quotes(report_de: Report) -> None:
    html = to_html(report_de)
    unverified = report_de.citations[1].quote
    assert unverified
    verified = sum(c.quote_verified for c in report_de.citations)
    verified += sum(q.verified for tier in ("primary", "secondary", "tertiary")
                    for f in getattr(report_de.findings, tier) for q in f.quotes)
    assert html.count('class="badge"') == verified == 3
    assert "verifiziert</span>" in html
    source2 = re.search(r'<p class="source" id="source-2">.*?</p>', html)
    assert source2 and "badge" not in source2.group() and "Zitat nicht verifiziert" in source2.group()
    assert f"„{unverified}" not in html and unverified not in source2.group()


def test_english_page(report_en: Report) -> None:
    html = to_html(report_en)
    assert '<html lang="en">' in html and ">Sources</h2>" in html and "\u2713 verified</span>" in html
    assert "quote not verified" in html and html.count('class="badge"') == 2
    assert ">Research<" in html and ">research<" not in html


def test_markdown_converter(report_de: Report) -> None:
    blocks = parse_blocks("# T\n\npara one\nstill one\n\n- a\n- b\n  wrapped\n\n3. x\n4. y\n")
    assert [(b.kind, b.text, b.items) for b in blocks] == [
        ("h", "T", []), ("p", "para one still one", []), ("ul", "", ["a", "b wrapped"]), ("ol", "", ["x", "y"])]
    assert blocks[3].start == 3
    spans = parse_inline("**fett** *kursiv* ***beides*** **mit *innen* kursiv** [2] a * b")
    assert [(s.text, s.bold, s.italic, s.cite) for s in spans] == [
        ("fett", True, False, None), (" ", False, False, None), ("kursiv", False, True, None),
        (" ", False, False, None), ("beides", True, True, None), (" ", False, False, None),
        ("mit ", True, False, None), ("innen", True, True, None), (" kursiv", True, False, None),
        (" ", False, False, None), ("[2]", False, False, 2), (" a * b", False, False, None)]
    html = markdown_html(report_de, "## Teil\n\n1. <i>x</i> **y**")
    assert html == "<h4>Teil</h4>\n<ol><li>&lt;i&gt;x&lt;/i&gt; <strong>y</strong></li></ol>"
