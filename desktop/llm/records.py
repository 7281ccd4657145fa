"""The audit record of one server call: what was sent, what came back, what went wrong. Backends hand
one to their ``audit`` callback for every chat call (each structured attempt and each retry of a
failed request), so the engine can keep a complete trail of prompts and raw responses."""

from __future__ import annotations

import logging
from collections.abc import Callable
from datetime import UTC, datetime
from typing import Any

from pydantic import BaseModel, ConfigDict, Field

from desktop.llm.types import Message, Usage

log = logging.getLogger(__name__)


class CallRecord(BaseModel):
    model_config = ConfigDict(extra="forbid")

    purpose: str = Field("", description="what the call was for ('clarify.analyze'), from CallOptions")
    backend: str = Field(description="'ollama' or 'openai'")
    host: str
    model: str
    messages: list[Message] = Field(description="the prompt exactly as sent")
    schema_name: str | None = Field(None, description="title of the JSON schema the answer was constrained to")
    request: dict[str, Any] = Field(default_factory=dict, description="sampling options sent (num_ctx, max tokens, …)")
    raw: str = Field("", description="the answer as the server sent it, inline thinking tags included")
    thinking: str | None = None
    finish_reason: str | None = None
    usage: Usage = Field(default_factory=Usage)
    duration_s: float = 0.0
    error: str | None = Field(None, description="why the call failed; None when it answered")
    attempt: int = Field(1, description="the structured-output attempt this call belongs to (1 = first)")
    started_at: datetime = Field(default_factory=lambda: datetime.now(UTC))


Audit = Callable[[CallRecord], None]


def emit(audit: Audit | None, record: CallRecord) -> None:
    """Hand a record to the callback; a failing callback is logged, not allowed to break the call."""
    if audit is None:
        return
    try:
        audit(record)
    except Exception:  # the audit sink is the engine's; its bug must not turn into a failed LLM call
        log.exception("the LLM audit callback failed for a %s call", record.purpose or "chat")
