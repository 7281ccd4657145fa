"""Tables found in a page's layout and chunked as Markdown with their header: a statement made for the
test, and a real filing's cash-flow statement where the benchmark corpus is at hand."""

from __future__ import annotations

from pathlib import Path

import pymupdf
import pytest
from support import pdfs

from desktop.engine.quote_locate import locate
from desktop.engine.sentences import numbered, quotes
from desktop.kb.ingestion.chunking import chunk_page
from desktop.kb.database import KnowledgeBase
from desktop.kb.ingestion.pdf import read_page
from desktop.kb.ingestion.tables import find_tables, is_figure, table_chunks
from desktop.settings import ChunkingSettings

CORPUS = Path(__file__).resolve().parents[3] / "shared" / "corpus" / "financebench-dev" / "pdfs"
ROWS = [
    ("Net sales", ["12,500", "13,250", "14,694"]),
    ("Cost of sales", ["(9,800)", "(10,100)", "(11,724)"]),
    ("Operating activities:", ["", "", ""]),
    ("Depreciation and amortization", ["512", "560", "625"]),
    ("Purchases of property and equipment", ["(450)", "(480)", "(463)"]),
    ("Net income", ["805", "1,048", "1,200"]),
]
PROSE_BEFORE = "The board reviewed the results of the year. Revenue grew in every region while costs were held."
PROSE_AFTER = "The notes to the statements are an integral part of them and explain the accounting policies used."


@pytest.fixture
def statement_pdf(tmp_path: Path) -> Path:
    return pdfs.statement(tmp_path / "statement.pdf", "CONSOLIDATED STATEMENTS OF INCOME", ["2021", "2022", "2023"],
                          ROWS, before=PROSE_BEFORE, after=PROSE_AFTER)


def _layout(path: Path, page: int = 1):  # noqa: ANN202
    with pymupdf.open(path) as doc:
        return read_page(doc, page - 1)


def test_a_statement_is_found_with_its_caption_header_and_rows(statement_pdf: Path) -> None:
    (table,) = find_tables(_layout(statement_pdf).lines)
    assert table.caption == "CONSOLIDATED STATEMENTS OF INCOME"
    assert table.header == ("", "2021", "2022", "2023")
    assert [r.cells for r in table.rows] == [(label, *figures) for label, figures in ROWS]


def test_table_chunks_repeat_caption_and_header_and_text_chunks_leave_out_the_cells(statement_pdf: Path) -> None:
    layout = _layout(statement_pdf)
    pieces = chunk_page(layout, 9.0, frozenset(), ChunkingSettings(target_words=20, min_words=0))
    tables = [p for p in pieces if p.table]
    assert len(tables) >= 2  # 20 words of rows a chunk: the table is split
    for piece in tables:
        lines = piece.text.splitlines()
        assert lines[:3] == ["CONSOLIDATED STATEMENTS OF INCOME", "|  | 2021 | 2022 | 2023 |", "|---|---:|---:|---:|"]
        assert piece.box is not None and piece.start < piece.end
    text = [p for p in pieces if not p.table]
    assert any(PROSE_BEFORE[:30] in p.text for p in text) and any(PROSE_AFTER[:30] in p.text for p in text)
    assert not any("13,250" in p.text or "Net income" in p.text for p in text)
    assert [p.start for p in pieces] == sorted(p.start for p in pieces)  # reading order


def test_switched_off_the_page_is_chunked_as_text(statement_pdf: Path) -> None:
    pieces = chunk_page(_layout(statement_pdf), 9.0, frozenset(), ChunkingSettings(tables=False))
    assert not any(p.table for p in pieces) and any("13,250" in p.text for p in pieces)


def test_a_row_quoted_from_a_table_chunk_is_highlighted_on_the_page(statement_pdf: Path) -> None:
    (table,) = find_tables(_layout(statement_pdf).lines)
    text = table_chunks(table, 200)[0][0]
    shown, units = numbered(text)
    number = next(int(line[1:line.index("]")]) for line in shown.splitlines() if "| Net income |" in line)
    (row,) = quotes(text, units, [number])
    rects = locate(statement_pdf, 1, row)
    assert len(rects) == 4  # the label and its three figures
    assert max(r.y1 for r in rects) - min(r.y0 for r in rects) < 14  # all on the row's line


def test_prose_and_statutes_hold_no_tables() -> None:
    # and so the sample's chunks, and its shipped vectors (kb/sample-embeddings.npz), stay as they were
    sample = Path(__file__).resolve().parents[2] / "kb"
    for name in ("StrlSchG.pdf", "StrlSchV.pdf", "AtG.pdf", "AtEV.pdf", "NiSV.pdf"):
        with pymupdf.open(sample / name) as doc:
            assert not any(find_tables(read_page(doc, i).lines) for i in range(doc.page_count))


@pytest.mark.parametrize(("text", "expected"), [
    ("3,033", True), ("(292)", True), ("12.5%", True), ("$1,234", True), ("—", True), ("n/a", True),
    ("Net income", False), ("§ 5", False), ("2.a", False),
])
def test_figures_as_tables_print_them(text: str, expected: bool) -> None:
    assert is_figure(text) is expected


@pytest.mark.skipif(not (CORPUS / "AMAZON_2019_10K.pdf").is_file(), reason="benchmark corpus not beside the checkout")
def test_a_filings_cash_flow_statement_keeps_its_years_over_its_figures() -> None:
    layout = _layout(CORPUS / "AMAZON_2019_10K.pdf", 37)
    (table,) = find_tables(layout.lines)  # its speed is measured in benchmarks/ingest_bench.py, not here
    assert "CONSOLIDATED STATEMENTS OF CASH FLOWS" in table.caption
    assert table.header[1:] == tuple(f"Year Ended December 31, {y}" for y in (2017, 2018, 2019))
    rows = {r.cells[0]: r.cells[1:] for r in table.rows}
    assert rows["Net income"] == ("3,033", "10,073", "11,588")
    assert rows["Purchases of property and equipment"] == ("(11,955)", "(13,427)", "(16,861)")
    wrapped = next(k for k in rows if k.startswith("Depreciation and amortization"))
    assert wrapped.endswith("operating lease assets, and other") and rows[wrapped] == ("11,478", "15,341", "21,789")


def test_a_table_chunk_is_stored_with_its_kind_and_box(kb: KnowledgeBase, statement_pdf: Path) -> None:
    kb.ingest([statement_pdf])
    hits = kb.search("Purchases of property and equipment 2023", k=3, mode="lexical")
    chunk = kb.chunk(hits[0].chunk_id)
    assert chunk.kind == "table" and chunk.box and "| Purchases of property and equipment |" in chunk.text


def test_a_table_with_a_text_column_among_its_figures_stays_text_whole(tmp_path: Path) -> None:
    """Seen in NiSV Anlage 3: module codes left-aligned between two figure columns. The table is not
    understood, so it is left to the text chunks rather than chunked without its codes."""
    doc = pymupdf.open()
    page = doc.new_page()
    rows = [("Laser", "GK, OS", "200", "8"), ("Ultraschall", "GK, US, AGK, AOS", "120", "8"),
            ("Kosmetik", "EK", "120", "6"), ("Stimulation", "ES, AES, AGS, AUS", "24", "6")]
    for i, (label, codes, hours, update) in enumerate(rows):
        y = 100 + 16 * i
        page.insert_text((72, y), label, fontsize=10)
        page.insert_text((340, y), codes, fontsize=10)
        for x1, figure in ((300, hours), (520, update)):
            page.insert_text((x1 - pymupdf.get_text_length(figure, fontsize=10), y), figure, fontsize=10)
    doc.save(tmp_path / "codes.pdf")
    layout = _layout(tmp_path / "codes.pdf")
    assert find_tables(layout.lines) == []
    pieces = chunk_page(layout, 10.0, frozenset(), ChunkingSettings())
    assert not any(p.table for p in pieces) and "GK, US, AGK, AOS" in " ".join(p.text for p in pieces)


def _right(page: pymupdf.Page, x1: float, y: float, text: str) -> None:
    page.insert_text((x1 - pymupdf.get_text_length(text, fontsize=9), y), text, fontsize=9)


def test_a_two_level_header_over_a_section_label_heads_every_column(tmp_path: Path) -> None:
    """As fair-value tables set it: each date centred over its group of columns, the columns' own names
    below, and a section label ("Assets") between the header and the first figures."""
    doc = pymupdf.open()
    page = doc.new_page()
    columns = [300, 370, 460, 530]
    for x_mid, date in ((335, "December 31, 2023"), (495, "December 31, 2022")):
        page.insert_text((x_mid - pymupdf.get_text_length(date, fontsize=9) / 2, 100), date, fontsize=9)
    for x1, name in zip(columns, ["Total", "Level 1", "Total", "Level 1"]):
        _right(page, x1, 114, name)
    page.insert_text((72, 128), "Assets", fontsize=9)
    rows = [("Money market funds", ["1,737", "1,737", "1,582", "1,582"]), ("Commercial paper", ["78", "", "70", ""]),
            ("Equity securities", ["25", "25", "31", "31"])]
    for i, (label, figures) in enumerate(rows):
        page.insert_text((72, 142 + 14 * i), label, fontsize=9)
        for x1, figure in zip(columns, figures):
            if figure:
                _right(page, x1, 142 + 14 * i, figure)
    doc.save(tmp_path / "levels.pdf")
    (table,) = find_tables(_layout(tmp_path / "levels.pdf").lines)
    assert table.header == ("", "December 31, 2023 Total", "December 31, 2023 Level 1", "December 31, 2022 Total",
                            "December 31, 2022 Level 1")
    assert [r.cells for r in table.rows] == [("Assets", "", "", "", ""), *((label, *f) for label, f in rows)]
    ((chunk, *_),) = table_chunks(table, 120)  # a chunk read alone says which date and level a figure is of
    assert chunk.splitlines()[0] == ("|  | December 31, 2023 Total | December 31, 2023 Level 1 | December 31, 2022 Total "
                                     "| December 31, 2022 Level 1 |")


@pytest.mark.skipif(not (CORPUS / "BOEING_2018_10K.pdf").is_file(), reason="benchmark corpus not beside the checkout")
def test_a_filings_fair_value_table_gets_both_header_levels() -> None:
    (table, *_) = find_tables(_layout(CORPUS / "BOEING_2018_10K.pdf", 109).lines)
    assert table.header[1:] == tuple(f"December 31, {y} {c}" for y in (2018, 2017) for c in ("Total", "Level 1", "Level 2"))
    assert table.rows[0].cells[0] == "Assets" and table.rows[1].cells[:3] == ("Money market funds", "$1,737", "$1,737")
