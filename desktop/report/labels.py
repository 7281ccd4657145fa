"""Fixed headings and labels of the exported report, one dict per language, plus the few formatting
helpers every format shares (so Markdown, HTML, PDF and DOCX say the same thing the same way)."""

from __future__ import annotations

from datetime import datetime

from desktop.report.model import Citation, Report, ReportFinding

# Every key exists in both dicts; a test checks that, so a new label cannot be forgotten in one language.
LABELS: dict[str, dict[str, str]] = {
    "de": {
        "question": "Frage",
        "scope": "Umfang",
        "answer": "Antwort",
        "sources": "Quellen",
        "page": "S.",
        "verified": "verifiziert",
        "fuzzy": "unscharfer Abgleich",
        "quote_not_verified": "Zitat nicht verifiziert",
        "no_sources": "Keine Quellen.",
        "findings": "Erkenntnisse",
        "tier_1": "Primär",
        "tier_2": "Sekundär",
        "tier_3": "Tertiär",
        "no_findings": "Keine.",
        "relevance": "Relevanz",
        "engine_pick": "vom Modell übergangen, beantwortet die Aufgabe dem Wortlaut nach",
        "referenced_from": "gefunden über Verweis aus",
        "paraphrase": "Paraphrase, nicht verifiziert",
        "filtered": "Wegen Themenabweichung ausgefiltert",
        "reason": "Grund",
        "drift_score": "Abweichung",
        "warning": "Warnung",
        "quality": "Qualität",
        "grounding": "Belegtheit",
        "completeness": "Vollständigkeit",
        "structure": "Struktur",
        "citations": "Zitierungen",
        "total": "Gesamt",
        "revised": "Überarbeitet",
        "yes": "ja",
        "no": "nein",
        "first_total": "erste Bewertung",
        "cited_share": "Sätze mit Quellenangabe",
        "verified_share": "Verifizierte Zitate",
        "notes": "Anmerkungen",
        "tasks": "Plan",
        "status": "Status",
        "run": "Lauf",
        "run_id": "Lauf-ID",
        "database": "Datenbank",
        "vectors_missing": "Passagen ohne Vektor bei Beginn",
        "vectors_missing_value": "{missing} von {total}: nur über ihre Wörter gesucht (die Datenbank wurde noch "
                                 "eingebettet)",
        "model": "Modell",
        "embedder": "Embedding-Modell",
        "llm_backend": "LLM-Server",
        "llm_calls": "LLM-Aufrufe",
        "tokens": "Tokens (Prompt / Antwort)",
        "cached_tokens": "Prompt-Tokens aus dem Cache des Servers",
        "started": "Beginn",
        "finished": "Ende",
        "duration": "Dauer",
        "timings": "Zeiten je Phase",
        "problem_no_source": "keine Aussage nannte eine Quelle aus der Liste",
        "problem_not_supported": "keine Aussage stand in den Quellen, die sie nannte",
        "problem_none_stood": "keine Aussage der Antwort hielt der Prüfung an ihren Quellen stand",
        "problem_other": "die Fehlermeldung steht im Prüfprotokoll (audit.jsonl)",
        "problem_attempts": "{n} Versuche",
        "phase_start": "Start",
        "phase_clarify": "Klärung",
        "phase_plan": "Plan",
        "phase_research": "Recherche",
        "phase_drift": "Filter",
        "phase_synthesis": "Synthese",
        "phase_report": "Bericht",
        "footer": "Seite {page} von {pages}",
        "open_points": "Offen",
        "not_assessed": "nicht bewertet",
        "evidence_title": "Belegbericht",
        "evidence_intro": ("Dies ist ein Belegbericht: {reason} Er listet die gefundenen Belege je Rechercheaufgabe "
                           "und Stufe, jeweils mit Dokument, Seite und verifiziertem Zitat."),
        "evidence_model_failed": "Das Sprachmodell konnte keine verwendbare Antwort schreiben.",
        "evidence_none": ("Die Wissensbasis hat zu dieser Frage keine Belege geliefert: Keine gelesene Textstelle "
                          "wurde als relevant erkannt."),
        "task": "Aufgabe",
        "no_quote": "ohne verifiziertes Zitat",
        "drift_warning": ("{filtered} von {total} Erkenntnissen ({share}) weichen von der Frage ab und wurden "
                          "zurückgestellt; prüfen Sie Plan und Klärung, falls dem Bericht etwas fehlt."),
        "drift_not_scored": "nicht bewertet: das Sprachmodell gab keine verwendbare Antwort",
        "drift_answers": "das verifizierte Zitat enthält, wonach die Frage fragt",
        "drift_by_reading": "bewertet mit der Note, die es beim Lesen bekam (das Zeitbudget lässt keinen zweiten Blick zu)",
        "more_evidence": "Weitere Belege je Aufgabe",
        "evidence_by_task": "Belege je Aufgabe",
        "answer_by_parts": "Antwort aus den Belegen, je Teilfrage (Sätze der Dokumente, von Rabbithole ausgewählt; "
                           "im Zeitbudget schrieb kein Modell die Antwort, seine Zeit ging ins Lesen)",
        "answer_by_parts_readings": "Antwort aus den Belegen, je Teilfrage (von Rabbithole ausgewählt: ein Satz der "
                                    "Dokumente, zitiert, oder die Lesart des Modells dazu; im Zeitbudget schrieb kein "
                                    "Modell die Antwort, seine Zeit ging ins Lesen)",
        "answer_model_failed": "Antwort aus den Belegen, je Aufgabe (Sätze der Dokumente, von Rabbithole ausgewählt; "
                               "das Sprachmodell konnte keine verwendbare Antwort schreiben)",
        "answer_model_failed_readings": "Antwort aus den Belegen, je Aufgabe (von Rabbithole ausgewählt: ein Satz der "
                                        "Dokumente, zitiert, oder die Lesart des Modells dazu; das Sprachmodell konnte "
                                        "keine verwendbare Antwort schreiben)",
        "tasks_answered": "Aufgaben mit Beleg in der Antwort",
        "measured": "Gemessen",
        "figures_in_quotes": "Zahlen der Antwort in ihren zitierten Belegen",
        "references_followed": "Verweise verfolgt",
        "sources_read": "Belegstellen gelesen (von gefundenen)",
        "statements_left_out": "Aussagen ausgelassen",
        "self_rating": "Selbsteinschätzung des Sprachmodells",
        "not_rated": "nicht erhoben (Zeitbudget)",
        "not_rated_no_answer": "nicht erhoben (kein Modell schrieb die Antwort)",
        "review": "Prüfung",
        "reviewed_by": "Geprüft von {by}, zuletzt am {at}",
        "review_counts": "{accepted} angenommen, {rejected} abgelehnt, {to_check} zu prüfen, {open} ohne Prüfung",
        "accepted": "angenommen",
        "rejected": "abgelehnt",
        "to_check": "zu prüfen",
        "not_reviewed": "ohne Prüfung",
        "claim": "Aussage",
        "finding": "Erkenntnis",
        "accepted_only": "Nur die angenommenen Aussagen des Prüfers.",
        "no_accepted": "Der Prüfer hat keine Aussage angenommen.",
    },
    "en": {
        "question": "Question",
        "scope": "Scope",
        "answer": "Answer",
        "sources": "Sources",
        "page": "p.",
        "verified": "verified",
        "fuzzy": "approximate match",
        "quote_not_verified": "quote not verified",
        "no_sources": "No sources.",
        "findings": "Findings",
        "tier_1": "Primary",
        "tier_2": "Secondary",
        "tier_3": "Tertiary",
        "no_findings": "None.",
        "relevance": "relevance",
        "engine_pick": "passed over by the model, answers the task by its wording",
        "referenced_from": "reached through a reference in",
        "paraphrase": "paraphrase, not verified",
        "filtered": "Filtered out as off-topic",
        "reason": "reason",
        "drift_score": "drift",
        "warning": "Warning",
        "quality": "Quality",
        "grounding": "Grounding",
        "completeness": "Completeness",
        "structure": "Structure",
        "citations": "Citations",
        "total": "Total",
        "revised": "Revised",
        "yes": "yes",
        "no": "no",
        "first_total": "first score",
        "cited_share": "Sentences with a citation",
        "verified_share": "Verified quotes",
        "notes": "Notes",
        "tasks": "Plan",
        "status": "status",
        "run": "Run",
        "run_id": "Run ID",
        "database": "Database",
        "vectors_missing": "Passages without a vector at the start",
        "vectors_missing_value": "{missing} of {total}: searched by their words only (the database was still being "
                                 "embedded)",
        "model": "Model",
        "embedder": "Embedder",
        "llm_backend": "LLM server",
        "llm_calls": "LLM calls",
        "tokens": "Tokens (prompt / completion)",
        "cached_tokens": "Prompt tokens from the server's cache",
        "started": "Started",
        "finished": "Finished",
        "duration": "Duration",
        "timings": "Time per phase",
        "problem_no_source": "no statement named a source from the list",
        "problem_not_supported": "no statement was said by the sources it named",
        "problem_none_stood": "no statement of the answer stood the check against its sources",
        "problem_other": "the error is in the audit trail (audit.jsonl)",
        "problem_attempts": "{n} attempts",
        "phase_start": "Start-up",
        "phase_clarify": "Clarify",
        "phase_plan": "Plan",
        "phase_research": "Research",
        "phase_drift": "Filter",
        "phase_synthesis": "Synthesis",
        "phase_report": "Report",
        "footer": "Page {page} of {pages}",
        "open_points": "Open",
        "not_assessed": "not assessed",
        "evidence_title": "Evidence report",
        "evidence_intro": ("This is an evidence report: {reason} It lists the evidence found, by research task and "
                           "tier, each with document, page and verified quote."),
        "evidence_model_failed": "The language model could not write a usable answer.",
        "evidence_none": ("The knowledge base gave no evidence for this question: no excerpt that was read was found "
                          "relevant."),
        "task": "Task",
        "no_quote": "no verified quote",
        "drift_warning": ("{filtered} of {total} findings ({share}) drifted from the question and were set aside; "
                          "check the plan or the clarification if the report misses something."),
        "drift_not_scored": "not scored: the language model gave no usable answer",
        "drift_answers": "its verified quote holds what the question asks for",
        "drift_by_reading": "scored by the grade it got when it was read (the time budget leaves no room for a second look)",
        "more_evidence": "More evidence by task",
        "evidence_by_task": "Evidence for each task",
        "answer_by_parts": "Answer from the evidence, part by part (the documents' sentences, chosen by Rabbithole; "
                           "under the time budget no model wrote the answer, its time went to reading)",
        "answer_by_parts_readings": "Answer from the evidence, part by part (chosen by Rabbithole: a sentence of the "
                                    "documents, quoted, or the model's reading of it; under the time budget no model "
                                    "wrote the answer, its time went to reading)",
        "answer_model_failed": "Answer from the evidence, task by task (the documents' sentences, chosen by "
                               "Rabbithole; the language model could not write a usable answer)",
        "answer_model_failed_readings": "Answer from the evidence, task by task (chosen by Rabbithole: a sentence of "
                                        "the documents, quoted, or the model's reading of it; the language model could "
                                        "not write a usable answer)",
        "tasks_answered": "Tasks with evidence in the answer",
        "measured": "Measured",
        "figures_in_quotes": "The answer's figures in the quotes it cites",
        "references_followed": "References followed",
        "sources_read": "Evidence excerpts read (of found)",
        "statements_left_out": "Statements left out",
        "self_rating": "The language model's self-rating",
        "not_rated": "not asked for (time budget)",
        "not_rated_no_answer": "not asked for (no model wrote the answer)",
        "review": "Review",
        "reviewed_by": "Reviewed by {by}, last on {at}",
        "review_counts": "{accepted} accepted, {rejected} rejected, {to_check} to check, {open} not reviewed",
        "accepted": "accepted",
        "rejected": "rejected",
        "to_check": "to check",
        "not_reviewed": "not reviewed",
        "claim": "Claim",
        "finding": "Finding",
        "accepted_only": "Only the claims the reviewer accepted.",
        "no_accepted": "The reviewer accepted no claim.",
    },
}

# Typographic quotation marks of each language: „…“ in German, “…” in English.
QUOTE_MARKS: dict[str, tuple[str, str]] = {"de": ("\u201e", "\u201c"), "en": ("\u201c", "\u201d")}

TIERS: tuple[tuple[str, str], ...] = (("primary", "tier_1"), ("secondary", "tier_2"), ("tertiary", "tier_3"))
SCORES: tuple[str, ...] = ("grounding", "completeness", "structure", "citations")


def lang_key(report: Report) -> str:
    """German for "de" (also "de-DE"), English for everything else."""
    return "de" if report.language.lower().split("-")[0] == "de" else "en"


def labels_for(report: Report) -> dict[str, str]:
    return LABELS[lang_key(report)]


def quoted(report: Report, text: str) -> str:
    """Wrap a *verified* quote in the language's quotation marks; never call it for unverified text."""
    left, right = QUOTE_MARKS[lang_key(report)]
    return f"{left}{one_line(text)}{right}"


def table_quote(header: str | None, text: str) -> tuple[list[str], list[list[str]]] | None:
    """A verified quote of table rows, to be shown as a table: its table's header cells and each quoted
    row's cells; None when the quote is not table rows (kb/ingestion/tables.py writes them as Markdown)."""
    lines = [ln.strip() for ln in text.splitlines() if ln.strip()]
    if not header or not lines or not all(ln.startswith("|") and ln.endswith("|") for ln in lines):
        return None
    return markdown_cells(header.splitlines()[0]), [markdown_cells(ln) for ln in lines]


def markdown_cells(line: str) -> list[str]:
    """The cells of one Markdown table row: "| a | 1,234 |" → ["a", "1,234"]."""
    return [c.strip() for c in line.strip().strip("|").split("|")]


def one_line(text: str) -> str:
    """PDF quotes carry line breaks and hyphenation spaces; a source line reads better as one line."""
    return " ".join(text.split())


def location(report: Report, doc: str, page: int, section: str | None) -> str:
    """'file.pdf, p. 12, § 5' — the place a reviewer opens to check a claim."""
    parts = [doc, f"{labels_for(report)['page']} {page}"]
    if section:
        parts.append(one_line(section))
    return ", ".join(parts)


def citation_location(report: Report, c: Citation) -> str:
    return location(report, c.doc, c.page, c.section)


def finding_location(report: Report, f: ReportFinding) -> str:
    return location(report, f.doc, f.page, f.section)


def relevance(report: Report, f: ReportFinding) -> str:
    """The finding's relevance as its meta line shows it, and who picked it where the model did not."""
    lab = labels_for(report)
    return f"{lab['relevance']} {f.relevance:.2f}" + (f", {lab['engine_pick']}" if f.picked_by_engine else "")


def percent(share: float) -> str:
    return f"{round(share * 100)} %"


def seconds(value: float) -> str:
    """Durations for humans: '42.0 s' or '3 min 05 s'."""
    if value < 60:
        return f"{value:.1f} s"
    minutes, secs = divmod(round(value), 60)
    return f"{minutes} min {secs:02d} s"


def phase_name(report: Report, phase: str) -> str:
    """A phase of the run (its code in the run's timings) by the name the window gives it, in the report's
    language; an unknown code as it is."""
    return labels_for(report).get(f"phase_{phase}", phase)


def timestamp(value: datetime) -> str:
    return value.isoformat(sep=" ", timespec="seconds")


def task_title(task: dict) -> str:
    """Plan tasks are plain dicts from the engine; accept the keys it uses ('task') and obvious others."""
    for key in ("task", "title", "text", "question"):
        if isinstance(task.get(key), str) and task[key].strip():
            return one_line(task[key])
    return one_line(str(task.get("id", "")))


def task_summary(task: dict) -> str:
    """The summary may be a string or a TaskSummary-like dict {'summary': ..., 'key_points': [...]}."""
    summary = task.get("summary")
    if isinstance(summary, dict):
        summary = summary.get("summary")
    return summary.strip() if isinstance(summary, str) else ""


def task_points(task: dict) -> list[str]:
    summary = task.get("summary")
    points = summary.get("key_points") if isinstance(summary, dict) else task.get("key_points")
    return [one_line(str(p)) for p in points or [] if str(p).strip()]


def run_rows(report: Report) -> list[tuple[str, str]]:
    """The run metadata as (label, value) rows, in the order every format shows them."""
    lab, run = labels_for(report), report.run
    duration = (run.finished_at - run.started_at).total_seconds()
    gap = [(lab["vectors_missing"], lab["vectors_missing_value"].format(missing=run.vectors_missing, total=run.passages))]
    return [
        (lab["model"], run.model),
        (lab["embedder"], run.embedder),
        (lab["llm_backend"], f"{run.llm_backend} ({run.llm_host})"),
        (lab["database"], run.database),
        *(gap if run.vectors_missing else []),
        (lab["llm_calls"], str(run.llm_calls)),
        (lab["tokens"], f"{run.prompt_tokens} / {run.completion_tokens}"),
        (lab["cached_tokens"], str(run.cached_tokens)),
        (lab["started"], timestamp(run.started_at)),
        (lab["finished"], timestamp(run.finished_at)),
        (lab["duration"], seconds(max(duration, 0.0))),
        (lab["run_id"], run.run_id),
    ]


def quality_rows(report: Report) -> list[tuple[str, str]]:
    """The quality block as (label, value) rows: first what the engine measured, then the model's rating of
    its own answer — an opinion, shown as that — and whether it was revised."""
    lab, q = labels_for(report), report.quality
    rows = [(lab["cited_share"], percent(q.cited_sentence_share)),
            (lab["verified_share"], percent(q.verified_quote_share))]
    if q.figures_stated:
        rows.append((lab["figures_in_quotes"], f"{q.figures_in_quotes} / {q.figures_stated}"))
    if q.tasks_total:
        rows.append((lab["tasks_answered"], f"{q.tasks_answered} / {q.tasks_total}"))
    rows += [(lab["references_followed"], str(q.references_followed)),
             (lab["sources_read"], f"{q.sources_read} / {q.sources_found}" if q.sources_found else str(q.sources_read))]
    if q.statements_left_out:
        rows.append((lab["statements_left_out"], str(q.statements_left_out)))
    if q.assessed:
        rows += [(f"{lab['self_rating']}: {lab[name]}", f"{getattr(q, name)} / 100") for name in SCORES]
        rows.append((f"{lab['self_rating']}: {lab['total']}", f"{q.total} / 400"))
        revised = lab["yes"] if q.revised else lab["no"]
        if q.revised and q.first_total is not None:
            revised += f" ({lab['first_total']}: {q.first_total} / 400)"
        rows.append((lab["revised"], revised))
    else:  # zeros that no rater gave are not grades
        unrated = "not_rated_no_answer" if q.unrated == "no_answer" else "not_rated"
        rows.append((lab["self_rating"], lab[unrated] if report.kind == "synthesis" else lab["not_assessed"]))
    return rows
