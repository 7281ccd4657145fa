"""What the reference resolver needs from a knowledge base (implemented by the catalog)."""

from __future__ import annotations

from typing import Protocol

from desktop.kb.models import RegistryEntry, SectionLocation


class ReferenceIndex(Protocol):
    def registry(self) -> list[RegistryEntry]:
        """Every ready document with the names it can be cited by."""
        ...

    def find_section(self, doc_id: str, unit: str) -> SectionLocation | None:
        """Where a unit ('§ 5', 'Anlage 4', 'Art. 3', 'Section 2.3') of a document starts, or None."""
        ...

    def locate_text(self, doc_id: str, text: str) -> SectionLocation | None:
        """The page and section where ``text`` stands in the document, or None when not found."""
        ...
