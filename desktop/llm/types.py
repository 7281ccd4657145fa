"""The vocabulary of the LLM layer: messages, options, results, usage (tokens, cache hits, server-side
timings), measured ``Throughput``, health, and the errors a user can act on (``BadOutput.unchecked``
keeps a schema-valid answer that failed the caller's check). Backends and the engine share these;
nothing here talks to a server."""

from __future__ import annotations

from typing import Generic, Literal, TypeVar

from pydantic import BaseModel, ConfigDict, Field

T = TypeVar("T", bound=BaseModel)


class _Model(BaseModel):
    model_config = ConfigDict(extra="forbid")


class Message(_Model):
    role: Literal["system", "user", "assistant"]
    content: str


class CallOptions(_Model):
    """Per-call knobs; anything left None comes from the backend's settings."""

    model: str | None = None
    temperature: float | None = Field(None, ge=0, le=2)
    max_tokens: int | None = Field(None, ge=1, description="answer tokens (Ollama num_predict)")
    timeout_s: float | None = Field(None, gt=0)
    purpose: str = Field("", description="what the call is for, for the audit trail ('clarify.analyze')")
    retries: int | None = Field(None, ge=0, le=5, description="extra tries of a structured answer (default: the settings')")
    keep_cut: bool = Field(False, description="a structured answer cut off at the token limit keeps the complete list "
                                              "items before the cut, where they make a valid answer")
    time_left_s: float | None = Field(None, ge=0, description="seconds a structured answer may take, its retries "
                                      "included: another attempt is sent only where one as long as the last fits")


class Usage(_Model):
    prompt_tokens: int = 0
    completion_tokens: int = 0
    calls: int = 0
    seconds: float = Field(0.0, description="time spent waiting for the server")
    cached_tokens: int = Field(0, description="prompt tokens the server took from its prompt cache (llama.cpp)")
    prompt_s: float = Field(0.0, description="server-side seconds spent reading the prompt")
    answer_s: float = Field(0.0, description="server-side seconds spent writing the answer")

    def __add__(self, other: "Usage") -> "Usage":
        return Usage(**{name: getattr(self, name) + getattr(other, name) for name in Usage.model_fields})

    @property
    def total_tokens(self) -> int:
        return self.prompt_tokens + self.completion_tokens


class Throughput(_Model):
    """The server's measured speeds over a backend's calls so far, for estimating how long work takes;
    a speed is None when no call has measured it yet."""

    prompt_tokens_per_s: float | None = Field(None, description="prompt tokens read per second (cache hits excluded)")
    answer_tokens_per_s: float | None = Field(None, description="answer tokens written per second")
    calls: int = Field(0, description="calls the figures rest on")
    long_prompt_tokens_per_s: float | None = Field(
        None, description="prompt tokens read per second in calls with a long prompt (base.LONG_PROMPT_TOKENS)")
    long_answer_tokens_per_s: float | None = Field(
        None, description="answer tokens written per second in calls with a long prompt")


class Completion(_Model):
    """One raw answer of the server."""

    text: str = Field(description="the answer with any thinking removed")
    thinking: str | None = None
    finish_reason: str | None = Field(None, description="'stop', or 'length' when cut off at the token limit")
    usage: Usage = Field(default_factory=Usage)
    model: str = ""


class Attempt(_Model):
    """One try of a structured call, kept for the audit trail."""

    raw: str
    error: str | None = None
    usage: Usage = Field(default_factory=Usage)


class Structured(BaseModel, Generic[T]):
    """A validated structured answer and how it was obtained."""

    value: T
    attempts: list[Attempt]
    usage: Usage
    model: str
    messages: list[Message] = Field(description="the prompt as sent on the first attempt")


class ModelInfo(_Model):
    name: str
    size_bytes: int | None = None
    family: str | None = None
    parameter_size: str | None = None
    context_length: int | None = None
    capabilities: list[str] = Field(default_factory=list)


class Health(_Model):
    ok: bool
    backend: str
    host: str
    version: str | None = None
    models: list[str] = Field(default_factory=list)
    model_ready: bool = False
    message: str = Field(description="one line for the status bar or doctor: what is wrong and what to do")


class PullProgress(_Model):
    status: str
    completed: int | None = None
    total: int | None = None


# --- errors ----------------------------------------------------------------------------------------


class LlmError(Exception):
    """A problem with the LLM the user can act on; ``str(exc)`` is the message."""


class LlmUnavailable(LlmError):
    """No server answers at the host."""


class ModelMissing(LlmError):
    """The server answers but does not have the model."""


class LlmTimeout(LlmError):
    pass


class LlmServerError(LlmError):
    """The server answered with an error (HTTP 5xx and the like)."""


class BadOutput(LlmError):
    """The model gave no valid answer within the allowed retries."""

    def __init__(self, message: str, attempts: list[Attempt], unchecked: BaseModel | None = None) -> None:
        super().__init__(message)
        self.attempts = attempts
        # the last answer that matched the schema but failed the caller's check: usable, with a warning
        self.unchecked = unchecked


class PromptTooLong(LlmError):
    """The prompt and the longest answer do not fit the context window; nothing was sent."""

    def __init__(self, message: str, prompt_tokens: int, answer_tokens: int, context: int) -> None:
        super().__init__(message)
        self.prompt_tokens = prompt_tokens
        self.answer_tokens = answer_tokens
        self.context = context
        self.over_by = prompt_tokens + answer_tokens - context
