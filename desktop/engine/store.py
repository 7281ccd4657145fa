"""Runs on disk: one SQLite file in the data dir with each run's latest state and its append-only
event log. A step's new state and its events are written in one transaction, so a crash loses at
most the step that was running."""

from __future__ import annotations

import sqlite3
import threading
from pathlib import Path

from pydantic import BaseModel, ConfigDict, field_validator

from desktop.engine.events import Event, parse_event
from desktop.engine.state import RunState, read_status

_SCHEMA = [
    """CREATE TABLE IF NOT EXISTS runs (
        run_id TEXT PRIMARY KEY, question TEXT NOT NULL, database TEXT NOT NULL, status TEXT NOT NULL,
        phase TEXT NOT NULL, created_at TEXT NOT NULL, updated_at TEXT NOT NULL, state TEXT NOT NULL)""",
    """CREATE TABLE IF NOT EXISTS events (
        run_id TEXT NOT NULL, seq INTEGER NOT NULL, at TEXT NOT NULL, type TEXT NOT NULL, payload TEXT NOT NULL,
        PRIMARY KEY (run_id, seq)) WITHOUT ROWID""",
]


class RunSummary(BaseModel):
    model_config = ConfigDict(extra="forbid")

    run_id: str
    question: str
    database: str
    status: str
    phase: str
    created_at: str
    updated_at: str

    _old_status = field_validator("status")(read_status)


class RunNotFound(LookupError):
    def __init__(self, run_id: str) -> None:
        super().__init__(f"No research run '{run_id}' (see: rabbithole runs)")


class RunStore:
    def __init__(self, file: Path) -> None:
        file.parent.mkdir(parents=True, exist_ok=True)
        self._db = sqlite3.connect(file, check_same_thread=False, timeout=30, isolation_level=None)
        self._lock = threading.Lock()
        self._db.execute("PRAGMA journal_mode=WAL")
        self._db.execute("PRAGMA synchronous=FULL")  # a committed step survives power loss, not only a crash
        for statement in _SCHEMA:
            self._db.execute(statement)

    def close(self) -> None:
        with self._lock:
            self._db.close()

    def save(self, state: RunState, events: list[Event] = ()) -> None:  # type: ignore[assignment]
        """The new state and the step's events, atomically."""
        with self._lock:
            self._db.execute("BEGIN IMMEDIATE")
            try:
                self._db.execute(
                    "INSERT OR REPLACE INTO runs VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
                    (state.run_id, state.question, state.database, state.status, state.phase,
                     state.created_at.isoformat(), state.updated_at.isoformat(), state.model_dump_json()),
                )
                seq = self._db.execute("SELECT COALESCE(MAX(seq), 0) FROM events WHERE run_id = ?",
                                       (state.run_id,)).fetchone()[0]
                for offset, event in enumerate(events, start=1):
                    self._db.execute("INSERT INTO events VALUES (?, ?, ?, ?, ?)",
                                     (state.run_id, seq + offset, event.at.isoformat(), event.type,
                                      event.model_dump_json()))
            except BaseException:
                self._db.execute("ROLLBACK")
                raise
            self._db.execute("COMMIT")

    def load(self, run_id: str) -> RunState:
        with self._lock:
            row = self._db.execute("SELECT state FROM runs WHERE run_id = ?", (run_id,)).fetchone()
            if row is None:  # a unique prefix is enough, as with git
                rows = self._db.execute("SELECT state FROM runs WHERE run_id LIKE ?", (run_id + "%",)).fetchall()
                row = rows[0] if len(rows) == 1 and len(run_id) >= 6 else None
        if row is None:
            raise RunNotFound(run_id)
        return RunState.model_validate_json(row[0])

    def events(self, run_id: str, after: int = 0) -> list[Event]:
        with self._lock:
            rows = self._db.execute("SELECT payload FROM events WHERE run_id = ? AND seq > ? ORDER BY seq",
                                    (run_id, after)).fetchall()
        return [parse_event(r[0]) for r in rows]

    def runs(self) -> list[RunSummary]:
        with self._lock:
            rows = self._db.execute(
                "SELECT run_id, question, database, status, phase, created_at, updated_at FROM runs ORDER BY updated_at DESC"
            ).fetchall()
        keys = RunSummary.model_fields
        return [RunSummary(**dict(zip(keys, r))) for r in rows]
