"""Whatever the model and the server do, a headless run that found evidence ends with exit 0 and a
report: a model that answers every call with random (schema-valid) JSON, a server with 30 % transient
faults (HTTP 500, invalid JSON, cut-off JSON, slow answers, drawn per call), and both at once. Only a
server that cannot be reached stops the run, resumable. Seeded, so a failure can be repeated."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from support.fake_ollama import FakeOllama
from support.fake_ollama_replies import chat_model
from support.random_model import FaultPlan, RandomSchemaModel
from support.research_llm import QUESTION_DE, QUESTION_EN, ResearchLLM

from desktop.cli import main
from desktop.engine.store import RunStore
from desktop.settings import Settings, save_settings

MODEL = "research-test:latest"
pytestmark = pytest.mark.slow


def _run(paths, fake: FakeOllama, question: str, out: Path, capsys) -> tuple[int, dict, str]:  # noqa: ANN001
    settings = Settings().changed(llm={"retry_backoff_s": 0.05})  # the real schedule, shortened for the test
    save_settings(paths, settings)
    code = main(["research", question, "--db", "Sample", "--auto", "--json", "--out", str(out), "--llm-host",
                 fake.url, "--model", "research-test", "--data-dir", str(paths.data_dir)])
    captured = capsys.readouterr()
    return code, json.loads(captured.out) if captured.out.strip() else {}, captured.err


def _report(out: Path) -> dict:
    return json.loads((out / "report.json").read_text(encoding="utf-8"))


@pytest.mark.parametrize("seed", [1, 2])
def test_a_model_answering_random_schema_valid_json_still_ends_in_a_report(sample_paths, tmp_path, capsys, seed) -> None:  # noqa: ANN001
    paths, _ = sample_paths
    with FakeOllama([chat_model(MODEL, "qwen3", 32768)], responder=RandomSchemaModel(seed=seed)) as fake:
        code, summary, err = _run(paths, fake, QUESTION_DE, tmp_path / "out", capsys)
    assert code == 0, err[-3000:]
    assert summary["status"] == "done" and (tmp_path / "out" / "report.md").is_file()
    report = _report(tmp_path / "out")
    # random sentences are no German answer: the written synthesis fails its checks, the evidence stays
    assert report["kind"] in ("synthesis", "evidence")
    for citation in report["citations"]:
        assert not citation["quote"] or citation["quote_verified"]


def test_thirty_percent_transient_faults_still_end_in_a_report(sample_paths, tmp_path, capsys) -> None:  # noqa: ANN001
    paths, _ = sample_paths
    faults = FaultPlan(rate=0.3, seed=2, slow_s=0.2)  # every kind within the first nine calls
    with FakeOllama([chat_model(MODEL, "qwen3", 32768)], responder=ResearchLLM(), faults=faults) as fake:
        code, summary, err = _run(paths, fake, QUESTION_EN, tmp_path / "out", capsys)
        injected = [kind for _, kind in fake.injected]
    assert code == 0, err[-3000:]
    assert summary["status"] == "done" and _report(tmp_path / "out")["citations"]
    kinds = set(injected)
    assert {"http_500", "invalid_json", "truncated_json", "slow"} <= kinds, kinds  # every kind was met
    audit = [json.loads(line) for line in (tmp_path / "out" / "audit.jsonl").read_text().splitlines()]
    failed_requests = [e for e in audit if e["type"] == "request_failed"]
    assert len(failed_requests) == sum(1 for k in injected if k == "http_500")  # each 500 is in the audit trail
    bad_attempts = [a for e in audit if e["type"] == "llm_call" for a in e["attempts"] if a["error"]]
    assert bad_attempts  # invalid and cut-off answers were retried, and audited


def test_random_answers_and_faults_together(sample_paths, tmp_path, capsys) -> None:  # noqa: ANN001
    paths, _ = sample_paths
    faults = FaultPlan(rate=0.3, seed=5, slow_s=0.2)
    with FakeOllama([chat_model(MODEL, "qwen3", 32768)], responder=RandomSchemaModel(seed=9), faults=faults) as fake:
        code, summary, err = _run(paths, fake, QUESTION_EN, tmp_path / "out", capsys)
    assert code == 0, err[-3000:]
    assert summary["status"] == "done" and (tmp_path / "out" / "report.json").is_file()


def test_an_unreachable_server_pauses_the_run_resumably(sample_paths, tmp_path, capsys) -> None:  # noqa: ANN001
    paths, _ = sample_paths
    fake = FakeOllama([chat_model(MODEL, "qwen3", 32768)], responder=ResearchLLM()).start()
    url = fake.url
    fake.stop()  # nothing listens there any more
    settings = Settings().changed(llm={"retry_backoff_s": 0.05, "transient_retries": 2})
    save_settings(paths, settings)
    code = main(["research", QUESTION_EN, "--db", "Sample", "--auto", "--json", "--llm-host", url, "--model",
                 "research-test", "--data-dir", str(paths.data_dir)])
    captured = capsys.readouterr()
    summary = json.loads(captured.out)
    assert code == 75 and summary["status"] == "paused"
    assert "paused" in summary["message"] and "no" in summary["message"].lower()
    assert f"rabbithole research --resume {summary['run_id']}" not in captured.out  # --json prints only JSON
    store = RunStore(paths.runs_file)
    events = store.events(summary["run_id"])
    store.close()
    assert events[-1].type == "run_stopped" and events[-1].status == "paused" and "paused" in events[-1].message
    # the server is back: the same run goes on to its report
    with FakeOllama([chat_model(MODEL, "qwen3", 32768)], responder=ResearchLLM()) as again:
        save_settings(paths, settings.changed(llm={"host": again.url}))
        code = main(["research", "--resume", summary["run_id"], "--auto", "--json", "--llm-host", again.url,
                     "--model", "research-test", "--data-dir", str(paths.data_dir)])
    assert code == 0 and json.loads(capsys.readouterr().out)["status"] == "done"
