"""``rabbithole kb ingest|list|search|remove|refs|meta|drop|check``, each over a ``Session`` of its own."""

from __future__ import annotations

import argparse
import json
import sys
import textwrap
from pathlib import Path
from typing import Any

from desktop.cli.console import ProgressPrinter, emit_json, err, interruptible
from desktop.cli.session import in_session, sample_first
from desktop.paths import AppPaths
from desktop.service import SAMPLE_DB, CancelToken, IngestReport, KbError, SearchFilter, SearchHit, Session
from desktop.settings import Settings


def register(commands: argparse._SubParsersAction, common: argparse.ArgumentParser) -> None:
    kb = commands.add_parser("kb", help="knowledge bases: ingest PDFs, search, references", parents=[common])
    sub = kb.add_subparsers(dest="kb_command", metavar="KB_COMMAND")

    def add(name: str, handler: Any, help_text: str) -> argparse.ArgumentParser:
        p = sub.add_parser(name, help=help_text, description=help_text, parents=[common])
        p.set_defaults(handler=handler)
        return p

    p = add("ingest", cmd_ingest, "add PDFs or folders to a database (incremental); without PATH, finish embedding")
    p.add_argument("paths", nargs="*", type=Path, metavar="PATH")
    p.add_argument("--db", required=True, metavar="NAME")
    p.add_argument("--embedder", metavar="SPEC", help="'offline' (default, bundled) or 'ollama:MODEL'; fixed per database")
    p.add_argument("--workers", type=int, metavar="N", help="processes reading PDFs (default from settings)")
    p.add_argument("--json", action="store_true", help="print the ingestion report as JSON")

    p = add("list", cmd_list, "list databases, or the documents of one")
    p.add_argument("--db", metavar="NAME")
    p.add_argument("--json", action="store_true")

    p = add("search", cmd_search, "search a database (hybrid, dense or lexical)")
    p.add_argument("query", nargs="?", metavar="QUERY")
    p.add_argument("--db", required=True, metavar="NAME")
    p.add_argument("--k", type=int, default=10)
    p.add_argument("--mode", choices=("hybrid", "dense", "lexical", "semantic"), default="hybrid")
    p.add_argument("--doc", action="append", metavar="FILE", help="only this document (repeatable)")
    p.add_argument("--tag", action="append", metavar="TAG", help="only documents with this tag (repeatable)")
    p.add_argument("--meta", action="append", metavar="KEY=VALUE", help="only documents with this metadata")
    p.add_argument("--pages", metavar="A-B", help="only pages A to B")
    p.add_argument("--section", metavar="LABEL", help="only this section, e.g. '§ 5'")
    p.add_argument("--queries", type=Path, metavar="FILE", help='JSON lines {"id", "query"}; writes {"id", "hits"} lines')
    p.add_argument("--json", action="store_true")

    p = add("remove", cmd_remove, "remove a document from a database (the file itself is not touched)")
    p.add_argument("doc", metavar="DOC", help="file name, path, short name or doc id")
    p.add_argument("--db", required=True, metavar="NAME")

    p = add("meta", cmd_meta, "show or set a document's metadata (category, tags, exhibit, bates, aliases…)")
    p.add_argument("doc", metavar="DOC")
    p.add_argument("--db", required=True, metavar="NAME")
    p.add_argument("--set", action="append", default=[], metavar="KEY=VALUE", help="tags take a comma list; empty value clears")
    p.add_argument("--json", action="store_true")

    p = add("refs", cmd_refs, "find the references in TEXT and resolve them against the database")
    p.add_argument("text", metavar="TEXT")
    p.add_argument("--db", required=True, metavar="NAME")
    p.add_argument("--from", dest="from_doc", metavar="DOC", help="the document TEXT stands in")
    p.add_argument("--json", action="store_true")

    p = add("drop", cmd_drop, "delete a whole database (its index only; your PDFs are not touched)")
    p.add_argument("--db", required=True, metavar="NAME")
    p.add_argument("--yes", action="store_true", help="confirm")

    p = add("check", cmd_check, "check that the text index and the vector store agree")
    p.add_argument("--db", required=True, metavar="NAME")


# --- ingest ---------------------------------------------------------------------------------------


def cmd_ingest(args: argparse.Namespace, paths: AppPaths, settings: Settings) -> int:
    if args.workers is not None:
        settings = settings.changed(kb={"ingest_workers": args.workers})
    cancel = CancelToken()

    async def ingest(session: Session) -> IngestReport:
        if args.paths:
            return await session.library.ingest(args.db, args.paths, ProgressPrinter(), cancel, embedder=args.embedder)
        return await session.library.finish_embedding(args.db, ProgressPrinter(), cancel)

    with interruptible(cancel):
        report = in_session(paths, settings, ingest)
    if args.json:
        emit_json(report.model_dump(mode="json"))
    else:
        print_report(report)
    if report.cancelled:
        return 130
    return 0 if report.did_something or not args.paths else 1


def print_report(report: IngestReport) -> None:
    for f in report.files:
        line = f"{f.status:<9} {f.path}"
        if f.status in ("added", "updated"):
            line += f"  ({f.pages} pages, {f.chunks} chunks)"
        if f.reason:
            line += f"  — {f.reason}"
        print(line)
        for w in f.warnings:
            print(f"          warning: {w}")
    counts = {s: report.count(s) for s in ("added", "updated", "unchanged", "moved", "removed", "duplicate", "rejected")}
    summary = ", ".join(f"{n} {s}" for s, n in counts.items() if n)
    print(f"{report.database}: {summary or 'no PDF files found'}; {report.embedded} chunks embedded"
          f" in {report.elapsed_s:.1f}s")
    if report.embed_error:
        print(f"embedding stopped: {report.embed_error}")
    if report.pending_embeddings:
        print(f"{report.pending_embeddings} chunks still wait for embedding (lexical search already finds them); "
              f"run: rabbithole kb ingest --db '{report.database}'")
    if report.cancelled:
        print("cancelled: what was finished is kept; run the same command again to continue")


# --- list, remove, meta, drop, check ---------------------------------------------------------------


def cmd_list(args: argparse.Namespace, paths: AppPaths, settings: Settings) -> int:
    if not args.db:
        async def every(session: Session) -> list[dict[str, object]]:
            return [await session.library.stats(name) for name in await session.library.names()]

        rows = in_session(paths, settings, every)
        if args.json:
            emit_json(rows)
        elif not rows:
            print(f"no databases yet; try: rabbithole kb search \"…\" --db {SAMPLE_DB}")
        for r in rows if not args.json else ():
            print(f"{r['name']}: {r['documents']} documents, {r['chunks']} chunks, embedder {r['embedder']}"
                  + (f", {r['pending_embeddings']} waiting for embedding" if r["pending_embeddings"] else ""))
        return 0
    docs = in_session(paths, settings, lambda session: _on(session, args.db, session.library.documents))
    if args.json:
        emit_json([d.model_dump(mode="json") for d in docs])
        return 0
    for d in docs:
        short = f" [{d.short_name}]" if d.short_name else ""
        print(f"{d.doc_id[:12]}  {d.file_name}{short}  {d.pages} p., {d.chunks} chunks, {d.language}"
              + (f", {d.pending_embeddings} unembedded" if d.pending_embeddings else ""))
        print(f"              {d.title[:100]}")
        fields = {**({"tags": ", ".join(d.tags)} if d.tags else {}), **d.meta}
        if fields:
            print("              " + "; ".join(f"{k}={v}" for k, v in fields.items()))
        for w in d.warnings:
            print(f"              warning: {w}")
    return 0


async def _on(session: Session, database: str, call: Any, *args: Any) -> Any:
    """``call(database, *args)`` of the session's library, the sample database built first if it is asked
    for and not there yet."""
    await sample_first(session, database)
    return await call(database, *args)


def cmd_remove(args: argparse.Namespace, paths: AppPaths, settings: Settings) -> int:
    doc = in_session(paths, settings, lambda session: _on(session, args.db, session.library.remove_document, args.doc))
    print(f"removed {doc.file_name} ({doc.chunks} chunks) from {args.db}; the file itself was not touched")
    return 0


def cmd_meta(args: argparse.Namespace, paths: AppPaths, settings: Settings) -> int:
    async def meta(session: Session) -> Any:
        doc = await _on(session, args.db, session.library.document, args.doc)
        for item in args.set:
            key, sep, value = item.partition("=")
            if not sep:
                raise KbError(f"--set needs KEY=VALUE, got '{item}'")
            doc = await session.library.set_meta(args.db, doc.doc_id, key, value)
        return doc

    doc = in_session(paths, settings, meta)
    fields = {"tags": doc.tags, **doc.meta}
    if args.json:
        emit_json({"doc": doc.file_name, "doc_id": doc.doc_id, **fields})
    else:
        print(doc.file_name)
        for k, v in fields.items():
            print(f"  {k}: {', '.join(v) if isinstance(v, list) else v}")
    return 0


def cmd_drop(args: argparse.Namespace, paths: AppPaths, settings: Settings) -> int:
    if not args.yes:
        raise KbError(f"this deletes the database '{args.db}' (not your PDFs); repeat with --yes to confirm")
    in_session(paths, settings, lambda session: session.library.delete(args.db))
    print(f"deleted database {args.db}")
    return 0


def cmd_check(args: argparse.Namespace, paths: AppPaths, settings: Settings) -> int:
    async def check(session: Session) -> tuple[list[str], int]:
        return await _on(session, args.db, session.library.check), await session.library.pending(args.db)

    problems, pending = in_session(paths, settings, check)
    for p in problems:
        print(f"problem: {p}")
    print(f"{args.db}: {'consistent' if not problems else 'INCONSISTENT'}; {pending} chunks wait for embedding")
    return 0 if not problems else 1


# --- search ---------------------------------------------------------------------------------------


def _filter(args: argparse.Namespace) -> SearchFilter | None:
    page_from = page_to = None
    if args.pages:
        first, _, last = args.pages.partition("-")
        try:
            page_from, page_to = int(first), int(last or first)
        except ValueError:
            raise KbError(f"--pages takes A-B (e.g. 10-20), got '{args.pages}'") from None
    meta = {}
    for item in args.meta or []:
        key, sep, value = item.partition("=")
        if not sep:
            raise KbError(f"--meta needs KEY=VALUE, got '{item}'")
        meta[key] = value
    filt = SearchFilter(docs=args.doc, tags=args.tag, meta=meta or None, page_from=page_from, page_to=page_to,
                        section=args.section)
    return None if filt.is_empty() else filt


def _print_hits(hits: list[SearchHit]) -> None:
    if not hits:
        print("no results")
    for i, h in enumerate(hits, start=1):
        where = f"{h.doc} p. {h.page}" + (f", {h.section}" if h.section else "")
        print(f"{i:>2}. {where}  (score {h.score:.4f})")
        snippet = " ".join(h.text.split())
        print(textwrap.indent(textwrap.fill(snippet[:400] + ("…" if len(snippet) > 400 else ""), 96), "    "))


def cmd_search(args: argparse.Namespace, paths: AppPaths, settings: Settings) -> int:
    if (args.query is None) == (args.queries is None):
        raise KbError("give a QUERY or --queries FILE (one of them)")
    filt = _filter(args)
    if args.query is None:
        return _batch_search(paths, settings, args, filt)

    async def search(session: Session) -> tuple[list[SearchHit], int]:
        hits = await _on(session, args.db, session.library.search, args.query, args.k, filt, args.mode)
        return hits, await session.library.pending(args.db)

    hits, pending = in_session(paths, settings, search)
    if pending and args.mode != "lexical":
        err(f"note: {pending} chunks are not embedded yet, so dense search does not see them; "
            f"run: rabbithole kb ingest --db '{args.db}'")
    if args.json:
        emit_json([h.contract() for h in hits])
    else:
        _print_hits(hits)
    return 0


def _batch_search(paths: AppPaths, settings: Settings, args: argparse.Namespace, filt: SearchFilter | None) -> int:
    try:
        lines = args.queries.read_text(encoding="utf-8").splitlines()
    except OSError as exc:
        raise KbError(f"cannot read {args.queries}: {exc.strerror}") from None
    items = []
    for n, line in enumerate(lines, start=1):
        if not line.strip():
            continue
        try:
            item = json.loads(line)
            items.append((item["id"], item["query"]))
        except (json.JSONDecodeError, KeyError, TypeError):
            raise KbError(f"{args.queries}:{n}: expected a JSON object with 'id' and 'query'") from None

    async def search(session: Session) -> None:
        await sample_first(session, args.db)
        for qid, query in items:  # each line written as soon as its search is done
            hits = await session.library.search(args.db, query, args.k, filt, args.mode)
            sys.stdout.write(json.dumps({"id": qid, "hits": [h.contract() for h in hits]}, ensure_ascii=False) + "\n")
        sys.stdout.flush()

    in_session(paths, settings, search)
    return 0


# --- references -----------------------------------------------------------------------------------


def cmd_refs(args: argparse.Namespace, paths: AppPaths, settings: Settings) -> int:
    resolved = in_session(paths, settings,
                          lambda session: _on(session, args.db, session.library.references, args.text, args.from_doc))
    if args.json:
        emit_json([
            {"reference": r.reference.text, "start": r.reference.start, "end": r.reference.end,
             "kind": r.reference.kind, "status": r.status, "reason": r.reason,
             "target": r.target.contract() if r.target else None,
             "targets": [t.contract() for t in r.targets]}
            for r in resolved
        ])
        return 0
    if not resolved:
        print("no references found")
    for r in resolved:
        if r.targets:
            where = "; ".join(f"{t.doc} p. {t.page} {t.section or ''}".strip() for t in r.targets)
        else:
            where = f"{r.status}" + (f" ({r.reason})" if r.reason else "")
        print(f"{r.reference.text}  →  {where}")
    return 0
