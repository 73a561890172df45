"""UI tests run their coroutines on Qt's event loop (qasync), as the app does."""

from __future__ import annotations

import pytest


def pytest_asyncio_loop_factories(config, item):
    def qt_loop():
        import qasync
        from PySide6.QtWidgets import QApplication

        return qasync.QEventLoop(QApplication.instance() or QApplication(["splitchat-tests"]))

    return {"qt": qt_loop}


@pytest.fixture(autouse=True)
def gui_thread_collector(qapp):
    """As in the app: Qt objects are only ever garbage-collected on the GUI thread (see app/ui/gc_guard.py)."""
    from app.ui.gc_guard import GuiThreadCollector

    collector = GuiThreadCollector(interval_ms=200)
    yield collector
    collector.stop()


@pytest.fixture(scope="session")
def engine_host():
    """One engine host (its thread, the loaded model and the embedded worker) shared by the UI tests."""
    from app.host import EngineHost

    host = EngineHost()
    yield host
    host.shutdown()
