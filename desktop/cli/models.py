"""``rabbithole models``: the LLM server's models, and pulling one with progress."""

from __future__ import annotations

import argparse
import asyncio

from desktop.cli.console import emit_json, err
from desktop.paths import AppPaths
from desktop.service import LlmError, ModelInfo, Session
from desktop.settings import Settings


def register(commands: argparse._SubParsersAction, common: argparse.ArgumentParser) -> None:
    p = commands.add_parser("models", help="list the LLM server's models, or pull one", parents=[common])
    p.add_argument("--pull", metavar="NAME", help="download a model to the server (Ollama), with progress")
    p.add_argument("--llm-host", metavar="URL", help="LLM server (default: settings, then $OLLAMA_HOST)")
    p.add_argument("--json", action="store_true")
    p.set_defaults(handler=cmd_models)


async def _list(paths: AppPaths, settings: Settings) -> list[ModelInfo]:
    async with Session(paths, settings) as session:
        return await session.models()


async def _pull(paths: AppPaths, settings: Settings, model: str) -> None:
    last = ""
    async with Session(paths, settings) as session:
        async for step in session.pull(model):
            line = step.status
            if step.total:
                line += f" {100 * (step.completed or 0) / step.total:.0f}% of {step.total / 1e9:.2f} GB"
            if line != last:
                err(line)
                last = line


def cmd_models(args: argparse.Namespace, paths: AppPaths, settings: Settings) -> int:
    if args.llm_host:
        settings = settings.changed(llm={"host": args.llm_host})
    try:
        if args.pull:
            asyncio.run(_pull(paths, settings, args.pull))
            print(f"pulled {args.pull}")
            return 0
        models = asyncio.run(_list(paths, settings))
    except LlmError as exc:
        err(f"error: {exc}")
        return 1
    if args.json:
        emit_json([m.model_dump() for m in models])
        return 0
    for m in models:
        size = f"{m.size_bytes / 1e9:.1f} GB" if m.size_bytes else "?"
        ctx = f"context {m.context_length}" if m.context_length else ""
        mark = " (configured)" if m.name == settings.llm.model else ""
        print(f"{m.name}{mark}  {size}  {ctx}  {', '.join(m.capabilities)}")
    if not models:
        print(f"no models on {settings.llm.resolved_host()}; pull one: rabbithole models --pull {settings.llm.model}")
    return 0
