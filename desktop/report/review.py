"""The reviewer's marks as every export shows them: who reviewed and when, how many claims stand how, each
claim's verdict and note; and the report cut to the claims the reviewer accepted."""

from __future__ import annotations

from desktop.report.labels import labels_for, one_line, timestamp
from desktop.report.model import Report, ReviewMark


def claim_key(index: int) -> str:
    return f"claim:{index}"


def claim_mark(report: Report, index: int) -> ReviewMark | None:
    return report.review.get(claim_key(index))


def summary_line(report: Report) -> str | None:
    """"Reviewed by anna, last on 2026-11-27 10:15 — 3 accepted, …", or None before any mark."""
    if not report.review:
        return None
    lab = labels_for(report)
    marks = list(report.review.values())
    by = ", ".join(dict.fromkeys(m.by for m in marks))
    counts = {s: sum(1 for i in range(len(report.claims)) if (m := claim_mark(report, i)) and m.status == s)
              for s in ("accepted", "rejected", "to_check")}
    counts["open"] = len(report.claims) - sum(counts.values())
    return (lab["reviewed_by"].format(by=by, at=timestamp(max(m.at for m in marks)))
            + " \u2014 " + lab["review_counts"].format(**counts))


def finding_key(group: str, index: int) -> str:
    return f"finding:{group}.{index}"


def review_rows(report: Report) -> list[tuple[str, str, str]]:
    """(what, verdict, note): every claim in the answer's order, then each finding the reviewer marked."""
    lab = labels_for(report)
    rows = []
    for claim in report.claims:
        mark = claim_mark(report, claim.index)
        rows.append((one_line(claim.marked), lab[mark.status] if mark else lab["not_reviewed"], mark.note if mark else ""))
    for group in ("primary", "secondary", "tertiary", "filtered"):
        items = report.filtered if group == "filtered" else getattr(report.findings, group)
        for index, finding in enumerate(items):
            if mark := report.review.get(finding_key(group, index)):
                what = f"{lab['finding']}: {one_line(finding.text)} ({finding.doc}, {lab['page']} {finding.page})"
                rows.append((what, lab[mark.status], mark.note))
    return rows


def accepted_only(report: Report) -> Report:
    """The report whose answer holds only the claims the reviewer accepted (in their order, one paragraph
    each) and whose sources are only those they cite; findings, quality and run stay as they are."""
    lab = labels_for(report)
    kept = [c for c in report.claims if (m := claim_mark(report, c.index)) and m.status == "accepted"]
    cited = {s.n for c in kept for s in c.sources}
    answer = "\n\n".join([f"*{lab['accepted_only']}*", *(c.marked for c in kept)]) if kept else lab["no_accepted"]
    return report.model_copy(update={"answer": answer, "citations": [c for c in report.citations if c.n in cited]})
