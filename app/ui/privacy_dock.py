"""The Privacy tab: the measured recovery for the current model and depth, and the evaluation that measures it."""

from __future__ import annotations

import asyncio
import threading
from collections.abc import Callable

from PySide6.QtCore import Signal
from PySide6.QtWidgets import QDockWidget

from app.data.settings import AppSettings
from app.host import Cancelled, EngineHost, PrivacyReport, PrivacySettings
from app.ui.bridge import ThreadProgress
from app.ui.i18n import translate
from app.ui.messages import explain
from app.ui.privacy_view import PrivacyView


class PrivacyDock(QDockWidget):
    """Shows the cached report for the model in the settings; runs (and cancels) the evaluation."""

    status = Signal(str)

    def __init__(self, host: EngineHost, settings: Callable[[], AppSettings]):
        super().__init__(translate("PrivacyDock", "Privacy"))
        self.setObjectName("privacy-dock")
        self.host, self._settings = host, settings
        self.view = PrivacyView()
        self.view.run_requested.connect(lambda: self.start())
        self.view.cancel_requested.connect(self.cancel)
        self.setWidget(self.view)
        self.cancel_flag = threading.Event()
        self.task: asyncio.Task | None = None
        self.evaluation_settings: PrivacySettings | None = None  # None: the evaluation's defaults
        self.public_checkpoint = True

    @property
    def depth(self) -> int:
        return int(self._settings().split.split(",")[0])

    @property
    def worker_here(self) -> bool:
        """The built-in worker on this computer answers (no remote provider is chosen)."""
        return self._settings().provider is None

    def show_depth(self) -> None:
        """Mark the current split depth on what is shown (after the settings changed)."""
        self.view.show_report(self.view.report, self.depth, self.public_checkpoint, self.worker_here)

    async def refresh(self) -> None:
        """Show the cached evaluation for the current model, or that none exists."""
        privacy = await self.host.privacy(self._settings().model)
        self.public_checkpoint = privacy.public_checkpoint
        self.view.show_report(privacy.report, self.depth, privacy.public_checkpoint, self.worker_here)

    def start(self) -> asyncio.Task:
        self.task = asyncio.ensure_future(self.run())
        return self.task

    def cancel(self) -> None:
        self.cancel_flag.set()

    async def run(self) -> PrivacyReport | None:
        """Measure the current model (or read the cached report); None when cancelled or failed."""
        self.cancel_flag.clear()
        self.view.set_running(True)
        progress = ThreadProgress(self.view.set_progress)
        try:
            settings = self.evaluation_settings or PrivacySettings()
            privacy = await self.host.evaluate_privacy(
                self._settings().model, settings, progress.emit, self.cancel_flag
            )
        except Cancelled:
            self.status.emit(translate("PrivacyDock", "Privacy evaluation cancelled; nothing was saved."))
            return None
        except Exception as exc:
            self.status.emit(" ".join(explain(exc)))
            return None
        finally:
            self.view.set_running(False)
        self.public_checkpoint = privacy.public_checkpoint
        self.view.show_report(privacy.report, self.depth, privacy.public_checkpoint, self.worker_here)
        self.status.emit(translate("PrivacyDock", "Privacy evaluation finished."))
        return privacy.report
