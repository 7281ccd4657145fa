"""``rabbithole research``, ``runs`` and ``doctor`` against the fake LLM server."""

from __future__ import annotations

import asyncio
import io
import json
import time
from pathlib import Path

import pytest
from support.research_llm import QUESTION_DE, QUESTION_EN

from desktop.cli import main
from desktop.service import Session
from desktop.settings import Settings


def research(capsys, sample_paths, fake_llm, *args: str) -> tuple[int, str, str]:  # noqa: ANN001
    paths, _ = sample_paths
    code = main(["research", *args, "--llm-host", fake_llm.url, "--model", "research-test",
                 "--data-dir", str(paths.data_dir)])
    out, err = capsys.readouterr()
    return code, out, err


def test_auto_run_writes_state_plan_and_audit(capsys, sample_paths, fake_llm, tmp_path: Path,  # noqa: ANN001
                                              monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr("desktop.STARTED", time.monotonic() - 5)  # as if the command had started 5 s ago
    out_dir = tmp_path / "out"
    code, out, err = research(capsys, sample_paths, fake_llm, QUESTION_DE, "--db", "Sample", "--auto", "--json",
                              "--out", str(out_dir))
    summary = json.loads(out)
    assert code == 0, (summary.get("message"), err[-3000:])
    assert (summary["status"], summary["phase"], summary["language"]) == ("done", "report", "de")
    assert summary["message"] == "The report is ready." and summary["run_id"]
    assert summary["plan"]["approved"] and summary["plan"]["items"][0]["task"] == QUESTION_DE
    # --auto: nobody answers, so no follow-up questions are asked and no analysis is written for nobody to
    # read; clarification ends after its queries and retrieval, and the plan is an outline of titles and queries
    assert summary["termination"] == "auto" and summary["rounds"] == 1 and summary["usage"]["calls"] >= 5
    assert "round 1 queries" in err and "clarification ended" in err
    for name in ("state.json", "plan.json", "plan.md", "audit.jsonl", "summary.json", "report.md", "report.pdf"):
        assert (out_dir / name).is_file(), name
    audit = [json.loads(line) for line in (out_dir / "audit.jsonl").read_text().splitlines()]
    prompts = [e for e in audit if e["type"] == "llm_call"]
    assert prompts and all(e["messages"] and e["attempts"][0]["raw"] for e in prompts)
    purposes = [e["purpose"] for e in prompts]
    assert "clarify.questions" not in purposes and "questions_asked" not in {e["type"] for e in audit}
    assert "clarify.analyze" not in purposes and purposes.count("plan.propose") == 1
    outline = next(e for e in prompts if e["purpose"] == "plan.propose")
    answer = json.loads(outline["attempts"][-1]["raw"])
    assert "No explanations" in outline["messages"][0]["content"] and set(answer["items"][0]) == {"task", "subtasks"}
    assert json.loads((out_dir / "summary.json").read_text())["run_id"] == summary["run_id"]
    # the command's start-up is the run's time too: the time budget counts it (§25: about 3 s a command)
    timings = json.loads((out_dir / "state.json").read_text())["later"]["timings"]
    assert list(timings)[0] == "start" and 5 <= timings["start"] < 60


def test_a_report_format_that_fails_is_a_message_naming_what_was_written(  # noqa: ANN001
        capsys, sample_paths, fake_llm, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    def broken_docx(report, path) -> None:  # noqa: ANN001
        raise ValueError("a property is longer than Word allows")

    monkeypatch.setattr("desktop.report.export.to_docx", broken_docx)
    out_dir = tmp_path / "out"
    code, out, err = research(capsys, sample_paths, fake_llm, QUESTION_DE, "--db", "Sample", "--auto",
                              "--out", str(out_dir))
    assert code == 1 and "Traceback" not in err
    assert "error: report export failed for docx (docx: ValueError: a property is longer than Word allows)" in err
    written = err.split("Written to ", 1)[1]
    for name in ("state.json", "summary.json", "audit.jsonl", "plan.md", "report.md", "report.pdf", "report.json"):
        assert name in written and (out_dir / name).is_file(), name
    assert "report.docx" not in written and not (out_dir / "report.docx").exists()
    assert json.loads((out_dir / "state.json").read_text())["status"] == "done"


def test_answers_file_replays_answers_and_plan_edits(capsys, sample_paths, fake_llm, tmp_path: Path) -> None:  # noqa: ANN001
    script = tmp_path / "answers.txt"
    script.write_text("# clarification\nOccupational exposure of adults.\nNo exceptions, please. /end\n"
                      "# plan\nadd Compare with the limits for apprentices\nremove 1\nmove 4 1\napprove\n")
    code, out, err = research(capsys, sample_paths, fake_llm, QUESTION_EN, "--db", "Sample", "--answers",
                              str(script), "--json")
    summary = json.loads(out)
    assert code == 0 and summary["status"] == "done" and summary["rounds"] == 2
    tasks = [t["task"] for t in summary["plan"]["items"]]
    assert tasks[0] == QUESTION_EN and tasks[1] == "Compare with the limits for apprentices"
    assert summary["plan"]["items"][1]["id"] == 4 and 1 not in [t["id"] for t in summary["plan"]["items"]]
    assert "> No exceptions, please. /end" in err


def test_run_waits_when_answers_run_out_and_resumes(capsys, sample_paths, fake_llm, tmp_path: Path) -> None:  # noqa: ANN001
    script = tmp_path / "answers.txt"
    script.write_text("Occupational exposure.\n")
    code, out, err = research(capsys, sample_paths, fake_llm, QUESTION_EN, "--db", "Sample", "--answers", str(script),
                              "--json")
    waiting = json.loads(out)
    assert code == 0 and waiting["status"] == "waiting" and waiting["waiting_for"] == "answer" and waiting["rounds"] == 2
    assert "no more lines" in err

    code, out, _ = research(capsys, sample_paths, fake_llm, "--resume", waiting["run_id"][:8], "--auto", "--json")
    done = json.loads(out)
    assert code == 0 and done["run_id"] == waiting["run_id"] and done["status"] == "done" and done["rounds"] == 2

    paths, _ = sample_paths
    assert main(["runs", "--json", "--data-dir", str(paths.data_dir)]) == 0
    runs = json.loads(capsys.readouterr().out)
    assert waiting["run_id"] in [r["run_id"] for r in runs]


def test_interactive_terminal(capsys, sample_paths, fake_llm, monkeypatch: pytest.MonkeyPatch) -> None:  # noqa: ANN001
    monkeypatch.setattr("sys.stdin", io.StringIO("Berufliche Exposition /end\nedit 1 Grenzwert in § 78 StrlSchG prüfen\n\n"))
    code, out, err = research(capsys, sample_paths, fake_llm, QUESTION_DE, "--db", "Sample")
    assert code == 0
    assert "Round 1/5" in out and "coverage 40%" in out and "Research plan (revision 1)" in out
    assert "1. Grenzwert in § 78 StrlSchG prüfen" in out  # the edit shows when the plan is shown again
    assert "run " in out and ": done, phase report" in out and "write it out with" in out


def test_server_down_is_a_message_not_a_traceback(capsys, sample_paths, fake_llm) -> None:  # noqa: ANN001
    fake_llm.stop()
    code, out, err = research(capsys, sample_paths, fake_llm, QUESTION_EN, "--db", "Sample", "--auto")
    assert code == 75 and "Traceback" not in err  # paused: resumable once the server answers
    assert "not running" in out and fake_llm.url in out and "--resume" in out and "paused" in out


def test_bad_invocations(capsys, sample_paths, fake_llm) -> None:  # noqa: ANN001
    assert research(capsys, sample_paths, fake_llm, QUESTION_EN)[0] == 1  # no --db
    code, _, err = research(capsys, sample_paths, fake_llm, "--resume", "nosuchrun")
    assert code == 1 and "No research run" in err
    code, _, err = research(capsys, sample_paths, fake_llm, QUESTION_EN, "--db", "Nope", "--auto")
    assert code == 1 and "No database named 'Nope'" in err


def test_doctor(capsys, sample_paths, fake_llm) -> None:  # noqa: ANN001
    paths, _ = sample_paths
    code = main(["doctor", "--json", "--data-dir", str(paths.data_dir)])
    checks = {c["name"]: c for c in json.loads(capsys.readouterr().out)}
    # the settings point to no server, so the LLM check fails and says what to do
    assert code == 1 and checks["LLM server (ollama)"]["level"] == "fail"
    assert checks["database Sample"]["level"] == "ok" and checks["offline embedder"]["level"] == "ok"
    assert checks["Qt"]["level"] == "ok"

    settings_file = paths.settings_file
    settings_file.write_text(json.dumps({"llm": {"host": fake_llm.url, "model": "research-test"}}))
    try:
        main(["doctor", "--json", "--data-dir", str(paths.data_dir)])
        checks = {c["name"]: c for c in json.loads(capsys.readouterr().out)}
    finally:
        settings_file.unlink()
    assert checks["LLM server (ollama)"]["level"] == "ok" and checks["LLM model"]["level"] == "ok"


def test_models_list_and_pull(capsys, sample_paths, tmp_path) -> None:  # noqa: ANN001
    from support.fake_ollama import FakeOllama
    from support.fake_ollama_replies import chat_model

    data = str(tmp_path / "data")
    with FakeOllama([chat_model("research-test:latest")], pullable=[chat_model("qwen3:8b", "qwen3", 40960)]) as fake:
        assert main(["models", "--json", "--llm-host", fake.url, "--data-dir", data]) == 0
        names = [m["name"] for m in json.loads(capsys.readouterr().out)]
        assert names == ["research-test:latest"]
        assert main(["models", "--pull", "qwen3:8b", "--llm-host", fake.url, "--data-dir", data]) == 0
        out, err = capsys.readouterr()
        assert "pulled qwen3:8b" in out and "%" in err and "success" in err
        assert main(["models", "--pull", "no-such-model", "--llm-host", fake.url, "--data-dir", data]) == 1
        assert "no-such-model" in capsys.readouterr().err


def test_a_reviewed_run_is_written_with_only_its_accepted_claims(capsys, sample_paths, fake_llm,  # noqa: ANN001
                                                                 tmp_path: Path) -> None:
    code, out, _ = research(capsys, sample_paths, fake_llm, QUESTION_DE, "--db", "Sample", "--auto", "--json")
    run_id = json.loads(out)["run_id"]
    paths, _ = sample_paths
    settings = Settings().changed(llm={"host": fake_llm.url, "model": "research-test"})

    async def review() -> str:
        async with Session(paths, settings) as session:
            state = await session.review(run_id, "claim:0", "accepted", "")
            return state.later.report.claims[0].marked

    accepted = asyncio.run(review())
    code, out, _ = research(capsys, sample_paths, fake_llm, "--resume", run_id, "--out", str(tmp_path / "out"),
                            "--accepted-only")
    report = json.loads((tmp_path / "out" / "report.json").read_text(encoding="utf-8"))
    assert code == 0 and accepted in report["answer"] and "Nur die angenommenen Aussagen" in report["answer"]
    assert len(report["answer"].split("\n\n")) == 2 and report["review"]["claim:0"]["status"] == "accepted"
