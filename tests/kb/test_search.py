"""Search over a real store: modes, filters, lexical findability of German legal text, primitives."""

from __future__ import annotations

from pathlib import Path

import pytest
from support import pdfs

from desktop.kb.database import KnowledgeBase
from desktop.kb.search.lexical import index_terms, match_expression, query_terms
from desktop.kb.models import SearchFilter
from desktop.kb.search.hybrid import rrf


@pytest.fixture
def filled(kb: KnowledgeBase, tmp_path: Path) -> KnowledgeBase:
    docs = tmp_path / "docs"
    docs.mkdir()
    pdfs.statute(docs / "PruefG.pdf", abbreviation="PrüfG", sections=6)
    pdfs.report(docs / "cloud.pdf", [
        "Revenue from cloud services grew by 23 percent to 4.2 billion dollars in fiscal 2023.",
        "Operating expenses increased because of investments in data centers and research.",
    ], title="Annual Report 2023")
    pdfs.report(docs / "umwelt.pdf", [
        "Die Überwachung der Ableitung radioaktiver Stoffe erfolgt durch die zuständige Behörde.",
        "Für Müllverbrennungsanlagen gelten besondere Grenzwerte nach § 5 Absatz 2.",
    ], title="Umweltbericht")
    report = kb.ingest([docs])
    assert report.pending_embeddings == 0
    kb.set_meta("cloud.pdf", "tags", "finance, 2023")
    kb.set_meta("cloud.pdf", "exhibit", "A-17")
    return kb


def test_modes_find_the_right_document(filled: KnowledgeBase) -> None:
    for mode in ("hybrid", "dense", "lexical"):
        hits = filled.search("How much did cloud revenue grow?", k=3, mode=mode)
        assert hits and hits[0].doc == "cloud.pdf", mode
        assert hits == sorted(hits, key=lambda h: -h.score)
    hit = filled.search("cloud revenue", k=1)[0]
    assert hit.page == 1 and hit.path.endswith("cloud.pdf") and hit.text in filled.pages(hit.doc, 1)[0].text


def test_semantic_ranks_by_meaning_and_the_units_the_query_cites(filled: KnowledgeBase) -> None:
    # a query in another language than the documents: its words would match the lexical index by accident only
    hits = filled.search("monitoring of the discharge of radioactive substances", k=5, mode="semantic")
    assert hits[0].doc == "umwelt.pdf"
    assert all(h.lexical_rank is None and h.dense_rank is not None for h in hits)
    cited = filled.search("cloud revenue growth, see § 4 PrüfG", k=3, mode="semantic")
    assert cited[0].doc == "PruefG.pdf" and cited[0].section == "§ 4"  # the unit it names leads, as in hybrid


def test_hybrid_fuses_both_rankings(filled: KnowledgeBase) -> None:
    hits = filled.search("Überwachung der Ableitung radioaktiver Stoffe", k=5)
    assert hits[0].doc == "umwelt.pdf"
    assert hits[0].dense_rank is not None and hits[0].lexical_rank is not None


@pytest.mark.parametrize(
    ("query", "doc"),
    [("Grenzwerte § 5 Müllverbrennungsanlagen", "umwelt.pdf"), ("Müllverbrennungsanlagen", "umwelt.pdf"),
     ("muellverbrennung", None), ("überwachung", "umwelt.pdf"), ("Ueberwachung", "umwelt.pdf"),
     ("PrüfG § 3", "PruefG.pdf"), ("4.2 billion", "cloud.pdf"), ("30 Millisievert", "PruefG.pdf")],
)
def test_lexical_finds_statute_signs_umlauts_numbers_abbreviations(filled: KnowledgeBase, query: str, doc: str | None) -> None:
    hits = filled.search(query, k=3, mode="lexical")
    if doc is None:
        # transliterated spellings are not the same word: the dense side has to bridge them
        assert all(h.doc != "umwelt.pdf" for h in hits) or not hits
    else:
        assert hits and hits[0].doc == doc, [h.doc for h in hits]


def test_a_section_number_finds_the_unit_and_its_mentions(filled: KnowledgeBase) -> None:
    hits = filled.search("§ 5", k=2, mode="lexical")
    # the unit's own heading outranks a mention of it elsewhere
    assert [(h.doc, h.section) for h in hits] == [("PruefG.pdf", "§ 5"), ("umwelt.pdf", None)]


def test_section_sign_is_its_own_token() -> None:
    assert "§5" in index_terms("nach § 5 Absatz 2", "de").split()
    assert "§12" in index_terms("die §§ 12 bis 14", "de").split()
    assert match_expression(query_terms("§ 5 StrlSchV")) == '"§5" OR "strlschv"'
    assert match_expression(query_terms("der die das")) is None


def test_filters(filled: KnowledgeBase) -> None:
    q = "Grenzwert Behörde"
    assert {h.doc for h in filled.search(q, k=20, filt=SearchFilter(docs=["umwelt.pdf"]))} == {"umwelt.pdf"}
    assert {h.doc for h in filled.search("revenue", k=20, filt=SearchFilter(tags=["finance"]))} == {"cloud.pdf"}
    assert {h.doc for h in filled.search("revenue", k=20, filt=SearchFilter(meta={"exhibit": "a-17"}))} == {"cloud.pdf"}
    assert filled.search("revenue", k=20, filt=SearchFilter(tags=["no-such-tag"])) == []
    pages = {h.page for h in filled.search("Vorschrift Genehmigung", k=50, filt=SearchFilter(docs=["PruefG.pdf"], page_from=3, page_to=3))}
    assert pages == {3}
    in_section = filled.search("Genehmigung", k=50, filt=SearchFilter(section="§ 4"))
    assert in_section and {h.section for h in in_section} == {"§ 4"}
    for mode in ("dense", "lexical"):
        assert {h.page for h in filled.search("Frist", k=50, mode=mode, filt=SearchFilter(page_from=2, page_to=2))} == {2}


def test_rrf_rewards_agreement() -> None:
    scores = rrf([["a", "b", "c"], ["c", "a", "d"]], k=60)
    assert max(scores, key=scores.get) == "a"
    assert scores["a"] == pytest.approx(1 / 61 + 1 / 62)
    assert scores["d"] < scores["b"] < scores["c"]


def test_retrieval_primitives(filled: KnowledgeBase) -> None:
    law = filled.find_document("PrüfG")
    assert law.file_name == "PruefG.pdf"
    section = filled.section("§ 3 PrüfG")
    assert section and all(c.section == "§ 3" for c in section) and section[0].text.startswith("§ 3")
    assert filled.section("§ 99 PrüfG") == []

    middle = section[0]
    around = filled.neighbours(middle.chunk_id, before=1, after=1)
    assert [c.ordinal for c in around] == [middle.ordinal - 1, middle.ordinal, middle.ordinal + 1]
    assert all(c.doc_id == law.doc_id for c in around)

    pages = filled.pages("PruefG.pdf", 2, 3)
    assert [p.page for p in pages] == [2, 3] and "§ 1" in pages[0].text

    inside = filled.search("Antragstellers Frist", k=5, mode="lexical", filt=SearchFilter(docs=["PruefG.pdf"]))
    assert inside and {h.doc for h in inside} == {"PruefG.pdf"}


def test_empty_and_odd_queries(filled: KnowledgeBase) -> None:
    assert filled.search("", k=5) == []
    assert filled.search('"" OR (', k=5, mode="lexical") == []  # FTS syntax in user text is not an error
    assert filled.search("the of and", k=5, mode="lexical") == []


def test_rank_orders_given_chunks_by_similarity(filled: KnowledgeBase) -> None:
    chunks = {c.chunk_id: c for c in filled.catalog.chunks_where("1 = 1")}
    cloud = next(c for c in chunks.values() if "cloud services" in c.text)
    ranked = filled.rank("How did revenue from cloud services develop?", list(chunks))
    assert ranked[0][0] == cloud.chunk_id and len(ranked) == len(chunks)
    assert [s for _, s in ranked] == sorted((s for _, s in ranked), reverse=True)
    assert filled.rank("anything", []) == []


def test_first_searches_from_several_threads_at_once(sample_paths) -> None:  # noqa: ANN001
    """The engine searches from worker threads; their first use opens the vector store once."""
    import subprocess
    import sys

    paths, _ = sample_paths
    code = (
        "import sys, concurrent.futures as cf\n"
        "from desktop.kb.database import KnowledgeBase\nfrom desktop.paths import resolve_paths\n"
        "from desktop.settings import Settings\n"
        f"kb = KnowledgeBase.open(resolve_paths({str(paths.data_dir)!r}), Settings(), 'Sample')\n"
        "qs = ['Grenzwert', 'Strahlenschutzbeauftragter', 'Genehmigung', 'Aufsichtsbehörde']\n"
        "with cf.ThreadPoolExecutor(4) as pool:\n"
        "    hits = list(pool.map(lambda q: kb.search(q, 3), qs))\n"
        "print(all(len(h) == 3 for h in hits))\n"
    )
    for _ in range(2):  # the race does not lose every time
        done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=300)
        assert done.returncode == 0 and done.stdout.strip() == "True", done.stderr[-1500:]


def test_search_many_equals_single_searches(filled: KnowledgeBase) -> None:
    queries = ["cloud revenue growth", "Überwachung radioaktiver Stoffe", "§ 3 PrüfG"]
    assert filled.search_many(queries, k=4) == [filled.search(q, k=4) for q in queries]
    assert filled.search_many([], k=4) == []
