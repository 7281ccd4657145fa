"""The parts of a research question, read off its wording: what a reviewer asks for one by one.

"Innerhalb welcher Frist muss …, und mit wie vielen Mitgliedern muss sie es beraten?" asks two things;
"Gefragt sind die Frist …, die Aufbewahrungsdauer …, welche Stelle …, und ab welcher Ortsdosisleistung …"
five. Each part becomes a research task of the plan (--auto and the window's proposal), so every fact
the question asks for is searched for on its own (seen with a 1.5B model: a plan of "Übersicht der
relevanten Gesetze" and "Überprüfung der Zuverlässigkeit" for a question that named five facts, four of
them never read). A
sentence that only sets the scene ("Ein Kosmetikstudio will künftig …") is no part; a piece too short to
search for on its own ("and how far in advance") stays with the part before it.
"""

from __future__ import annotations

import re

MIN_WORDS = 5  # a shorter piece ("and how far in advance") is not searched for on its own
# Words that open a question or an indirect question (German and English).
_ASKING = (
    r"(?:(?:bis|binnen|innerhalb|in|mit|unter|ab|für|nach|zu|bei|von|an|auf|seit|über|aus)\s+(?:wie|welche[rsnm]?|wann)|"
    r"wie|wann|welche[rsnm]?|was|wer|wem|wen|wo|woran|wofür|wozu|ob|"
    r"(?:above|below|up\s+to|within|at|in|for|from|under|to|by)\s+(?:what|which|whom|when|how)|"
    r"which|what|how|when|who|whom|whether|where|why)\b"
)
_ASKS = re.compile(rf"^\s*(?:{_ASKING}|(?:is|are|does|do|can|may|must|kann|darf|muss|gilt|gelten|dürfen|müssen)\b)",
                   re.I)
# Where a sentence goes on to ask the next thing: ", und wie …", "; and which …", ", welche …".
_NEXT = re.compile(rf"\s*(?:[,;]\s*(?:(?:und|sowie|oder|and|or)\s+)?|\s+(?:und|sowie|and)\s+)(?={_ASKING})", re.I)
# "Gefragt sind X, Y und Z": an enumeration of what is asked for, by its nouns ("…, die Frist …, die Stufen …").
_ASKED_FOR = re.compile(r"^\s*(?:gefragt\s+(?:sind|ist|wird\s+nach)|es\s+geht\s+um|asked\s+for\s+(?:are|is))\s+", re.I)
_NEXT_NOUN = re.compile(r"\s*,\s*(?:(?:und|sowie)\s+)?(?=(?:die|der|das|den|dem|des)\s+[A-ZÄÖÜ])")
_SENTENCE = re.compile(r"(?<=[?.!])\s+(?=[A-ZÄÖÜ„\"])")


def parts(question: str) -> list[str]:
    """The things ``question`` asks for, each a piece of its own wording; one part when it asks one thing."""
    found: list[str] = []
    for sentence in _SENTENCE.split(" ".join(question.split())):
        sentence = _after_scene(sentence)
        enumerates = _ASKED_FOR.match(sentence)
        if not (enumerates or _ASKS.match(sentence) or sentence.endswith("?")):
            continue  # a sentence that sets the scene
        body = sentence[enumerates.end():] if enumerates else sentence
        pieces = [p for chunk in _NEXT.split(body) for p in (_NEXT_NOUN.split(chunk) if enumerates else [chunk])]
        own = 0  # parts of this sentence so far
        waiting = ""  # what leads into the next part: a short "Wie" of "Wie und wann …", "In the event that …,"
        for piece in (p.strip(" ,;:.") for p in pieces):
            if not piece:
                continue
            # an enumerated noun ("die Aufbewahrungsdauer der Aufzeichnungen") needs fewer words than a clause
            whole = len(piece.split()) >= (MIN_WORDS - 2 if enumerates else MIN_WORDS) and (enumerates or _asks(piece))
            if whole:
                found.append(f"{waiting}{_joint(waiting)}{piece[:1].lower()}{piece[1:]}" if waiting else piece)
                own, waiting = own + 1, ""
            elif own and not waiting:
                found[-1] = f"{found[-1]}, {piece}"
            else:
                waiting = f"{waiting}{_joint(waiting)}{piece}" if waiting else piece
        if waiting:
            found.append(waiting)
    return [_as_question(p) for p in found] or [question.strip()]


def _asks(piece: str) -> bool:
    """A piece that asks something ("how should …"), not one that sets its condition ("When considering …")."""
    return bool(_ASKS.match(piece)) and not re.match(r"\s*(?:when|wenn)\s+\w+ing\b", piece, re.I)


def _joint(waiting: str) -> str:
    """How a leading piece joins the part it leads into: a question word with "und" ("Wie und wann"), a
    condition with a comma."""
    return " und " if len(waiting.split()) < 3 and _ASKS.match(waiting) else ", "


def _after_scene(sentence: str) -> str:
    """"An analyst reviews …: Is the operator's liability …?" asks what follows the colon."""
    head, colon, rest = sentence.partition(": ")
    return rest if colon and _ASKS.match(rest) else sentence


def _as_question(piece: str) -> str:
    piece = re.sub(r"^(?:und|and|sowie)\s+", "", piece.rstrip(" ?"), flags=re.I)
    return piece[:1].upper() + piece[1:] + "?"


# A part that names its subject by a pronoun ("Wann sie spätestens zu vernichten ist?") is searched together
# with the part before it, which names it. A demonstrative ("diese Vorlagepflicht", "such a licence") always points
# back; a personal or possessive pronoun points back only where no noun of the part itself stands before it: "Wem
# hat der Bund die Wahrnehmung seiner Aufgaben … zu übertragen?" names its subject (seen, laws-research-14: searched
# and weighed with the part before it, its line showed a sentence on the electronic records that part asked about),
# and "… durch eine Messung überprüft sein?" ends in a verb.
_DEMONSTRATIVE = re.compile(r"\b(?:diese[nmrs]?|solche[nmrs]?|this|these|those|such)\b", re.I)
_PERSONAL = re.compile(r"\b(?:sie|er|es|ihr|ihre[nmrs]?|sein|seine[nmrs]?|dessen|deren|it|its|they|their|them)\b",
                       re.I)
# A noun the part names before a pronoun: one after an article ("der Bund", "the host operator").
_NAMED = re.compile(r"\b(?:der|die|das|den|dem|des|ein|eine[nmrs]?|the|an?)\s+\w", re.I)


def _points_back(part: str) -> bool:
    """Whether ``part`` names its subject by a pronoun that stands for something of the part before it."""
    if _DEMONSTRATIVE.search(part):
        return True
    pronoun = _PERSONAL.search(part)
    return bool(pronoun) and not _NAMED.search(part[:pronoun.start()])


def searches(asked: list[str]) -> list[str]:
    """A search for each part: its own words, with the part before it where it names its subject by a pronoun."""
    return [f"{asked[i - 1]} {part}" if i and _points_back(part) else part for i, part in enumerate(asked)]
