"""Document structure: what a heading is (a statute unit, a part of the hierarchy, a plain heading)
and which section each piece of text belongs to as we read a document front to back."""

from __future__ import annotations

import re
from dataclasses import dataclass, field, replace
from typing import Literal

from desktop.kb.references.parse import parse_references
from desktop.kb.references.units import canonical_unit

HeadingKind = Literal["unit", "structure", "sub", "generic"]

_ORDINALS = (
    "erster|zweiter|dritter|vierter|fünfter|sechster|siebter|siebenter|achter|neunter|zehnter|elfter|"
    "zwölfter|dreizehnter|vierzehnter|fünfzehnter"
)
_NUM = r"(?:\d+[a-z]?|[IVXLC]+)\b"

# Statute units and their English counterparts: (keyword, number, rest). The label is built by the
# reference parser's canonical_unit, so a stored section and a parsed citation compare as strings.
_UNIT_PATTERNS: list[re.Pattern[str]] = [
    re.compile(r"^(§)\s*(\d+\s?[a-z]?)\b\s*(.*)$", re.S),
    re.compile(r"^(Artikel|Art\.)\s*(\d+[a-z]?)\b\s*(.*)$", re.S),
    re.compile(r"^(Anlage|Anhang)\s*(" + _NUM + r")?(?=\s|$|:)\s*(.*)$", re.S),
    re.compile(r"^(Article|Rule|Item)\s+(\d+(?:\.\d+)*[A-Za-z]?)\b\.?\s*(.*)$", re.S | re.I),
    re.compile(r"^(Annex|Appendix|Schedule)\s+(" + _NUM + r"|[A-Z])\b\.?\s*(.*)$", re.S | re.I),
    re.compile(r"^(Section)\s+(\d+(?:\.\d+)*[A-Za-z]?)\b\.?\s*(.*)$", re.S | re.I),
    # numbered headings of reports: "3.2 Methods", "4. Results" (a bare "2019 Revenue" is not one)
    re.compile(r"^()(\d+(?:\.\d+)+|\d+(?=\.))\.?\s+(?=[A-ZÄÖÜ])(.*)$", re.S),
]
# A heading-styled run starting like this may be long (an annex title over several lines).
LONG_HEADING_START = re.compile(r"^(?:§|Art\.|(?:Anlage|Anhang|Artikel|Annex|Appendix|Schedule|Article|Section)\b)")

# Levels of the hierarchy above the units; a new one closes everything below it.
_STRUCTURE_PATTERNS: list[tuple[re.Pattern[str], int]] = [
    (re.compile(r"^(?:Buch|Book)\s+" + _NUM, re.I), 0),
    (re.compile(r"^(?:Teil|Part|Title|Titel)\s+" + _NUM, re.I), 1),
    (re.compile(r"^(?:Kapitel|Chapter)\s+" + _NUM, re.I), 2),
    (re.compile(r"^(?:(?:" + _ORDINALS + r")\s+)?Abschnitt\b(?:\s+" + _NUM + r")?", re.I), 3),
    (re.compile(r"^(?:(?:" + _ORDINALS + r")\s+)?Unterabschnitt\b(?:\s+" + _NUM + r")?", re.I), 4),
]

# Inside an annex, "Teil A" or "Tabelle 2" subdivide it rather than start a new part of the law.
_SUB_PATTERN = re.compile(r"^(?:Teil|Part|Abschnitt|Tabelle|Table|Zu Tabelle)\s+([A-Z]|\d+)\b", re.I)
_ANNEX_WORDS = ("Anlage", "Anhang", "Annex", "Appendix", "Schedule")
_TITLE_SPLIT = re.compile(r"^[\s:.\-–—]+")


@dataclass(frozen=True)
class Heading:
    kind: HeadingKind
    text: str
    label: str | None = None
    title: str | None = None
    level: int = 0
    labels: tuple[str, ...] = ()  # every unit a heading covers: "§§ 50 bis 52 (weggefallen)" → § 50, § 51, § 52

    @property
    def numbered(self) -> bool:
        """A report-style number ("3.2") rather than a statute unit ("§ 3")."""
        return bool(self.label) and self.label[0].isdigit()


def _multi_unit(flat: str) -> Heading | None:
    """"§§ 12c und 12d (weggefallen)" heads several units at once; the reference parser reads the list."""
    refs = [r for r in parse_references(flat) if r.start == 0 and r.units]
    if not refs:
        return None
    ref = refs[0]
    return Heading("unit", flat, label=ref.units[0], title=_clean_title(flat[ref.end :]), labels=tuple(ref.units))


def _clean_title(rest: str) -> str | None:
    rest = _TITLE_SPLIT.sub("", " ".join(rest.split()))
    return rest or None


def classify_heading(text: str, in_annex: bool = False) -> Heading:
    """Name a heading-styled line: unit (§ 5, Anlage 4, Item 7), structure (Teil 2), sub or generic."""
    flat = " ".join(text.split())
    if in_annex:
        sub = _SUB_PATTERN.match(flat)
        if sub:
            return Heading("sub", flat, label=flat.split(":")[0].strip(), title=flat)
    for pattern, level in _STRUCTURE_PATTERNS:
        if pattern.match(flat):
            return Heading("structure", flat, label=flat, level=level)
    if flat.startswith("§§"):
        multi = _multi_unit(flat)
        if multi:
            return multi
    for pattern in _UNIT_PATTERNS:
        m = pattern.match(flat)
        if m:
            keyword, number, rest = m.group(1), m.group(2) or "", m.group(3)
            label = canonical_unit(keyword, number) if keyword else number
            return Heading("unit", flat, label=label, title=_clean_title(rest), labels=(label,))
    return Heading("generic", flat, title=flat)


@dataclass
class SectionTracker:
    """Follows headings in reading order and answers which section the current text belongs to."""

    path: list[tuple[int, str]] = field(default_factory=list)
    unit: str | None = None
    unit_title: str | None = None
    sub: str | None = None

    @property
    def in_annex(self) -> bool:
        return bool(self.unit) and self.unit.split()[0] in _ANNEX_WORDS

    def observe(self, text: str) -> Heading:
        """Classify and apply a heading; returns it as applied (a demoted unit comes back as "sub")."""
        return self.apply(classify_heading(text, in_annex=self.in_annex))

    def apply(self, heading: Heading) -> Heading:
        if heading.kind == "unit" and heading.numbered and self.unit and not self.unit[0].isdigit():
            heading = replace(heading, kind="sub")  # "1." inside a § or an annex numbers items, not units
        if heading.kind == "structure":
            self.path = [(lvl, lab) for lvl, lab in self.path if lvl < heading.level]
            self.path.append((heading.level, heading.label or heading.text))
            self.unit = self.unit_title = self.sub = None
        elif heading.kind == "unit":
            self.unit, self.unit_title, self.sub = heading.label, heading.title, None
            if self.in_annex:
                self.path = []  # annexes follow the body; they are not part of its last chapter
        elif heading.kind == "sub" or self.unit is not None:
            self.sub = heading.text[:120]
        else:
            # A plain heading in a document without statute units is the best section name we have.
            self.unit, self.unit_title, self.sub = None, heading.text[:200], None
        return heading

    @property
    def section(self) -> str | None:
        return self.unit

    @property
    def section_title(self) -> str | None:
        return self.unit_title

    @property
    def heading_path(self) -> str | None:
        parts = [label for _, label in self.path]
        if self.sub:
            parts.append(self.sub)
        return " › ".join(parts) or None
