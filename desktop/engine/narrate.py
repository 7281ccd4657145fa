"""One line per event that a person wants to see while a run works (LLM calls and streamed tokens are
left to the audit trail).

An event becomes a ``Narration``: a key saying which line it is and the values it shows. The terminal
writes it with the English templates here (``describe``); the window has a translated template for
every key, so its log speaks the window's language.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, TypeVar

from desktop.engine import events as ev

Value = str | int | float | bool | tuple[str, ...]
S = TypeVar("S", ev.Warning, ev.Error, ev.RunStopped)


@dataclass(frozen=True)
class Narration:
    key: str
    values: dict[str, Value] = field(default_factory=dict)


# Value names with a meaning beyond their type: a share is shown as a percentage, a duration in the
# largest fitting unit, a list joined with " | ".
SHARES = frozenset({"coverage", "share"})
DURATIONS = frozenset({"duration"})

ENGLISH: dict[str, str] = {
    "phase_started": "— {phase} —",
    "queries_generated": "round {round} queries: {queries}",
    "chunks_retrieved": "retrieved {new} new chunks ({duplicates} seen before)",
    "coverage_updated": "coverage {coverage}, {gaps} gaps",
    "clarification_ended": "clarification ended ({reason}); research queries: {queries}",
    "task_started": "task {task_id}: {task} ({chunks} chunks to read)",
    "finding_added": "  {finding} tier {tier}: {doc} p. {page}, {verified}/{quotes} quotes verified",
    "reference_followed": "  following '{reference}' → {doc} p. {page} (depth {depth})",
    "task_done": "task {task_id} {status}: {findings} findings",
    "drift_filtered": "drift filter: {kept} kept, {filtered} filtered",
    "quality_checked": "the model rates its answer {total}/400",
    "quality_checked_revising": "the model rates its answer {total}/400 — revising once",
    "quality_measured": "quality: the measured figures only (the time budget leaves no room for the model's "
                        "self-rating)",
    "report_ready": "report ready: {citations} citations",
    "evidence_report_ready": "evidence report ready (the model wrote no usable answer): {citations} citations",
    "estimate_ready": "estimate: the research and report take about {duration} here ({calls} LLM calls; the server "
                      "reads {read_tps} and writes {write_tps} tokens/s)",
    "estimate_ready_budget": "estimate: the research and report take about {duration} here ({calls} LLM calls; the "
                             "server reads {read_tps} and writes {write_tps} tokens/s; reads {excerpts} of up to "
                             "{allowed} excerpts within the time budget)",
    "request_failed": "LLM request failed ({purpose}): {error}",
    "token_usage": "  [{purpose}: {prompt}+{answer} tokens, {seconds}s]",
    "warning": "warning: {message}",
    "error": "error: {message}",
    "run_stopped": "{message}",
    **{key: "warning: " + text for key, text in {
        "warn_unchecked_answer": "{prompt}: the model's answer did not pass a check ({error}); it is used as it is",
        "warn_no_usable_answer": "{prompt}: the model gave no usable answer ({error}); going on without it",
        "warn_prompt_too_long": "{prompt}: {error}; going on without it",
        "warn_plan_trimmed": "the model proposed {proposed} to-dos; the first {kept} are kept "
                             "(research.plan_max_initial)",
        "warn_plan_merged": "the model proposed {proposed} to-dos, some of them the same, the question itself or without a "
                            "subject of their own; "
                            "{kept} distinct ones are kept",
        "warn_plan_overruled": "plan: the model called the question unanswerable, but excerpt [{excerpt}] concerns "
                               "its subject ({terms}); the research goes ahead",
        "warn_time_budget": "time budget: the research reads {excerpts} of up to {allowed} excerpts, with no task "
                            "summaries by the LLM, so that the run takes about {duration} on this LLM server "
                            "(research.time_budget_s; 0 reads all)",
        "warn_vectors_missing": "'{database}' is still being embedded: {missing} of {total} passages have no vector "
                                "yet, so the search finds them by their words only",
        "warn_budget_spent": "time budget: {read} excerpts were read; the {left} gathered excerpts left are not read "
                             "(research.time_budget_s; 0 reads all)",
        "warn_unhelpful": "task {task_id}: none of the {read} excerpts just read helped; its {skipped} lower-ranked "
                          "search results are not read",
        "warn_extract_failed": "research.extract: no usable answer for {count} excerpts ({error}); they were skipped",
        "warn_reference_cap": "stopped following references into {doc}: followed {times} times for task {task_id}",
        "warn_drift": "{filtered} of {total} findings ({share}) drifted from the question and were left out; check "
                      "the plan or the clarification if the report misses something.",
        "warn_uncited": "synthesis: {count} statement(s) named no source from the list and were left out",
        "warn_left_out": "synthesis: {count} statement(s) left out of the answer ({reasons}); the findings they "
                         "rest on stay in the report",
        "warn_synthesis_failed": "synthesis: the model could not write a usable answer ({error}); the report lists "
                                 "the evidence instead",
        "warn_answer_by_evidence": "synthesis: the model could not write a usable answer ({error}); the answer "
                                   "shows each of {tasks} tasks with the evidence Rabbithole chose for it",
        "warn_revision_failed": "synthesis: the revision gave no usable answer ({error}); the first answer stands",
        "warn_answer_by_parts": "time budget: the answer shows each of {parts} parts of the question with the "
                                "evidence Rabbithole chose for it, not an answer written by the LLM, whose time went "
                                "to reading (research.time_budget_s; 0 has it written)",
    }.items()},
    "run_cancelled": "Cancelled; resume to continue from here.",
    "run_done": "The report is ready.",
    "run_unknown_step": "unknown step '{step}' (written by another version?)",
    "run_server_down": "{error}. The run is paused here: resume it once the server answers.",
    "run_failed": "{error} — fix this and resume the run to continue from here.",
}
IN_LOG = frozenset(ENGLISH) - {"token_usage"}  # what the window's log shows (tokens have their own counter)


def narrate(event: ev.Event) -> Narration | None:
    """The line ``event`` stands for, or None when it is only for the audit trail."""
    match event:
        case ev.PhaseStarted(phase=phase):
            return Narration("phase_started", {"phase": phase})
        case ev.QueriesGenerated(round=r, queries=queries):
            return Narration("queries_generated", {"round": r, "queries": tuple(queries)})
        case ev.ChunksRetrieved(new=n, duplicates=d):
            return Narration("chunks_retrieved", {"new": n, "duplicates": d})
        case ev.CoverageUpdated(coverage=c, gaps=g):
            return Narration("coverage_updated", {"coverage": c, "gaps": len(g)})
        case ev.ClarificationEnded(reason=why, research_queries=queries):
            return Narration("clarification_ended", {"reason": why, "queries": tuple(queries)})
        case ev.TaskStarted(task_id=t, task=task, chunks=n):
            return Narration("task_started", {"task_id": t, "task": task, "chunks": n})
        case ev.FindingAdded(finding_id=f, tier=tier, doc=doc, page=page, verified=v, quotes=q):
            return Narration("finding_added", {"finding": f, "tier": tier, "doc": doc, "page": page, "verified": v,
                                               "quotes": q})
        case ev.ReferenceFollowed(reference=r, doc=doc, page=page, depth=d):
            return Narration("reference_followed", {"reference": r, "doc": doc, "page": page, "depth": d})
        case ev.TaskDone(task_id=t, status=status, findings=n):
            return Narration("task_done", {"task_id": t, "status": status, "findings": n})
        case ev.DriftFiltered(kept=k, filtered=f):
            return Narration("drift_filtered", {"kept": k, "filtered": f})
        case ev.QualityChecked(rated=False):
            return Narration("quality_measured", {})
        case ev.QualityChecked(total=total, revision_needed=r):
            return Narration("quality_checked_revising" if r else "quality_checked", {"total": total})
        case ev.ReportReady(citations=c, kind="evidence"):
            return Narration("evidence_report_ready", {"citations": c})
        case ev.ReportReady(citations=c):
            return Narration("report_ready", {"citations": c})
        case ev.EstimateReady(seconds=s, llm_calls=n, prompt_tps=p, answer_tps=a, excerpts=read, excerpts_allowed=allowed):
            key = "estimate_ready_budget" if read < allowed else "estimate_ready"
            return Narration(key, {"duration": s, "calls": n, "read_tps": round(p), "write_tps": round(a),
                                   "excerpts": read, "allowed": allowed})
        case ev.RequestFailed(purpose=p, error=e):
            return Narration("request_failed", {"purpose": p, "error": e})
        case ev.TokenUsage(purpose=p, call=u):
            return Narration("token_usage", {"purpose": p, "prompt": u.prompt_tokens, "answer": u.completion_tokens,
                                             "seconds": round(u.seconds, 1)})
        case ev.Warning() | ev.Error() | ev.RunStopped() if event.key in ENGLISH:
            return Narration(event.key, dict(event.values))
        case ev.Warning(message=m):
            return Narration("warning", {"message": m})
        case ev.Error(message=m):
            return Narration("error", {"message": m})
        case ev.RunStopped(message=m):
            return Narration("run_stopped", {"message": m})
    return None


def said(kind: type[S], key: str, values: dict[str, Value], **fields: Any) -> S:
    """A warning, error or stop event whose sentence the window can translate (``key``), with the
    English one as its message; ``fields`` are the event's own (a stop's status)."""
    text = english(Narration(key, values))
    return kind(message=text.removeprefix("warning: "), key=key, values=values, **fields)


def describe(event: ev.Event) -> str | None:
    """The line in English, for the terminal."""
    line = narrate(event)
    return None if line is None else english(line)


def english(line: Narration) -> str:
    return ENGLISH[line.key].format(**{k: _english(k, v) for k, v in line.values.items()})


def _english(name: str, value: Value) -> str:
    if isinstance(value, tuple):
        return " | ".join(value)
    if name in SHARES and isinstance(value, float):
        return f"{value:.0%}"
    if name in DURATIONS and isinstance(value, int | float):
        return duration(value)
    if isinstance(value, str):
        return value.replace("_", " ") if name in ("reason", "status") else value
    return str(value)


def duration(seconds: float) -> str:
    if seconds < 90:
        return f"{seconds:.0f} s"
    if seconds < 5400:
        return f"{seconds / 60:.0f} min"
    return f"{seconds / 3600:.1f} h"
