"""The Ollama backend (docs/architecture.md §2) on the official ``ollama.AsyncClient``.

Every chat sends ``num_ctx`` explicitly (Ollama's small default silently cuts prompts), capped at the
model's own context length from ``show``; ``think`` goes only to models that can think; thinking never
reaches the answer. Usage carries Ollama's counts and its server-side durations (its prompt count
already leaves out tokens reused from the cache). Server faults become the typed errors of ``types.py``."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from dataclasses import dataclass, field

import httpx
import ollama

from desktop.llm.base import BackendCore, Call, Piece, Reply, make_completion
from desktop.llm.records import Audit
from desktop.llm.types import (
    CallOptions, Completion, Health, LlmError, LlmServerError, LlmTimeout, LlmUnavailable, Message, ModelInfo,
    ModelMissing, PullProgress, Usage,
)
from desktop.settings import LlmSettings

CONNECT_TIMEOUT_S = 10.0  # a host that does not accept a connection in this time is not there


def canonical(name: str) -> str:
    """Ollama's rule: a name without a tag means ``:latest``."""
    return name if ":" in name.rsplit("/", 1)[-1] else f"{name}:latest"


@dataclass
class _Meta:
    """What ``show`` tells about a model."""

    context: int | None
    capabilities: list[str] = field(default_factory=list)
    family: str | None = None
    parameter_size: str | None = None


def _usage(answer: ollama.ChatResponse) -> Usage:
    """Counts and timings of a final answer (durations are in nanoseconds)."""
    return Usage(prompt_tokens=answer.prompt_eval_count or 0, completion_tokens=answer.eval_count or 0,
                 prompt_s=(answer.prompt_eval_duration or 0) / 1e9, answer_s=(answer.eval_duration or 0) / 1e9)


def _read_show(shown: ollama.ShowResponse) -> _Meta:
    info = dict(shown.modelinfo or {})
    arch = info.get("general.architecture")
    context = info.get(f"{arch}.context_length") if arch else None
    if context is None:  # an architecture key we do not know: any "*.context_length" will do
        context = next((v for k, v in info.items() if k.endswith(".context_length")), None)
    details = shown.details
    return _Meta(int(context) if context else None, list(shown.capabilities or []),
                 details.family if details else None, details.parameter_size if details else None)


class OllamaBackend(BackendCore):
    name = "ollama"

    def __init__(self, settings: LlmSettings, audit: Audit | None = None) -> None:
        super().__init__(settings, audit)
        timeout = httpx.Timeout(settings.timeout_s, connect=min(settings.timeout_s, CONNECT_TIMEOUT_S))
        self._client = ollama.AsyncClient(host=self.host, timeout=timeout)
        self._models: dict[str, _Meta] = {}
        self._lookup = asyncio.Lock()  # one `show` per model even when many calls start at once

    # --- errors --------------------------------------------------------------------------------------

    def _down(self) -> LlmUnavailable:
        return LlmUnavailable(f"Ollama is not running at {self.host}: start it with `ollama serve`, "
                              "or set another server in the settings")

    def _typed_error(self, exc: BaseException, model: str, timeout: float) -> LlmError:
        if isinstance(exc, LlmError):
            return exc
        if isinstance(exc, (ConnectionError, httpx.ConnectError, httpx.ConnectTimeout)):
            return self._down()  # the client raises the builtin ConnectionError, streams httpx's own
        if isinstance(exc, (TimeoutError, httpx.TimeoutException)):
            return LlmTimeout(f"no answer from {model or 'Ollama'} at {self.host} within {timeout:g} s: the model "
                              "may still be loading or be too slow for this task; try again, raise the timeout in "
                              "the settings, or choose a smaller model")
        if isinstance(exc, ollama.ResponseError):
            return self._response_error(exc, model)
        if isinstance(exc, httpx.TransportError):  # RemoteProtocolError, ReadError: the connection broke off
            return LlmServerError(f"the connection to Ollama at {self.host} broke off mid-answer: the server may "
                                  "have crashed or restarted; try again, and check the Ollama log if it repeats")
        if isinstance(exc, (httpx.HTTPError, ValueError)):
            return LlmServerError(f"Ollama at {self.host} sent an answer that cannot be read ({exc}); "
                                  "check that the host is an Ollama server")
        return LlmError(f"unexpected error talking to Ollama at {self.host}: {type(exc).__name__}: {exc}")

    def _response_error(self, exc: ollama.ResponseError, model: str) -> LlmError:
        message = str(exc.error)
        if exc.status_code == 404 and "model" in message.lower():
            self._models.pop(model, None)
            return ModelMissing(f"the model '{model}' is not installed in Ollama at {self.host}: pull it with "
                                f"`ollama pull {model}` (or from the settings), or choose an installed model")
        if exc.status_code == 404:
            return LlmError(f"{self.host} answered 404 to an Ollama API call ({message}): is it an Ollama server? "
                            "For llama.cpp, vLLM or LM Studio choose the OpenAI-compatible backend in the settings")
        if exc.status_code == 501:  # not implemented: asking again cannot help
            return LlmError(f"Ollama at {self.host} does not offer this ({message})")
        if exc.status_code >= 500 or exc.status_code < 0:  # < 0: an error line inside a stream
            return LlmServerError(f"Ollama at {self.host} failed with {model or 'the request'}: {message}; check "
                                  "the Ollama log (a model too large for memory fails like this: try a smaller "
                                  "model or context size)")
        return LlmError(f"Ollama at {self.host} refused the request for {model}: {message}")

    # --- models --------------------------------------------------------------------------------------

    async def _model_meta(self, model: str, retry: bool = True) -> _Meta:
        """``show``, once per model; retried like a chat call unless for a quick listing."""
        if (known := self._models.get(model)) is not None:
            return known
        async with self._lookup:
            if model not in self._models:
                shown = await self._meta(lambda: self._client.show(model), model, retry)
                self._models[model] = _read_show(shown)
        return self._models[model]

    async def context_length(self, model: str | None = None) -> int:
        """num_ctx for ``model``: the configured size, capped at what the model was trained for."""
        known = (await self._model_meta(model or self.model)).context
        return min(self.settings.context_size, known) if known else self.settings.context_size

    async def list_models(self) -> list[ModelInfo]:
        listed = await self._meta(self._client.list)

        async def describe(entry: ollama.ListResponse.Model) -> ModelInfo:
            name = entry.model or ""
            try:
                meta = await self._model_meta(name, retry=False)
            except LlmError:  # removed between list and show: still list it
                meta = _Meta(None)
            details = entry.details
            return ModelInfo(name=name, size_bytes=int(entry.size) if entry.size is not None else None,
                             family=meta.family or (details.family if details else None),
                             parameter_size=meta.parameter_size or (details.parameter_size if details else None),
                             context_length=meta.context, capabilities=meta.capabilities)

        return list(await asyncio.gather(*(describe(m) for m in listed.models)))

    async def _version(self) -> str | None:
        # The client has no call for /api/version; use its own request path so errors stay the client's.
        try:
            answer = await self._meta(lambda: self._client._request_raw("GET", "/api/version"))
            return str(answer.json().get("version")) or None
        except (LlmError, ValueError):
            return None

    async def health(self) -> Health:
        try:
            listed = await self._meta(self._client.list)
        except LlmError as exc:
            return Health(ok=False, backend=self.name, host=self.host, message=str(exc))
        version = await self._version()
        names = [m.model or "" for m in listed.models]
        ready = canonical(self.model) in {canonical(n) for n in names}
        where = f"Ollama {version} at {self.host}" if version else f"Ollama at {self.host}"
        message = (f"{where}: {self.model} is ready" if ready else
                   f"{where} answers, but the model '{self.model}' is not installed: pull it with "
                   f"`ollama pull {self.model}` (or from the settings), or choose an installed model")
        return Health(ok=True, backend=self.name, host=self.host, version=version, models=names,
                      model_ready=ready, message=message)

    async def pull(self, model: str) -> AsyncIterator[PullProgress]:
        """Progress of downloading ``model``; not gated (it does not load the model into memory)."""
        try:
            progress = await self._client.pull(model, stream=True)
            async for step in progress:
                yield PullProgress(status=step.status or "", completed=step.completed, total=step.total)
        except ollama.ResponseError as exc:
            message = str(exc.error)
            if "manifest" in message or exc.status_code == 404:
                raise ModelMissing(f"cannot pull '{model}' into Ollama at {self.host}: {message}; check the "
                                   "model name (see ollama.com/library)") from exc
            if exc.status_code < 0:  # an error line in the progress stream: usually the registry is unreachable
                raise LlmError(f"Ollama at {self.host} could not pull '{model}': {message}; pulling needs a "
                               "connection to the model registry (or copy the model files to the server)") from exc
            raise self._typed_error(exc, model, self.settings.timeout_s) from exc
        except Exception as exc:
            raise self._typed_error(exc, model, self.settings.timeout_s) from exc
        finally:
            self._models.pop(model, None)  # a pulled model may differ from what was cached

    # --- generation ----------------------------------------------------------------------------------

    async def _think(self, model: str) -> bool | None:
        """``think`` only for thinking models: others reject the field with HTTP 400."""
        return self.settings.think if "thinking" in (await self._model_meta(model)).capabilities else None

    async def _request_options(self, call: Call) -> tuple[dict, bool | None]:
        options = {"num_ctx": call.context, "num_predict": call.max_tokens, "temperature": call.temperature}
        think = await self._think(call.model)
        call.request = {**options, **({"think": think} if think is not None else {})}
        return options, think

    async def _send(self, messages: list[Message], options: CallOptions | None, schema: dict | None,
                    attempt: int) -> Completion:
        call = await self._prepare(messages, options, schema, attempt)
        wire_options, think = await self._request_options(call)

        async def send() -> Reply:
            answer = await self._client.chat(call.model, messages=[m.model_dump() for m in call.messages],
                                             format=call.schema, options=wire_options, think=think)
            return make_completion(answer.message.content or "", answer.message.thinking, answer.done_reason,
                                   _usage(answer), answer.model or call.model)

        return await self._chat(call, send)

    async def _pieces(self, call: Call) -> AsyncIterator[Piece]:
        wire_options, think = await self._request_options(call)
        stream = await self._client.chat(call.model, messages=[m.model_dump() for m in call.messages],
                                         options=wire_options, think=think, stream=True)
        async for part in stream:
            yield Piece(part.message.content or "", part.message.thinking or "", part.done_reason,
                        _usage(part) if part.done else None)

    # --- lifecycle -----------------------------------------------------------------------------------

    async def aclose(self) -> None:
        await self._client.close()
