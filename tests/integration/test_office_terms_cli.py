"""The office's lists of terms on the command line: the policy's hold on every path, --hide-terms and
--keep-terms add to them, a forced pseudonymisation cannot be switched off, and an office scores
detection on its own annotated documents. Real processes, real files."""

from __future__ import annotations

import json
import os
import subprocess
import sys

NOTE = "Project Falcon: Brightwater Clinic referred Mrs Ana Ruiz on 3 March 2024."


def run(*args: str, stdin: str = NOTE) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-m", "app", *args], input=stdin, capture_output=True, text=True, timeout=300, env=os.environ
    )


def test_policy_lists_hold_and_the_command_line_adds_to_them(tmp_path):
    (tmp_path / "office-hidden.txt").write_text("Project Falcon\n", encoding="utf-8")
    with open(os.environ["SPLITCHAT_POLICY"], "w", encoding="utf-8") as handle:
        json.dump(
            {"hide_terms_file": str(tmp_path / "office-hidden.txt"), "keep_terms": ["Brightwater Clinic"]}, handle
        )
    plain = run("pseudonymise", "-", "--json")
    assert plain.returncode == 0, plain.stderr
    body = json.loads(plain.stdout.splitlines()[-1])
    assert "Project Falcon" not in body["text"] and "Brightwater Clinic" in body["text"]
    assert "Ana Ruiz" not in body["text"]

    # --keep-terms cannot bring back what the policy hides; --hide-terms hides more
    (tmp_path / "keep.txt").write_text("Project Falcon\n", encoding="utf-8")
    (tmp_path / "hide.txt").write_text("Brightwater Clinic\n", encoding="utf-8")
    both = run(
        "pseudonymise", "-", "--keep-terms", str(tmp_path / "keep.txt"), "--hide-terms", str(tmp_path / "hide.txt")
    )
    assert both.returncode == 0, both.stderr
    assert "Project Falcon" not in both.stdout and "Brightwater Clinic" not in both.stdout

    missing = run("pseudonymise", "-", "--hide-terms", str(tmp_path / "nowhere.txt"))
    assert missing.returncode == 1 and "nowhere.txt" in missing.stderr and "Traceback" not in missing.stderr


def test_a_policy_that_forces_pseudonymisation_refuses_no_pseudonymise():
    with open(os.environ["SPLITCHAT_POLICY"], "w", encoding="utf-8") as handle:
        json.dump({"values": {"pseudonymise_always": True}, "locked": ["pseudonymise_always"]}, handle)
    refused = run("ask", "hello", "--no-pseudonymise", stdin="")
    assert refused.returncode == 2 and "policy" in refused.stderr and "Traceback" not in refused.stderr


def test_an_office_scores_its_own_annotated_documents(tmp_path):
    text = "Seen by Dr Ana Ruiz in Getafe on 3 March 2024; MRN 84729163."
    entities = [
        {"start": text.index(s), "end": text.index(s) + len(s), "type": t}
        for s, t in (
            ("Ana Ruiz", "person"),
            ("Getafe", "location"),
            ("3 March 2024", "date"),
            ("84729163", "record_number"),
        )
    ]
    (tmp_path / "notes.jsonl").write_text(json.dumps({"id": "n1", "text": text, "entities": entities}) + "\n")
    report = tmp_path / "scores.json"
    scored = run("privacy", "--identifiers", "--annotated", str(tmp_path), "--json", str(report), stdin="")
    assert scored.returncode == 0, scored.stderr
    (source,) = json.loads(report.read_text())["sources"]
    assert source["token_recall"]["overall"]["hits"] == source["token_recall"]["overall"]["total"] == 7
    assert "person" in scored.stdout

    (tmp_path / "notes.jsonl").write_text('{"text": "abc", "entities": [{"start": 0, "end": 9, "type": "person"}]}\n')
    bad = run("privacy", "--identifiers", "--annotated", str(tmp_path), stdin="")
    assert bad.returncode == 2 and "notes.jsonl, line 1" in bad.stderr
