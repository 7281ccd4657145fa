"""Evidence the engine gathers without the model (evidence.py), over the sample laws: the best sentences of
each chunk, references in them followed to the unit they name, nothing gathered twice; and how the model
is shown it (numbered anew, "(…)" where text is left out, quotes never spanning left-out text)."""

from __future__ import annotations

from types import SimpleNamespace

import pytest

from desktop.engine import evidence
from desktop.engine.checks import written_in
from desktop.engine.evidence import WIDEN, Aim, Gatherer, Limits, cut, search, shown_text
from desktop.engine.research_state import WorkItem
from desktop.engine.state import Plan, Todo
from desktop.engine.steps.gathering import aim
from desktop.engine.sentences import GAP, numbered, quotes, units
from desktop.kb.database import KnowledgeBase
from desktop.kb.models import SearchHit

VERBRINGUNG = "Wann ist für ein Versandstück über den Freigrenzen der Anlage 4 keine Genehmigung der Verbringung erforderlich?"
QUERY = "Versandstück Freigrenzen Anlage 4 Genehmigung Verbringung nicht erforderlich"
DOSE = "Welche effektive Jahresdosis darf eine beruflich exponierte Person höchstens erhalten?"


def _gather(kb: KnowledgeBase, question: str, queries: list[str], room: int = 8, seen: list[WorkItem] = (),  # type: ignore[assignment]
            depth: int = 2) -> tuple[Gatherer, object]:
    names = {d.doc_id: d.file_name for d in kb.documents()}
    gatherer = Gatherer(kb, Aim.of(question, question, queries[1:]), Limits(room, 5, depth, 6), list(seen), [], names,
                        "de")
    return gatherer, gatherer.gather(queries)


def test_a_chunk_is_cut_to_the_sentences_that_answer() -> None:
    text = ("§ 78 Grenzwerte für beruflich exponierte Personen\n(1) Der Grenzwert der effektiven Dosis beträgt für "
            "beruflich exponierte Personen 20 Millisievert im Kalenderjahr. Die zuständige Behörde kann im "
            "Einzelfall für ein einzelnes Jahr eine effektive Dosis von 50 Millisievert zulassen. (2) Der Grenzwert "
            "der Organ-Äquivalentdosis beträgt für die Augenlinse 20 Millisievert im Kalenderjahr. (3) Für "
            "beruflich exponierte Personen unter 18 Jahren beträgt der Grenzwert der effektiven Dosis 1 "
            "Millisievert im Kalenderjahr. (4) Die Sätze 1 bis 3 gelten auch für Studierende, die ihre Ausbildung "
            "in einer Einrichtung absolvieren, in der sie beruflich exponiert werden können.")
    chosen = cut(text, Aim.of(DOSE, DOSE, []), "de")
    sentences = {u.number: text[u.start:u.end] for u in units(text)}
    assert sentences[chosen[0]].startswith("(1) Der Grenzwert der effektiven Dosis beträgt")  # the figure asked for
    assert len(chosen) <= 3 and sum(len(sentences[n].split()) for n in chosen) <= 90
    assert not any(sentences[n].startswith("§ 78") for n in chosen)  # a heading answers nothing
    continued = "(1) Die Behörde prüft den Antrag auf Zulassung gründlich. " + "Dabei stellt sie fest, welche Dosis " \
        "eine beruflich exponierte Person im Jahr höchstens erhalten darf: 20 Millisievert. " + "Weitere Sätze folgen. " * 12
    picked = [continued[u.start:u.end] for u in units(continued) if u.number in cut(continued, Aim.of(DOSE, DOSE, []), "de")]
    assert picked[:2] == ["(1) Die Behörde prüft den Antrag auf Zulassung gründlich.",  # "Dabei …" leans on it
                          "Dabei stellt sie fest, welche Dosis eine beruflich exponierte Person im Jahr höchstens "
                          "erhalten darf: 20 Millisievert."]
    assert cut("Kurzer Absatz. Zweiter Satz.", Aim.of(DOSE, DOSE, []), "de") == [1, 2]  # shown whole


# StrlSchV § 117, p. 58, as it stands in its chunk of the sample database
AUFZEICHNUNGEN = (
    "§ 117 Aufzeichnungen\n(1) Der Strahlenschutzverantwortliche hat dafür zu sorgen, dass Inhalt, Ergebnis und\n"
    "Zeitpunkt der Prüfungen nach den §§ 115 und 116 Absatz 1 und 3 unverzüglich\naufgezeichnet werden.\n(2) Der "
    "Strahlenschutzverantwortliche hat dafür zu sorgen, dass die Aufzeichnungen\naufbewahrt werden,\n1.\xa0bei "
    "Prüfungen nach § 115 für die Dauer des Betriebes, mindestens jedoch drei Jahre\nnach dem Abschluss der nächsten "
    "vollständigen Abnahmeprüfung,\n2.\xa0bei Prüfungen nach § 116 zehn Jahre nach Abschluss der Prüfung.\nDie "
    "zuständige Behörde kann Abweichungen von den Aufbewahrungsfristen festlegen.\n(3) Der "
    "Strahlenschutzverantwortliche hat die Aufzeichnungen der zuständigen Behörde\nund der ärztlichen oder "
    "zahnärztlichen Stelle auf Verlangen vorzulegen.")
RECORDS = ("Eine Praxis für Radiologie und Strahlentherapie überprüft ihre Aufbewahrungsfristen: Wie lange sind "
           "Aufzeichnungen, Röntgenbilder und digitale Bilddaten im Falle von Behandlungen und im Falle von "
           "Untersuchungen Minderjähriger aufzubewahren, unter welcher Voraussetzung dürfen elektronisch aufbewahrte "
           "Bilddaten komprimiert werden, und wie lange sind die Aufzeichnungen über Abnahmeprüfungen und über "
           "Konstanzprüfungen der Geräte aufzubewahren?")


def test_a_part_of_the_question_is_cut_by_its_own_words() -> None:
    """laws-research-09 (1.5B model): the chunk gathered for the part on the records of acceptance and constancy
    tests was cut by the whole question's words and showed the acceptance test's sentences; the constancy test's
    "zehn Jahre nach Abschluss der Prüfung" was never read. A part's evidence is cut by the part; the question
    itself, and a task of a plan that is not the question's parts, by the question."""
    part = Todo(id=3, task="Wie lange sind die Aufzeichnungen über Abnahmeprüfungen und über Konstanzprüfungen der "
                           "Geräte aufzubewahren?")
    plan = Plan(items=[Todo(id=0, task=RECORDS), part], by_parts=True)

    def ctx(by_parts: bool) -> SimpleNamespace:
        return SimpleNamespace(state=SimpleNamespace(question=RECORDS, plan=plan.model_copy(update={"by_parts": by_parts})))

    def shown(by_parts: bool) -> str:
        chosen = cut(AUFZEICHNUNGEN, aim(ctx(by_parts), part, []), "de")  # type: ignore[arg-type]
        return " ".join(" ".join(AUFZEICHNUNGEN[u.start:u.end] for u in units(AUFZEICHNUNGEN) if u.number in chosen).split())

    assert "zehn Jahre nach Abschluss der Prüfung" in shown(by_parts=True)
    assert "zehn Jahre nach Abschluss der Prüfung" not in shown(by_parts=False)  # the question's words pick others
    assert aim(ctx(True), plan.items[0], []) == Aim.of(RECORDS, RECORDS, [])  # type: ignore[arg-type]


def test_by_meaning_a_chunk_is_cut_to_the_sentences_closest_to_the_aim() -> None:
    """With a closeness (the Gatherer's, across languages) the sentences are ranked by it, not by the aim's words:
    the closest first, a sentence stating a figure leaning closer where the aim asks for one."""
    text = ("§ 34 Freistellungsverpflichtung (1) Der Bund stellt den Inhaber einer Kernanlage von "
            "Schadensersatzverpflichtungen frei, soweit diese von der Deckungsvorsorge nicht gedeckt sind. "
            "Der Höchstbetrag der Freistellungsverpflichtung beträgt 2,5 Milliarden Euro. "
            "(2) Die Freistellung umfasst auch die Kosten der Rechtsverfolgung in angemessenem Umfang. "
            "(3) Das Nähere regelt eine Rechtsverordnung der Bundesregierung mit Zustimmung des Bundesrates. "
            "(4) Die Vorschriften gelten auch für die Beförderung von Kernmaterialien innerhalb des Landes.")
    asked = "Up to what maximum does the Federal Government indemnify the operator?"
    sentences = {u.number: text[u.start:u.end] for u in units(text)}
    closest = {"(2) Die Freistellung": 0.80, "Der Höchstbetrag": 0.79, "§ 34": 0.78}

    def close(texts: list[str]) -> list[float]:
        return [next((c for start, c in closest.items() if t.startswith(start)), 0.70) for t in texts]

    by_words = cut(text, Aim.of(asked, asked, []), "de")
    by_meaning = cut(text, Aim.of(asked, asked, []), "de", close)
    assert not any("2,5 Milliarden" in sentences[n] for n in by_words)  # no English word stands in it
    assert [sentences[n][:20] for n in by_meaning] == ["§ 34 Freistellungsve", "Der Höchstbetrag der",
                                                       "(2) Die Freistellung"]
    first = sorted(by_meaning, key=lambda n: -close([sentences[n]])[0] - 0.02 * ("2,5" in sentences[n]))[0]
    assert sentences[first].startswith("Der Höchstbetrag")  # 0.79 + the figure's lean passes 0.80


INDEMNITY = ("Up to what maximum does the Federal Government indemnify the operator for liabilities not covered by "
             "its financial security?")


def test_an_english_task_over_german_statutes_is_shown_the_sentences_closest_in_meaning(sample_kb: KnowledgeBase) -> None:
    """laws-research-06 (1.5B model, an English question over the German laws): the chunks holding § 31 and § 34
    AtG's figures were gathered and read for their parts, each cut by the part's words, which no German sentence
    shares; each showed its first sentences, and "2,5 Milliarden Euro" and "80 Millionen Euro" were never read.
    Asked in another language than the documents, the gatherer ranks each chunk's sentences by meaning."""
    names = {d.doc_id: d.file_name for d in sample_kb.documents()}

    def shown(asked_in: str) -> str:
        gatherer = Gatherer(sample_kb, Aim.of(INDEMNITY, INDEMNITY, []), Limits(8, 5, 0, 6), [], [], names, "de",
                            asked_in)
        found = gatherer.gather([INDEMNITY])
        chunks = sample_kb.catalog.chunks_by_id([i.chunk_id for i in found.items])
        return " ".join(" ".join(shown_text(chunks[i.chunk_id], i.units).split()) for i in found.items)

    assert "2,5 Milliarden Euro" in shown("en")
    assert "2,5 Milliarden Euro" not in shown("de")  # the same chunks, cut by the task's words


def _searching(monkeypatch: pytest.MonkeyPatch) -> list[list[str]]:
    """Every ``evidence.search`` call's queries, in order (the searches still run)."""
    calls: list[list[str]] = []

    def spy(kb: KnowledgeBase, queries: list[str], k: int, language: str) -> list[list[SearchHit]]:
        calls.append(list(queries))
        return search(kb, queries, k, language)

    monkeypatch.setattr(evidence, "search", spy)
    return calls


def test_a_task_asked_in_another_language_searches_again_in_the_documents_words(
        sample_kb: KnowledgeBase, monkeypatch: pytest.MonkeyPatch) -> None:
    """laws-research-06 (1.5B model, an English question over the German laws): across languages only the
    embedder searches, and the part on the Federal Government's indemnity, with references followed, gathered
    StrlSchG § 194, Anlage 4 and AtG § 9a — not the Atomic Energy Act's liability sections. The sentences of
    its first-ranked chunks closest in meaning to the task ("Höchstbetrag", "Deckungsvorsorge") are searched
    again in the documents' own words, and § 31 AtG (the ceilings of the operator's liability) is gathered."""
    searched = _searching(monkeypatch)
    names = {d.doc_id: d.file_name for d in sample_kb.documents()}
    gatherer = Gatherer(sample_kb, Aim.of(INDEMNITY, INDEMNITY, []), Limits(8, 5, 2, 3), [], [], names, "de", "en")
    found = gatherer.gather([INDEMNITY])
    chunks = sample_kb.catalog.chunks_by_id([i.chunk_id for i in found.items])
    assert ("AtG.pdf", "§ 31") in {(names[chunks[i.chunk_id].doc_id], chunks[i.chunk_id].section)
                                   for i in found.items if not i.depth}
    assert searched[0] == [INDEMNITY]
    [their_words] = searched[1]
    assert written_in(their_words, "de") and "Deckungsvorsorge" in their_words
    first = sample_kb.catalog.chunks_by_id([h.chunk_id for h in search(sample_kb, [INDEMNITY], 5, "de")[0]])
    sentences = {c.text[u.start:u.end] for c in first.values() for u in units(c.text)}
    used = [s for s in sentences if s in their_words]
    assert len(used) == 3 and sum(len(s) for s in used) + 2 == len(their_words)  # three of the first chunks' sentences


def test_a_task_in_the_documents_language_searches_only_with_its_own_queries(
        sample_kb: KnowledgeBase, monkeypatch: pytest.MonkeyPatch) -> None:
    searched = _searching(monkeypatch)
    _gather(sample_kb, DOSE, [DOSE, "Grenzwert effektive Dosis"], depth=0)
    assert searched and all(queries == [DOSE, "Grenzwert effektive Dosis"] for queries in searched)


def test_a_query_in_another_language_than_the_documents_is_searched_by_meaning(sample_kb: KnowledgeBase) -> None:
    queries = ["Grenzwert der effektiven Dosis beruflich exponierter Personen",
               "What is the limit of the effective dose for occupationally exposed workers?",
               "Berufslebensdosis 400 Millisievert"]
    found = search(sample_kb, queries, 5, "de")
    assert [h.chunk_id for h in found[0]] == [h.chunk_id for h in sample_kb.search(queries[0], 5, "hybrid")]
    assert [h.chunk_id for h in found[1]] == [h.chunk_id for h in sample_kb.search(queries[1], 5, "semantic")]
    assert [h.chunk_id for h in found[2]] == [h.chunk_id for h in sample_kb.search(queries[2], 5, "hybrid")]
    assert all(h.lexical_rank is None for h in found[1]) and any(h.lexical_rank for h in found[0])
    assert any(h.lexical_rank for h in sample_kb.search(queries[1], 5, "hybrid"))  # its words match by accident
    # over English documents the English query is the documents' language: hybrid
    assert [h.chunk_id for h in search(sample_kb, queries[1:2], 5, "en")[0]] == \
        [h.chunk_id for h in sample_kb.search(queries[1], 5, "hybrid")]


def test_references_in_the_evidence_are_followed_to_the_unit_they_name(sample_kb: KnowledgeBase) -> None:
    """§ 12 StrlSchV: "… soweit eine Genehmigung nach § 3 Absatz 1 des Atomgesetzes vorliegt …" leads to § 3 AtG,
    read right after the item that cites it; a long annex whose closest chunk says nothing of the task (Anlage 4,
    a list of nuclides) is not followed."""
    _, found = _gather(sample_kb, VERBRINGUNG, [VERBRINGUNG, QUERY])
    chunks = sample_kb.catalog.chunks_by_id([i.chunk_id for i in found.items])
    names = {d.doc_id: d.file_name for d in sample_kb.documents()}
    where = [(names[chunks[i.chunk_id].doc_id], chunks[i.chunk_id].section, i.depth) for i in found.items]
    atg = next(i for i in found.items if where[found.items.index(i)][:2] == ("AtG.pdf", "§ 3"))
    assert atg.depth == 1 and atg.via == "§ 3 Absatz 1 des Atomgesetzes" and atg.origin.startswith("StrlSchV.pdf, p. 8, § 12")
    citing = found.items[found.items.index(atg) - 1]
    assert citing.chunk_id == atg.referenced_from or found.items[found.items.index(atg) - 2].chunk_id == atg.referenced_from
    assert "§ 3 Absatz 1 des Atomgesetzes" in shown_text(chunks[atg.referenced_from], next(
        i.units for i in found.items if i.chunk_id == atg.referenced_from))  # it stands in the evidence shown
    assert ("StrlSchV.pdf", "Anlage 4", 1) not in where
    assert len(found.items) <= 8 and sum(1 for *_, d in where if d) == len(found.followed) <= 4
    assert all(f.item.depth <= 2 for f in found.followed)


def test_a_paragraph_of_the_items_own_section_is_not_followed(sample_kb: KnowledgeBase) -> None:
    """"(2) Absatz 1 gilt entsprechend …" in § 64 StrlSchV means § 64 Absatz 1: resolved with the whole chunk
    as its context it is the item's own unit (resolved with the sentence alone it landed in § 52)."""
    _, found = _gather(sample_kb, DOSE, [DOSE, "Grenzwert effektive Dosis beruflich exponierte Personen Kalenderjahr",
                                         "Behörde Einzelfall höhere Dosis zulassen"])
    assert not any(f.reference == "Absatz 1" for f in found.followed)


def test_what_the_run_gathered_already_is_not_gathered_again(sample_kb: KnowledgeBase) -> None:
    first_gatherer, first = _gather(sample_kb, DOSE, [DOSE], room=4, depth=0)
    assert len(first.items) == 4
    _, again = _gather(sample_kb, DOSE, [DOSE], room=8, seen=first.items, depth=0)
    assert not {i.chunk_id for i in again.items} & {i.chunk_id for i in first.items}
    # the same sentences in another chunk are a duplicate too: the gatherer compares what it shows
    chunk = sample_kb.chunk(first.items[0].chunk_id)
    assert first_gatherer._item(chunk.model_copy(update={"chunk_id": "copy:1"})) is None


def test_a_task_whose_first_results_were_gathered_already_searches_deeper(sample_kb: KnowledgeBase) -> None:
    """§27, laws-dev-01 and -03: tasks of one or two queries, whose best chunks an earlier task had taken, found 5
    new excerpts of the 8 they may read, and the runs read 11 excerpts in 71-130 s of a 300 s budget. A task
    short of excerpts searches deeper, its first results still first, up to ``WIDEN`` times as deep."""
    _, first = _gather(sample_kb, DOSE, [DOSE], room=5, depth=0)  # the query's first 5 results, taken by a task
    assert len(first.items) == 5
    _, again = _gather(sample_kb, DOSE, [DOSE], room=8, seen=first.items, depth=0)
    assert len(again.items) == 8 and not {i.chunk_id for i in again.items} & {i.chunk_id for i in first.items}
    deeper = [hit.chunk_id for hit in search(sample_kb, [DOSE], 5 * WIDEN, "de")[0]]
    assert all(i.chunk_id in deeper for i in again.items)
    _, widest = _gather(sample_kb, DOSE, [DOSE], room=40, depth=0)  # never deeper than WIDEN times the setting
    assert widest.candidates == 5 * WIDEN and len(widest.items) <= 5 * WIDEN
    _, full = _gather(sample_kb, DOSE, [DOSE, "Grenzwert effektive Dosis", "Kalenderjahr Millisievert"], room=8, depth=0)
    assert full.candidates <= 15  # the first results held enough: no deeper search


def test_evidence_is_numbered_anew_with_gaps_and_a_quote_never_spans_left_out_text() -> None:
    text = "Erster Satz steht hier. Zweiter Satz folgt hier. Dritter Satz steht dort. Vierter Satz endet hier."
    shown, found = numbered(text, [1, 3, 4])
    assert shown == f"[1] Erster Satz steht hier.\n{GAP}\n[2] Dritter Satz steht dort.\n[3] Vierter Satz endet hier."
    assert quotes(text, found, [1, 2]) == ["Erster Satz steht hier.", "Dritter Satz steht dort."]
    assert quotes(text, found, [2, 3]) == ["Dritter Satz steht dort. Vierter Satz endet hier."]


def test_a_run_longer_than_a_quote_goes_on_in_the_next_quote() -> None:
    """laws-research-13 (a 1.5B model): three headings and the sentence stating the reference value were quoted;
    the run of four was cut to the headings, and the finding quoted no figure."""
    text = ("Kapitel 3\nSchutz vor Radioaktivität in Bauprodukten\n§ 133 Referenzwert\nDer Referenzwert für die "
            "effektive Dosis aus Bauprodukten beträgt 1 Millisievert im Kalenderjahr.")
    shown, found = numbered(text)
    assert len(found) == 4
    assert quotes(text, found, [1, 2, 3, 4]) == ["Kapitel 3\nSchutz vor Radioaktivität in Bauprodukten\n§ 133 Referenzwert",
                                                 "Der Referenzwert für die effektive Dosis aus Bauprodukten beträgt 1 "
                                                 "Millisievert im Kalenderjahr."]


def test_another_task_is_shown_the_sentences_of_a_chunk_that_were_not_shown_yet(sample_kb: KnowledgeBase) -> None:
    """§ 77 StrlSchG holds the career limit (400 mSv) and what the authority may allow beyond it (10 mSv): when a
    task was shown the first sentence only, a later task asking what the authority may allow gets the chunk's
    other sentence, not nothing."""
    extra = ("In welchem Umfang kann die Behörde eine zusätzliche berufliche Exposition im Benehmen mit einem "
             "ermächtigten Arzt zulassen, wenn diese nicht mehr als 10 Millisievert beträgt?")
    hit = next(h for h in sample_kb.search(extra, k=5) if h.section == "§ 77")
    chunk = sample_kb.chunk(hit.chunk_id)
    sentences = {u.number: chunk.text[u.start:u.end] for u in units(chunk.text)}
    limit = next(n for n, t in sentences.items() if "400 Millisievert" in t)
    earlier = [WorkItem(chunk_id=chunk.chunk_id, units=[limit], task_id=1)]
    _, again = _gather(sample_kb, extra, [extra], room=3, seen=earlier, depth=0)
    more = next(i for i in again.items if i.chunk_id == chunk.chunk_id)
    assert limit not in more.units and "10 Millisievert" in shown_text(chunk, more.units)
    _, nothing_new = _gather(sample_kb, extra, [extra], room=3, seen=[*earlier, more], depth=0)
    assert chunk.chunk_id not in {i.chunk_id for i in nothing_new.items}


LERNEINHEIT = ("Teil A: Erwerb und Aktualisierung der Fachkunde\n1. Übersicht: Module Erwerb/Aktualisierung der Fachkunde "
               "Die Lerninhalte zum Erwerb der Fachkunde und zur Aktualisierung der Fachkunde (Fortbildung) sind in "
               "Module gegliedert. Der jeweils erforderliche Schulungsumfang ist in Lerneinheiten (LE; 1 LE = 45 "
               "Minuten) angegeben: Kürzel Module Mindest- anzahl LE")


def test_a_semicolon_inside_a_parenthesis_does_not_cut_the_sentence() -> None:
    """laws-research-05 (NiSV Anlage 3): the unit cut at "(LE;" left "1 LE = 45 Minuten)" a unit of its own, which
    shared no word with the part "Wie lang ist eine Lerneinheit?", and the evidence shown for it never held the
    45 minutes. A semicolon outside a parenthesis still ends an enumerated clause."""
    said = [LERNEINHEIT[u.start:u.end] for u in units(LERNEINHEIT)]
    assert any("(LE; 1 LE = 45 Minuten) angegeben" in s for s in said), said
    part = "Wie lang ist eine Lerneinheit?"
    assert "45 Minuten" in shown_text(SimpleNamespace(text=LERNEINHEIT), cut(LERNEINHEIT, Aim.of(part, part, []), "de"))
    clauses = "Die Genehmigung ist zu erteilen, wenn 1. der Antragsteller zuverlässig ist; 2. die Anlage (§ 7) geeignet ist; 3. nichts entgegensteht."
    assert len(units(clauses)) == 3
