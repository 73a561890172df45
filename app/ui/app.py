"""Start the desktop app: Qt, the asyncio loop on top of it (qasync), the engine host, the main window."""

from __future__ import annotations

import os

DESKTOP_ID = "splitchat"  # the .desktop file's name and its StartupWMClass: docks and taskbars group by it


def configure_application(app) -> None:
    """Name the app as the desktop knows it (the window class the .desktop entry names) and give every
    window the icon; an install without the icon file still starts."""
    from PySide6.QtGui import QIcon

    from app.resources import WINDOW_ICON

    app.setApplicationName("splitchat")
    app.setDesktopFileName(DESKTOP_ID)
    if WINDOW_ICON.is_file():
        app.setWindowIcon(QIcon(str(WINDOW_ICON)))


def starting_splash(app):
    """The icon and "Starting splitchat…", shown while the engine's modules load (seconds)."""
    from PySide6.QtCore import Qt
    from PySide6.QtWidgets import QSplashScreen

    splash = QSplashScreen(app.windowIcon().pixmap(160, 160))
    splash.showMessage("Starting splitchat…", Qt.AlignmentFlag.AlignBottom | Qt.AlignmentFlag.AlignHCenter)
    splash.show()
    app.processEvents()
    return splash


def main() -> int:
    os.environ.setdefault("QT_API", "pyside6")  # qasync picks its binding from this
    import qasync
    from PySide6.QtWidgets import QApplication, QMessageBox

    from app.data.conversations import ConversationStore
    from app.data.settings import PolicyError, broken_settings_notice, data_dir, load_settings, locked_down
    from app.early_start import start_embedded_worker
    from app.ui.gc_guard import GuiThreadCollector

    # argv[0] names the X11 window class: "splitchat" whatever the launcher's path, so the dock matches it.
    app = QApplication.instance() or QApplication([DESKTOP_ID])
    configure_application(app)
    splash = starting_splash(app)  # the window needs the engine's imports: something shows meanwhile
    collector = GuiThreadCollector()  # before any engine thread exists
    try:
        settings = load_settings()
    except PolicyError as exc:  # fail closed: no cloud provider, nothing changeable, until IT fixes it
        QMessageBox.critical(
            None,
            "splitchat: the administrator's policy",
            f"{exc}\n\nUntil your IT department fixes it, splitchat runs on this computer only and its settings "
            "cannot be changed.",
        )
        settings = locked_down()
    if settings.provider is None:  # its imports overlap ours (app/early_start.py)
        start_embedded_worker(settings.model, settings.split)
    # The engine's imports (torch, transformers) take seconds: only now, with the worker on its way.
    from app.host import EngineHost
    from app.ui.main_window import MainWindow

    notice = broken_settings_notice()
    if notice:
        QMessageBox.warning(None, "splitchat settings", notice)
    store = ConversationStore(data_dir() / "conversations.sqlite3")
    host = EngineHost()
    window = MainWindow(host, store, settings)
    window.show()
    splash.finish(window)

    async def run() -> None:
        window.start()
        await window.closed.wait()

    try:
        qasync.run(run())
    finally:
        host.shutdown()
        store.close()
        collector.stop()
    return 0
