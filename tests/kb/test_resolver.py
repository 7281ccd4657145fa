"""The reference resolver: law names → documents, units → pages, and the 30 gold references of laws-de.

An in-memory ReferenceIndex is built from the corpus: registry entries from the PDFs' title pages and
running headers, unit start pages from sections.json, and ``locate_text`` over the pages' text.
"""

from __future__ import annotations

import hashlib
import json
import re
import unicodedata
from dataclasses import dataclass, field
from pathlib import Path

import pytest

from desktop.kb.models import Reference, RegistryEntry, ResolvedReference, SectionLocation
from desktop.kb.references.parse import parse_references
from desktop.kb.references.resolver import resolve
from desktop.kb.references.names import abbreviation_matches, match_law, parse_designation, same_words

CORPUS = Path("/work/shared/corpus/laws-de")
LAWS = ["StrlSchG.pdf", "StrlSchV.pdf", "AtG.pdf", "AtEV.pdf", "NiSV.pdf"]
needs_corpus = pytest.mark.skipif(not CORPUS.is_dir(), reason=f"corpus folder {CORPUS} is missing")


# --- an in-memory index --------------------------------------------------------------------------------


@dataclass
class Unit:
    unit: str
    title: str | None
    page: int
    y: float


@dataclass
class FakeIndex:
    """A ReferenceIndex over units (with their start page and y) and page texts split into blocks."""

    entries: list[RegistryEntry]
    units: dict[str, list[Unit]]  # doc_id → units in reading order
    blocks: dict[str, list[tuple[int, float, str]]] = field(default_factory=dict)  # doc_id → (page, y, text)

    def registry(self) -> list[RegistryEntry]:
        return list(self.entries)

    def _file(self, doc_id: str) -> str:
        return next(e.file_name for e in self.entries if e.doc_id == doc_id)

    def find_section(self, doc_id: str, unit: str) -> SectionLocation | None:
        found = next((u for u in self.units.get(doc_id, []) if u.unit == unit), None)
        if found is None:
            return None
        return SectionLocation(doc_id=doc_id, file_name=self._file(doc_id), section=found.unit, title=found.title,
                               page=found.page)

    def locate_text(self, doc_id: str, text: str) -> SectionLocation | None:
        """The unit of the last heading at or before the (page, y) of the block where ``text`` starts."""
        wanted = normalise(text)
        pages: dict[int, list[tuple[float, str]]] = {}
        for page, y, block in self.blocks.get(doc_id, []):
            pages.setdefault(page, []).append((y, normalise(block)))
        for page, page_blocks in sorted(pages.items()):
            joined, starts = "", []
            for y, block in page_blocks:
                starts.append((len(joined), y))
                joined += block + " "
            at = joined.find(wanted)
            if at < 0:
                continue
            y = max(y for offset, y in starts if offset <= at)
            before = [u for u in self.units[doc_id] if (u.page, u.y) <= (page, y + 0.5)]
            if not before:
                return None
            return SectionLocation(doc_id=doc_id, file_name=self._file(doc_id), section=before[-1].unit,
                                   title=before[-1].title, page=page)
        return None


_CONJUNCTION = r"(?:und|oder|bis|sowie|bzw|als|wie)\b"


def normalise(text: str) -> str:
    """The corpus' verbatim rule: NFC, NBSP → space, line-break hyphens joined, whitespace collapsed."""
    text = unicodedata.normalize("NFC", text).replace("\xa0", " ")
    text = re.sub(rf"-[ \t]*\n[ \t]*(?!{_CONJUNCTION})(?=[a-zäöüß])", "", text)
    return " ".join(text.split())


# --- the index of the laws-de corpus ---------------------------------------------------------------------


def registry_entry(path: Path, doc_id: str) -> RegistryEntry:
    """Title, abbreviation, issue date and header name, read from the title page and the running header."""
    import pymupdf

    with pymupdf.open(path) as pdf:
        cover = pdf[0].get_text()
        header = next(b[4] for b in pdf[1].get_text("blocks") if b[1] < 50)  # "StrlSchV\nStrahlenschutz…"
    title = " ".join(cover.split("Ausfertigungsdatum:")[0].split())
    abbreviation = re.search(r"\(([^()]+)\)$", title)
    issued = re.search(r"Ausfertigungsdatum:\s*(\d{4}-\d{2}-\d{2})", cover)
    long_name = re.sub(r"\s*\(Stand[^)]*\)\s*$", "", header.strip().split("\n")[-1])
    short = abbreviation[1] if abbreviation else None
    aliases = [long_name] + ([short] if short and " " in short else [])
    return RegistryEntry(doc_id=doc_id, file_name=path.name, title=title,
                         short_name=short.split()[0] if short else None, aliases=aliases,
                         issued=issued[1] if issued else None)


def page_blocks(path: Path) -> list[tuple[int, float, str]]:
    import pymupdf

    with pymupdf.open(path) as pdf:
        return [(page.number + 1, block[1], block[4]) for page in pdf for block in page.get_text("blocks")]


@pytest.fixture(scope="module")
def corpus() -> tuple[FakeIndex, dict[str, str]]:
    """The index over laws-de and the doc_id of each file name."""
    if not CORPUS.is_dir():
        pytest.skip(f"corpus folder {CORPUS} is missing")
    sections = json.loads((CORPUS / "sections.json").read_text(encoding="utf-8"))
    ids = {name: hashlib.sha256((CORPUS / name).read_bytes()).hexdigest() for name in LAWS}
    entries = [registry_entry(CORPUS / name, ids[name]) for name in LAWS]
    units = {ids[name]: [Unit(u["unit"], u["title"], u["page"], u["y"]) for u in sections[name]] for name in LAWS}
    blocks = {ids[name]: page_blocks(CORPUS / name) for name in LAWS}
    return FakeIndex(entries, units, blocks), ids


def resolve_one(text: str, index: FakeIndex, from_doc: str | None) -> ResolvedReference:
    refs = parse_references(text)
    assert len(refs) == 1, [r.text for r in refs]
    return resolve(refs, index, from_doc=from_doc, context=text)[0]


# --- the registry derived from the PDFs -------------------------------------------------------------------


@needs_corpus
def test_registry_is_read_from_title_pages(corpus: tuple[FakeIndex, dict[str, str]]) -> None:
    index, _ = corpus
    by_file = {e.file_name: e for e in index.registry()}
    strlschv = by_file["StrlSchV.pdf"]
    assert strlschv.title.startswith("Verordnung zum Schutz vor der schädlichen Wirkung ionisierender Strahlung")
    assert (strlschv.short_name, strlschv.issued) == ("StrlSchV", "2018-11-29")
    assert strlschv.aliases == ["Strahlenschutzverordnung", "StrlSchV 2018"]
    assert (by_file["AtG.pdf"].short_name, by_file["AtG.pdf"].aliases) == ("AtG", ["Atomgesetz"])
    assert by_file["AtEV.pdf"].aliases == ["Atomrechtliche Entsorgungsverordnung"]


# --- which document ---------------------------------------------------------------------------------------


@needs_corpus
@pytest.mark.parametrize(
    ("text", "doc", "unit"),
    [
        ("nach § 3 Absatz 1 des Atomgesetzes", "AtG.pdf", "§ 3"),
        ("nach § 5 Abs. 2 StrlSchV", "StrlSchV.pdf", "§ 5"),
        ("nach § 12 StrlSchG 2017", "StrlSchG.pdf", "§ 12"),
        ("nach § 12 der Strahlenschutzverordnung", "StrlSchV.pdf", "§ 12"),
        ("nach § 3 der Atomrechtlichen Entsorgungsverordnung", "AtEV.pdf", "§ 3"),
        ("nach § 3 der Strahlenschutzverordnung vom 29. November 2018", "StrlSchV.pdf", "§ 3"),
        ("nach § 2 NiSV", "NiSV.pdf", "§ 2"),
    ],
)
def test_law_designation_picks_the_document(corpus: tuple[FakeIndex, dict[str, str]], text: str, doc: str,
                                            unit: str) -> None:
    index, ids = corpus
    result = resolve_one(text, index, from_doc=ids["StrlSchG.pdf"])
    assert result.status == "resolved", result.reason
    assert (result.target.doc, result.target.section) == (doc, unit)


@needs_corpus
def test_target_page_is_where_the_unit_starts(corpus: tuple[FakeIndex, dict[str, str]]) -> None:
    index, ids = corpus
    sections = json.loads((CORPUS / "sections.json").read_text(encoding="utf-8"))
    page = next(u["page"] for u in sections["AtG.pdf"] if u["unit"] == "§ 7")
    result = resolve_one("nach § 7 des Atomgesetzes", index, from_doc=ids["StrlSchV.pdf"])
    assert (result.target.page, result.target.doc_id) == (page, ids["AtG.pdf"])


@needs_corpus
@pytest.mark.parametrize(
    ("text", "reason_part"),
    [
        ("§ 14 des Bundes-Immissionsschutzgesetzes", "Bundes-Immissionsschutzgesetzes"),
        ("§ 3 der Strahlenschutzverordnung vom 20. Juli 2001", "2001-07-20"),
        ("§ 3 StrlSchV 2001", "2001"),
        ("§ 29 der Strahlenschutzverordnung in der bis zum 31. Dezember 2018 geltenden Fassung", "geltenden Fassung"),
        ("Artikel 83 der Verordnung (EU) 2016/679", "Verordnung (EU) 2016/679"),
        ("Richtlinie 2013/59/Euratom", "Richtlinie 2013/59/Euratom"),
        ("KTA 1401", "KTA 1401"),
    ],
)
def test_external_acts(corpus: tuple[FakeIndex, dict[str, str]], text: str, reason_part: str) -> None:
    index, ids = corpus
    result = resolve_one(text, index, from_doc=ids["StrlSchG.pdf"])
    assert result.status == "external" and result.targets == []
    assert reason_part in (result.reason or "")


@needs_corpus
def test_unknown_unit_is_not_found(corpus: tuple[FakeIndex, dict[str, str]]) -> None:
    index, ids = corpus
    result = resolve_one("§ 999 des Atomgesetzes", index, from_doc=ids["StrlSchG.pdf"])
    assert result.status == "not_found" and "AtG.pdf" in (result.reason or "") and "§ 999" in (result.reason or "")


@needs_corpus
def test_self_reference_and_bare_unit_use_the_source_document(corpus: tuple[FakeIndex, dict[str, str]]) -> None:
    index, ids = corpus
    for text in ("§ 5 dieser Verordnung", "§ 5"):
        result = resolve_one(text, index, from_doc=ids["StrlSchV.pdf"])
        assert (result.status, result.target.doc, result.target.section) == ("resolved", "StrlSchV.pdf", "§ 5")


def test_without_source_document_a_bare_unit_is_not_found() -> None:
    index = FakeIndex([], {})
    result = resolve(parse_references("§ 5"), index, from_doc=None)[0]
    assert result.status == "not_found" and result.reason


@needs_corpus
def test_range_gives_one_target_per_unit(corpus: tuple[FakeIndex, dict[str, str]]) -> None:
    index, ids = corpus
    result = resolve_one("die §§ 12 bis 14 des Strahlenschutzgesetzes", index, from_doc=ids["AtG.pdf"])
    assert [t.section for t in result.targets] == ["§ 12", "§ 13", "§ 14"]
    assert [t.page for t in result.targets] == [12, 13, 14]
    assert {t.doc for t in result.targets} == {"StrlSchG.pdf"}


@needs_corpus
def test_chain_shares_the_law(corpus: tuple[FakeIndex, dict[str, str]]) -> None:
    index, ids = corpus
    text = "nach § 5, § 6 oder § 9b des Atomgesetzes"
    results = resolve(parse_references(text), index, from_doc=ids["AtEV.pdf"], context=text)
    assert [(r.target.doc, r.target.section) for r in results] == [("AtG.pdf", "§ 5"), ("AtG.pdf", "§ 6"),
                                                                    ("AtG.pdf", "§ 9b")]


@needs_corpus
def test_bare_paragraph_is_the_section_the_text_stands_in(corpus: tuple[FakeIndex, dict[str, str]]) -> None:
    index, ids = corpus
    text = ("(2) Die Rechtsverordnung kann Genehmigungen, Zustimmungen nach Absatz 1 Nummer 4 und allgemeine "
            "Zulassungen im Rahmen der Zweckbestimmung dieses Gesetzes von persönlichen und sachlichen "
            "Voraussetzungen abhängig machen")
    result = resolve_one(text, index, from_doc=ids["AtG.pdf"])
    assert (result.status, result.target.section, result.target.page) == ("resolved", "§ 11", 24)
    missing = resolve(parse_references("nach Absatz 4"), index, from_doc=ids["AtG.pdf"])[0]
    assert missing.status == "not_found" and "context" in (missing.reason or "")


def test_standard_held_by_the_knowledge_base_resolves() -> None:
    entry = RegistryEntry(doc_id="k1", file_name="KTA_1401.pdf", title="KTA 1401 Allgemeine Forderungen")
    index = FakeIndex([entry], {"k1": []})
    result = resolve(parse_references("gemäß KTA 1401"), index, from_doc=None)[0]
    assert (result.status, result.target.doc, result.target.section) == ("resolved", "KTA_1401.pdf", None)


def test_latest_version_wins_when_two_are_held() -> None:
    old = RegistryEntry(doc_id="v1", file_name="StrlSchV_2001.pdf", title="Strahlenschutzverordnung (StrlSchV 2001)",
                        short_name="StrlSchV", issued="2001-07-20")
    new = RegistryEntry(doc_id="v2", file_name="StrlSchV_2018.pdf", title="Strahlenschutzverordnung (StrlSchV 2018)",
                        short_name="StrlSchV", issued="2018-11-29")
    assert match_law(parse_designation("StrlSchV"), [old, new]) is new
    assert match_law(parse_designation("der Strahlenschutzverordnung vom 20. Juli 2001"), [old, new]) is old
    assert match_law(parse_designation("StrlSchV 2001"), [new, old]) is old


# --- names and abbreviations ------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("abbr", "name", "expected"),
    [
        ("StrlSchG", "Strahlenschutzgesetz", True),
        ("StrlSchG", "Strahlenschutzgesetzes", True),
        ("StrlSchV", "Strahlenschutzverordnung", True),
        ("AtG", "Atomgesetz", True),
        ("AtEV", "Atomrechtliche Entsorgungsverordnung", True),
        ("BImSchG", "Bundes-Immissionsschutzgesetz", True),
        ("VwVfG", "Verwaltungsverfahrensgesetz", True),
        ("BGB", "Bürgerliches Gesetzbuch", True),
        ("FSMR", "Financial Services and Markets Regulations", True),
        ("StrlSchV", "Strahlenschutzgesetz", False),  # V is a Verordnung
        ("StrlSchG", "Strahlenschutzverordnung", False),
        ("AtEV", "Atomrechtliche Abfallverbringungsverordnung", False),  # E must start a word
        ("AtG", "Arzneimittelgesetz", False),  # the t is far from the A
        ("AtG", "Atomgesetz über alles", False),  # the last word is no Gesetz
        ("Atomgesetz", "Atomgesetz", False),  # no abbreviation at all
    ],
)
def test_abbreviation_matches(abbr: str, name: str, expected: bool) -> None:
    assert abbreviation_matches(abbr, name) is expected


@needs_corpus
def test_foreign_law_matches_no_corpus_abbreviation(corpus: tuple[FakeIndex, dict[str, str]]) -> None:
    index, _ = corpus
    for entry in index.registry():
        assert not abbreviation_matches(entry.short_name or "", "Bundes-Immissionsschutzgesetz")
    assert match_law(parse_designation("des Bundes-Immissionsschutzgesetzes"), index.registry()) is None


def test_parse_designation() -> None:
    d = parse_designation("der Strahlenschutzverordnung vom 20. Juli 2001")
    assert (d.name, d.date, d.year) == ("Strahlenschutzverordnung", "2001-07-20", None)
    d = parse_designation("des Atomgesetzes (AtG)")
    assert (d.name, d.abbreviation) == ("Atomgesetzes", "AtG")
    assert parse_designation("StrlSchG 2017").year == "2017"
    assert parse_designation("the Companies Regulations 2020").name == "Companies Regulations"


def test_same_words_tolerates_inflection() -> None:
    assert same_words("Atomgesetzes", "Atomgesetz")
    assert same_words("Atomrechtlichen Entsorgungsverordnung", "Atomrechtliche Entsorgungsverordnung")
    assert not same_words("Atomgesetz", "Strahlenschutzgesetz")


# --- the 30 gold references of laws-de ------------------------------------------------------------------


def _gold() -> list[dict]:
    path = CORPUS / "references_dev.jsonl"
    if not path.is_file():
        return []
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line.strip()]


GOLD = _gold()


def pick(refs: list[Reference], context: str, reference: str) -> Reference:
    """The parsed reference overlapping the gold reference's span."""
    start = context.index(reference)
    end = start + len(reference)
    hits = [r for r in refs if r.start < end and r.end > start]
    assert hits, f"no parsed reference overlaps {reference!r}"
    return hits[0]


def check_gold(item: dict, index: FakeIndex, ids: dict[str, str]) -> None:
    context, gold = item["context"], item["target"]
    ref = pick(parse_references(context), context, item["reference"])
    result = resolve([ref], index, from_doc=ids[item["doc"]], context=context)[0]
    if gold["doc"] is None:
        assert result.status == "external", (result.status, result.reason)
        return
    assert result.status == "resolved", result.reason
    expected = item.get("targets") or [{"doc": gold["doc"], "unit": gold["unit"], "target_page": item["target_page"]}]
    got = [(t.doc, t.section, t.page) for t in result.targets]
    assert got[: len(expected)] == [(t["doc"], t["unit"], t["target_page"]) for t in expected]
    if gold.get("range_to"):
        assert ref.range_to == gold["range_to"] and got[-1][1] == gold["range_to"]
    for key in ("paragraph", "sentence", "number", "letter", "part", "table", "column"):
        if gold.get(key) is not None:
            assert getattr(ref, key) == gold[key], key


@pytest.mark.skipif(not GOLD, reason=f"gold references {CORPUS / 'references_dev.jsonl'} are missing")
@pytest.mark.parametrize("item", GOLD, ids=[g["id"] for g in GOLD])
def test_gold_reference(corpus: tuple[FakeIndex, dict[str, str]], item: dict) -> None:
    index, ids = corpus
    check_gold(item, index, ids)
