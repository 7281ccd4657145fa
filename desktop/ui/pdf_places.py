"""Where the viewer has been: each page it was asked to show (a citation, a passage, a document) with its
highlight, so that Back and Forward (Alt+← / Alt+→) go between citation jumps as in a browser, and a new
window (after a language switch) shows the same page with the same highlight."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path

from desktop.report.model import Rect

MOST = 100  # places kept behind; a day of review is far fewer jumps


@dataclass(frozen=True)
class Place:
    path: Path
    page: int  # 1-based
    rects: Sequence[Rect] = ()
    quote: str | None = None
    note: str | None = None


@dataclass
class PlaceHistory:
    """Back and forward stacks around the place shown now; a new place drops what lay ahead."""

    back: list[Place] = field(default_factory=list)
    ahead: list[Place] = field(default_factory=list)
    here: Place | None = None

    def visit(self, place: Place) -> None:
        if place == self.here:
            return
        if self.here is not None:
            self.back = [*self.back, self.here][-MOST:]
        self.here, self.ahead = place, []

    def remember_page(self, page: int) -> None:
        """The reader scrolled on in a document opened without a highlight: Back returns to the page they
        left. A citation's place stays its cited page: Back returns to the quote."""
        here = self.here
        if here is not None and page != here.page and not here.rects and not here.quote:
            self.here = Place(here.path, page)

    def go_back(self) -> Place | None:
        if not self.back or self.here is None:
            return None
        self.ahead = [self.here, *self.ahead]
        self.here = self.back.pop()
        return self.here

    def go_forward(self) -> Place | None:
        if not self.ahead or self.here is None:
            return None
        self.back = [*self.back, self.here][-MOST:]
        self.here = self.ahead.pop(0)
        return self.here
