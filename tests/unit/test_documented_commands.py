"""Every splitchat command the README and docs/ show parses as the command line defines it, and the
worker is pointed at the folder an export writes its shard to (a command that cannot work is a bug in the
docs a user pays for)."""

from __future__ import annotations

import shlex
from pathlib import Path

import pytest

from app.cli import build_parser

CHECKOUT = Path(__file__).resolve().parents[2]
DOCUMENTS = ["README.md", *sorted(p.relative_to(CHECKOUT).as_posix() for p in (CHECKOUT / "docs").glob("*.md"))]


def documented_commands(name: str) -> list[list[str]]:
    """The ``splitchat …`` lines of a document's indented code blocks, continuations joined, comments and
    optional brackets dropped, one list of words per command."""
    lines = (CHECKOUT / name).read_text(encoding="utf-8").splitlines()
    joined: list[str] = []
    carry = ""
    for line in lines:
        if not line.startswith("    ") and not carry:
            continue
        text = carry + line.strip()
        if text.endswith("\\"):
            carry = text[:-1] + " "
            continue
        carry = ""
        joined.append(text)
    commands = []
    for text in joined:
        for part in text.split("  #")[0].split(";"):
            if not part.strip().startswith("splitchat "):
                continue
            words = shlex.split(part.replace("[", "").replace("]", ""))
            if words[:1] == ["splitchat"] and "COMMAND" not in words and "…" not in words[1:2]:
                commands.append(words[1:])
    return commands


@pytest.mark.parametrize("name", DOCUMENTS)
def test_every_documented_command_parses(name):
    parser = build_parser()
    for words in documented_commands(name):
        try:
            parser.parse_args(words)
        except SystemExit as exit_:
            assert exit_.code == 0, f"{name}: splitchat {' '.join(words)}"


@pytest.mark.parametrize("name", DOCUMENTS)
def test_the_worker_is_pointed_at_the_shard_an_export_writes(name):
    parser = build_parser()
    bundles, shards = set(), []
    for words in documented_commands(name):
        if words[0] == "export-worker":
            args = parser.parse_args(words)
            bundles.add(Path(args.out) / "shard" if args.bundle else Path(args.out))
        elif words[0] == "worker":
            shards.append(Path(parser.parse_args(words).shard))
    for shard in shards:
        if bundles and shard.parts[0] in {b.parts[0] for b in bundles}:
            assert shard in bundles, f"{name}: the worker reads {shard}, an export writes {sorted(map(str, bundles))}"
