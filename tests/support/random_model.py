"""A model that behaves at random, for resilience tests against the fake server: ``RandomSchemaModel``
answers any JSON schema with random but schema-valid JSON, and ``FaultPlan`` makes a share of chat
calls fail in the ways real servers and models do. Both are seeded, so a failing run can be repeated.

    fake = FakeOllama(responder=RandomSchemaModel(seed=3), faults=FaultPlan(rate=0.3, seed=7))

``RandomSchemaModel(seed)`` is a responder: a request with a schema (Ollama ``format``, OpenAI
``response_format.json_schema.schema``) gets JSON valid against it: words of mixed German and English
for strings (within minLength/maxLength), integers and numbers within their bounds, arrays within
minItems/maxItems (at most a few items where unbounded), enums and consts, required properties
always and optional ones sometimes, nested objects, ``$ref``/``$defs``, ``anyOf``/``oneOf`` (null
included), ``allOf``, ``prefixItems``, ``uniqueItems`` and ``additionalProperties`` maps. Not
supported: ``pattern``, ``multipleOf`` and string ``format``s. A request without a schema gets a few
random sentences. ``value(schema)`` is the generator on its own.

``FaultPlan(rate, seed, kinds, slow_s)`` draws per chat call whether it fails and how: ``http_500``,
``invalid_json`` (prose instead of JSON), ``truncated_json`` (the answer cut in half, finish reason
"length"), ``slow`` (``slow_s`` seconds before the answer), also ``drop`` and ``loop`` when asked for.
``FakeOllama.injected`` lists what was injected."""

from __future__ import annotations

import json
import math
import random
import threading
from collections.abc import Sequence
from dataclasses import replace
from typing import Any

from support import fake_ollama_replies as replies
from support.fake_ollama_replies import FaultKind, RecordedRequest, Reply

WORDS = ("Strahlenschutz", "dose", "Grenzwert", "worker", "Genehmigung", "annual", "Behörde", "limit",
         "Messung", "source", "Anlage", "report", "Bericht", "exposure", "Pflicht", "safety", "Abfall",
         "storage", "Zeitraum", "record", "Verordnung", "level", "Prüfung", "method", "über", "and", "und",
         "the", "die", "der", "für", "of")
MAX_ITEMS = 3  # items of an array without maxItems: keeps answers short, as a terse model would
MAX_WORDS = 8  # words of a string without maxLength
SPAN = 100  # width of the range drawn from when only one bound is given
DEFAULT_FAULTS: tuple[FaultKind, ...] = ("http_500", "invalid_json", "truncated_json", "slow")


def request_schema(body: Any) -> dict | None:
    """The JSON schema a chat request constrains its answer to, in either wire format."""
    if not isinstance(body, dict):
        return None
    if isinstance(body.get("format"), dict):
        return body["format"]
    fmt = body.get("response_format")
    if isinstance(fmt, dict) and isinstance(fmt.get("json_schema"), dict):
        schema = fmt["json_schema"].get("schema")
        return schema if isinstance(schema, dict) else None
    return None


class RandomSchemaModel:
    """A responder answering with random, schema-valid JSON (see the module docstring)."""

    def __init__(self, seed: int = 0, optional_share: float = 0.5) -> None:
        self._rng = random.Random(seed)
        self._lock = threading.Lock()  # the fake serves requests from several threads
        self.optional_share = optional_share

    def __call__(self, request: RecordedRequest) -> Reply:
        schema = request_schema(request.body)
        with self._lock:
            if schema is None:
                return Reply(self.sentences())
            return Reply(json.dumps(self._value(schema, schema), ensure_ascii=False))

    def value(self, schema: dict) -> Any:
        """A random value valid against ``schema`` (its ``$defs`` resolved from the schema itself)."""
        with self._lock:
            return self._value(schema, schema)

    def sentences(self) -> str:
        return " ".join(self._words(self._rng.randint(4, 12)).capitalize() + "."
                        for _ in range(self._rng.randint(1, 3)))

    # --- generation --------------------------------------------------------------------------------

    def _value(self, schema: dict, root: dict) -> Any:
        schema = self._resolve(schema, root)
        rng = self._rng
        if "const" in schema:
            return schema["const"]
        if "enum" in schema:
            return rng.choice(schema["enum"])
        for key in ("anyOf", "oneOf"):
            if key in schema:
                return self._value(rng.choice(schema[key]), root)
        kind = schema.get("type")
        if isinstance(kind, list):
            kind = rng.choice(kind)
        if kind is None:
            kind = "object" if "properties" in schema else "string"
        if kind == "object":
            return self._object(schema, root)
        if kind == "array":
            return self._array(schema, root)
        if kind == "integer":
            low, high = _bounds(schema, 1)
            return rng.randint(math.ceil(low), math.floor(high))
        if kind == "number":
            low, high = _bounds(schema, 1e-6)
            number = round(rng.uniform(low, high), 3)  # a model writes a few digits, not seventeen
            return number if low <= number <= high else low
        if kind == "boolean":
            return rng.random() < 0.5
        if kind == "null":
            return None
        return self._string(schema)

    def _resolve(self, schema: dict, root: dict) -> dict:
        """``$ref`` followed and ``allOf`` merged, so what remains is one plain schema."""
        while "$ref" in schema:
            target: Any = root
            for part in schema["$ref"].removeprefix("#/").split("/"):
                target = target[part]
            schema = {**target, **{k: v for k, v in schema.items() if k != "$ref"}}
        if "allOf" in schema:
            merged = {k: v for k, v in schema.items() if k != "allOf"}
            for part in schema["allOf"]:
                merged = {**self._resolve(part, root), **merged}
            schema = merged
        return schema

    def _object(self, schema: dict, root: dict) -> dict:
        required = set(schema.get("required") or ())
        out = {name: self._value(sub, root) for name, sub in (schema.get("properties") or {}).items()
               if name in required or self._rng.random() < self.optional_share}
        extra = schema.get("additionalProperties")
        if isinstance(extra, dict) and not schema.get("properties"):  # a dict[str, X]
            for _ in range(self._rng.randint(0, MAX_ITEMS)):
                out[self._words(1)] = self._value(extra, root)
        return out

    def _array(self, schema: dict, root: dict) -> list:
        prefix = schema.get("prefixItems") or []
        low = int(schema.get("minItems", 0))
        high = int(schema.get("maxItems", max(low, len(prefix)) + MAX_ITEMS))
        count = self._rng.randint(max(low, len(prefix)), max(low, len(prefix), min(high, low + MAX_ITEMS)))
        items = [self._value(sub, root) for sub in prefix]
        item_schema = schema.get("items") if isinstance(schema.get("items"), dict) else {}
        tries = 0
        while len(items) < count and tries < 20 * (count + 1):
            tries += 1
            item = self._value(item_schema, root)
            if schema.get("uniqueItems") and item in items:
                continue  # a set: draw again
            items.append(item)
        return items

    def _string(self, schema: dict) -> str:
        low, high = int(schema.get("minLength", 0)), schema.get("maxLength")
        text = self._words(self._rng.randint(1, MAX_WORDS))
        while len(text) < low:
            text += " " + self._words(1)
        return text if high is None else text[: int(high)]

    def _words(self, n: int) -> str:
        return " ".join(self._rng.choice(WORDS) for _ in range(n))


def _bounds(schema: dict, step: float) -> tuple[float, float]:
    """The closed range allowed by minimum/maximum and their exclusive forms (``step`` inside those)."""
    low, high = schema.get("minimum"), schema.get("maximum")
    if "exclusiveMinimum" in schema:
        low = schema["exclusiveMinimum"] + step
    if "exclusiveMaximum" in schema:
        high = schema["exclusiveMaximum"] - step
    if low is None:
        low = (high - SPAN) if high is not None else 0
    if high is None:
        high = low + SPAN
    return low, high


class FaultPlan:
    """Which chat calls fail and how: each with probability ``rate``, the kind drawn from ``kinds``."""

    def __init__(self, rate: float = 0.3, seed: int = 0, kinds: Sequence[FaultKind] = DEFAULT_FAULTS,
                 slow_s: float = 0.3) -> None:
        if not 0 <= rate <= 1 or not kinds:
            raise ValueError("a fault plan needs a rate between 0 and 1 and at least one kind")
        self.rate, self.kinds, self.slow_s = rate, tuple(kinds), slow_s
        self._rng = random.Random(seed)
        self._lock = threading.Lock()

    def draw(self) -> FaultKind | None:
        with self._lock:
            return self._rng.choice(self.kinds) if self._rng.random() < self.rate else None

    def inject(self, kind: FaultKind, reply: Reply) -> Reply:
        """``reply`` turned into the fault ``kind``."""
        if kind == "http_500":
            return replies.http_500()
        if kind == "invalid_json":
            return replies.invalid_json()
        if kind == "truncated_json":
            return replace(reply, text=reply.text[: max(1, len(reply.text) // 2)], fault="truncated_json")
        if kind == "slow":
            return replace(reply, delay=self.slow_s)
        if kind == "drop":
            return replies.drop(reply)
        if kind == "loop":
            return replies.loop()
        raise ValueError(f"a fault plan cannot inject '{kind}'")
