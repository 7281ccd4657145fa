"""The service layer (docs/architecture.md §2, §5): ``Session``, the one headless owner of the knowledge
bases, the run store, the LLM client and the engine, with one async API for databases, ingest, search,
runs, export and health. The command line and the window's bridge are adapters over it and import the
types they show from here, never from kb, llm or engine."""

from desktop.engine import events
from desktop.engine.narrate import ENGLISH, IN_LOG, describe, narrate
from desktop.engine.runner import CommandError
from desktop.engine.state import ClarifyRound, RunState
from desktop.engine.steps.plan import show as plan_text
from desktop.engine.store import RunNotFound, RunSummary
from desktop.kb.errors import KbError
from desktop.kb.ingestion.notices import Notice
from desktop.kb.models import DocumentInfo, FileOutcome, IngestProgress, IngestReport, SearchFilter, SearchHit
from desktop.kb.progress import CancelToken
from desktop.kb.server.health import ServerHealth
from desktop.kb.storage.registry import SAMPLE_DB
from desktop.llm.types import Health, LlmError, ModelInfo, PullProgress
from desktop.service.library import Library, local_databases
from desktop.service.session import Session

__all__ = [
    "ENGLISH", "IN_LOG", "SAMPLE_DB", "CancelToken", "ClarifyRound", "CommandError", "DocumentInfo", "FileOutcome",
    "Health", "IngestProgress", "IngestReport", "KbError", "Library", "LlmError", "ModelInfo", "Notice",
    "PullProgress", "RunNotFound", "RunState", "RunSummary", "SearchFilter", "SearchHit", "ServerHealth", "Session", "describe", "events",
    "local_databases", "narrate", "plan_text",
]
