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


@pytest.fixture
def link(workers):
    """A real worker behind the latency proxy, its token in the (test) keyring under the provider "office":
    the proxy counts every byte that reaches the worker."""
    from app.bench.latency_proxy import LinkProfile, ProxyThread
    from app.data import credentials
    from app.engine.link.export import embedded_shard
    from app.engine.source.specs import resolve_model
    from app.model.choices import SplitSpec

    worker = workers(embedded_shard(resolve_model(), SplitSpec(2, 2)))
    host, port = worker.endpoint.removeprefix("ws://").rsplit(":", 1)
    with ProxyThread(host, int(port), LinkProfile(rtt_ms=2)) as proxy:
        credentials.set_token("office", worker.token)
        yield proxy
