"""The structured-output loop both backends use for ``generate_structured()``.

The pydantic model's JSON schema goes to the server (Ollama ``format`` / OpenAI ``response_format``)
and into a system instruction. The answer is parsed (thinking and code fences removed), validated and
checked; a failure is retried with what went wrong stated to the model, at most ``settings.retries``
(or the call's ``CallOptions.retries``) more times. Cut-off answers are asked again shorter with more room, loops are named as such. After the
last attempt ``BadOutput`` carries every attempt, and as ``unchecked`` the last answer that matched the
schema but failed the check (the caller may still use it, with a warning)."""

from __future__ import annotations

import json
import re
import time
from dataclasses import dataclass
from typing import Any, Literal, Protocol

from pydantic import BaseModel, ValidationError

from desktop.llm.protocol import Check
from desktop.llm.thinking import split_thinking
from desktop.llm.types import Attempt, BadOutput, CallOptions, Completion, Message, Structured, T, Usage
from desktop.settings import LlmSettings

# "On one line": indentation and line breaks are a tenth of a pretty-printed answer's tokens, and on a CPU
# every answer token costs a tenth of a second.
INSTRUCTION = ("Answer with one JSON value that matches the JSON schema below and nothing else: no text before "
               "or after it, no code fences, on one line without indentation.\nJSON schema: {schema}")
INVALID_FEEDBACK = ("Your answer was not accepted: {error}. Answer again with only the corrected JSON, matching "
                    "the schema.")
CHECK_FEEDBACK = "Your answer did not pass a check: {error}. Answer again with only the corrected JSON."
CUT_FEEDBACK = ("Your previous answer was cut off at the limit of {limit} tokens before the JSON was complete. "
                "Answer again, shorter: keep every text brief and leave out anything not asked for.")
LOOP_FEEDBACK = ("Your previous answer repeated \u201c{phrase}\u201d over and over until the token limit. "
                 "Answer again without repeating yourself: write each item once, then close the JSON.")
RAW_FEEDBACK_CHARS = 4000  # a rejected answer shown back to the model is cut to this
LOOP_TAIL_CHARS = 2000  # a loop fills the end of a cut-off answer; look there only
LOOP_MAX_PERIOD = 200  # longest repeated phrase recognised, in characters
LOOP_MIN_REPEATS = 4

_FENCE = re.compile(r"^```[\w+-]*[ \t]*\n?(.*?)\n?```$", re.S)


class Host(Protocol):
    """What the loop needs of a backend."""

    settings: LlmSettings
    model: str

    async def _send(self, messages: list[Message], options: CallOptions | None, schema: dict | None,
                    attempt: int) -> Completion: ...

    async def _answer_room(self, messages: list[Message], model: str) -> int: ...


Kind = Literal["ok", "invalid", "check", "cut", "loop"]


@dataclass
class Verdict:
    kind: Kind
    value: Any = None
    error: str | None = None


_NOISE = ("title", "default")  # a property's title repeats its name; defaults do not concern the answer


def prompt_schema(schema: Any) -> Any:
    """The schema as the model reads it: without the titles and defaults pydantic adds to every property
    (a fifth fewer tokens in every structured prompt). A property that happens to be called "title" is a
    dict and stays. The schema sent to the server for constrained decoding stays complete."""
    if isinstance(schema, dict):
        return {k: prompt_schema(v) for k, v in schema.items() if not (k in _NOISE and not isinstance(v, dict))}
    if isinstance(schema, list):
        return [prompt_schema(v) for v in schema]
    return schema


def with_instruction(messages: list[Message], schema: dict) -> list[Message]:
    """Add the JSON instruction to the system message (many chat templates allow only one, first)."""
    text = INSTRUCTION.format(schema=json.dumps(prompt_schema(schema), ensure_ascii=False, separators=(",", ":")))
    if messages and messages[0].role == "system":
        return [Message(role="system", content=f"{messages[0].content}\n\n{text}"), *messages[1:]]
    return [Message(role="system", content=text), *messages]


def parse_json(text: str) -> Any:
    """The JSON in an answer: thinking and code fences removed, surrounding prose tolerated."""
    body = split_thinking(text)[0].strip()
    if fenced := _FENCE.match(body):
        body = fenced.group(1).strip()
    if not body:
        raise ValueError("the answer was empty")
    try:
        return json.loads(body)
    except json.JSONDecodeError as exc:
        starts = [i for i in (body.find("{"), body.find("[")) if i >= 0]
        start, end = min(starts, default=-1), max(body.rfind("}"), body.rfind("]"))
        if 0 <= start < end:  # prose around the JSON, or a fence after an introduction
            try:
                return json.loads(body[start:end + 1])
            except json.JSONDecodeError:
                pass
        raise ValueError(f"the answer is not valid JSON ({exc.msg} at line {exc.lineno} column {exc.colno})") from None


def describe(exc: ValidationError) -> str:
    problems = [f"{'.'.join(map(str, e['loc'])) or '(the whole value)'}: {e['msg']}" for e in exc.errors()[:8]]
    more = f" and {exc.error_count() - 8} more" if exc.error_count() > 8 else ""
    return f"the JSON does not match the schema ({'; '.join(problems)}{more})"


def find_loop(text: str) -> str | None:
    """The phrase a looping model repeated until its limit, if the answer ends in such a repetition."""
    tail = text[-LOOP_TAIL_CHARS:]
    n = len(tail)
    for period in range(1, min(LOOP_MAX_PERIOD, n // LOOP_MIN_REPEATS) + 1):
        if tail[-period:] != tail[-2 * period:-period]:
            continue  # cheap rejection before measuring the repetition
        k = period
        while k < n - period and tail[n - 1 - k] == tail[n - 1 - k - period]:
            k += 1
        span = k + period
        if span >= LOOP_MIN_REPEATS * period and span >= min(n, 400) // 2:
            phrase = tail[-period:].strip() or tail[-period:]
            return phrase[:80]
    return None


_CLOSE = {"{": "}", "[": "]"}


def _item_ends(body: str) -> list[tuple[int, str]]:
    """Where a complete item of a list ends in ``body`` (an answer's JSON, perhaps cut off), each with the
    brackets that close what is still open there."""
    ends: list[tuple[int, str]] = []
    stack: list[str] = []
    in_string = escaped = False
    for i, ch in enumerate(body):
        if in_string:
            escaped, in_string = (False, True) if escaped else (ch == "\\", ch != '"')
            continue
        if ch == '"':
            in_string = True
        elif ch in _CLOSE:
            stack.append(ch)
        elif ch in "}]" and stack:
            stack.pop()
            if stack and stack[-1] == "[":
                ends.append((i + 1, "".join(_CLOSE[b] for b in reversed(stack))))
    return ends


def complete_items(text: str, schema: type[BaseModel]) -> tuple[BaseModel, int] | None:
    """The answer as far as its list items were complete when the token limit cut it off, closed and
    validated, with the number of characters left out; None when no such prefix makes a valid answer."""
    body = split_thinking(text)[0].strip()
    for end, closing in reversed(_item_ends(body)):
        try:
            return schema.model_validate(json.loads(body[:end] + closing)), len(body) - end
        except ValueError:
            continue
    return None


def judge(completion: Completion, schema: type[BaseModel], check: Check | None, keep_cut: bool = False) -> Verdict:
    """``keep_cut``: an answer cut off at the token limit whose complete list items make a valid answer
    that passes ``check`` is that answer (seen: a 1.5B model wrote its answer's statements, then the second
    one three times more until the limit; the retry cost half a minute and wrote a worse answer)."""
    text = completion.text
    try:
        value = schema.model_validate(parse_json(text))
    except ValueError as exc:  # pydantic's ValidationError is a ValueError too
        if completion.finish_reason == "length" and keep_cut and (kept := complete_items(text, schema)) \
                and not (check is not None and check(kept[0])):
            return Verdict("ok", value=kept[0], error=f"cut off at the token limit: the complete items before the cut "
                                                      f"were kept ({kept[1]} characters left out)")
        if completion.finish_reason == "length":
            if phrase := find_loop(text):
                return Verdict("loop", error=f"the answer repeated \u201c{phrase}\u201d until the token limit")
            return Verdict("cut", error="the answer was cut off at the token limit before the JSON was complete")
        return Verdict("invalid", error=describe(exc) if isinstance(exc, ValidationError) else str(exc))
    if check is not None and (problem := check(value)):
        return Verdict("check", value=value, error=problem)
    return Verdict("ok", value=value)


async def _retry_request(host: Host, first: list[Message], completion: Completion, verdict: Verdict,
                         options: CallOptions, model: str) -> tuple[list[Message], CallOptions]:
    """The next attempt's prompt and options, given why the last one failed."""
    limit = options.max_tokens or host.settings.max_answer_tokens
    if verdict.kind == "cut":
        messages = [*first, Message(role="user", content=CUT_FEEDBACK.format(limit=limit))]
        room = await host._answer_room(messages, model)
        # more room, but at most twice the configured answer length and never past the context
        bigger = min(max(limit, 2 * host.settings.max_answer_tokens), room)
        return messages, options.model_copy(update={"max_tokens": bigger if bigger >= 1 else limit})
    if verdict.kind == "loop":
        phrase = (verdict.error or "").split("\u201c")[-1].split("\u201d")[0]
        return [*first, Message(role="user", content=LOOP_FEEDBACK.format(phrase=phrase))], options
    template = CHECK_FEEDBACK if verdict.kind == "check" else INVALID_FEEDBACK
    feedback = Message(role="user", content=template.format(error=verdict.error))
    shown = completion.text if len(completion.text) <= RAW_FEEDBACK_CHARS else completion.text[:RAW_FEEDBACK_CHARS] + " …"
    with_answer = [*first, Message(role="assistant", content=shown), feedback]
    if await host._answer_room(with_answer, model) >= limit:
        return with_answer, options
    return [*first, feedback], options  # no room to repeat the answer: state the problem only


async def generate(host: Host, messages: list[Message], schema: type[T], options: CallOptions | None,
                   check: Check | None) -> Structured[T]:
    opts = options or CallOptions()
    model = opts.model or host.model
    json_schema = schema.model_json_schema()
    first = with_instruction(messages, json_schema)
    prompt, call_opts = first, opts
    attempts: list[Attempt] = []
    unchecked: BaseModel | None = None
    retries = host.settings.retries if opts.retries is None else opts.retries
    started = time.monotonic()
    no_time = ""
    for number in range(1, retries + 2):
        sent = time.monotonic()
        completion = await host._send(prompt, call_opts, json_schema, number)
        verdict = judge(completion, schema, check, opts.keep_cut)
        attempts.append(Attempt(raw=completion.text, error=verdict.error, usage=completion.usage))
        if verdict.kind == "ok":
            return Structured[schema](value=verdict.value, attempts=attempts, model=completion.model or model,
                                      usage=sum((a.usage for a in attempts), Usage()), messages=first)
        if verdict.kind == "check":
            unchecked = verdict.value
        if number <= retries:
            # a run's time budget: another attempt as long as this one would end past it (seen, §29 laws-dev-10 with
            # a 1.5B model: three tries of the brief answer took 219 s, and the run 392 s of its 300)
            now = time.monotonic()
            if opts.time_left_s is not None and (now - started) + (now - sent) > opts.time_left_s:
                no_time = " (no time was left for another)"
                break
            prompt, call_opts = await _retry_request(host, first, completion, verdict, call_opts, model)
    what = f" for {opts.purpose}" if opts.purpose else ""
    raise BadOutput(
        f"the model {model} gave no valid answer{what} in {len(attempts)} attempts{no_time}; the last problem: "
        f"{(attempts[-1].error or '').rstrip('.')}. Try again, choose a larger model, or simplify the request",
        attempts, unchecked)
