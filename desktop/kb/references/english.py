"""English citations: "Section 5", "section 2.3(1)(a)", "Articles 24, 25 and 32", "Rule 3.2.1",
"Annex II", "paragraph 64 of Schedule 1 to FSMR", "COBS Rule 15.9.1", "section 15(2) of the Financial
Services and Markets Regulations 2015", "Article 4(1) of Regulation (EU) No 575/2013".

One regular expression finds a citation: optional module prefix, unit keyword and number(s) with
bracketed subdivisions, an optional enclosing annex ("of Schedule 1") and the law ("of this Act").
Pure functions, no I/O.
"""

from __future__ import annotations

import re
from collections.abc import Iterator

from desktop.kb.models import Reference, RefKind
from desktop.kb.references.units import EU_ACT, canonical_unit, clean, split_numbers, unit_kind

# A unit number: "5", "2.3", "3.2.1", "A4.6.5", "5A"; a trailing sentence dot is not part of it.
_NUM = r"[A-Z]?\d{1,4}(?:\.\d{1,4})*[A-Za-z]?(?![\w])"
# Parts, chapters and annexes carry plain numbers; in "Part 12.125" the rest is a section number.
_WHOLE = r"[A-Z]?\d{1,3}[A-Za-z]?(?![\w])"
_ROMAN = r"[IVXL]{1,6}(?![\w])"  # "Part I", "Annex II" (only after a capitalised keyword, see below)
# Bracketed subdivisions: "(1)(a)", "(2)(c)", "(iv)". "(EU)" or "(CRM)" are no subdivisions.
_SUBS = r"(?:\s?\((?:\d{1,3}[a-z]?|[a-z]{1,4}|[A-Z])\))*"
_UNIT_VALUE = rf"(?:{_NUM}|{_ROMAN}){_SUBS}"
_WHOLE_VALUE = rf"(?:{_WHOLE}|{_ROMAN}){_SUBS}"
_PARA_VALUE = rf"(?:{_NUM}|\((?:\d{{1,3}}[a-z]?|[a-z]{{1,4}})\)){_SUBS}"  # "paragraph 64", "paragraph (4)"
_SEP = r"(?:\s*,\s*(?:(?:and|or)\s+)?|\s+(?:and/or|and|or|to)\s+)"

# Keywords. Only plural keywords take a list ("Articles 24, 25 and 32"): after a singular one
# "and 4" is far more often prose ("Rule 3.2.1 and 4 other rules") than a second number.
_UNIT_SINGULAR = r"Section|section|Sec\.|s\.|Article|article|Rule|rule|regulation"
_UNIT_PLURAL = r"Sections|sections|ss\.|Articles|articles|Rules|rules|regulations"
_WHOLE_SINGULAR = r"Annex|ANNEX|Schedule|schedule|Appendix|App\.?|Chapter|chapter|Part"
_WHOLE_PLURAL = r"Annexes|Schedules|Appendices|Chapters|Parts"
_PARA_SINGULAR = r"Paragraph|paragraph|para\.|[Ss]ub-?section|[Ss]ub-?paragraph"
_PARA_PLURAL = r"Paragraphs|paragraphs|paras\.|[Ss]ub-?sections|[Ss]ub-?paragraphs"

# "of this Act", "of these Rules", "of this Part": the document the text stands in.
_SELF = (r"(?:this|these)\s+(?:Act|Regulations?|Rules|Rulebook|Directive|Law|Order|Code|Module|Guidance"
         r"|Chapter|Part|Schedule|Annex|Appendix|Section|Agreement|Instrument)(?![\w])")
# A named act ends in a law word, optionally with its year: "the Companies Regulations 2020", "the Act".
_NAME = (r"(?:[A-Z][\w'’-]*\s+(?:(?:and|of|for|on|in|the|&)\s+)?){0,8}"
         r"(?:Acts?|Regulations?|Rules|Law|Code|Order|Ordinance|Statute|Convention|Treaty|Directive|Rulebook"
         r"|Module|Sourcebook|Instrument)(?![\w])(?:\s+\d{4}(?![\w]))?"
         r"(?:\s+No\.?\s*\(?\d{1,4}\)?\s+of\s+\d{4}(?![\w]))?")  # "Law No. 4 of 2013"
_ACRONYM = r"[A-Z]{2,8}(?![\w])"  # "of FSMR", "of the COBS"
_LAW = rf"(?P<self>{_SELF})|(?:the\s+)?(?P<eu>{EU_ACT})|(?:the\s+)?{_NAME}|(?:the\s+)?{_ACRONYM}"

_REF = re.compile(rf"""
    (?:(?P<prefix>\b[A-Z]{{2,6}})\s+(?=(?:Rules?|Chapter|App)\b))?      # module: "COBS Rule 15.9.1"
    (?<![\w.])
    (?:
        (?P<ukw_p>{_UNIT_PLURAL})\s*(?P<unums_p>{_UNIT_VALUE}(?:{_SEP}{_UNIT_VALUE})*)
      | (?P<ukw>{_UNIT_SINGULAR})\s*(?P<unums>{_UNIT_VALUE})
      | (?P<wkw_p>{_WHOLE_PLURAL})\s*(?P<wnums_p>{_WHOLE_VALUE}(?:{_SEP}{_WHOLE_VALUE})*)
      | (?P<wkw>{_WHOLE_SINGULAR})\s*(?P<wnums>{_WHOLE_VALUE})
      | (?P<pkw_p>{_PARA_PLURAL})\s*(?P<pnums_p>{_PARA_VALUE}(?:{_SEP}{_PARA_VALUE})*)
      | (?P<pkw>{_PARA_SINGULAR})\s*(?P<pnums>{_PARA_VALUE})
    )
    (?:\s+(?:of|in|to)\s+(?P<outer_kw>Schedule|Annex|Appendix|App\.?)\s*(?P<outer_num>{_WHOLE}|{_ROMAN}))?
    (?P<lawpart>\s+(?P<prep>of|under|in|to)\s+(?P<law>{_LAW}))?
""", re.VERBOSE)

_KEYWORD_GROUPS = ("ukw_p", "ukw", "wkw_p", "wkw", "pkw_p", "pkw")
_NUMBER_GROUPS = ("unums_p", "unums", "wnums_p", "wnums", "pnums_p", "pnums")
_SUB_ITEM = re.compile(r"\((\w{1,4})\)")
_LOWER_ROMAN = re.compile(r"[ivx]+")
_PREFIX_NOT_MODULE = {"THE", "AND", "OR", "OF", "IN", "TO", "FOR", "ADGM", "FSRA", "UAE", "UK", "EU", "US"}


def find_english(text: str) -> Iterator[Reference]:
    """Every English citation in ``text`` (may overlap other parsers' finds; the caller picks)."""
    for m in _REF.finditer(text):
        ref = _reference(m, text)
        if ref is not None:
            yield ref


def _reference(m: re.Match[str], text: str) -> Reference | None:
    keyword = next(m[g] for g in _KEYWORD_GROUPS if m[g])
    numbers = next(m[g] for g in _NUMBER_GROUPS if m[g])
    first = re.match(rf"{_NUM}|{_ROMAN}", numbers)
    if first and re.fullmatch(_ROMAN, first[0]) and keyword[0].islower():
        return None  # "part I think": a Roman numeral only counts after a capitalised keyword
    start = m.start("prefix") if m["prefix"] and m["prefix"] not in _PREFIX_NOT_MODULE else _keyword_start(m)
    end, law_fields = _law(m)
    if m["prefix"] and m["prefix"] not in _PREFIX_NOT_MODULE and not law_fields["law"]:
        law_fields["law"] = m["prefix"]  # "COBS Rule 15.9.1" cites COBS
    fields = _subdivisions(numbers)
    kind: RefKind = "paragraph" if m["pkw"] or m["pkw_p"] else (unit_kind(keyword) or "section")
    units, range_to = _units(keyword, numbers) if kind != "paragraph" else ([], None)
    if kind == "paragraph" and "paragraph" not in fields and first:
        # "paragraph 64": the number itself is the paragraph; "paragraphs 93 to 97": all of them
        fields["paragraph"] = clean(numbers) if m["pkw_p"] else first[0]
    if m["outer_kw"]:
        kind, units, fields = _fold_into_annex(kind, units, fields, m["outer_kw"], m["outer_num"])
    return Reference(
        text=text[start:end], start=start, end=end, kind=kind, unit=units[0] if units else None,
        units=units, range_to=range_to, **fields, **law_fields,
    )


def _keyword_start(m: re.Match[str]) -> int:
    return next(m.start(g) for g in _KEYWORD_GROUPS if m[g])


def _units(keyword: str, numbers: str) -> tuple[list[str], str | None]:
    # brackets are subdivisions, not list members: "Rules 4.7.35(a) and 4.7.35(b)" is one rule
    nums, last = split_numbers(re.sub(r"\([^)]*\)", "", numbers))
    return [canonical_unit(keyword, n) for n in nums], canonical_unit(keyword, last) if last else None


def _subdivisions(numbers: str) -> dict[str, str]:
    """The bracketed subdivisions of the first number: (1) paragraph, (a) letter, (ii)/(26) number."""
    out: dict[str, str] = {}
    first_value = re.split(_SEP, numbers, maxsplit=1)[0]
    for item in _SUB_ITEM.findall(first_value):
        if item[0].isdigit():
            out["number" if "paragraph" in out else "paragraph"] = item
        elif "letter" in out and _LOWER_ROMAN.fullmatch(item):
            out.setdefault("number", item)
        else:
            out.setdefault("letter", item)
    return out


def _fold_into_annex(kind: RefKind, units: list[str], fields: dict[str, str], outer_kw: str,
                     outer_num: str) -> tuple[RefKind, list[str], dict[str, str]]:
    """"paragraph 64 of Schedule 1" → Schedule 1, paragraph 64; "Part 3 of Schedule 2" → Schedule 2,
    part "Part 3". Other units keep their own label ("Article 5 of Annex II" stays Article 5)."""
    if kind not in ("paragraph", "part"):
        return kind, units, fields
    fields = dict(fields)
    if kind == "part" and units:
        fields["part"] = units[0]
    return "annex", [canonical_unit(outer_kw, outer_num)], fields


def _law(m: re.Match[str]) -> tuple[int, dict[str, object]]:
    """End of the citation and its law fields. "to" names a law only after an annex ("Schedule 1 to
    FSMR"), "in" only this document ("in this Chapter"): "Rule 5 in the ADGM" names a place."""
    annex_like = bool(m["outer_kw"]) or unit_kind(m["wkw"] or m["wkw_p"] or "") == "annex"
    rejected = (m["prep"] == "to" and not annex_like) or (m["prep"] == "in" and not m["self"])
    if not m["lawpart"] or rejected:
        return m.start("lawpart") if m["lawpart"] else m.end(), {"law": None, "self_reference": False,
                                                                 "external": None}
    law = clean(m["law"])
    external = clean(m["eu"]) if m["eu"] else None
    return m.end(), {"law": law, "self_reference": bool(m["self"]), "external": external}
