"""The PNG reports of ``bench --plot`` and ``privacy --plot`` draw with matplotlib, an optional extra
(``splitchat[reports]``): the desktop app draws with pyqtgraph and its installer leaves matplotlib out."""

from __future__ import annotations

REPORTS_EXTRA = "reports"


class PlottingUnavailable(RuntimeError):
    """``--plot`` was asked for where matplotlib is not installed."""


def require_matplotlib() -> None:
    """Raise PlottingUnavailable, naming the extra to install, unless matplotlib can be imported."""
    try:
        import matplotlib  # noqa: F401
    except ImportError as exc:
        raise PlottingUnavailable(
            f"--plot draws with matplotlib, which is not installed here: "
            f"pip install 'splitchat[{REPORTS_EXTRA}]' (or pip install matplotlib), or leave out --plot"
        ) from exc
