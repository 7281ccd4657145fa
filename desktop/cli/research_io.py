"""The terminal side of a research run: who answers the checkpoints, what is printed while the run
works, and the files written into --out."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

from desktop.cli.console import err
from desktop.service import RunState, describe
from desktop.service import events as ev
from desktop.service import plan_text as show
from desktop.report.review import accepted_only as accepted_claims
from desktop.report.export import ExportError, export_all, write_atomic, write_audit

Answers = str | None


class Responder:
    """Answers checkpoints; None means: stop here and leave the run waiting (resumable)."""

    replaying = False

    @staticmethod
    def make(answers: Path | None, auto: bool) -> "Responder":
        if auto:
            return AutoResponder()
        if answers:
            return ReplayResponder(answers)
        return InteractiveResponder()

    def answer(self, state: RunState) -> Answers:
        raise NotImplementedError

    def plan_command(self, state: RunState) -> str | None:
        raise NotImplementedError


def _questions(state: RunState) -> str:
    rnd = state.clarification.current
    assert rnd is not None and rnd.analysis is not None
    s = state.settings
    lines = [f"\nRound {rnd.index}/{s.max_rounds} — {len(rnd.new_chunks)} new chunks, {rnd.duplicates} seen before, "
             f"coverage {rnd.analysis.coverage:.0%}"]
    if rnd.analysis.knowledge_gaps:
        lines.append("Gaps: " + "; ".join(rnd.analysis.knowledge_gaps))
    if rnd.suggest_end:
        lines.append("The question looks well covered: type /end to continue with the plan, or answer to refine.")
    lines += [f"  {i}. {q}" for i, q in enumerate(rnd.questions, start=1)]
    return "\n".join(lines)


def _plan(state: RunState) -> str:
    assert state.plan is not None
    head = f"\nResearch plan (revision {state.plan.revision}):"
    note = f"\nNote: {state.plan.note}" if state.plan.note else ""
    return f"{head}\n{show(state.plan)}{note}"


class InteractiveResponder(Responder):
    def answer(self, state: RunState) -> Answers:
        print(_questions(state))
        try:
            return input("Your answer (/end finishes clarification): ")
        except EOFError:
            return "/end"

    def plan_command(self, state: RunState) -> str | None:
        print(_plan(state))
        try:
            return input("Plan — Enter approves; or add/edit/remove/move/replan …: ")
        except EOFError:
            return None


class ReplayResponder(Responder):
    """Lines of a file, in order: blank lines and lines starting with '#' are skipped."""

    replaying = True

    def __init__(self, file: Path) -> None:
        try:
            text = file.read_text(encoding="utf-8")
        except OSError as exc:
            raise ValueError(f"cannot read {file}: {exc.strerror}") from None
        self.lines = [ln for ln in text.splitlines() if ln.strip() and not ln.lstrip().startswith("#")]

    def _next(self, what: str) -> str | None:
        if not self.lines:
            err(f"the answers file has no more lines ({what} expected): the run waits")
            return None
        line = self.lines.pop(0)
        err(f"> {line}")
        return line

    def answer(self, state: RunState) -> Answers:
        err(_questions(state))
        return self._next("an answer")

    def plan_command(self, state: RunState) -> str | None:
        err(_plan(state))
        return self._next("a plan command")


class AutoResponder(Responder):
    def answer(self, state: RunState) -> Answers:
        err(_questions(state) + "\n> /end (--auto)")
        return "/end"

    def plan_command(self, state: RunState) -> str | None:
        err(_plan(state) + "\n> approve (--auto)")
        return "approve"


class EventPrinter:
    """Progress on stderr, one line per event that a person wants to see."""

    def __call__(self, event: ev.Event) -> None:
        line = describe(event)
        if line:
            err(line)



def summary(state: RunState) -> dict[str, Any]:
    """The machine-readable summary of a run (--json, and summary.json in --out)."""
    return {
        "run_id": state.run_id,
        "question": state.question,
        "database": state.database,
        "language": state.language,
        "phase": state.phase,
        "status": state.status,
        "message": state.message,
        "waiting_for": state.pending.kind if state.pending else None,
        "rounds": len(state.clarification.rounds),
        "termination": state.clarification.termination,
        "research_queries": state.clarification.research_queries,
        "anchor": state.anchor.model_dump(mode="json") if state.anchor else None,
        "plan": state.plan.model_dump(mode="json") if state.plan else None,
        "findings": len(state.later.research.findings),
        "quality": state.later.report.quality.total if state.later.report else None,
        "citations": len(state.later.report.citations) if state.later.report else None,
        "usage": state.usage.model_dump(),
        "model": state.model,
    }


class OutputError(RuntimeError):
    """A report format could not be written; the message names the files that were."""


def write_outputs(out: Path, state: RunState, events: list[ev.Event], accepted_only: bool = False) -> None:
    """The run as files: state.json, plan.json/plan.md, audit.jsonl (every event: queries, retrieved
    chunks, prompts, raw answers, decisions), summary.json and, once the run is done, the report in
    every format (``accepted_only``: its answer cut to the claims a reviewer accepted). The report comes
    last: a format that cannot be written costs nothing else."""
    out.mkdir(parents=True, exist_ok=True)
    written = [write_atomic(out / "state.json", _text(state.model_dump_json(indent=2)))]
    if state.plan:
        written.append(write_atomic(out / "plan.json", _text(state.plan.model_dump_json(indent=2))))
        written.append(write_atomic(out / "plan.md", _text(f"# {state.question}\n\n{show(state.plan)}\n")))
    written.append(write_audit(out, ev.audit_records(events)))
    written.append(write_atomic(out / "summary.json", _text(json.dumps(summary(state), indent=2, ensure_ascii=False))))
    if state.later.report is None:
        return
    try:
        export_all(accepted_claims(state.later.report) if accepted_only else state.later.report, out)
    except ExportError as exc:
        names = ", ".join(p.name for p in [*written, *exc.written.values()])
        raise OutputError(f"{exc}. Written to {out}: {names}") from exc


def _text(content: str) -> Callable[[Path], None]:
    return lambda path: path.write_text(content, encoding="utf-8", newline="\n")
