"""What this installation brings, for ``rabbithole doctor``: the bundled embedding model and the OCR engine;
and who works at it (a review mark is signed with the account that is signed in)."""

from __future__ import annotations

import getpass

from desktop.kb.ingestion.pdf import tesseract_available
from desktop.kb.search.embeddings import OfflineEmbedder

__all__ = ["embed_with_bundled_model", "reviewer", "tesseract_available"]


def embed_with_bundled_model() -> None:
    """Load the bundled multilingual-e5-small and embed one word: a broken install raises here, not during a
    user's first ingest."""
    OfflineEmbedder().embed_query("Grenzwert")


def reviewer() -> str:
    """The account signed in to this workstation ("someone" where the system names none)."""
    try:
        return getpass.getuser() or "someone"
    except (OSError, KeyError):  # no login name in the environment or the password database
        return "someone"
