"""The knowledge base's notices about files (why one was rejected, what to check in one) in the
window's language: a translated template for every key of ``desktop.kb.ingestion.notices.ENGLISH``
(``tests/ui/test_i18n.py`` fails when a key has none). A key this version has no words for shows the
knowledge base's English sentence rather than nothing."""

from __future__ import annotations

from PySide6.QtCore import QT_TRANSLATE_NOOP, QCoreApplication, QLocale

from desktop.bridge.kb_views import NoticeView

CONTEXT = "NoticeTexts"

TEMPLATES: dict[str, str] = {
    "file_missing": QT_TRANSLATE_NOOP("NoticeTexts", "file not found"),
    "path_missing": QT_TRANSLATE_NOOP("NoticeTexts", "file or folder not found"),
    "folder_unreadable": QT_TRANSLATE_NOOP("NoticeTexts", "cannot read the folder: {error}"),
    "is_folder": QT_TRANSLATE_NOOP("NoticeTexts", "is a folder, not a file"),
    "permission_denied": QT_TRANSLATE_NOOP("NoticeTexts", "cannot read the file: permission denied"),
    "unreadable_file": QT_TRANSLATE_NOOP("NoticeTexts", "cannot read the file: {error}"),
    "empty_file": QT_TRANSLATE_NOOP("NoticeTexts", "empty file (0 bytes)"),
    "not_pdf": QT_TRANSLATE_NOOP("NoticeTexts", "not a PDF (no PDF header); only PDF files can be added"),
    "cannot_open": QT_TRANSLATE_NOOP("NoticeTexts", "damaged PDF that cannot be opened ({error})"),
    "password": QT_TRANSLATE_NOOP("NoticeTexts", "password-protected: save a copy without the password and add that"),
    "no_pages": QT_TRANSLATE_NOOP("NoticeTexts", "the PDF has no pages"),
    "reader_crashed": QT_TRANSLATE_NOOP("NoticeTexts", "the PDF reader crashed on this file"),
    "read_failed": QT_TRANSLATE_NOOP("NoticeTexts", "could not be read: {error}"),
    "no_page_readable": QT_TRANSLATE_NOOP("NoticeTexts", "damaged PDF: no page could be read (p. {page}: {error})"),
    "damaged_no_text": QT_TRANSLATE_NOOP("NoticeTexts", "damaged PDF (truncated or corrupt): no text could be read "
                                                        "from it"),
    "scan_ocr_off": QT_TRANSLATE_NOOP("NoticeTexts", "no text layer (a scan); OCR is switched off in the settings"),
    "scan_no_tesseract": QT_TRANSLATE_NOOP("NoticeTexts", "no text layer (a scan); install Tesseract (tesseract-ocr) "
                                                          "to read it by OCR"),
    "scan_ocr_empty": QT_TRANSLATE_NOOP("NoticeTexts", "no text layer, and OCR found no text either"),
    "ocr_no_text": QT_TRANSLATE_NOOP("NoticeTexts", "no text found, even by OCR"),
    "no_text": QT_TRANSLATE_NOOP("NoticeTexts", "no text on any page"),
    "vanished": QT_TRANSLATE_NOOP("NoticeTexts", "the file no longer exists"),
    "duplicate": QT_TRANSLATE_NOOP("NoticeTexts", "same content as {path}, which is already in the database"),
    "moved": QT_TRANSLATE_NOOP("NoticeTexts", "was {path}"),
    "damaged_repaired": QT_TRANSLATE_NOOP("NoticeTexts", "damaged PDF (truncated or corrupt; repaired when opened): "
                                                         "text may be missing — get an intact copy of the file"),
    "damaged_pages": QT_TRANSLATE_NOOP("NoticeTexts", "damaged PDF (truncated or corrupt; repaired when opened): the "
                                                      "content of p. {pages} could not be read in full; text may be "
                                                      "missing — get an intact copy of the file"),
    "scanned_no_tesseract": QT_TRANSLATE_NOOP("NoticeTexts", "{count} page(s) without a text layer (p. {pages}): "
                                                             "install Tesseract (tesseract-ocr) to read them by OCR"),
    "scanned_ocr_off": QT_TRANSLATE_NOOP("NoticeTexts", "{count} page(s) without a text layer (p. {pages}): OCR is "
                                                        "switched off in the settings"),
    "scanned_ocr_empty": QT_TRANSLATE_NOOP("NoticeTexts", "{count} page(s) without a text layer (p. {pages}): OCR "
                                                          "found no text"),
    "ocr_pages": QT_TRANSLATE_NOOP("NoticeTexts", "{count} page(s) read by OCR (p. {pages}): check quotes against "
                                                  "the page"),
    "page_unreadable": QT_TRANSLATE_NOOP("NoticeTexts", "page {page} unreadable: {error}"),
    "more_unreadable": QT_TRANSLATE_NOOP("NoticeTexts", "… and {count} more unreadable pages"),
    "text": "{text}",
}


def notice_text(notice: NoticeView) -> str:
    """``notice`` in the window's language, numbers in its locale."""
    template = TEMPLATES.get(notice.key)
    if template is None:
        return notice.english
    locale = QLocale()
    values = {name: locale.toString(v) if isinstance(v, int) else v for name, v in notice.values.items()}
    try:
        return QCoreApplication.translate(CONTEXT, template).format(**values)
    except (KeyError, IndexError):  # a translation naming a value the notice lacks: the English stands
        return notice.english
