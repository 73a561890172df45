"""How the project is packaged: the resource files travel inside the wheel and are found through
importlib.resources wherever the package is installed."""

from __future__ import annotations

import ast
import importlib.metadata
import json
import os
import re
import subprocess
import sys
import tomllib
import zipfile
from importlib.resources import files
from pathlib import Path

from packaging.requirements import Requirement

import app
from app import resources

CHECKOUT = Path(app.__file__).resolve().parent.parent
RESOURCE_FILES = (
    "bench_prompts.json",
    "draft_prompts.json",
    "drafts/smollm2-135m-instruct.safetensors",
    "identifiers/evaluation.json",
    "identifiers/templates/nda.txt",
    "identifiers/towns.txt.gz",
    "identifiers/town_countries.tsv.gz",  # a town's stand-in is drawn from its country's
    "identifiers/regions.txt.gz",  # other countries' states and provinces, kept
    "privacy/smollm2-135m-instruct.json",  # the bundled model's measured privacy report
    "splitchat.png",  # the window icon
)


def build_wheel(out: Path) -> Path:
    """Build the project's wheel from a copy of its tracked sources (the checkout's build/ stays untouched)."""
    tracked = subprocess.run(
        ["git", "ls-files", "pyproject.toml", "README.md", "app"],
        cwd=CHECKOUT,
        capture_output=True,
        text=True,
        check=True,
    ).stdout.split()
    source = out / "source"
    for name in tracked:
        if (CHECKOUT / name).is_file():  # a file deleted but not yet committed is skipped
            (source / name).parent.mkdir(parents=True, exist_ok=True)
            (source / name).write_bytes((CHECKOUT / name).read_bytes())
    # No build isolation and no index: the venv's setuptools builds it, nothing is downloaded.
    subprocess.run(
        [sys.executable, "-m", "pip", "wheel", "-q", "--no-deps", "--no-build-isolation", "--no-index", str(source)]
        + ["-w", str(out / "dist")],
        check=True,
        capture_output=True,
    )
    (wheel,) = (out / "dist").glob("splitchat-*.whl")
    return wheel


def test_resource_paths_are_the_package_data_that_importlib_resources_finds():
    folder = Path(str(files("app.resources")))
    assert resources.RESOURCES == folder
    assert resources.BENCH_PROMPTS == folder / "bench_prompts.json"
    assert resources.SHIPPED_DRAFT_HEADS == folder / "drafts"
    for name in RESOURCE_FILES:
        assert (folder / name).is_file(), name
    assert json.loads(resources.DRAFT_PROMPTS.read_text())["prompts"]


def test_the_wheel_carries_the_resources_and_an_install_of_it_finds_them_there(tmp_path):
    wheel = build_wheel(tmp_path)
    with zipfile.ZipFile(wheel) as archive:
        names = set(archive.namelist())
        for name in RESOURCE_FILES:
            assert f"app/resources/{name}" in names, name
        archive.extractall(tmp_path / "installed")
    # Imported from the unpacked wheel (as site-packages would hold it), from a folder with no checkout.
    probe = (
        "import sys; sys.path.insert(0, sys.argv[1]); import app, app.resources as r; "
        "print(app.__file__); print(r.RESOURCES); print(r.DRAFT_PROMPTS.is_file(), r.SHIPPED_DRAFT_HEADS.is_dir()); "
        "from app.data import policy_source as p; print(p.installed(), p.policy_file())"
    )
    # An installed copy (as pip leaves it, a wheel in site-packages) ignores SPLITCHAT_POLICY: the user who
    # can set a variable must not choose the policy that binds them.
    elsewhere = tmp_path / "my-own-policy.json"
    result = subprocess.run(
        [sys.executable, "-c", probe, str(tmp_path / "installed")],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        check=True,
        env={**os.environ, "SPLITCHAT_POLICY": str(elsewhere)},
    )
    module, folder, found, policy = result.stdout.splitlines()
    installed = (tmp_path / "installed").resolve()
    assert Path(module).resolve().is_relative_to(installed)
    assert Path(folder).resolve() == installed / "app" / "resources"
    assert found == "True True"
    assert policy.startswith("True ") and str(elsewhere) not in policy


def _spec_executables() -> dict[str, dict]:
    """The PyInstaller spec's EXE(...) calls as {name: keyword arguments}, and what COLLECT gathers."""
    tree = ast.parse((CHECKOUT / "packaging" / "splitchat.spec").read_text())
    assigned = {
        node.targets[0].id: node.value
        for node in ast.walk(tree)
        if isinstance(node, ast.Assign) and isinstance(node.targets[0], ast.Name) and isinstance(node.value, ast.Call)
    }
    executables = {}
    for variable, call in assigned.items():
        if isinstance(call.func, ast.Name) and call.func.id == "EXE":
            keywords = {k.arg: ast.literal_eval(k.value) for k in call.keywords if k.arg in ("name", "console")}
            executables[keywords["name"]] = {**keywords, "variable": variable}
    collected = {arg.id for arg in assigned["coll"].args if isinstance(arg, ast.Name)}
    return {name: {**kw, "collected": kw["variable"] in collected} for name, kw in executables.items()}


def test_the_desktop_executable_opens_no_console_and_the_commands_have_a_console_executable():
    executables = _spec_executables()
    assert executables["splitchat"]["console"] is False and executables["splitchat"]["collected"]
    assert executables["splitchat-cli"]["console"] is True and executables["splitchat-cli"]["collected"]
    # Windows' self-tests need the console one: a shell does not wait for a windowed program's exit code.
    for script in ("packaging/windows/build.ps1", ".github/workflows/windows-installer.yml"):
        lines = [
            line
            for line in (CHECKOUT / script).read_text().splitlines()
            if "--self-test" in line and not line.lstrip().startswith("#")
        ]
        assert lines and all("splitchat-cli.exe" in line for line in lines), script


def test_a_frozen_app_runs_its_worker_through_the_console_executable(tmp_path, monkeypatch):
    from app.engine.link import local_worker

    app_exe = tmp_path / "splitchat.exe"
    app_exe.write_bytes(b"")
    monkeypatch.setattr(sys, "executable", str(app_exe))
    assert local_worker.frozen_command() == [str(app_exe)]  # a bundle with one executable
    (tmp_path / "splitchat-cli.exe").write_bytes(b"")
    assert local_worker.frozen_command() == [str(tmp_path / "splitchat-cli.exe")]


def _normalise(name: str) -> str:
    return re.sub(r"[-_.]+", "-", name).lower()


def _requirement_name(requirement: str) -> str:
    return _normalise(re.split(r"[\s\[<>=!~;@(]", requirement.strip(), maxsplit=1)[0])


def _locked() -> dict[str, tuple[str, list[str]]]:
    """requirements.lock as {name: (version, hashes)}."""
    entries: dict[str, tuple[str, list[str]]] = {}
    text = (CHECKOUT / "requirements.lock").read_text().replace("\\\n", " ")
    for line in text.splitlines():
        line = line.split("#", 1)[0].strip()
        if not line:
            continue
        pin, *options = line.split()
        name, _, version = pin.partition("==")
        entries[_normalise(name)] = (version, [o.removeprefix("--hash=") for o in options if o.startswith("--hash=")])
    return entries


def test_the_lock_pins_every_dependency_but_torch_by_version_and_hash():
    project = tomllib.loads((CHECKOUT / "pyproject.toml").read_text())
    named = (
        project["project"]["dependencies"]
        + project["project"]["optional-dependencies"]["test"]
        + project["project"]["optional-dependencies"]["reports"]
        + project["build-system"]["requires"]
    )
    locked = _locked()
    assert {_requirement_name(r) for r in named} - {"torch"} <= set(locked)
    for name, (version, hashes) in locked.items():
        assert re.fullmatch(r"[0-9][0-9A-Za-z.+!-]*", version), name
        assert hashes and all(re.fullmatch(r"sha256:[0-9a-f]{64}", h) for h in hashes), name
    # torch comes from TORCH_SPEC; a lock made against PyPI's CUDA build would drag in its GPU libraries.
    assert not {name for name in locked if name == "torch" or name.startswith(("nvidia-", "triton", "cuda-"))}


def test_the_lock_is_closed_under_the_installed_packages_requirements():
    # Installed with --no-deps, the lock must itself hold every dependency of what it holds (torch aside).
    locked = set(_locked())
    missing = {}
    for name in locked:
        for requirement in importlib.metadata.requires(name) or []:
            parsed = Requirement(requirement)
            if parsed.marker is not None and not parsed.marker.evaluate({"extra": ""}):
                continue
            if _normalise(parsed.name) not in locked | {"torch"}:
                missing.setdefault(name, []).append(requirement)
    assert not missing


def test_the_worker_bundles_requirements_come_from_the_project_metadata():
    from app.engine.link.worker_bundle import WORKER_DISTRIBUTIONS, worker_requirements

    installed = [r for r in importlib.metadata.requires("splitchat") if "extra" not in r]
    lines = [line for line in worker_requirements().splitlines() if not line.startswith("#")]
    assert sorted(lines) == sorted(r for r in installed if _requirement_name(r) in WORKER_DISTRIBUTIONS)
    assert "accelerate" not in worker_requirements() and "PySide6" not in worker_requirements()
    # A change in the metadata is a change in the bundle; an extra's line stays out.
    changed = [r.replace("websockets<18,>=15", "websockets<19,>=16") for r in installed]
    changed.append('matplotlib>=3.8; extra == "reports"')
    output = worker_requirements(changed, "9.9")
    assert "websockets<19,>=16" in output and "splitchat 9.9" in output and "matplotlib" not in output


def test_the_frozen_app_carries_every_module_the_facade_imports_by_name():
    """``app.host`` imports its names' modules by string on first use, which PyInstaller's import scan does
    not follow: the spec collects the host package, and every other module named must be one that the scan
    reaches from it through imports written as code."""
    import app.host
    from tests.unit.test_boundaries import reachable_without

    spec = (CHECKOUT / "packaging" / "splitchat.spec").read_text()
    assert 'collect_submodules("app.host")' in spec
    host_modules = [f"app.host.{path.stem}" for path in (CHECKOUT / "app" / "host").glob("*.py")]
    reached = set().union(*(reachable_without(name) for name in host_modules))
    assert set(app.host.WHERE.values()) - reached == set()
