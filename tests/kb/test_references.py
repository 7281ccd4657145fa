"""The reference parser: spans, units, subdivisions, law designations, kinds, no false positives."""

from __future__ import annotations

import pytest

from desktop.kb.models import Reference
from desktop.kb.references.parse import canonical_unit, parse_references
from desktop.kb.references.units import expand_range, parse_date, split_numbers


def refs(text: str) -> list[Reference]:
    found = parse_references(text)
    for r in found:  # every span is an exact slice of the input
        assert text[r.start:r.end] == r.text
    for a, b in zip(found, found[1:]):
        assert a.end <= b.start, "references overlap"
    return found


def one(text: str) -> Reference:
    found = refs(text)
    assert len(found) == 1, [r.text for r in found]
    return found[0]


# --- German statutes ----------------------------------------------------------------------------------


def test_simple_section_with_span() -> None:
    text = "Die Genehmigung nach § 5 ist zu erteilen."
    r = one(text)
    assert (r.text, r.start, r.end, r.kind, r.unit, r.units) == ("§ 5", 21, 24, "section", "§ 5", ["§ 5"])
    assert r.law is None and not r.self_reference and r.external is None


def test_lettered_section() -> None:
    r = one("nach § 9a bleibt unberührt")
    assert (r.text, r.unit) == ("§ 9a", "§ 9a")


def test_range_expands_every_unit() -> None:
    r = one("sind die §§ 12 bis 14 entsprechend anzuwenden")
    assert r.text == "§§ 12 bis 14"
    assert r.units == ["§ 12", "§ 13", "§ 14"] and r.unit == "§ 12" and r.range_to == "§ 14"


def test_list_of_sections() -> None:
    r = one("nach den §§ 6, 7 und 9 zu prüfen")
    assert r.units == ["§ 6", "§ 7", "§ 9"] and r.range_to is None


def test_list_with_law_applies_to_all() -> None:
    r = one("anzeigepflichtig nach §§ 17 oder 19 des Strahlenschutzgesetzes sind.")
    assert r.text == "§§ 17 oder 19 des Strahlenschutzgesetzes"
    assert r.units == ["§ 17", "§ 19"] and r.law == "des Strahlenschutzgesetzes"


def test_full_citation_with_subdivisions_and_law() -> None:
    text = "durch einen nach § 172 Absatz 1 Satz 1 Nummer 4 des Strahlenschutzgesetzes bestimmten"
    r = one(text)
    assert r.text == "§ 172 Absatz 1 Satz 1 Nummer 4 des Strahlenschutzgesetzes"
    assert (r.unit, r.paragraph, r.sentence, r.number) == ("§ 172", "1", "1", "4")
    assert r.law == "des Strahlenschutzgesetzes"


def test_abbreviated_subdivisions_and_abbreviated_law() -> None:
    r = one("gemäß § 5 Abs. 2 S. 1 Nr. 3 Buchst. a StrlSchV gilt")
    assert r.text == "§ 5 Abs. 2 S. 1 Nr. 3 Buchst. a StrlSchV"
    assert (r.paragraph, r.sentence, r.number, r.letter, r.law) == ("2", "1", "3", "a", "StrlSchV")


def test_abbreviation_with_year() -> None:
    r = one("nach § 12 StrlSchG 2017.")
    assert (r.text, r.law) == ("§ 12 StrlSchG 2017", "StrlSchG 2017")


def test_paragraph_with_letter_suffix_and_number() -> None:
    r = one("eine Anlage nach § 2 Absatz 3a Nummer 1 betreibt")
    assert (r.unit, r.paragraph, r.number) == ("§ 2", "3a", "1")


def test_repeated_keyword_list_in_subdivision() -> None:
    r = one("nach § 12 Absatz 1 Nummer 1, Nummer 2 oder Nummer 3 des Strahlenschutzgesetzes plant")
    assert (r.paragraph, r.number, r.law) == ("1", "1, 2 oder 3", "des Strahlenschutzgesetzes")


def test_citation_across_a_line_break() -> None:
    text = "Tätigkeit nach § 12\nAbsatz 1 Nummer 1 des Strahlenschutz-\ngesetzes plant"
    r = one(text)
    assert r.text == "§ 12\nAbsatz 1 Nummer 1 des Strahlenschutz-\ngesetzes"
    assert r.law == "des Strahlenschutzgesetzes"  # the line-break hyphen is joined


def test_article_abbreviated() -> None:
    r = one("nach Art. 3 Abs. 1 gilt")
    assert (r.text, r.kind, r.unit, r.paragraph) == ("Art. 3 Abs. 1", "article", "Art. 3", "1")


def test_article_of_eu_regulation_is_external() -> None:
    r = one("ausschließlich Artikel 83 der Verordnung (EU) 2016/679 anzuwenden")
    assert r.text == "Artikel 83 der Verordnung (EU) 2016/679"
    assert (r.kind, r.unit) == ("article", "Art. 83")
    assert r.external == "Verordnung (EU) 2016/679"


def test_article_list_of_eu_regulation() -> None:
    r = one("richten sich nach den Artikeln 24, 25 und 32 der Verordnung (EU) 2016/679.")
    assert r.units == ["Art. 24", "Art. 25", "Art. 32"] and r.external == "Verordnung (EU) 2016/679"


def test_annex_with_table_and_column() -> None:
    r = one("die Werte der Anlage 4 Tabelle 1 Spalte 4 überschreitet")
    assert (r.text, r.kind, r.unit, r.table, r.column) == ("Anlage 4 Tabelle 1 Spalte 4", "annex", "Anlage 4", "1", "4")


def test_annex_part() -> None:
    r = one("die Unterlagen nach Anlage 2 Teil A sowie")
    assert (r.text, r.unit, r.part) == ("Anlage 2 Teil A", "Anlage 2", "Teil A")


def test_bare_annex_of_a_single_annex_document() -> None:
    r = one("die nach Anlage Teil D erfasst werden")
    assert (r.text, r.kind, r.unit, r.part) == ("Anlage Teil D", "annex", "Anlage", "Teil D")


def test_anhang_roman() -> None:
    r = one("die in Anhang II genannten Werte")
    assert (r.text, r.kind, r.unit) == ("Anhang II", "annex", "Anhang II")


def test_annex_of_a_historic_version_with_zur() -> None:
    r = one("Anlage XI Teil A zur Strahlenschutzverordnung in der bis zum 31. Dezember 2018 geltenden Fassung")
    assert (r.unit, r.part) == ("Anlage XI", "Teil A")
    assert r.external is not None and "Strahlenschutzverordnung" in r.external


@pytest.mark.parametrize(
    ("text", "ref_text", "paragraph", "sentence", "number"),
    [
        ("den nach Absatz 4 festzusetzenden Referenzwert", "Absatz 4", "4", None, None),
        ("Zustimmungen nach Absatz 1 Nummer 4 und", "Absatz 1 Nummer 4", "1", None, "4"),
        ("(3) Die Absätze 1 und 2 gelten nicht", "Absätze 1 und 2", "1 und 2", None, None),
        ("abweichend von den Absätzen 1 bis 3 ausschließlich", "Absätzen 1 bis 3", "1 bis 3", None, None),
        ("Satz 2 gilt entsprechend.", "Satz 2", None, "2", None),
        ("nach Abs. 2 Satz 1 zu melden", "Abs. 2 Satz 1", "2", "1", None),
    ],
)
def test_bare_intra_section_references(text: str, ref_text: str, paragraph: str | None,
                                       sentence: str | None, number: str | None) -> None:
    r = one(text)
    assert (r.text, r.kind, r.unit, r.units) == (ref_text, "paragraph", None, [])
    assert (r.paragraph, r.sentence, r.number) == (paragraph, sentence, number)


def test_enumerator_after_a_list_is_not_a_value() -> None:
    r = one("nach Absatz 1 und 2.\xa0die Behörde")
    assert r.text == "Absatz 1"


@pytest.mark.parametrize(
    ("text", "law"),
    [
        ("§ 3 Absatz 1 des Atomgesetzes", "des Atomgesetzes"),
        ("§ 12 der Strahlenschutzverordnung", "der Strahlenschutzverordnung"),
        ("§ 14 des Bundes-Immissionsschutzgesetzes", "des Bundes-Immissionsschutzgesetzes"),
        ("§ 3 der Atomrechtlichen Entsorgungsverordnung", "der Atomrechtlichen Entsorgungsverordnung"),
        ("§ 1 Absatz 1 Nummer 2 des MTA-Gesetzes", "des MTA-Gesetzes"),
        ("§ 7 des Fünften Buches Sozialgesetzbuch", "des Fünften Buches Sozialgesetzbuch"),
        ("§ 4 AtG", "AtG"),
    ],
)
def test_law_designations(text: str, law: str) -> None:
    r = one(f"gilt nach {text} entsprechend")
    assert (r.text, r.law, r.self_reference, r.external) == (text, law, False, None)


@pytest.mark.parametrize("designation", ["dieses Gesetzes", "dieser Verordnung"])
def test_german_self_references(designation: str) -> None:
    r = one(f"im Sinne des § 5 {designation} gilt")
    assert r.self_reference and r.law == designation and r.external is None


def test_generic_ordinance_is_no_law() -> None:
    found = refs("in der Rechtsverordnung nach § 24 Satz 1 oder § 5 der Verordnung über die Gewährleistung")
    assert [(r.text, r.law) for r in found] == [("§ 24 Satz 1", None), ("§ 5", None)]


def test_historic_version_until_date_is_external() -> None:
    text = ("nach § 29 Absatz 2 Satz 1 der Strahlenschutzverordnung in der bis zum 31. Dezember 2018 "
            "geltenden Fassung erteilte Freigabe")
    r = one(text)
    assert r.text.endswith("geltenden Fassung") and (r.unit, r.paragraph, r.sentence) == ("§ 29", "2", "1")
    assert r.external and "Strahlenschutzverordnung" in r.external
    assert r.law == "der Strahlenschutzverordnung in der bis zum 31. Dezember 2018 geltenden Fassung"


def test_historic_version_by_announcement_is_external() -> None:
    r = one("§ 4 der Strahlenschutzverordnung in der Fassung der Bekanntmachung vom 30. Juni 1989 gilt")
    assert r.external is not None and r.law is not None and "30. Juni 1989" in r.law


def test_version_date_is_kept_for_the_resolver() -> None:
    r = one("nach § 3 der Strahlenschutzverordnung vom 20. Juli 2001 (BGBl. I S. 1714)")
    assert r.text == "§ 3 der Strahlenschutzverordnung vom 20. Juli 2001"
    assert r.law == "der Strahlenschutzverordnung vom 20. Juli 2001" and r.external is None


def test_own_historic_version_without_law() -> None:
    r = one("nach § 45 Absatz 1 Nummer 1 in seiner bis dahin geltenden Fassung erteilt")
    assert (r.unit, r.law, r.self_reference, r.external) == ("§ 45", None, True, "in seiner bis dahin geltenden Fassung")


def test_alte_fassung_is_external() -> None:
    r = one("nach § 29 StrlSchV a.F. erteilt")
    assert (r.text, r.law, r.external) == ("§ 29 StrlSchV a.F.", "StrlSchV a.F.", "StrlSchV a.F.")


def test_a_date_needs_a_law() -> None:
    assert one("§ 5 vom 20. Juli 2001 gilt").text == "§ 5"


def test_law_is_shared_along_a_chain() -> None:
    text = "Wer eine Tätigkeit nach § 5, § 6, § 7, § 9 oder § 9b des Atomgesetzes plant"
    found = refs(text)
    assert [r.unit for r in found] == ["§ 5", "§ 6", "§ 7", "§ 9", "§ 9b"]
    assert all(r.law == "des Atomgesetzes" for r in found)
    assert found[0].text == "§ 5"  # the span stays the citation as written


def test_law_is_not_shared_across_other_words() -> None:
    found = refs("nach § 33 in Verbindung mit § 37 des Atomgesetzes")
    assert [(r.unit, r.law) for r in found] == [("§ 33", None), ("§ 37", "des Atomgesetzes")]


def test_court_style_section_list_with_subdivisions_between() -> None:
    r = one("Die Entscheidung beruht auf §§ 97 Abs.1, 708 Nr. 10, 713 ZPO.")
    assert r.units == ["§ 97", "§ 708", "§ 713"] and r.law == "ZPO"
    assert (r.paragraph, r.number) == ("1", "10")
    r = one("gemäß §§ 80 a Abs. 3, 80 Abs. 5 VwGO zulässig")  # the same subdivision again: a new §
    assert r.units == ["§ 80a", "§ 80"] and r.paragraph == "3"
    assert one("Als arbeitslos gilt nach § 118 Abs. 1 SGB III.").law == "SGB III"
    assert one("vgl. § 8a RdNr 5").text == "§ 8a"  # a margin number, not a law


def test_numbers_after_a_subdivision_below_the_last_section_stay_subdivisions() -> None:
    r = one("nach §§ 34 und 78 Absatz 1 Nummer 1 und 2 der Strahlenschutzverordnung vom 30. Juni 1989")
    assert r.units == ["§ 34", "§ 78"] and (r.paragraph, r.number) == ("1", "1 und 2")


def test_section_letter_written_apart() -> None:
    r = one("erfordern auch § 1361 b Abs. 3 und 4 BGB eine")
    assert (r.unit, r.paragraph, r.law) == ("§ 1361b", "3 und 4", "BGB")
    assert [x.text for x in refs("§ 5 i.V.m. § 6")] == ["§ 5", "§ 6"]


def test_german_part_and_chapter() -> None:
    r = one("die Vorschriften von Teil 2 dieses Gesetzes")
    assert (r.kind, r.unit, r.self_reference) == ("part", "Teil 2", True)
    assert one("nach Kapitel 4").kind == "chapter"
    assert refs("Das gilt zum Teil 20 Prozent") == []


def test_two_citations_in_one_sentence() -> None:
    text = "gilt als Bestimmung nach § 128 Absatz 1 fort, wenn die Voraussetzungen nach § 128 Absatz 2 erfüllt sind."
    found = refs(text)
    assert [(r.text, r.paragraph) for r in found] == [("§ 128 Absatz 1", "1"), ("§ 128 Absatz 2", "2")]


# --- EU acts and standards -------------------------------------------------------------------------


@pytest.mark.parametrize(
    "act",
    ["Richtlinie 2013/59/Euratom", "Verordnung (EU) 2016/679", "Regulation (EU) No 575/2013",
     "Directive 2014/65/EU", "Verordnung (Euratom) Nr. 3954/87"],
)
def test_eu_acts_are_external_documents(act: str) -> None:
    r = one(f"zur Umsetzung der {act} des Rates")
    assert (r.text, r.kind, r.law, r.external, r.unit) == (act, "document", act, act, None)


@pytest.mark.parametrize("standard", ["KTA 1401", "ICRP 103", "DIN 6815", "DIN EN ISO 9001", "IEC 60601-1",
                                      "DIN EN 60825-1:2015"])
def test_standards_are_documents_left_to_the_resolver(standard: str) -> None:
    r = one(f"gemäß {standard} geprüft")
    assert (r.text, r.kind, r.law, r.external) == (standard, "document", standard, None)


# --- English --------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "kind", "unit"),
    [
        ("Section 5", "section", "Section 5"),
        ("Article 12", "article", "Article 12"),
        ("Annex II", "annex", "Annex II"),
        ("Schedule 1", "annex", "Schedule 1"),
        ("Chapter 4", "chapter", "Chapter 4"),
        ("Part 3", "part", "Part 3"),
        ("Rule 3.2.1", "section", "Rule 3.2.1"),
    ],
)
def test_english_units(text: str, kind: str, unit: str) -> None:
    r = one(f"as required by {text}.")
    assert (r.text, r.kind, r.unit) == (text, kind, unit)


def test_english_section_with_subdivisions_and_law() -> None:
    r = one("see section 2.3(1)(a) of the Act for details")
    assert (r.text, r.unit, r.paragraph, r.letter, r.law) == ("section 2.3(1)(a) of the Act", "Section 2.3", "1", "a",
                                                              "the Act")


@pytest.mark.parametrize(
    ("text", "law", "self_reference"),
    [
        ("Rule 3.2.1 of these Rules", "these Rules", True),
        ("Article 5 of this Regulation", "this Regulation", True),
        ("Section 12 of this Act", "this Act", True),
        ("Section 5 of the Companies Regulations 2020", "the Companies Regulations 2020", False),
        ("section 127(2)(a) of FSMR", "FSMR", False),
    ],
)
def test_english_law_designations(text: str, law: str, self_reference: bool) -> None:
    r = one(f"subject to {text}, a person")
    assert (r.text, r.law, r.self_reference) == (text, law, self_reference)


def test_english_paragraph_reference() -> None:
    r = one("the conditions in paragraph (4) of these Regulations apply")
    assert (r.kind, r.paragraph, r.self_reference, r.unit) == ("paragraph", "4", True, None)


def test_paragraph_of_a_schedule_is_that_schedule() -> None:
    r = one("specified by paragraph 64 of Schedule 1 to FSMR.")
    assert (r.text, r.kind, r.unit, r.paragraph, r.law) == ("paragraph 64 of Schedule 1 to FSMR", "annex",
                                                            "Schedule 1", "64", "FSMR")


def test_english_lists_and_ranges() -> None:
    r = one("under Articles 24, 25 and 32 of this Regulation")
    assert r.units == ["Article 24", "Article 25", "Article 32"]
    r = one("Sections 5 to 7 apply")
    assert r.units == ["Section 5", "Section 6", "Section 7"] and r.range_to == "Section 7"


def test_module_prefix_names_the_rulebook() -> None:
    r = one("as required under COBS Rule 15.9.1.")
    assert (r.text, r.unit, r.law) == ("COBS Rule 15.9.1", "Rule 15.9.1", "COBS")


def test_english_article_of_eu_regulation() -> None:
    r = one("Article 4(1)(26) of Regulation (EU) No 575/2013")
    assert (r.unit, r.paragraph, r.number, r.external) == ("Article 4", "1", "26", "Regulation (EU) No 575/2013")


def test_to_does_not_name_a_law_after_a_rule() -> None:
    r = one("report breaches of Rule 3.2.1 to the Regulator")
    assert (r.text, r.law) == ("Rule 3.2.1", None)


# --- no false positives --------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "text",
    [
        "Am 31.12.2018 wurden 50 Millisievert gemessen, 20 Prozent weniger als 2017.",
        "Abs. und Nr. ohne Zahl sind keine Verweise.",
        "ABl. L 13 vom 17.1.2014, S. 1.",
        "This Section explains the general approach; the Part that follows is longer.",
        "The Regulator may publish a Chapter summary in 2020.",
        "Die Anlage zur Erzeugung ionisierender Strahlung ist zu prüfen.",
        "Gesetz über die friedliche Verwendung der Kernenergie",
        "part I think is fine",
    ],
)
def test_no_false_positives(text: str) -> None:
    assert refs(text) == []


def test_gazette_page_is_not_a_sentence_but_after_a_unit_it_is() -> None:
    assert [r.text for r in refs("(BGBl. I S. 1714) und § 5 S. 2")] == ["§ 5 S. 2"]


# --- canonical labels -------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("word", "number", "label"),
    [
        ("§", "5", "§ 5"), ("§§", "9 a", "§ 9a"), ("Artikel", "3", "Art. 3"), ("Art.", "3", "Art. 3"),
        ("Anlage", "4", "Anlage 4"), ("Anlage", "", "Anlage"), ("Anhang", "ii", "Anhang II"),
        ("section", "2.3", "Section 2.3"), ("Article", "12", "Article 12"), ("ANNEX", "II", "Annex II"),
        ("Schedule", "1", "Schedule 1"), ("chapter", "4", "Chapter 4"), ("Part", "3", "Part 3"),
        ("Rule", "3.2.1.", "Rule 3.2.1"), ("Rule", "A4.6.5", "Rule A4.6.5"),
    ],
)
def test_canonical_unit(word: str, number: str, label: str) -> None:
    assert canonical_unit(word, number) == label


def test_range_and_list_helpers() -> None:
    assert expand_range("9a", "9c") == ["9a", "9b", "9c"]
    assert expand_range("7", "9b") == ["7", "8", "9", "9b"]
    assert expand_range("3.2.1", "3.2.3") == ["3.2.1", "3.2.2", "3.2.3"]
    assert expand_range("I", "III") == ["I", "II", "III"]
    assert expand_range("5", "3") == ["5", "3"]
    assert split_numbers("6, 7 und 9") == (["6", "7", "9"], None)
    assert split_numbers("1 bis 3 und 5") == (["1", "2", "3", "5"], "3")


def test_parse_date() -> None:
    assert parse_date("vom 20. Juli 2001") == "2001-07-20"
    assert parse_date("vom 29.11.2018") == "2018-11-29"
    assert parse_date("of 5 December 2013") == "2013-12-05"
    assert parse_date("ohne Datum") is None


@pytest.mark.parametrize(
    ("text", "reference", "law"),
    [
        # a list of subdivisions that names its keyword again keeps the law designation at its end
        ("Bei einem nach § 12 Absatz 1 Nummer 3 oder Absatz 2 des Strahlenschutzgesetzes genehmigten Umgang",
         "§ 12 Absatz 1 Nummer 3 oder Absatz 2 des Strahlenschutzgesetzes", "des Strahlenschutzgesetzes"),
        ("nach § 17 Absatz 1 Satz 3, Absatz 2 bis 5 des Atomgesetzes",
         "§ 17 Absatz 1 Satz 3, Absatz 2 bis 5 des Atomgesetzes", "des Atomgesetzes"),
        # qualifiers without a number of their own
        ("Anlagen im Sinne des § 9a Absatz 3 Satz 1 zweiter Satzteil des Atomgesetzes oder Einrichtungen",
         "§ 9a Absatz 3 Satz 1 zweiter Satzteil des Atomgesetzes", "des Atomgesetzes"),
        ("gilt § 7 Absatz 2 Satz 1 erster Halbsatz StrlSchV entsprechend",
         "§ 7 Absatz 2 Satz 1 erster Halbsatz StrlSchV", "StrlSchV"),
    ],
)
def test_law_designation_after_long_subdivision_chains(text: str, reference: str, law: str) -> None:
    refs = parse_references(text)
    assert refs[0].text == reference and refs[0].law == law


def test_and_before_a_keyword_only_continues_a_chain() -> None:
    # "und 5" after "Absatz 3" is another Absatz; "und § 127" is a reference of its own
    refs = parse_references("gelten § 85 Absatz 3 und 5 des Strahlenschutzgesetzes und § 127 entsprechend")
    assert [(r.unit, r.law) for r in refs] == [("§ 85", "des Strahlenschutzgesetzes"), ("§ 127", None)]
