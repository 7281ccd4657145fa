"""A realistic German report built by hand, for the window's report tests: umlauts, §, „quotes“, verified
and unverified quotes, three tiers, a drift-filtered finding, and LLM text that tries to be HTML."""

from __future__ import annotations

import re
from datetime import UTC, datetime

from desktop.report.model import (
    Citation,
    Findings,
    PhaseTiming,
    Quality,
    QuoteView,
    Rect,
    Report,
    ReportFinding,
    RunMeta,
)

QUOTE_1 = "Der Grenzwert der effektiven Dosis beträgt für Einzelpersonen der Bevölkerung 1 Millisievert im Kalenderjahr."
QUOTE_3 = "Die zuständige Behörde kann „im Einzelfall“ Ausnahmen zulassen."
QUOTE_MERKBLATT = "Die Überwachung erfolgt nach § 64 durch die Messstelle."
UNVERIFIED = "Strahlenschutzbeauftragte müssen jährlich geschult werden."
UNVERIFIED_FINDING = "Fortbildung alle fünf Jahre nach § 47."
NOT_BOLD = "<b>not bold</b>"
INJECTED_LINK = '<a href="cite:1">hier</a>'
INJECTED_IMAGE = '<img src="file:///etc/passwd">'
SECTION_3 = 'Anhang "A" <i>neu</i>'  # quotes and a tag in a PDF heading must survive the tooltip attribute
RECTS_1 = [Rect(x0=50, y0=100, x1=500, y1=130), Rect(x0=50, y0=131, x1=320, y1=150)]
RECTS_3 = [Rect(x0=72, y0=400, x1=510, y1=420)]
RECTS_MERKBLATT = [Rect(x0=60, y0=200, x1=480, y1=215)]
MARKER = re.compile(r"\[(\d+(?:\s*,\s*\d+)*)\]")


def _finding(tier: int, text: str, doc: str, page: int, **kw: object) -> ReportFinding:
    return ReportFinding(tier=tier, task_id=1, text=text, doc=doc, page=page, relevance=kw.pop("relevance", 0.8), **kw)


def german_report() -> Report:
    answer = (
        "# Überblick\n\n"
        "Der Dosisgrenzwert für Einzelpersonen der Bevölkerung beträgt **1 mSv** im Kalenderjahr [1]. "
        "Für beruflich exponierte Personen gelten *höhere* Grenzwerte [2].\n\n"
        "## Ausnahmen nach § 80\n\n"
        "- Die Behörde kann „im Einzelfall“ Ausnahmen zulassen [3].\n"
        "- Schulungen sind vorgeschrieben [1, 2].\n\n"
        f"Das ist {NOT_BOLD} und {INJECTED_LINK}; Nachweis < 1 mSv [9].\n"
    )
    citations = [
        Citation(n=1, doc="StrlSchG.pdf", doc_id="d1", path="/daten/StrlSchG.pdf", page=12, section="§ 80",
                 quote=QUOTE_1, quote_verified=True, match="exact", rects=RECTS_1),
        Citation(n=2, doc="StrlSchV.pdf", doc_id="d2", path="/daten/StrlSchV.pdf", page=8, section="§ 3",
                 quote=UNVERIFIED, quote_verified=False, match="none"),
        Citation(n=3, doc="Leitfaden Übersicht.pdf", doc_id="d3", path="/daten/Leitfaden Übersicht.pdf", page=4,
                 section=SECTION_3, quote=QUOTE_3, quote_verified=True, match="fuzzy", rects=RECTS_3),
    ]
    findings = Findings(
        primary=[_finding(1, "Grenzwert 1 mSv für die Bevölkerung", "StrlSchG.pdf", 12, section="§ 80", citation=1,
                          relevance=0.95,
                          quotes=[QuoteView(text=QUOTE_1, verified=True, match="exact", page=12, rects=RECTS_1)])],
        secondary=[_finding(2, f"Schulungspflicht {INJECTED_LINK} {INJECTED_IMAGE}", "StrlSchV.pdf", 8, section="§ 3",
                            citation=2, quotes=[QuoteView(text=UNVERIFIED_FINDING, verified=False, page=8)],
                            paraphrases=[UNVERIFIED], referenced_from="StrlSchG S. 12 § 80")],
        tertiary=[_finding(3, "Überwachung durch die Messstelle", "Merkblatt Überwachung.pdf", 2, relevance=0.5,
                           quotes=[QuoteView(text=QUOTE_MERKBLATT, verified=True, match="exact", page=3,
                                             rects=RECTS_MERKBLATT)],
                           referenced_from="StrlSchV S. 8 § 3")],
    )
    filtered = [_finding(2, "Grenzwerte für Lebensmittel nach Fukushima", "EU-Verordnung.pdf", 30, filtered=True,
                         relevance=0.3, drift_score=0.81, filter_reason="behandelt Lebensmittel, nicht Personendosis")]
    quality = Quality(grounding=85, completeness=70, structure=90, citations=80, total=325, notes="Gut belegt.",
                      revised=True, first_total=240, cited_sentence_share=0.875, verified_quote_share=2 / 3)
    run = RunMeta(
        run_id="lauf-2025-001", database="Strahlenschutz", llm_backend="ollama", llm_host="http://127.0.0.1:11434",
        model="qwen3:8b", embedder="multilingual-e5-small", settings={"depth": 2},
        timings=[PhaseTiming(phase="clarify", seconds=4.2), PhaseTiming(phase="research", seconds=185.0)],
        llm_calls=37, prompt_tokens=51234, completion_tokens=8012,
        started_at=datetime(2025, 3, 1, 9, 0, 0, tzinfo=UTC), finished_at=datetime(2025, 3, 1, 9, 4, 12, tzinfo=UTC),
    )
    return Report(
        question="Welche Dosisgrenzwerte gelten nach § 80 StrlSchG für die Bevölkerung?", language="de",
        title=f"Dosisgrenzwerte {NOT_BOLD}", answer=answer, citations=citations, findings=findings,
        filtered=filtered, drift_warning="Einige Erkenntnisse wichen vom Thema ab.", quality=quality,
        scope="Strahlenschutzrecht (StrlSchG, StrlSchV)",
        tasks=[{"id": 0, "task": "Welche Dosisgrenzwerte gelten?", "status": "done", "summary": "1 mSv pro Jahr."}],
        run=run,
    )
