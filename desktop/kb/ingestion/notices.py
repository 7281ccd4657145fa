"""What the knowledge base tells a user about a file: why it was rejected, what to check in it.

A notice is a key and the values it shows, not a finished sentence, so the window can say it in its
own language (it has a translated template per key) while the terminal, the JSON report and the logs
use the English templates here. Values are file names, page lists, counts and the PDF reader's own
error text; they read the same in every language.
"""

from __future__ import annotations

from pydantic import BaseModel, ConfigDict, Field, computed_field

ENGLISH: dict[str, str] = {
    # a file that cannot be added
    "file_missing": "file not found",
    "path_missing": "file or folder not found",
    "folder_unreadable": "cannot read the folder: {error}",
    "is_folder": "is a folder, not a file",
    "permission_denied": "cannot read the file: permission denied",
    "unreadable_file": "cannot read the file: {error}",
    "empty_file": "empty file (0 bytes)",
    "not_pdf": "not a PDF (no PDF header); only PDF files can be added",
    "cannot_open": "damaged PDF that cannot be opened ({error})",
    "password": "password-protected: save a copy without the password and add that",
    "no_pages": "the PDF has no pages",
    "reader_crashed": "the PDF reader crashed on this file",
    "read_failed": "could not be read: {error}",
    "no_page_readable": "damaged PDF: no page could be read (p. {page}: {error})",
    "damaged_no_text": "damaged PDF (truncated or corrupt): no text could be read from it",
    "scan_ocr_off": "no text layer (a scan); OCR is switched off in the settings",
    "scan_no_tesseract": "no text layer (a scan); install Tesseract (tesseract-ocr) to read it by OCR",
    "scan_ocr_empty": "no text layer, and OCR found no text either",
    "ocr_no_text": "no text found, even by OCR",
    "no_text": "no text on any page",
    # what happened to a file already known
    "vanished": "the file no longer exists",
    "duplicate": "same content as {path}, which is already in the database",
    "moved": "was {path}",
    # an added file with something to check
    "damaged_repaired": "damaged PDF (truncated or corrupt; repaired when opened): text may be missing — get an "
                        "intact copy of the file",
    "damaged_pages": "damaged PDF (truncated or corrupt; repaired when opened): the content of p. {pages} could not "
                     "be read in full; text may be missing — get an intact copy of the file",
    "scanned_no_tesseract": "{count} page(s) without a text layer (p. {pages}): install Tesseract (tesseract-ocr) to "
                            "read them by OCR",
    "scanned_ocr_off": "{count} page(s) without a text layer (p. {pages}): OCR is switched off in the settings",
    "scanned_ocr_empty": "{count} page(s) without a text layer (p. {pages}): OCR found no text",
    "ocr_pages": "{count} page(s) read by OCR (p. {pages}): check quotes against the page",
    "page_unreadable": "page {page} unreadable: {error}",
    "more_unreadable": "… and {count} more unreadable pages",
    "text": "{text}",  # a notice stored before notices had keys
}

MAX_LISTED = 8


class Notice(BaseModel):
    model_config = ConfigDict(frozen=True)

    key: str = Field(description="Which notice (a key of ENGLISH); the window has a translation for each")
    values: dict[str, str | int] = Field(default_factory=dict)

    @computed_field  # type: ignore[prop-decorator]  # in JSON reports beside the key, for readers of English
    @property
    def text(self) -> str:
        """The notice in English."""
        return ENGLISH.get(self.key, "{text}").format_map(_Missing(self.values))

    def __str__(self) -> str:
        return self.text


class _Missing(dict[str, str | int]):
    """A template's value that a notice lacks shows as its name rather than failing."""

    def __missing__(self, key: str) -> str:
        return f"{{{key}}}"


def notice(key: str, **values: str | int) -> Notice:
    if key not in ENGLISH:
        raise KeyError(f"no notice {key!r}")  # a typo here would reach users as a bare key
    return Notice(key=key, values=values)


def stored(value: object) -> Notice:
    """A notice as the catalog keeps it (a dict), or a plain sentence stored by an older version."""
    if isinstance(value, dict):
        return Notice.model_validate(value)
    return Notice(key="text", values={"text": str(value)})


def pages_list(pages: list[int]) -> str:
    """Page numbers as a notice shows them: the first few, then "…" (the count is said beside them)."""
    shown = ", ".join(str(p) for p in pages[:MAX_LISTED])
    return shown + (", …" if len(pages) > MAX_LISTED else "")
