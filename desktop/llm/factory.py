"""Choosing the backend the settings ask for."""

from __future__ import annotations

from desktop.llm.protocol import LlmBackend
from desktop.llm.records import Audit
from desktop.settings import LlmSettings


def make_backend(settings: LlmSettings, audit: Audit | None = None) -> LlmBackend:
    """Ollama (default) or an OpenAI-compatible server; ``audit`` receives a CallRecord per chat call."""
    if settings.backend == "openai":
        from desktop.llm.openai_backend import OpenAIBackend

        return OpenAIBackend(settings, audit)
    if settings.backend == "ollama":
        from desktop.llm.ollama_backend import OllamaBackend

        return OllamaBackend(settings, audit)
    raise ValueError(f"unknown LLM backend '{settings.backend}': use 'ollama' or 'openai'")
