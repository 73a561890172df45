"""The design's boundaries, read from the code: the UI reaches the trusted half through its facade only and
never imports torch; nothing below the UI imports Qt; the shared packages lean on neither half; the engine
does not reach up into the measurements built on it."""

from __future__ import annotations

import ast
import functools
from pathlib import Path

import app

PACKAGE = Path(app.__file__).parent
QT = ("PySide6", "qasync", "pyqtgraph")


@functools.cache
def imported_modules(path: Path) -> set[str]:
    """Every module a file imports, at any depth (function-level imports included)."""
    modules = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            modules |= {alias.name for alias in node.names}
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            modules.add(node.module)
    return modules


def files_under(*folders: str) -> list[Path]:
    return [path for folder in folders for path in sorted((PACKAGE / folder).rglob("*.py"))]


def test_the_ui_reaches_the_trusted_half_through_the_host_only_and_never_imports_torch():
    offending = {}
    for path in files_under("ui"):
        wrong = {
            m
            for m in imported_modules(path)
            if m.startswith(("app.engine", "app.privacy", "app.bench", "app.model", "app.wire"))
            or m.split(".")[0] in ("torch", "transformers")
        }
        if wrong:
            offending[path.name] = sorted(wrong)
    assert offending == {}


def test_the_engine_does_not_import_what_measures_it_or_what_shows_it():
    offending = {
        str(path.relative_to(PACKAGE)): sorted(
            m for m in imported_modules(path) if m.startswith(("app.privacy", "app.bench", "app.ui", "app.host"))
        )
        for path in files_under("engine")
    }
    assert {name: bad for name, bad in offending.items() if bad} == {}


def test_nothing_below_the_ui_imports_qt():
    offending = {
        str(path.relative_to(PACKAGE)): sorted(m for m in imported_modules(path) if m.split(".")[0] in QT)
        for path in files_under("engine", "model", "wire", "remote_worker", "privacy", "bench", "data")
    }
    assert {name: qt for name, qt in offending.items() if qt} == {}


def test_the_shared_packages_import_neither_half():
    """``app.wire`` and ``app.model`` are what both halves run: they may not lean on the trusted engine."""
    offending = {
        str(path.relative_to(PACKAGE)): sorted(
            m for m in imported_modules(path) if m.startswith("app.") and not m.startswith(("app.wire", "app.model"))
        )
        for path in files_under("wire", "model")
    }
    assert {name: bad for name, bad in offending.items() if bad} == {}


def test_the_untrusted_worker_imports_only_the_shared_packages():
    """The fast reading of what ``tests/integration/test_worker_boundary.py`` proves by running the worker."""
    offending = {
        str(path.relative_to(PACKAGE)): sorted(
            m
            for m in imported_modules(path)
            if m.startswith("app.") and not m.startswith(("app.wire", "app.model", "app.remote_worker"))
        )
        for path in files_under("remote_worker")
    }
    assert {name: bad for name, bad in offending.items() if bad} == {}


def module_path(name: str) -> Path | None:
    """The file of module ``app.…`` ``name``, or None when there is none (a name imported from a module)."""
    parts = name.split(".")[1:]
    for path in (PACKAGE.joinpath(*parts).with_suffix(".py"), PACKAGE.joinpath(*parts, "__init__.py")):
        if parts and path.is_file():
            return path
    return None


@functools.cache
def app_imports(path: Path) -> set[str]:
    """The app modules a file imports, with the packages above them (importing ``app.a.b`` runs ``app.a``
    first) and the modules named in ``from app.a import b``."""
    found = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            names = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            names = [node.module, *(f"{node.module}.{alias.name}" for alias in node.names)]
        else:
            continue
        for name in names:
            if name.startswith("app."):
                parts = name.split(".")
                found |= {".".join(parts[:i]) for i in range(2, len(parts) + 1)}
    return {name for name in found if module_path(name) is not None}


def reachable_without(start: str, door: str | None = None) -> set[str]:
    """Every app module importing ``start`` can run, not counting what runs behind ``door`` (a package)."""
    seen, waiting = set(), [start]
    while waiting:
        name = waiting.pop()
        if name in seen or door is not None and (name == door or name.startswith(door + ".")):
            continue
        seen.add(name)
        waiting += app_imports(module_path(name))
    return seen


def test_the_ui_reaches_the_trusted_half_through_the_host_even_through_other_modules():
    """What the UI imports (the settings layer, the conversation store, anything they import) reaches the
    engine, privacy or identifier code, or torch, only through ``app.host``: the shared words the settings
    check (the split, the modes, which endpoints may be used) live in torch-free shared modules."""
    offending = {}
    for path in files_under("ui"):
        start = "app." + ".".join(path.relative_to(PACKAGE).with_suffix("").parts)
        reached = reachable_without(start.removesuffix(".__init__"), "app.host")
        wrong = {
            module
            for module in reached
            if module.startswith(("app.engine", "app.privacy", "app.identifiers", "app.bench", "app.remote_worker"))
            or module in ("app.cli",)
            or {m.split(".")[0] for m in imported_modules(module_path(module))} & {"torch", "transformers", "spacy"}
        }
        if wrong:
            offending[path.name] = sorted(wrong)
    assert offending == {}


def test_the_host_package_imports_no_torch_until_a_name_is_used():
    """The app launches the loopback worker from ``app.host.early_start`` before the engine's imports."""
    imported = {m for m in imported_modules(PACKAGE / "host" / "__init__.py") if m != "app.host.engine_host"}
    assert {m.split(".")[0] for m in imported} <= {"__future__", "importlib", "typing", "app"}
    assert {m for m in imported if m.startswith("app.")} <= {"app.host.early_start"}


def test_the_trusted_half_leans_on_the_worker_through_the_shared_packages_only():
    """What both halves say (a token's hash, the worker's ready line) lives in ``app.wire``: only the command
    line, which runs the worker in-process as ``splitchat worker``, imports the worker's own package."""
    offending = {
        str(path.relative_to(PACKAGE)): sorted(m for m in imported_modules(path) if m.startswith("app.remote_worker"))
        for path in sorted(PACKAGE.rglob("*.py"))
        if "remote_worker" not in path.parts and path.name not in ("cli.py", "cli_parser.py")
    }
    assert {name: bad for name, bad in offending.items() if bad} == {}


def test_the_shared_model_package_has_no_import_cycle():
    """``app.model`` is imported by both halves: a cycle in it (a module reaching back inside a function, as
    the config reader and the family table once did) makes its import order fragile for both."""
    graph = {
        f"app.model.{path.stem}": {m for m in imported_modules(path) if m.startswith("app.model.")}
        for path in files_under("model")
        if path.stem != "__init__"
    }

    def reaches(start: str, goal: str, seen: set[str]) -> bool:
        return any(
            nxt == goal or (nxt not in seen and reaches(nxt, goal, seen | {nxt})) for nxt in graph.get(start, ())
        )

    assert sorted(module for module in graph if reaches(module, module, {module})) == []
