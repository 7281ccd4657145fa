"""The command-line contract of docs/architecture.md §6: commands, exit codes, JSON shapes."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest
from support import pdfs

from desktop.cli import main

HIT_KEYS = {"doc", "path", "page", "section", "text", "score", "chunk_id"}


def run(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    code = main(list(args))
    out, err = capsys.readouterr()
    return code, out, err


@pytest.fixture
def folder(tmp_path: Path) -> Path:
    docs = tmp_path / "docs"
    docs.mkdir()
    pdfs.statute(docs / "CliG.pdf", abbreviation="CliG", sections=4)
    pdfs.report(docs / "memo.pdf", ["The board approved the budget of 3.5 million euros for the new laboratory."])
    return docs


def test_ingest_list_search_meta_remove(capsys: pytest.CaptureFixture[str], folder: Path, tmp_path: Path) -> None:
    data = str(tmp_path / "data")
    (folder / "broken.pdf").write_text("not a pdf")
    code, out, err = run(capsys, "kb", "ingest", str(folder), "--db", "Cases", "--data-dir", data, "--workers", "0")
    assert code == 0  # a rejected file does not fail a run that did its work
    assert "added     " in out and "rejected  " in out and "not a PDF" in out
    assert "embedding" in err  # progress goes to stderr

    code, out, _ = run(capsys, "kb", "search", "laboratory budget", "--db", "Cases", "--data-dir", data, "--json", "--k", "3")
    hits = json.loads(out)
    assert code == 0 and hits and set(hits[0]) == HIT_KEYS and hits[0]["doc"] == "memo.pdf" and hits[0]["page"] == 1

    code, out, _ = run(capsys, "kb", "search", "Vorschrift", "--db", "Cases", "--data-dir", data, "--json",
                       "--doc", "CliG.pdf", "--mode", "lexical", "--pages", "2-2")
    assert {(h["doc"], h["page"]) for h in json.loads(out)} == {("CliG.pdf", 2)}

    code, out, _ = run(capsys, "kb", "meta", "memo.pdf", "--db", "Cases", "--data-dir", data,
                       "--set", "tags=board, 2024", "--set", "bates=ACME-000100-000101", "--json")
    assert json.loads(out) == {"doc": "memo.pdf", "doc_id": json.loads(out)["doc_id"], "tags": ["board", "2024"],
                               "bates": "ACME-000100-000101"}
    code, out, _ = run(capsys, "kb", "search", "budget", "--db", "Cases", "--data-dir", data, "--json", "--tag", "board")
    assert {h["doc"] for h in json.loads(out)} == {"memo.pdf"}

    code, out, _ = run(capsys, "kb", "list", "--db", "Cases", "--data-dir", data, "--json")
    docs = {d["file_name"]: d for d in json.loads(out)}
    assert set(docs) == {"CliG.pdf", "memo.pdf"} and docs["memo.pdf"]["meta"] == {"bates": "ACME-000100-000101"}
    code, out, _ = run(capsys, "kb", "list", "--data-dir", data, "--json")
    assert [(d["name"], d["documents"]) for d in json.loads(out)] == [("Cases", 2)]

    code, out, _ = run(capsys, "kb", "remove", "memo.pdf", "--db", "Cases", "--data-dir", data)
    assert code == 0 and "not touched" in out and (folder / "memo.pdf").exists()
    code, out, _ = run(capsys, "kb", "check", "--db", "Cases", "--data-dir", data)
    assert code == 0 and "consistent" in out


def test_batch_queries(capsys: pytest.CaptureFixture[str], folder: Path, tmp_path: Path) -> None:
    data = str(tmp_path / "data")
    run(capsys, "kb", "ingest", str(folder), "--db", "B", "--data-dir", data, "--workers", "0")
    queries = tmp_path / "q.jsonl"
    queries.write_text('{"id": "q1", "query": "laboratory budget"}\n\n{"id": 7, "query": "§ 2 CliG"}\n')
    code, out, _ = run(capsys, "kb", "search", "--queries", str(queries), "--db", "B", "--data-dir", data, "--k", "2")
    lines = [json.loads(line) for line in out.splitlines()]
    assert code == 0 and [line["id"] for line in lines] == ["q1", 7]
    assert all(len(line["hits"]) == 2 and set(line["hits"][0]) == HIT_KEYS for line in lines)
    assert lines[1]["hits"][0]["section"] == "§ 2"
    queries.write_text("not json\n")
    code, _, err = run(capsys, "kb", "search", "--queries", str(queries), "--db", "B", "--data-dir", data)
    assert code == 1 and "q.jsonl:1" in err


def test_exit_codes_and_messages(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    data = str(tmp_path / "data")
    bad = tmp_path / "bad.pdf"
    bad.write_text("nope")
    code, out, _ = run(capsys, "kb", "ingest", str(bad), "--db", "X", "--data-dir", data, "--workers", "0")
    assert code == 1 and "rejected" in out  # nothing could be done
    code, _, err = run(capsys, "kb", "search", "x", "--db", "Nope", "--data-dir", data)
    assert code == 1 and "No database named 'Nope'" in err and "X" in err
    code, _, err = run(capsys, "kb", "ingest", str(bad), "--db", "X", "--data-dir", data, "--embedder", "ollama:bge-m3")
    assert code == 1 and "re-index" in err and "kb drop" in err
    code, _, err = run(capsys, "kb", "ingest", str(bad), "--db", "../evil", "--data-dir", data)
    assert code == 1 and "not a usable database name" in err
    code, _, err = run(capsys, "kb", "drop", "--db", "X", "--data-dir", data)
    assert code == 1 and "--yes" in err
    code, out, _ = run(capsys, "kb", "drop", "--db", "X", "--data-dir", data, "--yes")
    assert code == 0 and not (tmp_path / "data" / "databases" / "X").exists()


def test_refs_json(capsys: pytest.CaptureFixture[str], sample_paths) -> None:  # noqa: ANN001
    paths, _ = sample_paths
    text = "Die Genehmigung nach § 3 Absatz 1 des Atomgesetzes und die Richtlinie 2013/59/Euratom bleiben unberührt."
    code, out, _ = run(capsys, "kb", "refs", text, "--db", "Sample", "--data-dir", str(paths.data_dir),
                       "--from", "StrlSchV.pdf", "--json")
    refs = json.loads(out)
    assert code == 0
    assert refs[0]["reference"] == "§ 3 Absatz 1 des Atomgesetzes"
    assert refs[0]["target"] == {"doc": "AtG.pdf", "page": 6, "section": "§ 3"}
    assert refs[1]["status"] == "external" and refs[1]["target"] is None


@pytest.mark.slow
def test_first_run_builds_the_sample_database(tmp_path: Path) -> None:
    """The quick start's command on a fresh data folder, through the installed console script."""
    exe = Path(sys.executable).with_name("rabbithole")
    done = subprocess.run(
        [str(exe), "kb", "search", "Grenzwert der effektiven Dosis für beruflich exponierte Personen", "--db", "Sample",
         "--json", "--k", "3", "--data-dir", str(tmp_path / "fresh")],
        capture_output=True, text=True, timeout=600,
    )
    assert done.returncode == 0, done.stderr[-2000:]
    assert "setting up the 'Sample' database" in done.stderr
    hits = json.loads(done.stdout)
    assert ("StrlSchG.pdf", 52, "§ 78") in {(h["doc"], h["page"], h["section"]) for h in hits}


def test_version_and_help(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exc:
        main(["--version"])
    assert exc.value.code == 0 and "rabbithole" in capsys.readouterr().out
    assert main(["kb"]) == 2
