"""The command line as a person meets it before any model loads: --version, --help (no torch), help on
every option, and the exit codes the help and the README promise (2 usage, 1 runtime failure, 130 Ctrl+C)."""

from __future__ import annotations

import argparse
import importlib.metadata
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

import app
from app import cli

README = Path(app.__file__).resolve().parent.parent / "README.md"
HEAVY = ("torch", "transformers", "safetensors", "numpy", "PySide6", "matplotlib", "tqdm")


def splitchat(*args: str, **kwargs) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "app", *args], capture_output=True, text=True, timeout=120, **kwargs)


def all_parsers() -> dict[str, argparse.ArgumentParser]:
    parser = cli.build_parser()
    parsers = {"splitchat": parser}
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            parsers.update(action.choices)
    return parsers


def test_help_of_the_program_and_of_every_command_loads_no_heavy_library():
    commands = [name for name in all_parsers() if name != "splitchat"]
    probe = f"""
import contextlib, io, sys
from app.cli import main
for argv in [["--help"], ["--version"]] + [[name, "--help"] for name in {commands!r}]:
    with contextlib.redirect_stdout(io.StringIO()) as out:
        try:
            main(argv)
        except SystemExit as exit:
            assert exit.code == 0, (argv, exit.code)
    assert out.getvalue().strip(), argv
print(sorted(name for name in {HEAVY!r} if name in sys.modules))
"""
    result = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, timeout=120, check=True)
    assert result.stdout.strip() == "[]", result.stdout
    assert len(commands) >= 8


def test_every_option_and_argument_of_every_command_has_help():
    missing = [
        f"{name} {action.dest}"
        for name, parser in all_parsers().items()
        for action in parser._actions
        if not isinstance(action, argparse._HelpAction)
        and (not action.help or action.help == argparse.SUPPRESS or not action.help.strip())
    ]
    assert not missing


def test_version_is_the_installed_distributions():
    result = splitchat("--version")
    assert result.returncode == 0
    assert (
        result.stdout.strip()
        == f"splitchat {importlib.metadata.version('splitchat')}"
        == f"splitchat {app.__version__}"
    )


def test_the_help_and_the_readme_state_the_exit_codes():
    help_text = splitchat("--help").stdout
    readme = " ".join(README.read_text().split())
    for code, meaning in (("1", "fail"), ("2", "usage"), ("130", "interrupted")):
        assert any(line.split()[:1] == [code] and meaning in line for line in help_text.splitlines()), code
        assert f"{code} " in readme and meaning in readme
    assert "Exit status of every command: 0 done; 1 it failed" in readme


def test_an_unknown_option_is_a_usage_error():
    result = splitchat("ask", "--no-such-option")
    assert result.returncode == 2
    assert "unrecognized arguments: --no-such-option" in result.stderr


def test_a_failure_while_running_exits_1_with_one_line_and_no_traceback(tmp_path):
    result = splitchat("pseudonymise", str(tmp_path / "missing.txt"))
    assert result.returncode == 1
    assert "missing.txt" in result.stderr and len(result.stderr.strip().splitlines()) == 1
    result = splitchat("worker-token", "--token-file", str(tmp_path))  # a folder, not a file
    assert result.returncode == 1
    assert "Traceback" not in result.stderr and len(result.stderr.strip().splitlines()) == 1


def _fails_with(exc: BaseException):
    def command(_args: argparse.Namespace) -> int:
        raise exc

    return command


@pytest.mark.parametrize(
    ("exc", "code", "words"),
    [
        (KeyboardInterrupt(), 130, "interrupted"),
        (OSError("disk on fire"), 1, "disk on fire"),
        (ValueError("split 9 leaves no middle layers"), 2, "no middle layers"),
        (ZeroDivisionError("a bug\nover two lines"), 1, "unexpected ZeroDivisionError: a bug over two lines"),
    ],
)
def test_main_maps_what_a_command_raises_to_an_exit_code_and_one_line(monkeypatch, capsys, exc, code, words):
    monkeypatch.delenv(cli.DEBUG_ENV, raising=False)
    monkeypatch.setattr(cli, "cmd_worker_token", _fails_with(exc))
    assert cli.main(["worker-token", "--token-file", "unused.txt"]) == code
    err = capsys.readouterr().err
    assert words in err and len(err.strip().splitlines()) == 1


def _blocked_reading_stdin(pid: int) -> bool:
    # /proc/PID/syscall starts with the syscall number and its first argument: read (0) on fd 0.
    try:
        fields = Path(f"/proc/{pid}/syscall").read_text().split()
    except OSError:
        return False
    return fields[:2] == ["0", "0x0"]


@pytest.mark.skipif(not Path("/proc/self/syscall").exists(), reason="needs Linux's /proc/PID/syscall")
def test_ctrl_c_while_a_command_runs_exits_130_without_a_traceback():
    process = subprocess.Popen(
        [sys.executable, "-m", "app", "pseudonymise", "-"],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env={**os.environ, "PYTHONUNBUFFERED": "1"},
        # A suite started in the background (`nohup … &`) runs with SIGINT ignored, and a child inherits
        # that: give it the disposition a terminal's foreground command has.
        preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL),
    )
    try:
        deadline = time.monotonic() + 60
        while not _blocked_reading_stdin(process.pid):  # waiting for what the user types
            assert process.poll() is None and time.monotonic() < deadline
            time.sleep(0.05)
        process.send_signal(signal.SIGINT)
        _, err = process.communicate(timeout=30)
    finally:
        process.kill()
    assert process.returncode == 130
    assert err.strip() == "splitchat: interrupted"


def test_plot_without_matplotlib_fails_before_measuring_with_one_line_naming_the_extra(tmp_path):
    # matplotlib made unimportable, as in an install without the reports extra.
    # It also names which heavy libraries were loaded by then: none (saying so loaded torch, once).
    probe = (
        "import sys; sys.modules['matplotlib'] = None; from app.cli import main; code = main(sys.argv[1:]); "
        f"print(sorted(name for name in {HEAVY!r} if sys.modules.get(name))); sys.exit(code)"
    )
    for command in (
        ["bench", "--report", str(tmp_path / "no-such-runs.json"), "--plot", str(tmp_path / "b.png")],
        ["privacy", "--json", str(tmp_path / "p.json"), "--plot", str(tmp_path / "p.png")],
    ):
        result = subprocess.run(
            [sys.executable, "-c", probe, *command], capture_output=True, text=True, timeout=120, cwd=tmp_path
        )
        assert result.returncode == 1, result.stderr
        assert "splitchat[reports]" in result.stderr and len(result.stderr.strip().splitlines()) == 1
        assert result.stdout.strip() == "[]", result.stdout
        assert not (tmp_path / "p.json").exists()  # stopped before the evaluation ran
