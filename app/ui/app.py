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

    from app.ui.i18n import translate

    splash = QSplashScreen(app.windowIcon().pixmap(160, 160))
    splash.showMessage(
        translate("App", "Starting splitchat…"), Qt.AlignmentFlag.AlignBottom | Qt.AlignmentFlag.AlignHCenter
    )
    splash.show()
    app.processEvents()
    return splash


def policy_error_box(error: Exception):
    """Says the administrator's policy cannot be applied, and what the app does until it is fixed."""
    from PySide6.QtWidgets import QMessageBox

    from app.ui.data_text import error_text
    from app.ui.i18n import translate

    text = translate(
        "App",
        "{error}\n\nUntil your IT department fixes it, splitchat runs on this computer only and its "
        "settings cannot be changed.",
    ).format(error=error_text(error))
    return QMessageBox(QMessageBox.Icon.Critical, translate("App", "splitchat: the administrator's policy"), text)


def settings_notice_box(notice: BaseException | str):
    """Says the user's settings file could not be used (``notice``: what was wrong and where it went, the
    data layer's ``SettingsProblem.BROKEN_FILE``, said in the user's language)."""
    from PySide6.QtWidgets import QMessageBox

    from app.ui.data_text import error_text
    from app.ui.i18n import translate

    text = error_text(notice) if isinstance(notice, BaseException) else notice
    return QMessageBox(QMessageBox.Icon.Warning, translate("App", "splitchat settings"), text)


def main() -> int:
    os.environ.setdefault("QT_API", "pyside6")  # qasync picks its binding from this
    import qasync
    from PySide6.QtWidgets import QApplication

    from app.data.conversations import ConversationStore
    from app.data.settings import PolicyError, broken_settings, data_dir, load_settings, locked_down
    from app.host.early_start import start_embedded_worker
    from app.ui.gc_guard import GuiThreadCollector
    from app.ui.i18n import install_language

    # argv[0] names the X11 window class: "splitchat" whatever the launcher's path, so the dock matches it.
    app = QApplication.instance() or QApplication([DESKTOP_ID])
    configure_application(app)
    try:  # read first (a file, milliseconds): the splash already speaks the chosen language
        settings, policy_error = load_settings(), None
    except PolicyError as exc:  # fail closed: no cloud provider, nothing changeable, until IT fixes it
        settings, policy_error = locked_down(), exc
    install_language(settings.language, app)
    splash = starting_splash(app)  # the window needs the engine's imports: something shows meanwhile
    collector = GuiThreadCollector()  # before any engine thread exists
    if policy_error is not None:
        policy_error_box(policy_error).exec()
    if settings.provider is None:  # its imports overlap ours (app/host/early_start.py)
        start_embedded_worker(settings.model, settings.split)
    # The engine's imports (torch, transformers) take seconds: only now, with the worker on its way.
    from app.host import EngineHost
    from app.ui.main_window import MainWindow

    notice = broken_settings()
    if notice is not None:
        settings_notice_box(notice).exec()
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
