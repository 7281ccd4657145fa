"""What this installation brings, for ``rabbithole doctor``: the bundled embedding model and the OCR engine."""

from __future__ import annotations

from desktop.kb.ingestion.pdf import tesseract_available
from desktop.kb.search.embeddings import OfflineEmbedder

__all__ = ["embed_with_bundled_model", "tesseract_available"]


def embed_with_bundled_model() -> None:
    """Load the bundled multilingual-e5-small and embed one word: a broken install raises here, not during a
    user's first ingest."""
    OfflineEmbedder().embed_query("Grenzwert")
