"""Real PDFs made with PyMuPDF for tests: statute-like pages, reports, and every kind of bad input."""

from __future__ import annotations

from pathlib import Path

import pymupdf

A4 = pymupdf.paper_rect("a4")


def _write_block(page: pymupdf.Page, y: float, text: str, bold: bool = False, size: float = 10) -> float:
    """Write a paragraph from y downwards; returns the y below it."""
    rect = pymupdf.Rect(72, y, A4.width - 72, A4.height - 60)
    font = "hebo" if bold else "helv"
    spare = page.insert_textbox(rect, text, fontname=font, fontsize=size)
    used = rect.height - spare if spare >= 0 else rect.height
    return y + used + size * 0.8


def make_pdf(path: Path, pages: list[list[tuple[str, str]]], title: str | None = None,
             header: str | None = None, footer: bool = True) -> Path:
    """``pages``: per page a list of (kind, text) with kind 'h' (bold heading) or 'p' (paragraph)."""
    doc = pymupdf.open()
    for number, items in enumerate(pages, start=1):
        page = doc.new_page(width=A4.width, height=A4.height)
        if header:
            page.insert_text((72, 40), header, fontname="helv", fontsize=8)
        y = 72.0
        for kind, text in items:
            y = _write_block(page, y, text, bold=(kind == "h"), size=12 if kind == "h" else 10)
        if footer:
            page.insert_text((A4.width / 2 - 30, A4.height - 30), f"Seite {number} von {len(pages)}",
                             fontname="helv", fontsize=8)
    if title:
        doc.set_metadata({"title": title})
    doc.save(path)
    doc.close()
    return path


def statute(path: Path, abbreviation: str = "TestG", long_title: str = "Gesetz über die Prüfung von Testfällen",
            sections: int = 6, words: int = 60, edition: str = "2020-05-04") -> Path:
    """A small German law: title page, then § 1 … § N with numbered Absätze, one or two per page.

    Laws that differ only in ``edition`` (the date on the title page) are different files whose
    §§ read the same, so their chunks share embeddings.
    """
    filler = ("Die zuständige Behörde prüft die Unterlagen des Antragstellers und entscheidet über die "
              "Genehmigung innerhalb einer angemessenen Frist nach Eingang der vollständigen Unterlagen. ")
    body_words = filler.split()
    pages: list[list[tuple[str, str]]] = [[("h", f"{long_title} ({abbreviation})"), ("p", f"Ausfertigungsdatum: {edition}")]]
    for n in range(1, sections + 1):
        text = " ".join((body_words * 10)[:words])
        items = [("h", f"§ {n} Vorschrift Nummer {n}"), ("p", f"(1) {text} Grenzwert {n * 10} Millisievert."),
                 ("p", f"(2) Absatz 1 gilt entsprechend für Anlage {n}.")]
        if n % 2 == 1:
            pages.append(items)
        else:
            pages[-1].extend(items)
    return make_pdf(path, pages, title=f"{long_title} ({abbreviation})", header=abbreviation)


def report(path: Path, paragraphs: list[str], title: str = "Annual Report") -> Path:
    return make_pdf(path, [[("h", title)] + [("p", p) for p in paragraphs]], title=title, footer=False)


def encrypted(path: Path, source: Path, user_password: str, owner_password: str = "owner") -> Path:
    doc = pymupdf.open(source)
    doc.save(path, encryption=pymupdf.PDF_ENCRYPT_AES_256, user_pw=user_password, owner_pw=owner_password,
             permissions=pymupdf.PDF_PERM_PRINT)
    doc.close()
    return path


def scanned(path: Path, text: str = "Gescannte Seite mit dem Wort Strahlenschutzbeauftragter") -> Path:
    """A page holding only a picture of text: no text layer."""
    src = pymupdf.open()
    page = src.new_page(width=A4.width, height=A4.height)
    page.insert_textbox(pymupdf.Rect(72, 72, A4.width - 72, 400), text, fontname="helv", fontsize=16)
    pix = page.get_pixmap(dpi=200)
    src.close()
    doc = pymupdf.open()
    page = doc.new_page(width=A4.width, height=A4.height)
    page.insert_image(page.rect, pixmap=pix)
    doc.save(path)
    doc.close()
    return path


def zero_pages(path: Path) -> Path:
    """A syntactically valid PDF whose page tree is empty (PyMuPDF refuses to save one)."""
    objects = [
        b"<< /Type /Catalog /Pages 2 0 R >>",
        b"<< /Type /Pages /Kids [] /Count 0 >>",
    ]
    out = bytearray(b"%PDF-1.7\n")
    offsets = []
    for i, obj in enumerate(objects, start=1):
        offsets.append(len(out))
        out += f"{i} 0 obj\n".encode() + obj + b"\nendobj\n"
    xref = len(out)
    out += f"xref\n0 {len(objects) + 1}\n0000000000 65535 f \n".encode()
    for off in offsets:
        out += f"{off:010d} 00000 n \n".encode()
    out += f"trailer\n<< /Size {len(objects) + 1} /Root 1 0 R >>\nstartxref\n{xref}\n%%EOF\n".encode()
    path.write_bytes(bytes(out))
    return path


def truncated(path: Path, source: Path, keep: float = 0.5) -> Path:
    data = source.read_bytes()
    path.write_bytes(data[: int(len(data) * keep)])
    return path


def statement(path: Path, title: str, years: list[str], rows: list[tuple[str, list[str]]],
              before: str = "", after: str = "") -> Path:
    """A financial statement as filings set it: a centred title, a row of years over right-aligned figure
    columns, one line per row with its label at the left margin; prose above and below it."""
    doc = pymupdf.open()
    page = doc.new_page(width=A4.width, height=A4.height)
    y = 72.0
    if before:
        y = _write_block(page, y, before) + 10
    width = pymupdf.get_text_length(title, fontname="hebo", fontsize=11)
    page.insert_text(((A4.width - width) / 2, y), title, fontname="hebo", fontsize=11)
    y += 28
    right = [A4.width - 72 - 80 * (len(years) - 1 - i) for i in range(len(years))]

    def line(cells: list[str], label: str = "") -> None:
        nonlocal y
        if label:
            page.insert_text((72, y), label, fontname="helv", fontsize=9)
        for x1, text in zip(right, cells):
            if text:
                page.insert_text((x1 - pymupdf.get_text_length(text, fontname="helv", fontsize=9), y), text,
                                 fontname="helv", fontsize=9)
        y += 14

    line(years)
    for label, figures in rows:
        line(figures, label)
    if after:
        _write_block(page, y + 14, after)
    doc.save(path)
    doc.close()
    return path
