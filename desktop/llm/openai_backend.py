"""The backend for OpenAI-compatible servers (llama.cpp's server, vLLM, LM Studio) over ``httpx``:
how a team serves one big model to many desktops. Only the ``/v1`` routes are used (llama.cpp's server
has no ``/api`` routes), plus two of llama.cpp's own where it has them: ``/props`` for the context size
and ``/tokenize`` to calibrate the token estimate. Usage carries llama.cpp's prompt-cache hits and its
server-side ``timings`` where it sends them."""

from __future__ import annotations

import asyncio
import json
import re
from collections.abc import AsyncIterator
from typing import Any

import httpx

from desktop.llm.base import BackendCore, Call, Piece, Reply, make_completion
from desktop.llm.records import Audit
from desktop.llm.types import (
    CallOptions, Completion, Health, LlmError, LlmServerError, LlmTimeout, LlmUnavailable, Message, ModelInfo,
    ModelMissing, PromptTooLong, PullProgress, Usage,
)
from desktop.settings import LlmSettings, server_root

CONNECT_TIMEOUT_S = 10.0
_UNREADABLE = (ValueError, KeyError, IndexError, TypeError, AttributeError)  # a body not in the expected shape
NO_TOKENIZER = (400, 404, 405, 501)  # no llama.cpp /tokenize here (vLLM, Ollama, LM Studio): do not ask again


def _usage(answer: dict) -> Usage | None:
    """Counts and timings of an answer or stream chunk; None when it carries neither. ``timings`` is
    llama.cpp's own (``prompt_n`` excludes the ``cache_n`` tokens reused from the prompt cache)."""
    raw, timings = answer.get("usage"), answer.get("timings")
    if not isinstance(raw, dict) and not isinstance(timings, dict):
        return None
    raw, timings = (raw if isinstance(raw, dict) else {}), (timings if isinstance(timings, dict) else {})
    details = raw.get("prompt_tokens_details")
    cached = details.get("cached_tokens") if isinstance(details, dict) else None
    cached = int(cached if cached is not None else timings.get("cache_n") or 0)
    prompt = raw.get("prompt_tokens")
    prompt = int(prompt) if prompt is not None else int(timings.get("prompt_n") or 0) + cached
    answer_tokens = raw.get("completion_tokens", timings.get("predicted_n"))
    return Usage(prompt_tokens=prompt, completion_tokens=int(answer_tokens or 0), cached_tokens=cached,
                 prompt_s=float(timings.get("prompt_ms") or 0) / 1000,
                 answer_s=float(timings.get("predicted_ms") or 0) / 1000)


def _schema_name(schema: dict) -> str:
    """response_format names allow letters, digits, '_' and '-' up to 64 characters."""
    return re.sub(r"[^A-Za-z0-9_-]", "_", str(schema.get("title") or "answer"))[:64]


def _error_text(response: httpx.Response) -> str:
    try:
        body = response.json()
    except ValueError:
        return response.text.strip()[:300] or response.reason_phrase
    error = body.get("error", body.get("detail", body)) if isinstance(body, dict) else body
    return str(error.get("message", error) if isinstance(error, dict) else error)[:300]


def _context_overflow(response: httpx.Response) -> tuple[int, int] | None:
    """llama.cpp's "exceed_context_size_error": (prompt tokens, context size), else None."""
    if response.status_code != 400:
        return None
    try:
        error = response.json().get("error")
    except ValueError:
        return None
    if not isinstance(error, dict) or error.get("type") != "exceed_context_size_error":
        return None
    return int(error.get("n_prompt_tokens") or 0), int(error.get("n_ctx") or 0)


def _same_model(a: str, b: str) -> bool:
    """Equal names, allowing Ollama's implicit ':latest'."""
    return a == b or a.removesuffix(":latest") == b.removesuffix(":latest")


class OpenAIBackend(BackendCore):
    name = "openai"

    def __init__(self, settings: LlmSettings, audit: Audit | None = None) -> None:
        super().__init__(settings, audit)
        self.host = server_root(self.host)
        headers = {"Authorization": f"Bearer {settings.api_key}"} if settings.api_key else {}
        timeout = httpx.Timeout(settings.timeout_s, connect=min(settings.timeout_s, CONNECT_TIMEOUT_S))
        self._client = httpx.AsyncClient(base_url=self.host, timeout=timeout, headers=headers)
        self._server_context: int | None = None
        self._props_read = False
        self._lookup = asyncio.Lock()
        self._has_tokenizer = True  # until the server says it has no /tokenize

    # --- errors --------------------------------------------------------------------------------------

    def _typed_error(self, exc: BaseException, model: str, timeout: float) -> LlmError:
        if isinstance(exc, LlmError):
            return exc
        if isinstance(exc, (httpx.ConnectError, httpx.ConnectTimeout, ConnectionError)):
            return LlmUnavailable(f"no LLM server answers at {self.host}: start it (llama.cpp: llama-server, vLLM, "
                                  "LM Studio's local server), or set another server in the settings")
        if isinstance(exc, (TimeoutError, httpx.TimeoutException)):
            return LlmTimeout(f"no answer from {model or 'the LLM server'} at {self.host} within {timeout:g} s: the "
                              "server may be busy or the model too slow for this task; try again, raise the timeout "
                              "in the settings, or use a smaller model")
        if isinstance(exc, httpx.TransportError):
            return LlmServerError(f"the connection to the LLM server at {self.host} broke off mid-answer: the server "
                                  "may have crashed or restarted; try again, and check its log if it repeats")
        if isinstance(exc, (httpx.HTTPError, *_UNREADABLE)):
            return LlmServerError(f"the server at {self.host} sent an answer that cannot be read ({exc!r}); check "
                                  "that it is an OpenAI-compatible server")
        return LlmError(f"unexpected error talking to {self.host}: {type(exc).__name__}: {exc}")

    def _status_error(self, response: httpx.Response, model: str) -> LlmError:
        code, message = response.status_code, _error_text(response)
        too_long = _context_overflow(response)
        if too_long is not None:  # our estimate let it through, the server's tokenizer counted more
            prompt, context = too_long
            return PromptTooLong(f"the prompt has {prompt} tokens but {self.host} serves a context of {context}: "
                                 "lower the context size in the settings or start the server with a larger one",
                                 prompt, 0, context)
        if code == 501:  # llama.cpp without --embeddings, and the like: retrying cannot help
            return LlmError(f"the LLM server at {self.host} does not offer this ({message})")
        if code in (401, 403):
            return LlmError(f"the LLM server at {self.host} refused the request (HTTP {code}: {message}): set the "
                            "right API key in the settings")
        if code == 404 and "model" in message.lower():
            return ModelMissing(f"the LLM server at {self.host} does not serve the model '{model}' ({message}): "
                                "load it on the server, or choose a model it serves in the settings")
        if code == 404:
            return LlmError(f"{self.host} has no OpenAI-compatible API ({response.request.url.path}: HTTP 404): "
                            "check the server address in the settings")
        if code >= 500:
            return LlmServerError(f"the LLM server at {self.host} failed with {model or 'the request'} "
                                  f"(HTTP {code}: {message}); check the server's log")
        return LlmError(f"the LLM server at {self.host} refused the request for {model} (HTTP {code}: {message})")

    async def _json(self, method: str, path: str, model: str, body: dict | None = None) -> Any:
        response = await self._client.request(method, path, json=body)
        if response.is_error:
            raise self._status_error(response, model)
        return response.json()

    # --- models --------------------------------------------------------------------------------------

    async def _read_props(self) -> int | None:
        """llama.cpp's context size per slot; other servers have no /props (or no n_ctx in it)."""
        try:
            response = await self._meta(lambda: self._client.get("/props"), retry=True)  # chat calls need it
            props = response.json() if response.status_code == 200 else {}
            n_ctx = (props.get("default_generation_settings") or {}).get("n_ctx") or props.get("n_ctx")
            return int(n_ctx) if n_ctx else None
        except LlmUnavailable:
            raise
        except (LlmError, *_UNREADABLE):
            return None

    async def context_length(self, model: str | None = None) -> int:
        """The configured size, capped at the server's n_ctx when it tells (llama.cpp's /props)."""
        if not self._props_read:
            async with self._lookup:
                if not self._props_read:
                    self._server_context = await self._read_props()
                    self._props_read = True
        known = self._server_context
        return min(self.settings.context_size, known) if known else self.settings.context_size

    async def _server_tokens(self, text: str) -> int | None:
        """llama.cpp's own count (``POST /tokenize``); None where the route is missing or fails."""
        if not self._has_tokenizer:
            return None
        try:
            response = await self._meta(lambda: self._client.post("/tokenize", json={"content": text}))
            if response.status_code in NO_TOKENIZER:
                self._has_tokenizer = False
                return None
            return len(response.json()["tokens"]) if response.status_code == 200 else None
        except LlmError:  # down or failing: the answers' counts will calibrate instead
            return None
        except _UNREADABLE:  # some other API under that name
            self._has_tokenizer = False
            return None

    async def _served(self) -> list[dict]:
        listed = await self._meta(lambda: self._json("GET", "/v1/models", ""))
        return [m for m in (listed.get("data") or []) if isinstance(m, dict) and m.get("id")]

    async def list_models(self) -> list[ModelInfo]:
        infos = []
        for entry in await self._served():
            meta = entry.get("meta") if isinstance(entry.get("meta"), dict) else {}
            context = entry.get("max_model_len") or meta.get("n_ctx_train")  # vLLM, llama.cpp
            infos.append(ModelInfo(name=str(entry["id"]), size_bytes=meta.get("size"),
                                   context_length=int(context) if context else None))
        return infos

    async def health(self) -> Health:
        try:
            names = [str(m["id"]) for m in await self._served()]
        except LlmError as exc:
            return Health(ok=False, backend=self.name, host=self.host, message=str(exc))
        listed = any(_same_model(n, self.model) for n in names)
        # a server with one model (llama.cpp) answers with it whatever name is asked for
        ready = listed or len(names) == 1
        if listed:
            message = f"LLM server at {self.host}: {self.model} is ready"
        elif ready:
            message = f"LLM server at {self.host} serves '{names[0]}' and will answer with it"
        else:
            served = ", ".join(names) or "no models"
            message = (f"the LLM server at {self.host} answers but does not serve '{self.model}' (it serves: "
                       f"{served}): choose one of them in the settings, or load the model on the server")
        return Health(ok=True, backend=self.name, host=self.host, models=names, model_ready=ready, message=message)

    async def pull(self, model: str) -> AsyncIterator[PullProgress]:
        raise LlmError(f"an OpenAI-compatible server ({self.host}) cannot pull models: load '{model}' on the server "
                       "itself (llama.cpp: --model or -hf; vLLM: --model; LM Studio: download it there)")
        yield PullProgress(status="")  # pragma: no cover - makes this an async generator like Ollama's

    # --- generation ----------------------------------------------------------------------------------

    def _body(self, call: Call, stream: bool) -> dict[str, Any]:
        body: dict[str, Any] = {"model": call.model, "messages": [m.model_dump() for m in call.messages],
                                "max_tokens": call.max_tokens, "temperature": call.temperature, "stream": stream}
        if not self.settings.think:  # llama.cpp and vLLM pass this to the chat template (Qwen3 and the like)
            body["chat_template_kwargs"] = {"enable_thinking": False}
        if stream:
            body["stream_options"] = {"include_usage": True}
        call.request = {k: v for k, v in body.items() if k not in ("model", "messages")}
        if call.schema is not None:
            body["response_format"] = {"type": "json_schema", "json_schema": {
                "name": _schema_name(call.schema), "schema": call.schema, "strict": True}}
        return body

    async def _send(self, messages: list[Message], options: CallOptions | None, schema: dict | None,
                    attempt: int) -> Completion:
        call = await self._prepare(messages, options, schema, attempt)
        body = self._body(call, stream=False)

        async def send() -> Reply:
            answer = await self._json("POST", "/v1/chat/completions", call.model, body)
            choice = answer["choices"][0]
            message = choice.get("message") or {}
            thinking = message.get("reasoning_content") or message.get("reasoning")
            return make_completion(message.get("content") or "", thinking, choice.get("finish_reason"),
                                   _usage(answer) or Usage(), answer.get("model") or call.model)

        return await self._chat(call, send)

    async def _pieces(self, call: Call) -> AsyncIterator[Piece]:
        body = self._body(call, stream=True)
        async with self._client.stream("POST", "/v1/chat/completions", json=body) as response:
            if response.is_error:
                await response.aread()
                raise self._status_error(response, call.model)
            async for line in response.aiter_lines():
                if not line.startswith("data:"):
                    continue  # blank separators and ": keep-alive" comments
                data = line[len("data:"):].strip()
                if data == "[DONE]":
                    return
                event = json.loads(data)
                if event.get("error"):
                    raise LlmServerError(f"the LLM server at {self.host} failed mid-answer: {event['error']}")
                usage = _usage(event)  # llama.cpp's last chunk carries usage and timings
                for choice in event.get("choices") or [{}]:
                    delta = choice.get("delta") or {}
                    yield Piece(delta.get("content") or "", delta.get("reasoning_content") or delta.get("reasoning")
                                or "", choice.get("finish_reason"), usage)

    # --- lifecycle -----------------------------------------------------------------------------------

    async def aclose(self) -> None:
        await self._client.aclose()
