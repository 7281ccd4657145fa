"""A realistic finished report, built by hand in German and English: verified and unverified quotes,
umlauts, §, „quotes“, a <script> in the LLM's answer, three tiers, a drift-filtered finding."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

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

SCRIPT = "<script>alert('x')</script>"

# Verified quotes: the source's own words. The unverified ones must never be shown as quotes.
QUOTE_DE_1 = "Der Grenzwert der effektiven Dosis beträgt für Einzelpersonen der Bevölkerung 1 Millisievert im Kalenderjahr."
QUOTE_DE_3 = "Die zuständige Behörde kann „im Einzelfall“ Ausnahmen zulassen."
UNVERIFIED_DE = "Strahlenschutzbeauftragte müssen jährlich geschult werden."
QUOTE_EN_1 = "The effective dose limit for members of the public is 1 mSv per calendar year."
UNVERIFIED_EN = "Radiation protection officers must be trained every year."


def _run() -> RunMeta:
    return RunMeta(
        run_id="run-2025-001", database="Strahlenschutz", llm_backend="ollama", llm_host="http://127.0.0.1:11434",
        model="qwen3:8b", embedder="multilingual-e5-small", settings={"depth": 2},
        timings=[PhaseTiming(phase="clarify", seconds=4.2), PhaseTiming(phase="research", seconds=185.0)],
        llm_calls=37, prompt_tokens=51234, completion_tokens=8012,
        started_at=datetime(2025, 3, 1, 9, 0, 0, tzinfo=UTC), finished_at=datetime(2025, 3, 1, 9, 4, 12, tzinfo=UTC),
    )


def _quality(revised: bool = True) -> Quality:
    return Quality(grounding=85, completeness=70, structure=90, citations=80, total=325, notes="Gut belegt.",
                   revised=revised, first_total=240 if revised else None,
                   cited_sentence_share=0.875, verified_quote_share=2 / 3)


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
        f"1. Erster Schritt {SCRIPT} prüfen\n"
        "2. Zweiter Schritt & Nachweis < 1 mSv [9]\n"
    )
    citations = [
        Citation(n=1, doc="StrlSchG.pdf", doc_id="d1", path="/data/StrlSchG.pdf", page=12, section="§ 80",
                 quote=QUOTE_DE_1, quote_verified=True, match="exact", rects=[Rect(x0=50, y0=100, x1=500, y1=130)]),
        Citation(n=2, doc="StrlSchV.pdf", doc_id="d2", path="/data/StrlSchV.pdf", page=8, section="§ 3",
                 quote=UNVERIFIED_DE, quote_verified=False, match="none"),
        Citation(n=3, doc="Leitfaden Übersicht.pdf", doc_id="d3", path="/data/Leitfaden Übersicht.pdf", page=4,
                 quote=QUOTE_DE_3, quote_verified=True, match="fuzzy"),
    ]
    findings = Findings(
        primary=[_finding(1, "Grenzwert 1 mSv für die Bevölkerung", "StrlSchG.pdf", 12, section="§ 80", citation=1,
                          relevance=0.95, quotes=[QuoteView(text=QUOTE_DE_1, verified=True, match="exact", page=12)])],
        secondary=[_finding(2, "Schulungspflicht für Beauftragte", "StrlSchV.pdf", 8, section="§ 3", citation=2,
                            quotes=[QuoteView(text=UNVERIFIED_DE, verified=False, page=8)],
                            paraphrases=["Beauftragte werden regelmäßig fortgebildet."],
                            referenced_from="StrlSchG p. 12 § 80")],
        tertiary=[_finding(3, "Ausnahmen im Einzelfall", "Leitfaden Übersicht.pdf", 4, citation=3, relevance=0.5,
                           referenced_from="StrlSchV p. 8 § 3")],
    )
    filtered = [_finding(2, "Grenzwerte für Lebensmittel nach Fukushima", "EU-Verordnung.pdf", 30, filtered=True,
                         relevance=0.3, drift_score=0.81, filter_reason="behandelt Lebensmittel, nicht Personendosis")]
    return Report(
        question="Welche Dosisgrenzwerte gelten nach § 80 StrlSchG für die Bevölkerung?", language="de",
        title="Dosisgrenzwerte für Einzelpersonen der Bevölkerung", answer=answer, citations=citations,
        findings=findings, filtered=filtered, drift_warning="Einige Erkenntnisse wichen vom Thema ab.",
        quality=_quality(), scope="Strahlenschutzrecht (StrlSchG, StrlSchV)",
        tasks=[{"id": 0, "task": "Welche Dosisgrenzwerte gelten?", "status": "done",
                "summary": {"summary": "1 mSv pro Jahr.", "key_points": ["§ 80 StrlSchG"], "open_questions": []}},
               {"id": 1, "task": "Ausnahmen prüfen", "status": "skipped"}],
        run=_run(),
    )


def english_report() -> Report:
    answer = (
        "The public dose limit is **1 mSv** per year [1]. Training is required [2].\n\n"
        f"Note: {SCRIPT} must not run.\n"
    )
    citations = [
        Citation(n=1, doc="Radiation Act.pdf", doc_id="e1", path="/data/Radiation Act.pdf", page=5, section="Section 80",
                 quote=QUOTE_EN_1, quote_verified=True, match="exact"),
        Citation(n=2, doc="Ordinance.pdf", doc_id="e2", path="/data/Ordinance.pdf", page=9,
                 quote=UNVERIFIED_EN, quote_verified=False),
    ]
    findings = Findings(
        primary=[_finding(1, "Public dose limit 1 mSv", "Radiation Act.pdf", 5, citation=1,
                          quotes=[QuoteView(text=QUOTE_EN_1, verified=True, match="exact", page=5)])],
        secondary=[_finding(2, "Training duty", "Ordinance.pdf", 9, citation=2, paraphrases=[UNVERIFIED_EN],
                            referenced_from="Radiation Act p. 5 Section 80")],
        tertiary=[_finding(3, "Guidance on exemptions", "Guide.pdf", 2, relevance=0.4)],
    )
    filtered = [_finding(2, "Food limits after Fukushima", "EU food.pdf", 30, filtered=True, relevance=0.2,
                         drift_score=0.77, filter_reason="about food, not personal dose")]
    return Report(
        question="What dose limits apply to the public?", language="en", title="Public dose limits", answer=answer,
        citations=citations, findings=findings, filtered=filtered, drift_warning="Some findings drifted off topic.",
        quality=_quality(revised=False), tasks=[{"id": 0, "task": "What dose limits apply?", "summary": "1 mSv."}],
        run=_run(),
    )


@pytest.fixture
def report_de() -> Report:
    return german_report()


@pytest.fixture
def report_en() -> Report:
    return english_report()
