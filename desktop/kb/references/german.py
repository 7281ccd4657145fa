"""German statute citations: "§ 172 Absatz 1 Satz 1 Nummer 4 des Strahlenschutzgesetzes",
"§§ 12 bis 14", "Art. 3 Abs. 1", "Anlage 4 Tabelle 1 Spalte 4", "Anhang II", bare "Absatz 4".

One regular expression finds a whole citation: a unit head (§, §§, Artikel, Anlage, Anhang, Teil, Kapitel,
or a bare Absatz/Satz), the subdivisions after it, the law designation and a version phrase. A second
pass reads the subdivisions into fields. Pure functions, no I/O.
"""

from __future__ import annotations

import re
from collections.abc import Iterator

from desktop.kb.models import Reference, RefKind
from desktop.kb.references.units import (
    DATE, EU_ACT, STANDARD, canonical_unit, clean, expand_range, split_numbers, unit_kind,
)

# A list of values: "6, 7 und 9", "12 bis 14", "1a bis 1e", "Nummer 1, Nummer 2 oder Nummer 3".
_SEP = r"(?:\s*,\s*(?:(?:und|oder|sowie)\s+)?|\s+(?:und|oder|sowie|bis|bzw\.)\s+)"
# A § or subdivision number ("5", "9a", "3a"). A later list item must not be an enumerator of the
# law text ("… und 2.\xa0die …"), which the PDFs print as a number, a dot and a (no-break) space.
_NUM = r"\d{1,4}[a-z]{0,2}(?![\w])"
_NUM_NEXT = rf"{_NUM}(?!\.(?:\xa0|\s+[a-zäöüß]))"
# A § number; courts also write the letter apart ("§ 1361 b"), but "§ 5 i.V.m." has no letter.
_SEC_NUM = r"\d{1,4}(?:\s?[a-z](?![\w).]))?(?![\w])"
_SEC_NUM_NEXT = rf"{_SEC_NUM}(?!\.(?:\xa0|\s+[a-zäöüß]))"
# Articles and annexes are also numbered in Roman numerals ("Anhang II", "Anlage XI").
_UNIT_NUM = r"(?:\d{1,3}[a-z]?|[IVXLC]{1,6})(?![\w])"
_UNIT_NUM_NEXT = rf"{_UNIT_NUM}(?!\.(?:\xa0|\s+[a-zäöüß]))"

# Subdivisions after a unit, as field name → (keywords, value pattern). Longer keywords first, so
# "Absätzen" is not read as "Absatz" + garbage. Fields named None are kept in the span but not stored.
_LETTER = r"[a-z]{1,2}\)?(?![\w])"  # Buchstabe a, Doppelbuchstabe aa
_PART = r"(?:[A-Z]|\d{1,2}|[IVX]{1,5})(?![\w])"  # Teil A, Teil 2, Teil II
_DETAIL_FIELDS: list[tuple[str | None, str, str]] = [
    ("paragraph", r"Absätzen|Absätze|Absatzes|Absatz|Abs\.", _NUM),
    ("sentence", r"Sätzen|Sätze|Satzes|Satz|S\.", _NUM),
    ("number", r"Nummern|Nummer|Nr\.", _NUM),
    ("letter", r"Doppelbuchstaben|Doppelbuchstabe|Buchstaben|Buchstabe|Buchst\.|lit\.", _LETTER),
    ("part", r"Teile|Teils|Teil", _PART),
    ("table", r"Tabellen|Tabelle|Tab\.", _NUM),
    ("column", r"Spalten|Spalte|Sp\.", _NUM),
    (None, r"Zeilen|Zeile|Unterabschnitt|Abschnitt|Unterabsatz", _NUM),
]


def _value_list(keywords: str, value: str) -> str:
    """``keyword value`` followed by more values, each optionally repeating the keyword."""
    nxt = value if value != _NUM else _NUM_NEXT
    return rf"(?<![\w])(?:{keywords})\s*{value}(?:{_SEP}(?:(?:{keywords})\s*)?{nxt})*"


# "Satz 1 zweiter Halbsatz", "erster Satzteil": qualifiers that carry no number of their own.
_QUALIFIER = (r"(?:erste[rn]?|zweite[rn]?|dritte[rn]?|vierte[rn]?|letzte[rn]?)\s+"
              r"(?:Halbsatz(?:es)?|Satzteil(?:s)?|Alternative|Variante|Fall(?:es|s)?)(?![\w])")
_DETAIL = "|".join(_value_list(kw, val) for _, kw, val in _DETAIL_FIELDS) + "|" + _QUALIFIER
# Details follow each other with a space, or as a list that names its keyword again:
# "§ 12 Absatz 1 Nummer 3 oder Absatz 2 des Strahlenschutzgesetzes".
_DETAILS = rf"(?:(?:\s+|{_SEP})(?:{_DETAIL}))*"
# One subdivision with its field name, for the second pass over the matched details.
_DETAIL_ITEM = re.compile("|".join(
    rf"(?P<f{i}>{_value_list(kw, val)})" for i, (_, kw, val) in enumerate(_DETAIL_FIELDS)))
_KEYWORDS = re.compile(rf"(?<![\w])(?:{'|'.join(kw for _, kw, _ in _DETAIL_FIELDS)})\s*")
# A bare Absatz/Satz opens an intra-section reference ("nach Absatz 1 Nummer 4"); "S." alone is a
# page of a gazette ("ABl. L 13, S. 1"), never a sentence, so it only counts after a unit.
_BARE = _value_list(r"Absätzen|Absätze|Absatz|Abs\.", _NUM) + "|" + _value_list(r"Sätzen|Sätze|Satz", _NUM)

# --- the law designation after a unit ---------------------------------------------------------------
# "dieses Gesetzes", "dieser Verordnung": the document the text stands in.
_SELF = (r"(?:dieses|diesen)\s+(?:Gesetzes|Vertrages|Vertrags|Abkommens|Abschnitts|Kapitels|Teils|Paragraphen)"
         r"|dieser\s+(?:Verordnung|Richtlinie|Satzung|Anlage|Ordnung|Bekanntmachung|Vorschrift)(?![\w-])")
_W = r"(?:\w|-(?:[^\S\n]*\n\s*)?)"  # a word character, or a hyphen, possibly at a PDF line break
# A law's name ends in a law word: "Atomgesetzes", "Strahlenschutzverordnung", "MTA-Gesetzes",
# "Baugesetzbuches", "Einigungsvertrags". Generic words ("der Rechtsverordnung nach § 24") name no law.
_LAW_WORD = (r"(?:[Gg]esetz(?:buch)?(?:es|s|e)?|[Vv]erordnung|[Oo]rdnung|[Rr]ichtlinie|[Ss]atzung"
             r"|[Vv]ertrag(?:es|s)?|[Aa]bkommens?|[Üü]bereinkommens?|[Ss]tatuts?)(?![\w-])")
_GENERIC = (r"(?:Verordnung|Rechtsverordnung|Eilverordnung|Anordnung|Zuordnung|Einordnung|Unterordnung|Beiordnung)"
            r"(?:en)?(?![\w-])")
_ADJECTIVE = r"[A-ZÄÖÜ][a-zäöüß]+(?:en|e)\s+"  # "der Atomrechtlichen Entsorgungsverordnung"
# StrlSchV, AtG, BImSchG, GG, "SGB III"; not a margin number ("§ 8a RdNr. 3") or a gazette ("BGBl")
_ABBR = (r"(?!(?:RdNr|RdNrn|BGBl|BAnz|ABl|GVBl)(?![\w-]))"
         r"[A-ZÄÖÜ][A-Za-zÄÖÜäöüß]{0,12}?[A-ZÄÖÜ][a-z]{0,3}(?![\w-])(?:\s+[IVX]{1,4}(?!\w|\.\w))?")
_NAMED = (rf"(?:des|der|zur|zum|dem)\s+(?!{_GENERIC})(?:{_ADJECTIVE}){{0,2}}[A-ZÄÖÜ]{_W}*?{_LAW_WORD}"
          rf"(?:\s+\({_ABBR}(?:\s+\d{{4}})?\))?")
_SGB = r"des\s+(?:[A-ZÄÖÜ][a-zäöü]+en\s+)?Buches\s+(?:des\s+)?Sozialgesetzbuch(?:es|s)?(?:\s+[IVX]{1,4}(?![\w]))?"
_LAW = rf"""(?P<law>
      (?P<self>{_SELF})
    | (?:des|der|zur|zum|dem)\s+(?P<eu>{EU_ACT})       # "der Verordnung (EU) 2016/679"
    | (?:der|des)\s+{STANDARD}                        # "der DIN 6815"
    | {_SGB}
    | {_NAMED}
    | {_ABBR}(?:\s+\d{{4}}(?!\w|\.\d))?                # "StrlSchV", "StrlSchG 2017"
)"""
# A version of the law: "vom 20. Juli 2001" (compared by the resolver with the document's issue date),
# or a phrase that names a repealed version ("in der bis zum 31. Dezember 2018 geltenden Fassung").
# Without a law only a repealed version of the text's own law can follow ("in seiner bis dahin …").
_OWN_VERSION = r"""(?P<own_version>
      \s+in\s+(?:seiner|ihrer)\s+bis\s+[^.;,]{0,40}?geltenden\s+Fassung
    | \s+a\.\s?F\.
)"""
_VERSION = rf"""(?P<version>
      \s+vom\s+{DATE}
    | \s+in\s+(?:der|seiner|ihrer)\s+(?:bis\s+(?:zum\s+|einschließlich\s+)?{DATE}|bis\s+dahin
                                      |vor\s+dem\s+{DATE}|am\s+{DATE})\s+geltenden\s+Fassung
    | \s+in\s+der\s+Fassung\s+(?:der\s+Bekanntmachung\s+)?vom\s+{DATE}
    | \s+a\.\s?F\.
    | \s+alter\s+Fassung
)"""
_HISTORIC = re.compile(r"geltenden\s+Fassung|Bekanntmachung|a\.\s?F\.|alter\s+Fassung")

_REF = re.compile(rf"""
    (?:
        (?<![\w§])(?P<pp>§§)\s*(?P<pp_nums>{_SEC_NUM}(?:\s+(?:{_DETAIL})|{_SEP}{_SEC_NUM_NEXT})*)
      | (?<![\w§])(?P<p>§)\s*(?P<p_nums>{_SEC_NUM})
      | \b(?P<art>Artikeln|Artikels|Artikel|Art\.)\s*(?P<art_nums>{_UNIT_NUM}(?:{_SEP}{_UNIT_NUM_NEXT})*)
      | \b(?P<anl>Anlagen|Anlage)
            (?:\s+(?P<anl_nums>{_UNIT_NUM}(?:{_SEP}{_UNIT_NUM_NEXT})*)
              |(?=\s+(?:Teil|Tabelle|Nummer|Nr\.)\s))       # bare "Anlage Teil D": a single annex
      | \b(?P<anh>Anhängen|Anhänge|Anhangs|Anhang)\s+(?P<anh_nums>{_UNIT_NUM}(?:{_SEP}{_UNIT_NUM_NEXT})*)
      | \b(?<!zum\s)(?P<teil>Teil)\s+(?P<teil_nums>\d{{1,2}}|[IVX]{{1,5}})(?![\w])  # not "zum Teil 20 Prozent"
      | \b(?P<kap>Kapitel)\s+(?P<kap_nums>\d{{1,2}})(?![\w])
      | (?P<bare>{_BARE})
    )
    (?P<details>{_DETAILS})
    (?:\s+{_LAW}{_VERSION}?|{_OWN_VERSION})?
""", re.VERBOSE)

_HEADS = ("pp", "p", "art", "anl", "anh", "teil", "kap")


def find_german(text: str) -> Iterator[Reference]:
    """Every German citation in ``text`` (they may overlap other parsers' finds; the caller picks)."""
    return (_reference(m) for m in _REF.finditer(text))


def _reference(m: re.Match[str]) -> Reference:
    head = next((h for h in _HEADS if m[h]), None)
    if head is None:  # bare "Absatz 4": the § the text stands in
        kind: RefKind = "paragraph"
        units: list[str] = []
        range_to = None
        fields = _fields(m["bare"] + m["details"])
    else:
        word = m[head]
        kind = unit_kind(word) or "section"
        details = m["details"]
        if head == "pp":  # "§§ 97 Abs. 1, 708 Nr. 10, 713": subdivisions stand between the §§
            numbers, last, list_details = _section_list(m["pp_nums"])
            details = list_details + details
        elif head == "p":
            numbers, last = [m["p_nums"]], None
        elif m[head + "_nums"]:
            numbers, last = split_numbers(m[head + "_nums"])
        else:  # bare "Anlage" (a document's single annex) has no number: its label is just "Anlage"
            numbers, last = [""], None
        units = [canonical_unit(word, n) for n in numbers]
        range_to = canonical_unit(word, last) if last else None
        fields = _fields(details)
    return Reference(
        text=m[0], start=m.start(), end=m.end(), kind=kind,
        unit=units[0] if units else None, units=units, range_to=range_to, **fields, **_law_fields(m),
    )


# The parts of a "§§" list: a subdivision keyword, "bis", or a value (connectors and commas are skipped).
_LIST_PART = re.compile(
    rf"(?<![\w])(?P<kw>{'|'.join(kw for _, kw, _ in _DETAIL_FIELDS)})"
    r"|(?<![\w])(?P<bis>bis)(?![\w])"
    r"|(?<![\w])(?P<value>\d{1,4}(?:\s?[a-z](?![\w).]))?|[a-z]{1,2}\)?|[A-Z]|[IVX]{1,5})(?![\w])"
)
_LEADING_NUMBER = re.compile(r"\d+")


def _section_list(text: str) -> tuple[list[str], str | None, str]:
    """The § numbers of a "§§" list (ranges expanded), the end of a range, and the subdivisions as text.

    After a subdivision a number continues it ("§§ 34 und 78 Absatz 1 und 2") unless it is beyond the
    last § ("§§ 97 Abs. 1, 708 Nr. 10, 713": lists of §§ run upwards) or the same subdivision follows
    it again ("§§ 80 a Abs. 3, 80 Abs. 5").
    """
    parts = list(_LIST_PART.finditer(text))
    sections: list[str] = []
    details: list[str] = []  # the subdivision parts, with the original text between neighbours
    range_to = None
    field = None  # the subdivision being listed, None while listing §§
    detail_range = section_range = False
    last_detail_end = -1
    for i, part in enumerate(parts):
        nxt = parts[i + 1] if i + 1 < len(parts) else None
        if part["kw"] or (field is not None and (part["bis"] or detail_range
                                                 or not _starts_section(part, nxt, field, sections[-1]))):
            details.append(text[last_detail_end:part.start()] if last_detail_end >= 0 else " ")
            details.append(part[0])
            last_detail_end = part.end()
            field = _field_of(part["kw"]) if part["kw"] else field
            detail_range = bool(part["bis"])
            continue
        field, last_detail_end = None, -1
        if part["bis"]:
            section_range = bool(sections)
        elif section_range:
            sections[-1:] = expand_range(sections[-1], re.sub(r"\s", "", part["value"]))
            range_to, section_range = sections[-1], False
        else:
            sections.append(re.sub(r"\s", "", part["value"]))
    return sections, range_to, "".join(details)


def _starts_section(part: re.Match[str], nxt: re.Match[str] | None, field: int, last_section: str) -> bool:
    """Whether a value after a subdivision is the next § of the list rather than another subdivision."""
    a, b = _LEADING_NUMBER.match(part["value"]), _LEADING_NUMBER.match(last_section)
    if a and b and int(a[0]) > int(b[0]):
        return True
    return bool(a and nxt is not None and nxt["kw"] and _field_of(nxt["kw"]) == field)


def _field_of(keyword: str) -> int:
    return next(i for i, (_, kws, _) in enumerate(_DETAIL_FIELDS) if re.fullmatch(kws, keyword))


def _fields(details: str) -> dict[str, str]:
    """Subdivision fields from the details text: {"paragraph": "1", "sentence": "1", "number": "4"}."""
    out: dict[str, str] = {}
    for item in _DETAIL_ITEM.finditer(details):
        index = int(next(name for name, value in item.groupdict().items() if value)[1:])
        field = _DETAIL_FIELDS[index][0]
        if field is None or field in out:
            continue
        values = clean(_KEYWORDS.sub("", item[0])).replace(")", "")
        out[field] = f"Teil {values}" if field == "part" else values
    return out


def _law_fields(m: re.Match[str]) -> dict[str, object]:
    """law / self_reference / external from the designation and version phrase of a match."""
    if m["own_version"]:  # "§ 45 in seiner bis dahin geltenden Fassung": a repealed text of this law
        return {"law": None, "self_reference": True, "external": clean(m["own_version"])}
    if not m["law"]:
        return {"law": None, "self_reference": False, "external": None}
    # the version stays in ``law`` so the resolver can compare "vom <date>" with the issue date
    designation = clean(f"{m['law']}{m['version'] or ''}")
    external = None
    if m["eu"]:
        external = clean(m["eu"])
    elif m["version"] and _HISTORIC.search(m["version"]):
        external = designation  # a repealed version is outside any knowledge base
    return {"law": designation, "self_reference": bool(m["self"]), "external": external}
