"""The links inside the report view and what they open.

``cite:n`` is the source [n]; ``finding:primary.0`` is the first primary finding and
``finding:primary.0.1`` its second quote (groups: primary, secondary, tertiary, filtered). Every link
resolves to a ``Citation``: the PDF viewer needs one shape, whatever was clicked.
"""

from __future__ import annotations

from desktop.report.model import Citation, QuoteView, Report, ReportFinding

CITE = "cite"
FINDING = "finding"
GROUPS: tuple[str, ...] = ("primary", "secondary", "tertiary", "filtered")


def cite_href(n: int) -> str:
    return f"{CITE}:{n}"


def finding_href(group: str, index: int, quote: int | None = None) -> str:
    return f"{FINDING}:{group}.{index}" + (f".{quote}" if quote is not None else "")


def resolve(report: Report, href: str) -> Citation | None:
    """The citation a link opens; None for anything that is not one of ours (or points nowhere)."""
    scheme, _, target = href.partition(":")
    if scheme == CITE and target.isdigit():
        return next((c for c in report.citations if c.n == int(target)), None)
    if scheme == FINDING:
        return _resolve_finding(report, target)
    return None


def _resolve_finding(report: Report, target: str) -> Citation | None:
    group, *numbers = target.split(".")
    if group not in GROUPS or not 1 <= len(numbers) <= 2 or not all(n.isdigit() for n in numbers):
        return None
    items: list[ReportFinding] = report.filtered if group == "filtered" else getattr(report.findings, group)
    index = int(numbers[0])
    if index >= len(items):
        return None
    finding = items[index]
    if len(numbers) == 1:
        return finding_citation(report, finding)
    quote_index = int(numbers[1])
    return finding_citation(report, finding, finding.quotes[quote_index]) if quote_index < len(finding.quotes) else None


def finding_citation(report: Report, finding: ReportFinding, quote: QuoteView | None = None) -> Citation:
    """A Citation-shaped target for a finding: its document, the quote's page and highlight rects.

    Without a chosen quote the first verified one is highlighted (else just the finding's page). ``n``
    is the finding's [n], or 0 when the answer does not cite it — hence ``model_construct`` (n >= 1
    otherwise). Reports written before findings carried their path borrow it from a citation.
    """
    if quote is None:
        quote = next((q for q in finding.quotes if q.verified), None)
    same_doc = [c for c in report.citations if c.doc == finding.doc]
    source = next((c for c in same_doc if c.n == finding.citation), same_doc[0] if same_doc else None)
    doc_id = finding.doc_id or (source.doc_id if source else "")
    path = finding.path or (source.path if source else "")
    # An unverified quote is the model's words: open its page, but highlight and quote nothing.
    shown = quote if quote is not None and quote.verified else None
    return Citation.model_construct(
        n=finding.citation or 0,
        doc=finding.doc,
        doc_id=doc_id,
        path=path,
        page=quote.page if quote is not None else finding.page,
        section=finding.section,
        quote=shown.text if shown else None,
        quote_verified=shown is not None,
        match=shown.match if shown else "none",
        rects=list(shown.rects) if shown else [],
        chunk_id=None,
    )
