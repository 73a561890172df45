"""A fresh install opens on the bundled model's measured privacy figures: the report of the project's own
run travels with the app, and the Privacy panel, the settings' depth table and the banner quote it alike —
for exactly those weights, and until a measurement made here is as thorough. Real widgets, offscreen."""

from __future__ import annotations

import os
import shutil
from dataclasses import replace
from pathlib import Path

import pytest

from app.data.conversations import ConversationStore
from app.data.settings import AppSettings, ProviderProfile
from app.engine.source.fingerprints import STORE, model_fingerprint
from app.engine.source.specs import cache_root, resolve_model
from app.privacy.evaluation import best_report, report_path
from app.privacy.report import PrivacyReport
from app.privacy.settings import PrivacySettings
from app.resources import CODE_ROOT, RESOURCES
from app.ui.main_window import MainWindow
from app.ui.privacy_view import NO_ESTIMATE

pytestmark = pytest.mark.bundled

SHIPPED_FILE = RESOURCES / "privacy" / "smollm2-135m-instruct.json"
DOCUMENTED_RUN = CODE_ROOT / "docs" / "privacy" / "privacy-2026-11-29.json"  # the run docs/PRIVACY.md reports
PRIVACY_COLUMN = 4


def shipped() -> PrivacyReport:
    return PrivacyReport.from_json(SHIPPED_FILE.read_text(encoding="utf-8"))


@pytest.fixture
def fresh_cache(tmp_path, monkeypatch) -> Path:
    """A cache with no privacy report in it, as on a fresh install once the bundled model is converted. The
    converted model and the remembered fingerprints are reused, so nothing is converted or hashed again."""
    resolve_model()  # converted (once) in the real cache, as every bundled test needs
    real, fresh = cache_root(), tmp_path / "cache"
    fresh.mkdir()
    for entry in real.iterdir():
        if entry.name == STORE:
            shutil.copy(entry, fresh / STORE)  # written to: a copy
        elif entry.name != "privacy":
            (fresh / entry.name).symlink_to(entry)
    monkeypatch.setenv("SPLITCHAT_CACHE_DIR", str(fresh))
    return fresh


def make_window(qtbot, host, tmp_path, settings: AppSettings) -> MainWindow:
    window = MainWindow(host, ConversationStore(tmp_path / "c.sqlite3"), settings, owns_host=False)
    qtbot.addWidget(window)
    window.show()
    return window


def remote(settings: AppSettings) -> AppSettings:
    """The same settings with a remote provider chosen: only then does the banner quote what leaks."""
    profile = ProviderProfile("gpu-box", "wss://gpu-box.example:8443", pseudonymise=False)
    return replace(settings, profiles=(profile,), active_profile="gpu-box", pseudonymise_always=False)


def privacy_cells(dialog) -> dict[int, str]:
    table = dialog.model_page.depth_table
    return {int(table.item(row, 0).text()): table.item(row, PRIVACY_COLUMN).text() for row in range(table.rowCount())}


async def test_a_fresh_install_shows_the_shipped_measurement_in_the_panel_the_depth_table_and_the_banner(
    qtbot, engine_host, fresh_cache, tmp_path
):
    report = shipped()
    assert report == PrivacyReport.from_json(DOCUMENTED_RUN.read_text(encoding="utf-8"))  # the run PRIVACY.md reports
    # The bundled model converts to exactly the weights that run measured (else the report must be redone).
    assert model_fingerprint(resolve_model()) == report.model_fingerprint
    assert not (fresh_cache / "privacy").exists()

    window = make_window(qtbot, engine_host, tmp_path, AppSettings(split="2"))
    await window.privacy.refresh()  # what loading the engine does once the model is open
    view = window.privacy.view
    assert view.report == report  # these weights were measured before release
    sent, returned = report.exposure(2).sent, report.exposure(2).returned
    statement = view.statement.text()
    assert statement != NO_ESTIMATE and not view.plot.isHidden()
    assert statement.startswith(
        f"At depth 2, an attacker holding the public weights recovers {100 * sent.top1:.0f}% of the tokens sent"
    )
    assert f"{100 * sent.top1:.0f}%" == "97%"  # docs/PRIVACY.md's head search at depth 2: 96.7
    # Said to be the app's own measurement, with what it ran, not one made on this computer.
    assert "the measurement shipped with splitchat for exactly these weights" in statement
    assert "default settings (depths 1, 2, 4, 6, 8), run on 2026-11-29" in statement
    assert f"measured on {report.corpus.test_pairs} test tokens of Python 3.11.7" in statement

    dialog = window.open_settings()
    await dialog.model_page.inspect_task
    cells = privacy_cells(dialog)
    for depth, cell in cells.items():
        exposure = report.exposure(depth)
        if depth in report.depths:
            assert cell == f"{100 * exposure.sent.top1:.0f}% / {100 * exposure.returned.top1:.0f}% (public weights)"
        else:
            assert cell == "not measured at this depth"
    assert cells[2] == f"97% / {100 * returned.top1:.0f}% (public weights)"
    dialog.close()

    # With a provider chosen, the banner quotes the same report's figure at this depth, named as the shipped one.
    window.settings = remote(window.settings)
    window.chat_pane.update_banner()
    banner = window.chat_pane.banner.text()
    assert (
        "about 97 % of the tokens (word pieces) it receives — measured for this model by the splitchat project, "
        f"shipped with the app, at depth 2 on {report.corpus.test_pairs} test tokens"
    ) in banner
    assert "89–100 %" not in banner  # no longer the project's range for some other model


async def test_the_shipped_report_is_shown_for_its_own_weights_only(
    qtbot, engine_host, fresh_cache, tiny_models, tmp_path
):
    report = shipped()
    fingerprint = report.model_fingerprint
    assert best_report(fingerprint) == report
    # Other weights whose fingerprint starts alike (the cache's folder is named by its first 16 digits).
    other = fingerprint[:-1] + ("0" if fingerprint[-1] != "0" else "1")
    assert best_report(other) is None

    folder, _ = tiny_models["llama"]
    window = make_window(qtbot, engine_host, tmp_path, AppSettings(model=str(folder), split="1"))
    await window.privacy.refresh()
    assert window.privacy.view.report is None
    assert window.privacy.view.statement.text() == NO_ESTIMATE
    dialog = window.open_settings()
    await dialog.model_page.inspect_task
    cells = privacy_cells(dialog)
    assert cells and all(cell == "not measured yet (run the privacy evaluation)" for cell in cells.values())
    dialog.close()
    # The banner falls back to the bundled model's range, read from the same shipped report and named as that.
    window.settings = remote(window.settings)
    window.chat_pane.update_banner()
    low, high = (100 * rate for rate in report.sent_range())
    assert f"{low:.0f}–{high:.0f} % of the words it receives (measured for the built-in model" in (
        window.chat_pane.banner.text()
    )


async def test_a_measurement_made_here_replaces_the_shipped_one_only_when_as_thorough(
    qtbot, engine_host, fresh_cache, tmp_path
):
    report = shipped()
    fingerprint = report.model_fingerprint

    def cache(measured: PrivacyReport, age_s: int) -> None:
        path = report_path(fingerprint, measured.settings)
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(measured.to_json())
        os.utime(path, (1_000_000 - age_s, 1_000_000 - age_s))

    # A quick run here (198 test tokens) must not replace the thorough measurement the app shipped with.
    quick_settings = PrivacySettings(max_test_pairs=200)
    quick = replace(
        report,
        settings=quick_settings,
        corpus=replace(report.corpus, test_pairs=198),
        created="2026-12-01T15:18:42Z",
    )
    cache(quick, age_s=10)
    assert best_report(fingerprint) == report

    # One as thorough as the shipped one, newer: it is the user's own, and it is what the window shows.
    own = replace(report, created="2026-12-05T09:00:00Z", elapsed_s=1300.0)
    cache(own, age_s=0)
    assert best_report(fingerprint) == own
    window = make_window(qtbot, engine_host, tmp_path, AppSettings(split="2"))
    await window.privacy.refresh()
    view = window.privacy.view
    assert view.report == own
    statement = view.statement.text()
    assert "Evaluation of 2026-12-05, measured on" in statement and "shipped" not in statement
    window.settings = remote(window.settings)
    window.chat_pane.update_banner()
    banner = window.chat_pane.banner.text()
    assert "measured for this model at depth 2 on" in banner and "shipped with the app" not in banner
