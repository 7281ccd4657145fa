"""A quote of table rows is shown as a table under its table's header in every export, figures kept
as the source prints them; a quote of text is shown as before."""

from __future__ import annotations

from pathlib import Path

import docx
import pymupdf
import pytest

from desktop.report.docx import to_docx
from desktop.report.html import to_html
from desktop.report.markdown import to_markdown
from desktop.report.model import Citation, QuoteView, Report
from desktop.report.pdf import to_pdf

HEADER = "|  | Year Ended December 31, 2018 | Year Ended December 31, 2019 |\n|---|---:|---:|"
ROW = "| Purchases of property and equipment | (13,427) | (16,861) |"


@pytest.fixture
def report(report_en: Report) -> Report:
    cited = Citation(n=len(report_en.citations) + 1, doc="AMAZON_2019_10K.pdf", doc_id="d", path="", page=37,
                     quote=ROW, quote_verified=True, match="exact", table_header=HEADER)
    finding = report_en.findings.primary[0].model_copy(update={"quotes": [
        QuoteView(text=ROW, verified=True, match="exact", page=37, table_header=HEADER)]})
    findings = report_en.findings.model_copy(update={"primary": [finding, *report_en.findings.primary[1:]]})
    return report_en.model_copy(update={"citations": [*report_en.citations, cited], "findings": findings})


def test_markdown_shows_the_row_under_its_header(report: Report) -> None:
    md = to_markdown(report)
    assert "|  | Year Ended December 31, 2018 | Year Ended December 31, 2019 |\n|---|---:|---:|\n" + ROW in md
    assert f"“{ROW}”" not in md  # not a quotation of pipes
    assert "    | Purchases of property and equipment | (13,427) | (16,861) |" in md  # in the finding's list item


def test_html_shows_a_table_with_right_aligned_figures(report: Report) -> None:
    html = to_html(report)
    assert html.count('<table class="quote-table">') == 2
    assert "<th>Year Ended December 31, 2019</th>" not in html  # figures' columns are marked numeric
    assert '<th class=num>Year Ended December 31, 2019</th>' in html
    assert "<td>Purchases of property and equipment</td><td class=num>(13,427)</td><td class=num>(16,861)</td>" in html


def test_docx_holds_the_quoted_table(report: Report, tmp_path: Path) -> None:
    to_docx(report, tmp_path / "r.docx")
    tables = [[[c.text for c in row.cells] for row in t.rows] for t in docx.Document(str(tmp_path / "r.docx")).tables]
    quoted = [t for t in tables if t and t[0][0] == "" and t[0][-1] == "Year Ended December 31, 2019"]
    assert len(quoted) == 2 and quoted[0][1] == ["Purchases of property and equipment", "(13,427)", "(16,861)"]


def test_pdf_prints_the_tables_figures(report: Report, tmp_path: Path) -> None:
    to_pdf(report, tmp_path / "r.pdf")
    with pymupdf.open(tmp_path / "r.pdf") as doc:
        text = " ".join(page.get_text() for page in doc)
    assert "(16,861)" in text and "Purchases of property and equipment" in text
    assert "|" not in text.split("(16,861)")[0][-40:]  # cells, not the Markdown row


def test_a_text_quote_with_a_header_by_mistake_stays_a_quotation(report_en: Report) -> None:
    c = report_en.citations[0].model_copy(update={"table_header": HEADER})
    md = to_markdown(report_en.model_copy(update={"citations": [c, *report_en.citations[1:]]}))
    assert "|---|---:|---:|" not in md


def test_the_window_shows_the_quoted_table(report: Report) -> None:
    from desktop.report.html import finding_html
    from desktop.ui.report_html import WINDOW, answer_html

    html = answer_html(report)
    assert '<table border="1"' in html and "<td align=right>(16,861)</td>" in html
    item = finding_html(report, "primary", 0, report.findings.primary[0], WINDOW)
    assert ">Purchases of property and equipment</a>" in item and "<th align=right>Year Ended December 31, 2019</th>" in item
