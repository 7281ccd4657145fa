"""The fake Ollama server speaks the wire format the real clients expect: Ollama's API through
``ollama.Client`` and ``ollama.AsyncClient``, the OpenAI-compatible routes through ``httpx``, and
every fault mode a test can script."""

from __future__ import annotations

import asyncio
import json
import math
import threading
import time
from collections.abc import Iterator, Sequence
from typing import Any

import httpx
import ollama
import pytest
from support.fake_ollama import FakeOllama, down_url, fake_ollama_fixture, replies
from support.fake_ollama_replies import embedding_model

USER = [{"role": "user", "content": "What is the limit?"}]

fake_ollama = fake_ollama_fixture()  # the default models


@pytest.fixture
def client(fake_ollama: FakeOllama) -> Iterator[ollama.Client]:
    with ollama.Client(host=fake_ollama.url, timeout=10) as c:
        yield c


def _cos(a: Sequence[float], b: Sequence[float]) -> float:
    return sum(x * y for x, y in zip(a, b, strict=True))


def _sse(response: httpx.Response) -> list[Any]:
    """The events of a server-sent-event stream, "[DONE]" kept as a string."""
    data = [line[len("data: "):] for line in response.text.splitlines() if line.startswith("data: ")]
    return [d if d == "[DONE]" else json.loads(d) for d in data]


def _v1_chat(fake: FakeOllama, timeout: float = 10, **body: Any) -> httpx.Response:
    payload = {"model": "llama3.2:3b", "messages": USER, **body}
    return httpx.post(f"{fake.url}/v1/chat/completions", json=payload, timeout=timeout)


# --- Ollama API through the official client --------------------------------------------------------


def test_root_version_and_model_list(fake_ollama: FakeOllama, client: ollama.Client) -> None:
    assert httpx.get(fake_ollama.url).text == "Ollama is running"
    assert httpx.get(f"{fake_ollama.url}/api/version").json() == {"version": "0.12.6"}
    models = {m.model: m for m in client.list().models}
    assert set(models) == {"llama3.2:3b", "qwen3:4b", "bge-m3:latest", "nomic-embed-text:latest"}
    bge = models["bge-m3:latest"]
    assert bge.details is not None and bge.details.family == "bert" and bge.details.format == "gguf"
    assert bge.size and bge.size > 0 and bge.digest and len(bge.digest) == 64 and bge.modified_at is not None
    raw = httpx.get(f"{fake_ollama.url}/api/tags").json()["models"][0]
    assert raw["name"] == raw["model"]  # the client drops "name"; Ollama sends both


def test_show_reports_context_length_and_capabilities(client: ollama.Client) -> None:
    qwen = client.show("qwen3:4b")
    assert qwen.modelinfo is not None and qwen.modelinfo["qwen3.context_length"] == 40960
    assert qwen.capabilities == ["completion", "tools", "thinking"]
    assert qwen.details is not None and qwen.details.family == "qwen3"
    assert qwen.modelfile and "FROM" in qwen.modelfile and qwen.template and qwen.parameters
    bge = client.show("bge-m3")  # no tag means :latest
    assert bge.capabilities == ["embedding"]
    assert bge.modelinfo is not None and bge.modelinfo["bert.embedding_length"] == 1024


def test_chat_counts_tokens_and_records_options(fake_ollama: FakeOllama, client: ollama.Client) -> None:
    fake_ollama.script("The limit is 20 mSv.")
    messages = [{"role": "system", "content": "Answer briefly."}, *USER]
    resp = client.chat("llama3.2:3b", messages=messages, options={"num_ctx": 8192, "temperature": 0.2})
    assert resp.message.role == "assistant" and resp.message.content == "The limit is 20 mSv."
    assert resp.done and resp.done_reason == "stop"
    assert resp.prompt_eval_count == 6 and resp.eval_count == 5  # whitespace tokens of prompt and answer
    parts = [resp.load_duration, resp.prompt_eval_duration, resp.eval_duration]
    assert all(parts) and (resp.total_duration or 0) >= sum(p or 0 for p in parts)
    (sent,) = fake_ollama.requests_to("/api/chat")
    assert sent.method == "POST" and sent.body["options"] == {"num_ctx": 8192, "temperature": 0.2}
    assert sent.body["stream"] is False and sent.body["messages"] == messages
    assert [(m.model, m.context_length) for m in client.ps().models] == [("llama3.2:3b", 8192)]


def test_chat_stream_pieces_join_to_the_answer(fake_ollama: FakeOllama, client: ollama.Client) -> None:
    fake_ollama.script("one two three four")
    parts = list(client.chat("llama3.2:3b", messages=USER, stream=True))
    assert len(parts) == 5 and not any(p.done for p in parts[:-1])
    assert "".join(p.message.content or "" for p in parts) == "one two three four"
    last = parts[-1]
    assert last.done and last.done_reason == "stop" and last.eval_count == 4 and last.message.content == ""
    assert all(p.done_reason is None for p in parts[:-1])


def test_structured_output_schema_is_recorded_and_a_dict_is_sent_as_json(
        fake_ollama: FakeOllama, client: ollama.Client) -> None:
    schema = {"type": "object", "properties": {"answer": {"type": "string"}}, "required": ["answer"]}
    fake_ollama.script({"answer": "42"}, replies.as_json(["a", "b"]))
    resp = client.chat("llama3.2:3b", messages=USER, format=schema, options={"num_predict": 512})
    assert json.loads(resp.message.content or "") == {"answer": "42"}
    gen = client.generate("llama3.2:3b", prompt="List two letters.", format="json")
    assert json.loads(gen.response or "") == ["a", "b"]
    chat_req, gen_req = fake_ollama.requests_to("/api/chat")[0], fake_ollama.requests_to("/api/generate")[0]
    assert chat_req.body["format"] == schema and chat_req.body["options"]["num_predict"] == 512
    assert gen_req.body["format"] == "json"


def test_thinking_model_thinks_unless_told_not_to(fake_ollama: FakeOllama, client: ollama.Client) -> None:
    fake_ollama.script(replies.text("Answer.", thinking="Reasoning here."), "Plain.", replies.text("A b.", "T u."))
    resp = client.chat("qwen3:4b", messages=USER, think=True)
    assert resp.message.thinking == "Reasoning here." and resp.message.content == "Answer."
    assert resp.eval_count == 3  # thinking tokens count, as a real model's do
    off = client.chat("qwen3:4b", messages=USER, think=False)
    assert off.message.thinking is None and off.message.content == "Plain."
    parts = list(client.chat("qwen3:4b", messages=USER, stream=True))  # think unset: on for a thinking model
    kinds = ["thinking" if p.message.thinking else "content" for p in parts[:-1]]
    assert kinds == ["thinking", "thinking", "content", "content"]
    assert "".join(p.message.thinking or "" for p in parts) == "T u."
    with pytest.raises(ollama.ResponseError) as err:
        client.chat("llama3.2:3b", messages=USER, think=True)
    assert err.value.status_code == 400 and err.value.error == '"llama3.2:3b" does not support thinking'


def test_generate_stream_and_non_stream(fake_ollama: FakeOllama, client: ollama.Client) -> None:
    fake_ollama.script("alpha beta gamma", "delta epsilon")
    resp = client.generate("llama3.2:3b", prompt="Say three words", system="Be terse.")
    assert resp.response == "alpha beta gamma" and resp.done_reason == "stop"
    assert resp.prompt_eval_count == 5 and resp.eval_count == 3 and resp.context
    parts = list(client.generate("llama3.2:3b", prompt="Two more", stream=True))
    assert "".join(p.response or "" for p in parts) == "delta epsilon" and parts[-1].done
    load = client.generate("llama3.2:3b")  # an empty prompt only loads the model
    assert load.done_reason == "load" and load.response == ""


def test_num_predict_cuts_the_answer(fake_ollama: FakeOllama, client: ollama.Client) -> None:
    fake_ollama.script("one two three four five")
    resp = client.chat("llama3.2:3b", messages=USER, options={"num_predict": 3})
    assert resp.message.content == "one two three" and resp.eval_count == 3 and resp.done_reason == "length"


def test_embeddings_are_normalised_and_meaningful(fake_ollama: FakeOllama, client: ollama.Client) -> None:
    texts = ["The cat sat on the mat", "A cat sat on a mat", "Quarterly revenue grew strongly"]
    resp = client.embed("bge-m3", texts)
    assert resp.model == "bge-m3" and resp.prompt_eval_count == 16
    vecs = [list(v) for v in resp.embeddings]
    assert [len(v) for v in vecs] == [1024] * 3
    assert all(math.isclose(math.sqrt(_cos(v, v)), 1.0, rel_tol=1e-6) for v in vecs)
    assert _cos(vecs[0], vecs[1]) > 0.4 > 0.1 > _cos(vecs[0], vecs[2])
    assert client.embed("bge-m3", "query: cat on a mat").embeddings == \
        client.embed("bge-m3", "passage: cat on a mat").embeddings
    short = client.embed("bge-m3", "cat", dimensions=64).embeddings[0]
    assert len(short) == 64 and math.isclose(_cos(short, short), 1.0, rel_tol=1e-6)
    assert client.embed("bge-m3", []).embeddings == []
    with pytest.raises(ollama.ResponseError) as err:
        client.embed("bge-m3", "word " * 9000, truncate=False)  # longer than the 8192 context
    assert err.value.status_code == 400


@pytest.mark.parametrize("call, message", [
    (lambda c: c.chat("qwen9:1b", messages=USER), 'model "qwen9:1b" not found, try pulling it first'),
    (lambda c: c.embed("qwen9:1b", "x"), 'model "qwen9:1b" not found, try pulling it first'),
    (lambda c: c.show("qwen9:1b"), "model 'qwen9:1b' not found"),
    (lambda c: c.generate("qwen9:1b", prompt="x"), "model 'qwen9:1b' not found"),
], ids=["chat", "embed", "show", "generate"])
def test_missing_model_is_404_in_ollamas_words(client: ollama.Client, call: Any, message: str) -> None:
    with pytest.raises(ollama.ResponseError) as err:
        call(client)
    assert err.value.status_code == 404 and err.value.error == message


def test_capabilities_are_enforced(client: ollama.Client) -> None:
    with pytest.raises(ollama.ResponseError) as err:
        client.chat("bge-m3", messages=USER)
    assert err.value.status_code == 400 and err.value.error == '"bge-m3" does not support chat'


def test_pull_streams_progress_then_the_model_is_installed() -> None:
    with FakeOllama(models=[], pullable=[embedding_model("bge-m3", 384)]) as fake, \
            ollama.Client(host=fake.url) as client:
        with pytest.raises(ollama.ResponseError) as missing:
            client.embed("bge-m3", "x")
        assert missing.value.status_code == 404
        progress = list(client.pull("bge-m3", stream=True))
        statuses = [p.status for p in progress]
        assert statuses[0] == "pulling manifest"
        assert statuses[-3:] == ["verifying sha256 digest", "writing manifest", "success"]
        layers: dict[str, list[tuple[int, int]]] = {}
        for p in progress:
            if p.digest:
                assert p.status == f"pulling {p.digest[7:19]}"
                layers.setdefault(p.digest, []).append((p.completed or 0, p.total or 0))
        assert len(layers) == 3
        for updates in layers.values():
            done = [c for c, _ in updates]
            assert len(updates) >= 3 and done == sorted(done) and updates[-1][0] == updates[-1][1] > 0
        assert [m.model for m in client.list().models] == ["bge-m3:latest"]
        assert len(client.embed("bge-m3", "x").embeddings[0]) == 384
        assert client.pull("bge-m3").status == "success"  # stream=False: one answer


def test_pull_of_an_unknown_model_fails(client: ollama.Client) -> None:
    with pytest.raises(ollama.ResponseError) as streamed:
        list(client.pull("no-such-model", stream=True))
    assert streamed.value.error == "pull model manifest: file does not exist"  # an error line in the stream
    with pytest.raises(ollama.ResponseError) as whole:
        client.pull("no-such-model")
    assert whole.value.status_code == 500 and "file does not exist" in whole.value.error


def test_nothing_listening_raises_the_builtin_connection_error() -> None:
    dead = ollama.Client(host=down_url())
    for call in (dead.list, lambda: dead.chat("llama3.2:3b", messages=USER), lambda: dead.embed("bge-m3", "x")):
        with pytest.raises(ConnectionError) as err:
            call()
        assert not isinstance(err.value, httpx.HTTPError) and "Failed to connect to Ollama" in str(err.value)
    # only non-streaming calls are wrapped: a stream surfaces httpx's own error (ollama 0.6.x)
    with pytest.raises(httpx.ConnectError):
        list(dead.chat("llama3.2:3b", messages=USER, stream=True))

    async def main() -> None:
        with pytest.raises(ConnectionError):
            await ollama.AsyncClient(host=down_url()).chat("llama3.2:3b", messages=USER)

    asyncio.run(main())


def test_stop_refuses_connections_and_start_serves_the_same_url(fake_ollama: FakeOllama,
                                                                client: ollama.Client) -> None:
    url = fake_ollama.url
    assert client.list().models  # leaves a kept-alive connection that stop() must cut
    fake_ollama.stop()
    with pytest.raises(ConnectionError):
        client.list()
    fake_ollama.start()
    assert fake_ollama.url == url and client.list().models


def test_go_down_after_answers_then_dies(fake_ollama: FakeOllama, client: ollama.Client) -> None:
    fake_ollama.go_down_after(2, "/api/embed")
    client.embed("bge-m3", "a")
    client.chat("llama3.2:3b", messages=USER)  # other paths do not count
    client.embed("bge-m3", "b")
    assert not fake_ollama.running
    with pytest.raises(ConnectionError):
        client.embed("bge-m3", "c")


def test_async_client_streams_and_serves_requests_concurrently(fake_ollama: FakeOllama) -> None:
    fake_ollama.script("async streamed answer", *[replies.slow(0.4, f"answer {i}") for i in range(6)])

    async def main() -> tuple[str, list[str], float, int]:
        client = ollama.AsyncClient(host=fake_ollama.url)
        stream = await client.chat("llama3.2:3b", messages=USER, stream=True)
        streamed = "".join([part.message.content or "" async for part in stream])
        started = time.monotonic()
        answers = await asyncio.gather(*[client.chat("llama3.2:3b", messages=USER) for _ in range(6)])
        elapsed = time.monotonic() - started
        dim = len((await client.embed("nomic-embed-text", "x")).embeddings[0])
        return streamed, sorted(a.message.content or "" for a in answers), elapsed, dim

    streamed, answers, elapsed, dim = asyncio.run(main())
    assert streamed == "async streamed answer" and dim == 768
    assert answers == [f"answer {i}" for i in range(6)]
    assert 0.4 <= elapsed < 2.0  # six 0.4 s answers at once, not one after another (2.4 s)


def test_responder_sees_the_request_after_the_script_is_used_up(fake_ollama: FakeOllama,
                                                                client: ollama.Client) -> None:
    seen: list[str] = []

    def responder(req: replies.RecordedRequest) -> str | None:
        seen.append(req.path)
        last = req.body["messages"][-1]["content"] if "messages" in req.body else req.body["prompt"]
        return None if last == "default please" else f"echo: {last}"

    fake_ollama.responder = responder
    fake_ollama.script("scripted")
    ask = [{"role": "user", "content": "hello"}]
    assert client.chat("llama3.2:3b", messages=ask).message.content == "scripted"
    assert client.chat("llama3.2:3b", messages=ask).message.content == "echo: hello"
    assert client.generate("llama3.2:3b", prompt="default please").response == replies.DEFAULT_ANSWER
    assert seen == ["/api/chat", "/api/generate"]


def test_request_log(fake_ollama: FakeOllama, client: ollama.Client) -> None:
    client.list()
    client.embed("bge-m3", ["a", "b"])
    log = fake_ollama.requests
    assert [(r.method, r.path) for r in log] == [("GET", "/api/tags"), ("POST", "/api/embed")]
    assert log[0].body is None and log[1].body["input"] == ["a", "b"] and log[1].body["model"] == "bge-m3"
    assert log[0].time <= log[1].time <= time.monotonic()
    assert log[1].headers["content-type"] == "application/json"
    fake_ollama.clear_requests()
    assert fake_ollama.requests == [] and fake_ollama.errors == []


# --- OpenAI-compatible routes through httpx --------------------------------------------------------


def test_v1_models_and_embeddings(fake_ollama: FakeOllama) -> None:
    models = httpx.get(f"{fake_ollama.url}/v1/models").json()
    assert models["object"] == "list" and "bge-m3:latest" in [m["id"] for m in models["data"]]
    resp = httpx.post(f"{fake_ollama.url}/v1/embeddings", json={"model": "bge-m3", "input": ["a cat", "a dog"]}).json()
    assert resp["object"] == "list" and [d["index"] for d in resp["data"]] == [0, 1]
    assert len(resp["data"][0]["embedding"]) == 1024 and resp["usage"] == {"prompt_tokens": 4, "total_tokens": 4}
    missing = httpx.post(f"{fake_ollama.url}/v1/embeddings", json={"model": "x", "input": "a"})
    assert missing.status_code == 404 and missing.json()["error"]["type"] == "not_found_error"


def test_v1_chat_non_stream_usage_and_response_format(fake_ollama: FakeOllama) -> None:
    fake_ollama.script({"answer": "20 mSv"})
    response_format = {"type": "json_schema", "json_schema": {"name": "answer", "strict": True, "schema": {
        "type": "object", "properties": {"answer": {"type": "string"}}, "required": ["answer"]}}}
    resp = _v1_chat(fake_ollama, response_format=response_format, max_tokens=100, temperature=0)
    body = resp.json()
    assert resp.status_code == 200 and body["object"] == "chat.completion" and body["model"] == "llama3.2:3b"
    choice = body["choices"][0]
    assert json.loads(choice["message"]["content"]) == {"answer": "20 mSv"} and choice["finish_reason"] == "stop"
    assert body["usage"] == {"prompt_tokens": 4, "completion_tokens": 3, "total_tokens": 7,
                             "prompt_tokens_details": {"cached_tokens": 0}}  # as llama.cpp reports it
    timings = body["timings"]  # llama.cpp's own addition
    assert timings["cache_n"] == 0 and timings["prompt_n"] == 4 and timings["predicted_n"] == 3
    assert timings["prompt_ms"] == 4 * replies.PROMPT_MS_PER_TOKEN
    assert timings["predicted_ms"] == 3 * replies.ANSWER_MS_PER_TOKEN
    assert fake_ollama.requests_to("/v1/chat/completions")[0].body["response_format"] == response_format


def test_v1_chat_stream_is_sse_ending_with_done(fake_ollama: FakeOllama) -> None:
    fake_ollama.script("streamed over sse", replies.text("Yes.", thinking="Hmm."))
    resp = _v1_chat(fake_ollama, stream=True, stream_options={"include_usage": True})
    assert resp.headers["content-type"].startswith("text/event-stream")
    events = _sse(resp)
    assert events[-1] == "[DONE]"
    chunks = events[:-1]
    assert all(c["object"] == "chat.completion.chunk" for c in chunks)
    text = "".join(c["choices"][0]["delta"]["content"] for c in chunks if c["choices"])
    assert text == "streamed over sse"
    assert chunks[-2]["choices"][0]["finish_reason"] == "stop" and chunks[-1]["choices"] == []
    assert chunks[-1]["usage"] == {"prompt_tokens": 4, "completion_tokens": 3, "total_tokens": 7}
    assert chunks[-1]["timings"]["predicted_n"] == 3 and all("timings" not in c for c in chunks[:-1])
    thinking = _sse(_v1_chat(fake_ollama, model="qwen3:4b", stream=True))
    assert "".join(c["choices"][0]["delta"].get("reasoning", "") for c in thinking[:-1]) == "Hmm."


def test_v1_reasoning_field_can_follow_llama_cpp() -> None:
    with FakeOllama(reasoning_field="reasoning_content") as fake:
        fake.script(replies.text("Yes.", thinking="Let me see."))
        message = _v1_chat(fake, model="qwen3:4b").json()["choices"][0]["message"]
    assert message == {"role": "assistant", "content": "Yes.", "reasoning_content": "Let me see."}


# --- faults ---------------------------------------------------------------------------------------


def test_fault_http_500(fake_ollama: FakeOllama, client: ollama.Client) -> None:
    fake_ollama.script(replies.http_500(), replies.http_500("CUDA error: out of memory"))
    with pytest.raises(ollama.ResponseError) as err:
        client.chat("llama3.2:3b", messages=USER)
    assert err.value.status_code == 500 and "llama runner process has terminated" in err.value.error
    resp = _v1_chat(fake_ollama)
    assert resp.status_code == 500 and resp.json()["error"]["message"] == "CUDA error: out of memory"


def test_fault_invalid_json(fake_ollama: FakeOllama, client: ollama.Client) -> None:
    fake_ollama.script(replies.invalid_json(), replies.invalid_json("{answer: 42"))
    content = client.chat("llama3.2:3b", messages=USER, format="json").message.content or ""
    with pytest.raises(json.JSONDecodeError):
        json.loads(content)
    choice = _v1_chat(fake_ollama, response_format={"type": "json_object"}).json()["choices"][0]
    assert choice["message"]["content"] == "{answer: 42" and choice["finish_reason"] == "stop"


def test_fault_truncated_json(fake_ollama: FakeOllama, client: ollama.Client) -> None:
    full = {"answer": "a long answer that will not fit", "sources": [1, 2, 3]}
    fake_ollama.script(replies.truncated_json(full), replies.truncated_json())
    resp = client.chat("llama3.2:3b", messages=USER, format="json")
    assert resp.done_reason == "length" and json.dumps(full).startswith(resp.message.content or "-")
    with pytest.raises(json.JSONDecodeError):
        json.loads(resp.message.content or "")
    choice = _v1_chat(fake_ollama).json()["choices"][0]
    assert choice["finish_reason"] == "length" and choice["message"]["content"].startswith('{"answer"')


def test_fault_loop_runs_to_the_token_limit(fake_ollama: FakeOllama, client: ollama.Client) -> None:
    fake_ollama.script(replies.loop("again"), replies.loop("und"), replies.loop())
    resp = client.chat("llama3.2:3b", messages=USER, options={"num_predict": 5})
    assert resp.message.content == "again again again again again" and resp.eval_count == 5
    assert resp.done_reason == "length"
    body = _v1_chat(fake_ollama, max_tokens=7).json()
    assert body["choices"][0]["message"]["content"] == " ".join(["und"] * 7)
    assert body["choices"][0]["finish_reason"] == "length" and body["usage"]["completion_tokens"] == 7
    unbounded = client.chat("llama3.2:3b", messages=USER)
    assert unbounded.eval_count == replies.LOOP_LIMIT and unbounded.done_reason == "length"


def test_fault_slow_delays_and_trickles(fake_ollama: FakeOllama) -> None:
    fake_ollama.script(replies.slow(0.3, "one two three"), replies.slow(1.0),
                       replies.slow(0.0, "a b c d", chunk_delay=0.1))
    started = time.monotonic()
    assert _v1_chat(fake_ollama).json()["choices"][0]["message"]["content"] == "one two three"
    assert time.monotonic() - started >= 0.3
    with pytest.raises(httpx.ReadTimeout):
        _v1_chat(fake_ollama, timeout=0.2)
    arrivals = []
    with httpx.stream("POST", f"{fake_ollama.url}/api/chat", json={"model": "llama3.2:3b", "messages": USER}) as r:
        for _ in r.iter_lines():
            arrivals.append(time.monotonic())
    assert len(arrivals) == 5 and arrivals[-1] - arrivals[0] >= 0.3  # 4 gaps of 0.1 s between 5 lines


def test_fault_drop_closes_the_connection_mid_answer(fake_ollama: FakeOllama, client: ollama.Client) -> None:
    fake_ollama.script(*[replies.drop("a fairly long answer that is cut in the middle")] * 3)
    received: list[str] = []
    # the ollama client does not wrap this: a dropped stream surfaces as httpx's own error
    with pytest.raises(httpx.RemoteProtocolError):
        for part in client.chat("llama3.2:3b", messages=USER, stream=True):
            received.append(part.message.content or "")
    assert 0 < len(received) < 10 and "".join(received).startswith("a fairly")
    with pytest.raises(httpx.RemoteProtocolError):
        _v1_chat(fake_ollama, stream=True).raise_for_status()
    with pytest.raises(httpx.RemoteProtocolError):
        client.chat("llama3.2:3b", messages=USER)
    assert client.list().models  # the server itself is still up


def test_fault_wrong_language_is_sent_as_given(fake_ollama: FakeOllama, client: ollama.Client) -> None:
    fake_ollama.script(replies.wrong_language("Der Grenzwert beträgt 20 mSv."))
    assert client.chat("llama3.2:3b", messages=USER).message.content == "Der Grenzwert beträgt 20 mSv."


def test_fault_not_found_for_an_installed_model(fake_ollama: FakeOllama, client: ollama.Client) -> None:
    fake_ollama.script(replies.not_found(), replies.not_found())
    with pytest.raises(ollama.ResponseError) as err:
        client.chat("llama3.2:3b", messages=USER)
    assert err.value.status_code == 404 and "try pulling it first" in err.value.error
    resp = _v1_chat(fake_ollama)
    assert resp.status_code == 404 and resp.json()["error"]["type"] == "not_found_error"


def test_embedding_faults(fake_ollama: FakeOllama, client: ollama.Client) -> None:
    fake_ollama.script_embed(replies.http_500("embedding runner crashed"), replies.drop(), replies.not_found(),
                             replies.slow(1.0))
    with pytest.raises(ollama.ResponseError) as err:
        client.embed("bge-m3", "x")
    assert err.value.status_code == 500 and err.value.error == "embedding runner crashed"
    with pytest.raises(httpx.RemoteProtocolError):
        client.embed("bge-m3", "x")
    with pytest.raises(ollama.ResponseError) as gone:
        client.embed("bge-m3", "x")
    assert gone.value.status_code == 404
    with pytest.raises(httpx.ReadTimeout):
        ollama.Client(host=fake_ollama.url, timeout=0.2).embed("bge-m3", "x")
    assert len(client.embed("bge-m3", "x").embeddings) == 1  # faults are used up, one per request


def test_concurrent_requests_from_threads(fake_ollama: FakeOllama) -> None:
    # Every answer waits until all eight requests are inside the server: a server that answered one
    # request at a time would break the barrier. No wall-clock bound, so a slow CI machine cannot fail it.
    inside = threading.Barrier(8, timeout=10)

    def responder(req: replies.RecordedRequest) -> str:
        inside.wait()
        return "ok"

    fake_ollama.responder = responder
    results: list[str] = []

    def ask() -> None:
        with ollama.Client(host=fake_ollama.url) as c:
            results.append(c.chat("llama3.2:3b", messages=USER).message.content or "")

    threads = [threading.Thread(target=ask) for _ in range(8)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(15)
    assert results == ["ok"] * 8 and not inside.broken and fake_ollama.errors == []
