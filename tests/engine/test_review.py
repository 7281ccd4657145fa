"""Claim by claim: a finished run's report lists the answer's cited sentences with honest signals per
source; a reviewer's marks are saved with the run (surviving a restart), told to the audit trail, shown
in every export with who and when, and a report can be exported with only the accepted claims."""

from __future__ import annotations

import asyncio
import json
from pathlib import Path

import pytest
from support.research_llm import QUESTION_DE

from desktop.engine import events as ev
from desktop.engine.claims import claims
from desktop.engine.runner import CommandError
from desktop.report.model import Citation
from desktop.service import Session
from desktop.settings import Settings


def test_claims_are_the_cited_sentences_with_what_each_source_holds() -> None:
    cited = [Citation(n=1, doc="StrlSchG.pdf", doc_id="a", path="/a", page=52, quote_verified=True,
                      quote="Der Grenzwert der effektiven Dosis beträgt für Einzelpersonen der Bevölkerung "
                            "1 Millisievert im Kalenderjahr."),
             Citation(n=2, doc="Bericht.pdf", doc_id="b", path="/b", page=3, quote="Der Umsatz stieg um 5 Prozent.",
                      quote_verified=True),
             Citation(n=3, doc="StrlSchV.pdf", doc_id="c", path="/c", page=9, quote=None)]
    answer = ("# Grenzwerte\n\nDer Grenzwert beträgt 1 Millisievert im Kalenderjahr [1]. Ohne Beleg.\n\n"
              "- Für Einzelpersonen der Bevölkerung gilt er [1, 2].\n- Ausnahmen erlauben 6 Millisievert [2][3].")
    found = claims(answer, cited, "de")
    assert [c.text for c in found] == ["Der Grenzwert beträgt 1 Millisievert im Kalenderjahr.",
                                      "Für Einzelpersonen der Bevölkerung gilt er.",
                                      "Ausnahmen erlauben 6 Millisievert."]
    assert found[1].marked == "Für Einzelpersonen der Bevölkerung gilt er [1, 2]."
    first, second, third = found
    assert [(s.n, s.verbatim, s.figures) for s in first.sources] == [(1, True, True)] and first.sources[0].terms > 0.6
    assert [s.n for s in second.sources] == [1, 2] and second.sources[1].terms < 0.3  # the earnings release
    assert [(s.n, s.verbatim, s.figures) for s in third.sources] == [(2, True, False), (3, False, False)]
    assert third.sources[1].terms is None  # no quote: nothing to compare


def test_a_marker_alone_joins_its_sentence_and_words_compare_only_within_a_language() -> None:
    cited = [Citation(n=1, doc="StrlSchG.pdf", doc_id="a", path="/a", page=52, quote_verified=True,
                      quote="Der Grenzwert der effektiven Dosis beträgt 1 Millisievert im Kalenderjahr.")]
    found = claims("The limit is 1 millisievert per calendar year. (S1) [1]", cited, "en")
    assert [c.marked for c in found] == ["The limit is 1 millisievert per calendar year. (S1) [1]"]
    assert found[0].sources[0].figures is True and found[0].sources[0].terms is None  # English claim, German quote


def _to_report(harness):  # noqa: ANN001, ANN202
    async def run(engine):  # noqa: ANN001, ANN202
        state = await engine.start(QUESTION_DE, "Sample")
        state = await engine.end_clarification(state.run_id, "Nur beruflich exponierte Erwachsene.")
        return await engine.approve(state.run_id)

    return harness.run(run)


def test_marks_are_saved_with_the_run_and_told_to_the_audit_trail(harness) -> None:  # noqa: ANN001
    state = _to_report(harness)
    report = state.later.report
    assert report is not None and report.claims and all(c.sources for c in report.claims)

    async def review(engine):  # noqa: ANN001, ANN202
        await engine.review(state.run_id, "claim:0", "accepted", " stimmt ", "anna")
        await engine.review(state.run_id, "finding:primary.0", "to_check", "", "anna")
        with pytest.raises(CommandError, match="no 'claim:99'"):
            await engine.review(state.run_id, "claim:99", "accepted", "", "anna")
        return await engine.review(state.run_id, "claim:0", "rejected", "doch nicht", "ben")

    harness.run(review)

    async def reopened(engine):  # noqa: ANN001, ANN202 - a new session: as after a restart
        return engine.load(state.run_id)

    marks = harness.run(reopened).later.report.review
    assert set(marks) == {"claim:0", "finding:primary.0"}
    assert (marks["claim:0"].status, marks["claim:0"].note, marks["claim:0"].by) == ("rejected", "doch nicht", "ben")
    told = harness.of(ev.ReviewMarked)
    assert [(e.target, e.status, e.by) for e in told] == [
        ("claim:0", "accepted", "anna"), ("finding:primary.0", "to_check", "anna"), ("claim:0", "rejected", "ben")]
    assert told[0].note == "stimmt"


def test_exports_say_who_reviewed_and_can_hold_only_the_accepted_claims(harness, sample_paths,  # noqa: ANN001
                                                                         engine_settings: Settings,
                                                                         tmp_path: Path) -> None:
    state = _to_report(harness)
    paths, _ = sample_paths
    claims_made = state.later.report.claims
    assert len(claims_made) >= 2

    async def main() -> tuple[dict, dict]:
        async with Session(paths, engine_settings, harness.store_file) as session:
            await session.review(state.run_id, "claim:0", "accepted", "belegt")
            await session.review(state.run_id, "claim:1", "rejected", "Quelle sagt anderes")
            whole = await session.export(state.run_id, tmp_path / "whole")
            accepted = await session.export(state.run_id, tmp_path / "accepted", accepted_only=True)
            return whole, accepted

    whole, accepted = asyncio.run(main())
    md = whole["md"].read_text(encoding="utf-8")
    assert "## Prüfung" in md and "Geprüft von" in md and "1 angenommen, 1 abgelehnt" in md
    assert "Quelle sagt anderes" in md and claims_made[1].text[:30] in whole["md"].read_text(encoding="utf-8")
    assert "Prüfung" in whole["html"].read_text(encoding="utf-8")
    audit = [json.loads(line) for line in whole["audit"].read_text(encoding="utf-8").splitlines()]
    assert [a["target"] for a in audit if a["type"] == "review_marked"] == ["claim:0", "claim:1"]
    cut = json.loads(accepted["json"].read_text(encoding="utf-8"))
    assert claims_made[0].marked in cut["answer"] and claims_made[1].marked not in cut["answer"]
    assert {c["n"] for c in cut["citations"]} == {s.n for s in claims_made[0].sources}
