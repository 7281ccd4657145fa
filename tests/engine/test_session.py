"""One owner for the knowledge bases and the LLM client: the service's session on the engine's loop.

Real knowledge bases (Chroma, SQLite FTS5, the offline embedder), the real research engine and the
real ``ollama`` client against the fake server; nothing inside is replaced."""

from __future__ import annotations

import asyncio
import sqlite3
import sys
import threading
import time
from pathlib import Path

from support import fake_ollama_replies as replies
from support import pdfs
from support.research_llm import QUESTION_EN

from desktop.engine import events as ev
from desktop.engine.resources import KnowledgeBases, ThreadCalls
from desktop.engine.state import RunState
from desktop.engine.store import RunStore
from desktop.service import Session
from desktop.kb.search import lexical
from desktop.kb.database import CATALOG_FILE, KnowledgeBase
from desktop.paths import AppPaths
from desktop.settings import Settings

QUERIES = ["Grenzwert der Ableitung", "§ 3 PrüfG", "cloud revenue growth", "Überwachung radioaktiver Stoffe",
           "Müllverbrennungsanlagen", "investments in data centers"]


def _documents(folder: Path) -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    pdfs.statute(folder / "PruefG.pdf", abbreviation="PrüfG", sections=8)
    pdfs.report(folder / "cloud.pdf", ["Revenue from cloud services grew by 23 percent to 4.2 billion dollars.",
                                       "Operating expenses increased because of investments in data centers."])
    pdfs.report(folder / "umwelt.pdf", ["Die Überwachung der Ableitung radioaktiver Stoffe erfolgt durch die "
                                        "zuständige Behörde.", "Für Müllverbrennungsanlagen gelten besondere "
                                        "Grenzwerte nach § 5 Absatz 2."])
    return folder


def _lexical_rows(paths: AppPaths, name: str) -> list[tuple[str, str]]:
    with sqlite3.connect(paths.database_dir(name) / CATALOG_FILE) as db:
        return db.execute("SELECT head, body FROM chunks_fts ORDER BY rowid").fetchall()


def test_searches_and_ingests_at_once_give_the_serial_results(app_paths: AppPaths, settings: Settings,
                                                                 tmp_path: Path) -> None:
    docs = _documents(tmp_path / "docs")
    law = Path(__file__).resolve().parents[2] / "kb" / "NiSV.pdf"  # real statute text: many words to stem

    def open_kb(name: str) -> KnowledgeBase:
        return KnowledgeBase.open(app_paths, settings, name, create=True)

    async def main() -> tuple[list[object], list[object]]:
        kbs = KnowledgeBases(open_kb)
        await kbs.use("Searched", lambda kb: kb.ingest([docs]))
        await kbs.use("Serial", lambda kb: kb.ingest([law]))  # the ingest alone, for comparison
        serial = [await kbs.use("Searched", lambda kb, q=q: kb.search(q, k=5)) for q in QUERIES]
        lexical._stem.cache_clear()  # every word stemmed afresh while the threads run
        together = await asyncio.gather(*[kbs.use(f"Ingested{n}", lambda kb: kb.ingest([law])) for n in range(3)],
                                        *[kbs.use("Searched", lambda kb, q=q: kb.search(q, k=5))
                                          for q in QUERIES * 3])
        await kbs.close_all()
        kbs.threads.shutdown()
        return serial, list(together[3:])

    interval = sys.getswitchinterval()
    sys.setswitchinterval(1e-5)  # threads interleave often, as on a busy machine (the window uses 1e-3)
    try:
        serial, concurrent = asyncio.run(main())
    finally:
        sys.setswitchinterval(interval)
    assert concurrent == serial * 3
    expected = _lexical_rows(app_paths, "Serial")
    assert expected and all(_lexical_rows(app_paths, f"Ingested{n}") == expected for n in range(3))


def test_closing_waits_for_a_thread_whose_caller_was_cancelled() -> None:
    threads = ThreadCalls(workers=2)
    release, finished = threading.Event(), []

    def slow() -> None:
        release.wait(5)
        finished.append(True)

    async def main() -> tuple[int, bool]:
        task = asyncio.create_task(threads.run(slow, uses="A"))
        await asyncio.sleep(0.05)
        task.cancel()  # the caller stops waiting; the thread goes on
        await asyncio.gather(task, return_exceptions=True)
        busy = threads.busy("A")
        asyncio.get_running_loop().call_later(0.2, release.set)
        await threads.drain("A")
        return busy, bool(finished)

    busy, done = asyncio.run(main())
    threads.shutdown()
    assert busy == 1 and done


def test_a_knowledge_base_is_opened_once_and_closed_after_its_users(app_paths: AppPaths, settings: Settings) -> None:
    opened: list[str] = []
    closed: list[float] = []
    used_until: list[float] = []

    def open_kb(name: str) -> KnowledgeBase:
        opened.append(name)
        kb = KnowledgeBase.open(app_paths, settings, name, create=True)
        real_close = kb.close
        kb.close = lambda: (closed.append(time.monotonic()), real_close())  # type: ignore[method-assign]
        return kb

    def read(kb: KnowledgeBase) -> None:
        time.sleep(0.3)
        kb.documents()
        used_until.append(time.monotonic())

    async def main() -> None:
        kbs = KnowledgeBases(open_kb)
        await asyncio.gather(*[kbs.get("One") for _ in range(5)])
        reader = asyncio.create_task(kbs.use("One", read))
        await asyncio.sleep(0.05)
        reader.cancel()
        await kbs.close_all()
        kbs.threads.shutdown()

    asyncio.run(main())
    assert opened == ["One"] and len(closed) == 1 and closed[0] >= used_until[0]


def test_new_settings_stop_a_running_step_and_the_run_resumes(sample_paths, engine_settings: Settings,  # noqa: ANN001
                                                              research_llm, tmp_path: Path) -> None:
    paths, _ = sample_paths
    research_llm.once["RetrievalAnalysis"] = [replies.slow(10, research_llm.default("RetrievalAnalysis", "en", ""))]
    events: list[ev.Event] = []

    async def main() -> tuple[str, float, int, str]:
        ws = Session(paths, engine_settings, tmp_path / "runs.sqlite")
        ws.subscribe(events.append)
        run = asyncio.create_task(ws.engine().start(QUESTION_EN, "Sample"))
        while not any(isinstance(e, ev.ChunksRetrieved) for e in events):
            await asyncio.sleep(0.02)
        started = time.monotonic()
        changed = engine_settings.changed(research={"max_rounds": 5})
        await ws.apply(changed)  # returns once the step is stopped and everything is closed
        waited = time.monotonic() - started
        stopped = (await run).status
        open_after = len(ws.kbs._open)
        resumed = await ws.engine().resume(events[0].run_id)
        await ws.aclose()
        return stopped, waited, open_after, resumed.status

    stopped, waited, open_after, resumed = asyncio.run(main())
    assert stopped == "cancelled" and waited < 5 and open_after == 0
    assert resumed == "waiting" and store_status(tmp_path, events[0].run_id) == "waiting"


def store_status(tmp_path: Path, run_id: str) -> str:
    store = RunStore(tmp_path / "runs.sqlite")
    try:
        return store.load(run_id).status
    finally:
        store.close()


def test_a_new_run_has_its_id_before_the_model_is_asked(sample_paths, engine_settings: Settings,  # noqa: ANN001
                                                        research_llm, fake_llm, tmp_path: Path) -> None:
    """Starting a run returns its id at once, saved and not yet driven (the window shows it from there);
    ``resume`` then drives it to its first checkpoint."""
    paths, _ = sample_paths

    async def main() -> tuple[str, int, str, int, str]:
        async with Session(paths, engine_settings, tmp_path / "runs.sqlite") as session:
            run_id = await session.start(QUESTION_EN, "Sample")
            saved = await session.load(run_id)
            asked = len(fake_llm.requests)
            state = await session.resume(run_id)
            return run_id, saved.steps, saved.status, asked, state.status

    run_id, steps, status, asked, after = asyncio.run(main())
    assert len(run_id) == 12 and steps == 0 and status == "running" and asked == 0
    assert after == "waiting" and store_status(tmp_path, run_id) == "waiting"


def test_watchers_get_every_saved_state_with_its_events(sample_paths, engine_settings: Settings,  # noqa: ANN001
                                                        research_llm, tmp_path: Path) -> None:
    """The engine hands each state it saves to its watchers, with the events saved with it: what the window
    shows is that snapshot, the same as the store holds, never changed afterwards."""
    paths, _ = sample_paths
    seen: list[tuple[RunState, list[ev.Event]]] = []

    async def main() -> RunState:
        async with Session(paths, engine_settings, tmp_path / "runs.sqlite") as session:
            session.watch(lambda state, events: seen.append((state, list(events))))
            return await session.resume(await session.start(QUESTION_EN, "Sample"))

    final = asyncio.run(main())
    copies = [(state.model_dump_json(), events) for state, events in seen]
    assert seen and seen[-1][0].model_dump_json() == final.model_dump_json()
    assert [s.steps for s, _ in seen] == sorted(s.steps for s, _ in seen)  # in the order they were saved
    assert any(isinstance(e, ev.PhaseStarted) for _, events in seen for e in events)
    assert [(s.model_dump_json(), e) for s, e in seen] == copies  # no snapshot changed after it was handed out
    store = RunStore(tmp_path / "runs.sqlite")
    try:
        assert store.load(final.run_id).model_dump_json() == final.model_dump_json()
    finally:
        store.close()


def test_ingesting_into_an_open_database_keeps_it_open(app_paths: AppPaths, settings: Settings,
                                                       tmp_path: Path) -> None:
    """The first ingest makes the database; a later one adds to the open one without closing it (closing
    would restart its vector store); a database made with another embedder refuses."""
    from desktop.kb.errors import EmbedderMismatch

    docs = _documents(tmp_path / "docs")

    async def main() -> tuple[bool, int, str]:
        async with Session(app_paths, settings, tmp_path / "runs.sqlite") as session:
            made = await session.library.ingest("Cases", [docs])
            first = await session.kbs.get("Cases")
            again = await session.library.ingest("Cases", [docs])
            same = first is await session.kbs.get("Cases")
            try:
                await session.library.ingest("Cases", [docs], embedder="ollama:another-model")
                refused = ""
            except EmbedderMismatch as exc:
                refused = str(exc)
            return same, made.count("added") - again.count("added"), refused

    same, added, refused = asyncio.run(main())
    assert same and added == 3 and "ollama:another-model" in refused
