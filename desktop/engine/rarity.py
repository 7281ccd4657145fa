"""How rare each word is among the sentences of a run's evidence, and how much of a question's rare words a
sentence holds. Every excerpt of one field of law shares its common words ("radioaktive Abfälle", "Anlage des
Bundes"); where two sentences share as many of a question's words, the one that holds its rarer words is about
what it asks (seen, laws-research-14: for "Wem hat der Bund die Wahrnehmung seiner Aufgaben bei der
Sicherstellung und Endlagerung radioaktiver Abfälle zu übertragen?" one finding held "(3) Die Länder haben
Landessammelstellen …, der Bund hat Anlagen zur Sicherstellung und zur Endlagerung radioaktiver Abfälle
einzurichten;" and "der Bund hat die Wahrnehmung seiner Aufgaben einem Dritten zu übertragen, der in privater
Rechtsform zu organisieren …", each sharing five of its nine words; the line showed the first)."""

from __future__ import annotations

import math
from collections.abc import Iterable

from desktop.engine.citation_support import content_terms, holds
from desktop.engine.focus import asked_words


class Rarity:
    """The rarity of a word among a set of texts: the log of how many texts there are over how many hold it
    (``citation_support.holds``: a German compound counts for its first part, as support counts it)."""

    def __init__(self, texts: Iterable[str], language: str) -> None:
        self.language = language
        self._found = [content_terms(text, language) for text in set(texts)]
        self._of: dict[str, float] = {}

    def of(self, term: str) -> float:
        if term not in self._of:
            n = sum(holds(term, found) for found in self._found)
            self._of[term] = math.log(len(self._found) / n) if n else 0.0
        return self._of[term]

    def share(self, question: str, text: str) -> float:
        """The rarity of the question's words (``focus.asked_words``) that ``text`` holds, summed."""
        found = content_terms(text, self.language)
        return sum(self.of(term) for term in content_terms(asked_words(question), self.language)
                   if holds(term, found))
