"""Export a worker bundle from the app: choose an empty folder, write it off the UI thread, say what was written."""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from pathlib import Path

from PySide6.QtCore import QObject, Signal
from PySide6.QtWidgets import QFileDialog, QWidget

from app.data.settings import AppSettings
from app.host import EngineHost, Manifest
from app.ui.bridge import ThreadProgress
from app.ui.engine_text import engine_text
from app.ui.i18n import translate
from app.ui.messages import explain


class WorkerBundleExport(QObject):
    """The job behind *File → Export worker bundle…* and the settings panel's button."""

    status = Signal(str)
    progress = Signal(str, float)
    running = Signal(bool)

    def __init__(self, host: EngineHost, settings: Callable[[], AppSettings], parent: QWidget):
        super().__init__(parent)
        self.host, self._settings, self._parent = host, settings, parent

    def choose_folder(self, split: str | None = None, model: str | None = None) -> None:
        folder = QFileDialog.getExistingDirectory(
            self._parent, translate("WorkerBundleExport", "Export the worker bundle into an empty folder")
        )
        if folder:
            asyncio.ensure_future(self.export(Path(folder), split, model))

    async def export(self, folder: Path, split: str | None = None, model: str | None = None) -> Manifest | None:
        """Write the bundle for ``model`` at ``split`` (by default the settings' model and depth)."""
        progress = ThreadProgress(lambda message, fraction: self.progress.emit(engine_text(message), fraction))
        settings = self._settings()
        self.running.emit(True)
        try:
            manifest = await self.host.export_worker_bundle(
                model or settings.model, split or settings.split, folder, progress.emit
            )
        except Exception as exc:
            self.status.emit(" ".join(explain(exc)))
            return None
        finally:
            self.running.emit(False)
        self.status.emit(
            translate(
                "WorkerBundleExport",
                "Worker bundle written to {folder}: layers {first}–{last}, fingerprint {fingerprint}…",
            ).format(
                folder=folder,
                first=manifest.first_layer,
                last=manifest.last_layer - 1,
                fingerprint=manifest.fingerprint[:23],
            )
        )
        return manifest
