"""One line per event that a person wants to see while a run works (the terminal and the window
both show these; LLM calls and streamed tokens are left to the audit trail)."""

from __future__ import annotations

from desktop.engine import events as ev


def describe(event: ev.Event) -> str | None:
    match event:
        case ev.PhaseStarted(phase=phase):
            return f"— {phase} —"
        case ev.QueriesGenerated(round=r, queries=queries):
            return f"round {r} queries: " + " | ".join(queries)
        case ev.ChunksRetrieved(new=n, duplicates=d):
            return f"retrieved {n} new chunks ({d} seen before)"
        case ev.CoverageUpdated(coverage=c, gaps=g):
            return f"coverage {c:.0%}, {len(g)} gaps"
        case ev.ClarificationEnded(reason=why, research_queries=queries):
            return f"clarification ended ({why.replace('_', ' ')}); research queries: " + " | ".join(queries)
        case ev.TaskStarted(task_id=t, task=task, chunks=n):
            return f"task {t}: {task} ({n} chunks to read)"
        case ev.FindingAdded(finding_id=f, tier=tier, doc=doc, page=page, verified=v, quotes=q):
            return f"  {f} tier {tier}: {doc} p. {page}, {v}/{q} quotes verified"
        case ev.ReferenceFollowed(reference=r, doc=doc, page=page, depth=d):
            return f"  following '{r}' → {doc} p. {page} (depth {d})"
        case ev.TaskDone(task_id=t, status=status, findings=n):
            return f"task {t} {status}: {n} findings"
        case ev.DriftFiltered(kept=k, filtered=f):
            return f"drift filter: {k} kept, {f} filtered"
        case ev.QualityChecked(total=total, revision_needed=r):
            return f"quality {total}/400" + (" — revising once" if r else "")
        case ev.ReportReady(citations=c, quality=q, kind="evidence"):
            return f"evidence report ready (the model wrote no usable answer): {c} citations"
        case ev.ReportReady(citations=c, quality=q):
            return f"report ready: {c} citations, quality {q}/400"
        case ev.EstimateReady(seconds=s, llm_calls=n, prompt_tps=p, answer_tps=a, excerpts=read, excerpts_allowed=allowed):
            budget = f"; reads {read} of up to {allowed} excerpts within the time budget" if read < allowed else ""
            return (f"estimate: the research and report take about {_duration(s)} here ({n} LLM calls; the server "
                    f"reads {p:.0f} and writes {a:.0f} tokens/s{budget})")
        case ev.RequestFailed(purpose=p, error=e):
            return f"LLM request failed ({p}): {e}"
        case ev.TokenUsage(purpose=p, call=u):
            return f"  [{p}: {u.prompt_tokens}+{u.completion_tokens} tokens, {u.seconds:.1f}s]"
        case ev.Warning(message=m) | ev.Error(message=m):
            return f"{event.type}: {m}"
        case ev.RunStopped(message=m):
            return m
    return None


def _duration(seconds: float) -> str:
    if seconds < 90:
        return f"{seconds:.0f} s"
    if seconds < 5400:
        return f"{seconds / 60:.0f} min"
    return f"{seconds / 3600:.1f} h"
