"""Review marks: a reviewer's verdict on each claim of a report and on each finding — accepted, rejected or
to check, with a note, by whom and when. Kept in the report (so every export carries them) and told to
the audit trail as ``ReviewMarked`` events."""

from __future__ import annotations

from desktop.engine import events as ev
from desktop.engine.state import RunState, now
from desktop.report.model import Report, ReviewMark, ReviewStatus

FINDING_GROUPS = ("primary", "secondary", "tertiary", "filtered")


def check_target(report: Report, target: str) -> str | None:
    """Why ``target`` names nothing in ``report`` ("claim:3", "finding:primary.0"), or None."""
    kind, _, rest = target.partition(":")
    if kind == "claim":
        ok = rest.isdigit() and int(rest) < len(report.claims)
    elif kind == "finding":
        group, _, index = rest.partition(".")
        items = report.filtered if group == "filtered" else getattr(report.findings, group, None)
        ok = group in FINDING_GROUPS and index.isdigit() and items is not None and int(index) < len(items)
    else:
        ok = False
    return None if ok else f"the report has no {target!r} (claim:N or finding:GROUP.N)"


def mark(state: RunState, target: str, status: ReviewStatus | None, note: str, by: str) -> ev.ReviewMarked:
    """Set (or, with ``status`` None, take back) the mark on ``target``; the event for the audit trail.
    Raises ValueError when the run has no report or the target is not in it."""
    report = state.later.report
    if report is None:
        raise ValueError("the run has no report to review yet")
    if (why := check_target(report, target)) is not None:
        raise ValueError(why)
    if status is None:
        report.review.pop(target, None)
    else:
        report.review[target] = ReviewMark(status=status, note=note.strip(), by=by, at=now())
    state.updated_at = now()
    return ev.ReviewMarked(run_id=state.run_id, target=target, status=status, note=note.strip(), by=by)
