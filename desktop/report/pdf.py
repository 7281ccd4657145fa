"""The report as PDF (report.pdf): the HTML page laid out by MuPDF's Story on A4 pages.

MuPDF's built-in fonts (Nimbus Sans, with Noto fallbacks for symbols) carry umlauts, „…“, § and ✓,
so the PDF looks the same on every machine without system fonts. Page numbers ("Page N of M") are
stamped after layout, when the page count is known. [n] markers link to their source entry.
"""

from __future__ import annotations

from pathlib import Path

import pymupdf

from desktop.report.html import CSS, body_html
from desktop.report.labels import labels_for, one_line
from desktop.report.model import Report

MARGIN = 56.7  # 2 cm in PDF points
FOOTER_SPACE = 28.0  # room below the text frame for the page number
FOOTER_SIZE = 8.5
# The browser CSS centres a narrow column; on paper the frame already sets the width.
PDF_CSS = CSS + "\nbody { margin: 0; padding: 0; max-width: none; font-size: 10pt; }\n"


def _page_html(report: Report) -> str:
    return f"<html><head><meta charset='utf-8'></head><body>{body_html(report)}</body></html>"


def layout(report: Report) -> pymupdf.Document:
    """Lay out the report on as many A4 pages as it needs, with internal links for the [n] markers."""
    story = pymupdf.Story(html=_page_html(report), user_css=PDF_CSS)
    mediabox = pymupdf.paper_rect("a4")
    frame = mediabox + (MARGIN, MARGIN, -MARGIN, -(MARGIN + FOOTER_SPACE))

    def rectfn(rect_num: int, filled: pymupdf.Rect) -> tuple[pymupdf.Rect, pymupdf.Rect, None]:
        return mediabox, frame, None  # one frame per page

    return story.write_with_links(rectfn)


def stamp_footers(doc: pymupdf.Document, template: str) -> None:
    """'Seite N von M' centred at the bottom of every page; Helvetica covers the ASCII/Latin-1 labels."""
    total = doc.page_count
    for page in doc:
        text = template.format(page=page.number + 1, pages=total)
        width = pymupdf.get_text_length(text, fontname="helv", fontsize=FOOTER_SIZE)
        x = (page.rect.width - width) / 2
        y = page.rect.height - MARGIN + FOOTER_SPACE / 2
        page.insert_text((x, y), text, fontname="helv", fontsize=FOOTER_SIZE, color=(0.35, 0.35, 0.35))


def to_pdf(report: Report, path: Path) -> None:
    doc = layout(report)
    try:
        stamp_footers(doc, labels_for(report)["footer"])
        doc.set_metadata({"title": one_line(report.title), "subject": one_line(report.question),
                          "creator": "Rabbithole", "producer": "Rabbithole (PyMuPDF)"})
        doc.subset_fonts()  # the Story embeds whole fonts; subsetting keeps a report small
        doc.save(str(path), garbage=3, deflate=True)
    finally:
        doc.close()
