"""The kind of answer a question or task asks for, and whether a text holds one: a figure of the kind it asks
for (a period, a dose, an amount …: ``figure_kinds``), or a body by its name where it asks which body
(``named_bodies``). The check shares no words with the question, so it holds across languages: an English
part over the German laws asks for a period, and "spätestens sechs Monate nach dem Einsatz" states one."""

from __future__ import annotations

from desktop.engine.figure_kinds import asked_kinds, states_kind
from desktop.engine.focus import asks_for_figure
from desktop.engine.named_bodies import asks_for_body, names_body


def asks_kind(asked: str) -> bool:
    """Whether ``asked`` asks for a kind of answer a sentence can be seen to hold: a figure, or a named body."""
    return asks_for_figure(asked) or asks_for_body(asked)


def holds_kind(asked: str, text: str) -> bool:
    """Whether ``text`` holds the kind of answer ``asked`` asks for: a figure of the kind it asks for (any kind
    where it names none) where it asks for a figure, a body by its name where it asks which body; true where it
    asks for neither."""
    if asks_for_figure(asked) and not states_kind(text, asked_kinds(asked)):
        return False
    return names_body(text) or not asks_for_body(asked)
