"""Building blocks shared by the German and English reference parsers.

Canonical unit labels ("§ 5", "Art. 3", "Anlage 4", "Section 2.3"), list/range expansion, and the
patterns for acts that look alike in both languages (EU acts, technical standards, dates). The
knowledge base stores section labels of headings in the same canonical form (``canonical_unit``), so
that a parsed reference and a stored section compare as plain strings.
"""

from __future__ import annotations

import re

from desktop.kb.models import RefKind

# keyword (casefolded, as written) -> (canonical prefix, kind). Plural and inflected forms map to the
# singular so that "§§ 12 bis 14" and "Artikeln 24, 25" yield the same labels as "§ 12" and "Art. 24".
_UNIT_WORDS: dict[str, tuple[str, RefKind]] = {
    **dict.fromkeys(["§", "§§", "paragraf"], ("§", "section")),
    **dict.fromkeys(["artikel", "artikeln", "artikels", "art", "art."], ("Art.", "article")),
    **dict.fromkeys(["anlage", "anlagen"], ("Anlage", "annex")),
    **dict.fromkeys(["anhang", "anhangs", "anhänge", "anhängen"], ("Anhang", "annex")),
    **dict.fromkeys(["teil", "teile", "teils"], ("Teil", "part")),
    **dict.fromkeys(["kapitel", "kapitels"], ("Kapitel", "chapter")),
    **dict.fromkeys(["section", "sections", "sec.", "s.", "ss."], ("Section", "section")),
    **dict.fromkeys(["article", "articles"], ("Article", "article")),
    **dict.fromkeys(["rule", "rules"], ("Rule", "section")),
    **dict.fromkeys(["regulation", "regulations"], ("Regulation", "section")),
    **dict.fromkeys(["annex", "annexes"], ("Annex", "annex")),
    **dict.fromkeys(["schedule", "schedules"], ("Schedule", "annex")),
    **dict.fromkeys(["appendix", "appendices", "app", "app."], ("Appendix", "annex")),
    **dict.fromkeys(["chapter", "chapters"], ("Chapter", "chapter")),
    **dict.fromkeys(["part", "parts"], ("Part", "part")),
    **dict.fromkeys(["paragraph", "paragraphs", "para.", "paras."], ("Paragraph", "paragraph")),
}

_ROMAN = re.compile(r"[IVXLC]+")
_ROMAN_VALUES = {"I": 1, "V": 5, "X": 10, "L": 50, "C": 100}


def unit_kind(kind_word: str) -> RefKind | None:
    """The reference kind of a unit keyword ("§" → section, "Anlage" → annex), None if unknown."""
    entry = _UNIT_WORDS.get(kind_word.strip().casefold())
    return entry[1] if entry else None


def canonical_unit(kind_word: str, number: str) -> str:
    """The canonical label of a unit: ("§§", "9 a") → "§ 9a", ("Artikel", "3") → "Art. 3",
    ("Anlage", "") → "Anlage", ("rule", "3.2.1.") → "Rule 3.2.1", ("Anhang", "ii") → "Anhang II".

    Unknown keywords are kept as written (capitalised) so headings like "Titel 3" still get a label.
    """
    word = kind_word.strip()
    prefix = _UNIT_WORDS.get(word.casefold(), (word[:1].upper() + word[1:], "section"))[0]
    num = _normalise_number(number, german=prefix in ("§", "Art.", "Anlage", "Anhang", "Teil", "Kapitel"))
    return f"{prefix} {num}" if num else prefix


def _normalise_number(number: str, german: bool) -> str:
    num = re.sub(r"\s+", "", number).rstrip(".")
    if not num:
        return ""
    if _ROMAN.fullmatch(num.upper()) and not num.isdigit() and (num.isupper() or len(num) > 1):
        return num.upper()  # "Anhang ii" → "Anhang II"; a lone lower-case "a" stays a letter
    # German unit letters are lower case ("§ 9a"); English ones keep their case ("Rule A4.6.5", "5A")
    return num.lower() if german else num


def roman_to_int(text: str) -> int | None:
    if not text or not _ROMAN.fullmatch(text):
        return None
    total = 0
    for i, ch in enumerate(text):
        value = _ROMAN_VALUES[ch]
        nxt = _ROMAN_VALUES[text[i + 1]] if i + 1 < len(text) else 0
        total += -value if value < nxt else value
    return total


def _int_to_roman(value: int) -> str:
    out = ""
    for number, letters in ((100, "C"), (90, "XC"), (50, "L"), (40, "XL"), (10, "X"), (9, "IX"),
                            (5, "V"), (4, "IV"), (1, "I")):
        while value >= number:
            out += letters
            value -= number
    return out


_MAX_RANGE = 200  # a longer range is a misreading, not a citation; keep its two ends only
# "9a" → ("9", "a"); "3.2.1" → ("3.2.", "1"): the part that stays the same and the counted end
_COUNTED = re.compile(r"(?P<stem>(?:[A-Z]?\d+\.)*)(?P<n>\d+)(?P<letter>[a-z]?)")


def expand_range(first: str, last: str) -> list[str]:
    """The numbers of a range "12 bis 14" → [12, 13, 14]; "9a bis 9c" → [9a, 9b, 9c];
    "3.2.1 to 3.2.3" → [3.2.1, 3.2.2, 3.2.3]; "I bis III" → [I, II, III]. Other shapes: both ends."""
    a, b = roman_to_int(first), roman_to_int(last)
    if a is not None and b is not None and a < b <= _MAX_RANGE:
        return [_int_to_roman(i) for i in range(a, b + 1)]
    ma, mb = _COUNTED.fullmatch(first), _COUNTED.fullmatch(last)
    if not ma or not mb or ma["stem"] != mb["stem"]:
        return [first, last]
    na, nb = int(ma["n"]), int(mb["n"])
    if ma["letter"] or mb["letter"]:
        if na == nb and ma["letter"] and mb["letter"] and ma["letter"] < mb["letter"]:
            return [f"{ma['stem']}{na}{chr(c)}" for c in range(ord(ma["letter"]), ord(mb["letter"]) + 1)]
        if na < nb and not ma["letter"]:  # "7 bis 9b": whole numbers up to 9, then the lettered end
            return [f"{ma['stem']}{i}" for i in range(na, nb + 1)] + [last]
        return [first, last]
    if not na < nb or nb - na > _MAX_RANGE:
        return [first, last]
    return [f"{ma['stem']}{i}" for i in range(na, nb + 1)]


# A list of unit numbers as written: "6, 7 und 9", "12 bis 14", "24, 25 and 32", "I to III".
_LIST_TOKEN = re.compile(
    r"\b(?P<range>bis|to)\b"  # range word between two numbers
    r"|(?P<num>[A-Z]?\d+(?:\.\d+)*[A-Za-z]?|[IVXLC]+)(?![\w.]\d)"  # one number (subdivisions dropped)
)


def split_numbers(numbers: str) -> tuple[list[str], str | None]:
    """The numbers of a list/range expression, expanded, and the end of the range if it is one."""
    out: list[str] = []
    range_to: str | None = None
    pending_range = False
    for m in _LIST_TOKEN.finditer(numbers):
        if m["range"]:
            pending_range = bool(out)
            continue
        num = m["num"]
        if pending_range:
            out[-1:] = expand_range(out[-1], num)
            range_to = num
            pending_range = False
        else:
            out.append(num)
    return list(dict.fromkeys(out)), range_to


# --- patterns shared by both languages ------------------------------------------------------------

MONTHS = {
    **{m: i for i, m in enumerate(["januar", "februar", "märz", "april", "mai", "juni", "juli", "august",
                                   "september", "oktober", "november", "dezember"], 1)},
    **{m: i for i, m in enumerate(["january", "february", "march", "april", "may", "june", "july",
                                   "august", "september", "october", "november", "december"], 1)},
}
_MONTH_NAMES = "|".join(sorted({m.capitalize() for m in MONTHS}, key=len, reverse=True))
# "31. Dezember 2018", "29.11.2018", "5 December 2013"
DATE = rf"\d{{1,2}}\.?\s*(?:(?:{_MONTH_NAMES})\s+|\d{{1,2}}\.\s*)\d{{4}}"
_DATE_PARTS = re.compile(rf"(\d{{1,2}})\.?\s*(?:({_MONTH_NAMES})\s+|(\d{{1,2}})\.\s*)(\d{{4}})")


def parse_date(text: str) -> str | None:
    """The first date in ``text`` as ISO "YYYY-MM-DD", or None."""
    m = _DATE_PARTS.search(text)
    if not m:
        return None
    month = MONTHS[m[2].casefold()] if m[2] else int(m[3])
    return f"{int(m[4]):04d}-{month:02d}-{int(m[1]):02d}"


# EU acts: "Verordnung (EU) 2016/679", "Richtlinie 2013/59/Euratom", "Regulation (EU) No 575/2013",
# "Directive 2014/65/EU", "Verordnung (Euratom) Nr. 3954/87". An act is only taken for one when it
# names the Union/Community (in brackets or as suffix), so "Verordnung 12/3" is no EU act.
_EU_KIND = (r"(?:Durchführungsverordnung|Delegierte[n]?\s+Verordnung|Verordnung|Richtlinie|Beschlusses|Beschluss"
            r"|Entscheidung|(?:Implementing|Delegated|Council|Commission)\s+(?:Regulation|Directive|Decision)"
            r"|Regulation|Directive|Decision)")
_EU_ORG = r"(?:EU|EG|EWG|Euratom|EC|EEC|EGKS|ECSC)"
_EU_NUMBER = r"(?:(?:Nr\.|No\.?)\s*)?\d{1,4}/\d{1,4}"
EU_ACT = (rf"{_EU_KIND}\s+(?:\({_EU_ORG}(?:,\s*{_EU_ORG})*\)\s+{_EU_NUMBER}(?:/{_EU_ORG})?"
          rf"|{_EU_NUMBER}/{_EU_ORG})(?![\w/])")

# Technical standards and recommendations cited by number: "KTA 1401", "ICRP 103", "DIN 6815",
# "DIN EN ISO 9001", "IEC 60601-1", "ISO/IEC 17025", "ISO 9001:2015", "ICRP Publication 103".
_STD_ORG = r"(?:DIN|EN|ISO|IEC|VDE|VDI|KTA|ICRP|ICRU|IAEA|NCRP|ANSI|ASTM|BS|DGUV|TRGS)"
STANDARD = (rf"\b{_STD_ORG}(?:[ /]{_STD_ORG})*(?:\s+(?:Publication|Publikation|Veröffentlichung))?"
            rf"\s+\d{{1,6}}(?:[-.]\d{{1,4}})*(?::\d{{4}})?(?![\w-])")

EU_ACT_RE = re.compile(EU_ACT)
STANDARD_RE = re.compile(STANDARD)
# a hyphen at a line break joins a word ("Strahlenschutz-\ngesetzes"), except before a conjunction
# ("Teilchen- oder"); before a capital it is a real hyphen ("Bundes-\nImmissionsschutzgesetzes")
_HYPHEN_JOIN = re.compile(r"-[^\S\n]*\n\s*(?=[a-zäöüß])(?!(?:und|oder|bis|sowie|bzw|als|wie)\b)")
_HYPHEN_KEEP = re.compile(r"-[^\S\n]*\n\s*(?=[A-ZÄÖÜ])")


def clean(text: str) -> str:
    """Text of a designation for display and matching: line-break hyphens joined, spaces collapsed."""
    return " ".join(_HYPHEN_KEEP.sub("-", _HYPHEN_JOIN.sub("", text)).split())
