"""The privacy reports shipped with the app: the project's own measurement of the bundled model.

A fresh install has nothing in its report cache, yet the bundled model's weights were measured before
release (docs/PRIVACY.md). Those reports travel as package data (``app/resources/privacy/``, one per
model, exactly as ``splitchat privacy --json`` writes them) and count as measured for the weights they
name — by the whole fingerprint, so they are never shown for any other weights.
"""

from __future__ import annotations

import logging
from functools import cache

from app.engine.source.names import BUNDLED_SPEC
from app.privacy.report import PrivacyReport
from app.resources import SHIPPED_PRIVACY_REPORTS

log = logging.getLogger(__name__)


@cache
def shipped_reports() -> tuple[PrivacyReport, ...]:
    """Every readable report shipped with the app, read once. A damaged one is a packaging fault: it is
    logged and left out (the app then shows no estimate), rather than stopping the window that quotes it."""
    reports = []
    for path in sorted(SHIPPED_PRIVACY_REPORTS.glob("*.json")):
        try:
            reports.append(PrivacyReport.from_json(path.read_text(encoding="utf-8")))
        except (ValueError, OSError) as exc:  # ReportError, or not JSON at all
            log.warning("the shipped privacy report %s cannot be read: %s", path, exc)
    return tuple(reports)


def shipped_report(fingerprint: str) -> PrivacyReport | None:
    """The shipped report measured on exactly these weights, or None."""
    return next((report for report in shipped_reports() if report.model_fingerprint == fingerprint), None)


def bundled_model_report() -> PrivacyReport | None:
    """The shipped report of the bundled model: what the app can quote before a model is measured."""
    return next((report for report in shipped_reports() if report.model == BUNDLED_SPEC), None)


def is_shipped(report: PrivacyReport) -> bool:
    """Whether ``report`` is one the app shipped with (not a measurement made on this computer)."""
    return any(report == shipped for shipped in shipped_reports())
