"""``rabbithole research`` and ``rabbithole runs``: a research run in the terminal, headless.

Interactive by default; ``--answers FILE`` replays one line per prompt (clarification answers, then
plan commands); ``--auto`` ends clarification after its first round and approves the plan.
"""

from __future__ import annotations

import argparse
import asyncio
import signal
import time
from contextlib import suppress
from pathlib import Path

import desktop
from desktop.cli.console import emit_json, err
from desktop.cli.research_io import Answers, EventPrinter, OutputError, Responder, summary, write_outputs
from desktop.cli.session import in_session, sample_first
from desktop.paths import AppPaths
from desktop.service import CommandError, KbError, LlmError, RunNotFound, RunState, Session
from desktop.settings import Settings

PLAN_HELP = ("plan commands: approve | add TASK | edit N TASK | remove N | move N POSITION | "
             "replan FEEDBACK | show")


# paused: try again later (sysexits' EX_TEMPFAIL); cancelled: as an interrupted command
EXIT_CODES = {"failed": 1, "paused": 75, "cancelled": 130}

def register(commands: argparse._SubParsersAction, common: argparse.ArgumentParser) -> None:
    p = commands.add_parser("research", help="run a research question (clarify, plan, …) in the terminal",
                            parents=[common])
    p.add_argument("question", nargs="?", metavar="QUESTION")
    p.add_argument("--db", metavar="NAME", help="the knowledge base to research in")
    p.add_argument("--resume", metavar="RUN_ID", help="continue a run")
    how = p.add_mutually_exclusive_group()
    how.add_argument("--answers", type=Path, metavar="FILE",
                     help="replay answers and plan commands, one line per prompt ('/end' ends clarification)")
    how.add_argument("--auto", action="store_true", help="end clarification after one round and approve the plan")
    p.add_argument("--model", metavar="NAME", help="LLM model (default from the settings)")
    p.add_argument("--llm-host", metavar="URL", help="LLM server (default: settings, then $OLLAMA_HOST)")
    p.add_argument("--out", type=Path, metavar="DIR", help="write state, plan and audit trail into DIR")
    p.add_argument("--accepted-only", action="store_true",
                   help="with --out: the report's answer holds only the claims a reviewer accepted")
    p.add_argument("--json", action="store_true", help="print a machine-readable summary at the end")
    p.set_defaults(handler=cmd_research)

    p = commands.add_parser("runs", help="list research runs", parents=[common])
    p.add_argument("--json", action="store_true")
    p.set_defaults(handler=cmd_runs)


def cmd_runs(args: argparse.Namespace, paths: AppPaths, settings: Settings) -> int:
    runs = in_session(paths, settings, lambda session: session.runs())
    if args.json:
        emit_json([r.model_dump() for r in runs])
        return 0
    if not runs:
        print("no research runs yet")
    for r in runs:
        print(f"{r.run_id}  {r.status:<9} {r.phase:<8} {r.updated_at[:16]}  [{r.database}] {r.question[:70]}")
    return 0


def cmd_research(args: argparse.Namespace, paths: AppPaths, settings: Settings) -> int:
    if bool(args.question) == bool(args.resume):
        raise KbError("give a QUESTION (with --db) or --resume RUN_ID")
    if args.question and not args.db:
        raise KbError("a new research run needs --db NAME (see: rabbithole kb list)")
    if args.model:
        settings = settings.changed(llm={"model": args.model})
    if args.llm_host:
        settings = settings.changed(llm={"host": args.llm_host})
    responder = Responder.make(args.answers, args.auto)
    try:
        state = asyncio.run(_session(args, paths, settings, responder))
    except (LlmError, CommandError, RunNotFound, OutputError) as exc:
        err(f"error: {exc}")
        return 1
    if args.json:
        emit_json(summary(state))
    else:
        print(f"\nrun {state.run_id}: {state.status}, phase {state.phase}")
        if state.message:
            print(state.message)
        if state.status in ("waiting", "paused", "failed", "cancelled"):
            print(f"continue with: rabbithole research --resume {state.run_id}")
        if state.later.report is not None:
            if args.out:
                print(f"report written to {args.out / 'report.md'} (and .html, .pdf, .docx, .json; audit.jsonl)")
            else:
                print(f"the report is saved with the run; write it out with: rabbithole research --resume "
                      f"{state.run_id} --out DIR")
    return EXIT_CODES.get(state.status, 0)


async def _session(args: argparse.Namespace, paths: AppPaths, settings: Settings, responder: Responder) -> RunState:
    async with Session(paths, settings) as session:
        session.subscribe(EventPrinter())
        loop = asyncio.get_running_loop()
        current: dict[str, str] = {}

        def on_interrupt() -> None:
            err("\ncancelling… (the run stays resumable)")
            if "run_id" in current:
                session.cancel(current["run_id"])

        if args.resume:
            current["run_id"] = (await session.load(args.resume)).run_id
        else:
            await sample_first(session, args.db)
            # the command's start-up (about 3 s: the program's imports, the knowledge base) is the run's time too
            current["run_id"] = await session.start(args.question, args.db, auto=args.auto,
                                                    setup_s=time.monotonic() - desktop.STARTED)
        with suppress(NotImplementedError, RuntimeError):
            loop.add_signal_handler(signal.SIGINT, on_interrupt)
        try:
            state = await session.resume(current["run_id"])
            return await _converse(session, state, responder, args.out, args.accepted_only)
        finally:
            with suppress(NotImplementedError, RuntimeError):
                loop.remove_signal_handler(signal.SIGINT)


async def _converse(session: Session, state: RunState, responder: Responder, out: Path | None,
                    accepted_only: bool = False) -> RunState:
    """Answer the checkpoints until the run stops, or the responder has nothing more to say."""
    while True:
        if out:
            write_outputs(out, state, await session.events(state.run_id), accepted_only)
        if state.status != "waiting" or state.pending is None:
            return state
        if state.pending.kind == "answer":
            reply: Answers = responder.answer(state)
            if reply is None:
                return state
            state = await session.answer(state.run_id, reply)
            continue
        command = responder.plan_command(state)
        if command is None:
            return state
        try:
            state = await _plan_command(session, state, command)
        except CommandError as exc:
            err(f"cannot do that: {exc}\n{PLAN_HELP}")
            if responder.replaying:
                raise


async def _plan_command(session: Session, state: RunState, line: str) -> RunState:
    verb, _, rest = line.strip().partition(" ")
    verb = verb.lower() or "approve"
    run = state.run_id
    try:
        if verb in ("approve", "ok", "yes"):
            return await session.approve(run)
        if verb == "add":
            return await session.add_todo(run, rest)
        if verb == "edit":
            number, _, task = rest.partition(" ")
            return await session.edit_todo(run, int(number), task=task)
        if verb == "remove":
            return await session.remove_todo(run, int(rest))
        if verb == "move":
            number, _, position = rest.partition(" ")
            return await session.move_todo(run, int(number), int(position))
        if verb == "replan":
            return await session.replan(run, rest)
        if verb == "show":
            return state
    except ValueError as exc:
        if isinstance(exc, CommandError):
            raise
        raise CommandError(f"'{line}': a number is expected") from None
    raise CommandError(f"unknown plan command '{verb}'")
