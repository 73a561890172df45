"""Codes that cross modules are enum members, not bare strings that can drift apart: every ``WorkerError``
the engine raises names its code from ``ErrorCode`` (the worker's replies) or ``LinkErrorCode`` (this side's
faults), and every answer's ending is a ``StopReason``."""

from __future__ import annotations

import ast
import functools
from pathlib import Path

import app
from app.engine.decode.session import StopReason
from app.engine.link.link_codes import LinkErrorCode
from app.wire.frames import ErrorCode

PACKAGE = Path(app.__file__).parent


@functools.cache
def _nodes() -> tuple[tuple[Path, ast.AST], ...]:
    """Every node of every module of ``app``, parsed once for both checks."""
    return tuple(
        (path, node)
        for path in sorted(PACKAGE.rglob("*.py"))
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8")))
    )


def _calls_and_assignments():
    return _nodes()


def test_no_worker_error_is_raised_with_a_bare_string_code():
    bare = [
        f"{path.relative_to(PACKAGE)}:{node.lineno}"
        for path, node in _calls_and_assignments()
        if isinstance(node, ast.Call)
        and getattr(node.func, "id", getattr(node.func, "attr", None)) == "WorkerError"
        and node.args
        and isinstance(node.args[0], ast.Constant)
    ]
    assert bare == []


def test_no_ending_is_set_as_a_bare_string():
    bare = [
        f"{path.relative_to(PACKAGE)}:{node.lineno}"
        for path, node in _calls_and_assignments()
        if isinstance(node, ast.Assign)
        and any(getattr(target, "attr", None) == "stop_reason" for target in node.targets)
        and isinstance(node.value, ast.Constant)
    ]
    assert bare == []


def test_the_codes_keep_the_values_the_wire_the_store_and_the_ui_read():
    assert {code.value for code in LinkErrorCode}.isdisjoint({code.value for code in ErrorCode})
    assert [reason.value for reason in StopReason] == ["stop_token", "max_new_tokens", "cancelled", "repeating"]
