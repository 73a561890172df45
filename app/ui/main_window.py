"""The main window: the conversation list beside the chat, the metrics and privacy docks, menus and status.

It owns what the screens share — the settings, loading the engine, the status bar — and hands each
job to its own piece: ``ChatPane`` answers, ``PrivacyDock`` measures, ``WorkerBundleExport`` exports.
Model work runs on the engine host's thread; the window only awaits it (through qasync).
"""

from __future__ import annotations

import asyncio

from PySide6.QtCore import QLocale, QMargins, QRect, QSettings, QSize, Qt, QTimer
from PySide6.QtGui import QAction, QKeySequence
from PySide6.QtWidgets import QApplication, QLabel, QMainWindow, QProgressBar, QSplitter, QWidget

from app.data import credentials
from app.data.conversations import ConversationStore
from app.data.settings import AppSettings, SettingsError, config_dir, save_settings
from app.host import ChatInfo, EngineConfig, EngineHost, LocalStepCost
from app.ui.bridge import EngineSignals
from app.ui.bundle_export import WorkerBundleExport
from app.ui.chat_pane import ChatPane
from app.ui.conversation_panel import ConversationPanel
from app.ui.data_text import error_text
from app.ui.engine_text import engine_text, progress_text
from app.ui.focus import show_focus_frame
from app.ui.gc_guard import settle
from app.ui.i18n import translate
from app.ui.metrics_dock import MetricsDock
from app.ui.privacy_dock import PrivacyDock

DEFAULT_LAYERS = 30  # the bundled model's depth, for the settings panel before a model is loaded
WINDOW_STATE = "window.ini"  # size, splitter and which panels are shown, beside settings.json
STATE_VERSION = 1  # bumped when the docks change, so an old layout is not restored onto new ones
PREFERRED_SIZE = QSize(1280, 800)
# Room left around the window for what the window manager adds (title bar, borders), so its frame fits too.
FRAME_ALLOWANCE = QMargins(8, 40, 8, 8)
# The Privacy panel opens 400 px wide, narrower where the list and the chat would have less than this. At
# 1024 px 750 left the panel 256 px, a column of two or three words a line; 700 leaves it 324.
PANEL_WIDTH, LIST_AND_CHAT = 400, 700
FOCUS_SKIPS = 4  # parked widgets Tab may pass in a row (QMainWindow keeps one tab bar per dock area)


def initial_geometry(available: QRect, preferred: QSize = PREFERRED_SIZE) -> QRect:
    """Where the window first opens: ``preferred``, made smaller where the screen's available area (without
    its taskbars and panels) has no room for it and a frame, centred in that area.

    At 1280×800 on a 768-pixel screen Send, Stop and the status bar were below the edge until maximised."""
    room = available.marginsRemoved(FRAME_ALLOWANCE)
    size = preferred.boundedTo(room.size())
    window = QRect(0, 0, size.width(), size.height())
    window.moveCenter(room.center())
    return window


def panel_width(window_width: int) -> int:
    """The Privacy panel's first width: the list and the chat keep their share however narrow the window."""
    return min(PANEL_WIDTH, max(window_width - LIST_AND_CHAT, 0))


def window_state() -> QSettings:
    """The window's remembered layout: a file in the settings folder (not the registry), one per user."""
    return QSettings(str(config_dir() / WINDOW_STATE), QSettings.Format.IniFormat)


class MainWindow(QMainWindow):
    def __init__(self, host: EngineHost, store: ConversationStore, settings: AppSettings, owns_host: bool = True):
        super().__init__()
        self.host, self.store, self.settings = host, store, settings
        self.owns_host = owns_host  # tests share one host between windows
        self.engine_task: asyncio.Task | None = None
        self.loading_config: EngineConfig | None = None  # what engine_task opens (a token change reopens)
        self.closed = asyncio.Event()
        self.loading = EngineSignals()  # progress of loading the engine, from its thread
        self.loading.progress.connect(self._on_progress)
        self._build()
        self._restore_layout()
        self.chat_pane.new_conversation()

    # -- layout -----------------------------------------------------------------------------------
    def _build(self) -> None:
        self.setWindowTitle("splitchat")
        self.setGeometry(initial_geometry(self.screen().availableGeometry()))
        self.chat_pane = ChatPane(self.host, self.store, lambda: self.settings, self.ensure_engine)
        self.chat_pane.status.connect(self.show_status)
        self.chat_pane.signals.notice.connect(lambda notice: self.show_status(engine_text(notice)))
        self.chat_pane.privacy_requested.connect(self.show_privacy)
        self.conversations = ConversationPanel(self.store)
        show_focus_frame(self.conversations.list)  # empty, it took the focus and showed none
        self.conversations.selected.connect(self.chat_pane.open_conversation)
        self.conversations.new_requested.connect(self.new_conversation)
        self.conversations.deleted.connect(self.chat_pane.forget)
        self.chat_pane.conversation_created.connect(lambda cid: self.conversations.refresh(select=cid))
        self.splitter = splitter = QSplitter()
        splitter.setObjectName("conversations-chat")
        splitter.addWidget(self.conversations)
        splitter.addWidget(self.chat_pane)
        splitter.setStretchFactor(1, 1)
        splitter.setSizes([230, 700])
        self.setCentralWidget(splitter)

        self.metrics = MetricsDock()
        self.chat_pane.signals.step.connect(self.metrics.record)
        self.addDockWidget(Qt.DockWidgetArea.RightDockWidgetArea, self.metrics)
        self.privacy = PrivacyDock(self.host, lambda: self.settings)
        self.privacy.status.connect(self.show_status)
        self.privacy.view.shown.connect(self._quote_privacy)
        self.addDockWidget(Qt.DockWidgetArea.RightDockWidgetArea, self.privacy)
        self.tabifyDockWidget(self.metrics, self.privacy)
        # A clinician's default: the chat and what the privacy measurement says. The live plots are for
        # admins, one click away in View (and remembered once shown).
        self.metrics.hide()
        self.privacy.raise_()
        # The chat keeps most of the screen; the panel can be widened (and is remembered).
        self.resizeDocks([self.privacy], [panel_width(self.width())], Qt.Orientation.Horizontal)

        self.status = QLabel(translate("MainWindow", "Starting…"))
        self.load_progress = QProgressBar()
        self.load_progress.setAccessibleName(translate("MainWindow", "Progress"))
        self.load_progress.setAccessibleDescription(
            translate("MainWindow", "Loading the model, or exporting a worker bundle: the status line says which")
        )
        self.load_progress.setMaximumWidth(220)
        self.load_progress.setVisible(False)
        self.statusBar().addWidget(self.status, 1)
        self.statusBar().addPermanentWidget(self.load_progress)
        self.bundle_export = WorkerBundleExport(self.host, lambda: self.settings, self)
        self.bundle_export.status.connect(self.show_status)
        self.bundle_export.progress.connect(self._on_progress)
        self.bundle_export.running.connect(self.load_progress.setVisible)

        # Exporting a worker bundle is the admin's job: it lives in the settings panel, beside the depth.
        menu = self.menuBar()
        file_menu = menu.addMenu(translate("MainWindow", "&File"))
        for label, slot, keys in (
            (translate("MainWindow", "&New conversation"), self.new_conversation, QKeySequence("Ctrl+N")),
            (
                translate("MainWindow", "&Export conversation as Markdown…"),
                self.chat_pane.export_clicked,
                QKeySequence("Ctrl+E"),
            ),
            (translate("MainWindow", "&Quit"), self.close, QKeySequence("Ctrl+Q")),
        ):
            action = QAction(label, self)
            action.setShortcut(keys)
            action.triggered.connect(slot)
            file_menu.addAction(action)
        view_menu = menu.addMenu(translate("MainWindow", "&View"))
        self.privacy.toggleViewAction().setText(translate("MainWindow", "&Privacy"))
        view_menu.addAction(self.privacy.toggleViewAction())
        view_menu.addAction(self.metrics.toggleViewAction())
        self.preferences = QAction(translate("MainWindow", "&Preferences…"), self)
        self.preferences.setShortcut(QKeySequence("Ctrl+,"))
        self.preferences.triggered.connect(self.open_settings)
        menu.addMenu(translate("MainWindow", "&Settings")).addAction(self.preferences)
        self.watchdog = QTimer(self)
        self.watchdog.timeout.connect(self._watch_worker)
        self.watchdog.start(2000)

    def resizeEvent(self, event) -> None:  # noqa: N802 (Qt's name)
        """A narrower window narrows the docked panel too, once the chat would have less than its share: Qt
        takes all the width from the chat."""
        super().resizeEvent(event)
        room = max(event.size().width() - LIST_AND_CHAT, 0)
        if event.size().width() >= event.oldSize().width():
            return  # a panel the user widened stays as wide
        for dock in (self.privacy, self.metrics):
            if dock.isVisible() and not dock.isFloating() and dock.width() > room:
                self.resizeDocks([dock], [room], Qt.Orientation.Horizontal)

    def focusNextPrevChild(self, forward: bool) -> bool:  # noqa: N802 (Qt's name)
        """Tab and Shift+Tab, past what the user cannot see: QMainWindow parks a dock tab bar it is not
        using outside the window, still "visible", and Tab went there (focus nowhere to be seen)."""
        for _ in range(FOCUS_SKIPS):
            if not super().focusNextPrevChild(forward):
                return False
            if not self._parked(QApplication.focusWidget()):
                return True
        return True

    def _parked(self, widget: QWidget | None) -> bool:
        return widget is not None and widget.parentWidget() is self and not self.rect().intersects(widget.geometry())

    def show_status(self, message: str) -> None:
        self.status.setText(message)

    def new_conversation(self) -> None:
        if self.chat_pane.generating:
            return
        self.chat_pane.new_conversation()
        self.conversations.list.clearSelection()
        self.conversations.list.setCurrentItem(None)

    def show_privacy(self) -> None:
        """The banner's link: bring the Privacy panel up (shown again if the user had closed it)."""
        self.privacy.show()
        self.privacy.raise_()

    def _quote_privacy(self) -> None:
        view = self.privacy.view
        self.chat_pane.exposure = view.exposure_words(view.report, self.privacy.depth)
        self.chat_pane.update_banner()

    # -- layout remembered ------------------------------------------------------------------------
    def _restore_layout(self) -> None:
        state = window_state()
        if state.value("version", 0, int) != STATE_VERSION:
            return
        geometry, docks, split = state.value("geometry"), state.value("docks"), state.value("splitter")
        if geometry is not None:
            self.restoreGeometry(geometry)
        if docks is not None:
            self.restoreState(docks, STATE_VERSION)
        if split is not None:
            self.splitter.restoreState(split)

    def save_layout(self) -> None:
        state = window_state()
        state.setValue("version", STATE_VERSION)
        state.setValue("geometry", self.saveGeometry())
        state.setValue("docks", self.saveState(STATE_VERSION))
        state.setValue("splitter", self.splitter.saveState())
        state.sync()

    # -- engine -----------------------------------------------------------------------------------
    def engine_config(self) -> EngineConfig:
        provider = self.settings.provider
        token = credentials.get_token(provider.name) if provider else None
        return EngineConfig(
            model=self.settings.model,
            split=self.settings.split_spec,
            endpoint=provider.endpoint if provider else None,
            token=token,
            cert_sha256=(provider.cert_sha256 or None) if provider else None,
            compress_wire=provider.compress_wire if provider else True,
            device=self.settings.device,
            mode=self.settings.decoding_mode,
            budget=self.settings.budget,
            allow_unencrypted=self.settings.unencrypted_allowed,
        )

    def start(self) -> asyncio.Task:
        """Begin loading the model and connecting to the worker in the background; Send waits for it.

        A provider that cannot be reached or refuses the token is reported as soon as that is known,
        not at the first message."""
        self.loading_config = self.engine_config()
        self.engine_task = task = asyncio.ensure_future(self._load_engine())
        task.add_done_callback(self._loaded)
        return task

    def _loaded(self, task: asyncio.Task) -> None:
        if task.cancelled() or task is not self.engine_task:
            return
        error = task.exception()
        if error is not None and not self.chat_pane.generating:  # an answer waiting on it says so itself
            self.chat_pane.show_error(error)

    async def ensure_engine(self) -> ChatInfo:
        task = self.engine_task
        stale = task is not None and self.loading_config != self.engine_config()
        failed = task is not None and task.done() and (task.cancelled() or task.exception() is not None)
        if task is None or stale or failed:
            self.start()
        return await asyncio.shield(self.engine_task)

    async def _load_engine(self) -> ChatInfo:
        self.load_progress.setVisible(True)
        self.status.setText(translate("MainWindow", "Loading the model…"))
        try:
            opening = self.host.open(self.engine_config(), self.loading.progress.emit)
            if self.settings.pseudonymising:  # the detector loads beside the model, not at the first message
                spanish = QLocale().language() == QLocale.Language.Spanish  # the language the user chose
                info, _ = await asyncio.gather(opening, self.host.prepare_pseudonymisation(spanish))
            else:
                info = await opening
        finally:
            self.load_progress.setVisible(False)
        try:
            await self.privacy.refresh()
        except Exception as exc:  # the estimate is extra: never let it block the chat
            self.privacy.view.statement.setText(
                translate("MainWindow", "The privacy estimate could not be read: {error}").format(error=exc)
            )
        settle()  # later collections skip what loading made (gc_guard): no stall in mid-answer
        self.chat_pane.clear_error()
        provider = self.settings.provider
        if info.embedded:
            ready = translate("MainWindow", "Ready — on this computer.")
        else:
            ready = translate("MainWindow", "Ready — connected to “{provider}”.").format(
                provider=provider.name if provider else info.endpoint
            )
        self.status.setText(ready)
        return info

    def _on_progress(self, message: str, fraction: float) -> None:
        self.status.setText(progress_text(message))
        self.load_progress.setValue(int(100 * fraction))

    def _watch_worker(self) -> None:
        """The embedded worker is the app's child: if it dies, say so and restart it on the next message."""
        if not self.host.worker_alive():
            self.status.setText(
                translate("MainWindow", "The local worker stopped; it will be restarted for the next message.")
            )
            self.engine_task = None
            asyncio.ensure_future(self.host.close_chat())

    # -- settings ---------------------------------------------------------------------------------
    def open_settings(self):
        from app.ui.settings_dialog import SettingsDialog

        info = self.host.info
        dialog = SettingsDialog(
            self.settings,
            info.num_layers if info else DEFAULT_LAYERS,
            self.privacy.view.report,
            self.host.probe,
            self,
            self.local_step_cost(),
            self.host.inspect_model,
        )
        dialog.export_requested.connect(
            lambda: self.bundle_export.choose_folder(
                dialog.model_page.depth.currentData(), dialog.model_page.model.text().strip()
            )
        )
        self.bundle_export.progress.connect(dialog.model_page.show_export_progress)
        self.bundle_export.running.connect(dialog.model_page.export_progress.setVisible)
        self.bundle_export.status.connect(dialog.model_page.export_status.setText)
        dialog.accepted.connect(lambda: self.apply_settings(dialog.chosen))
        dialog.open()
        return dialog

    def local_step_cost(self) -> LocalStepCost | None:
        """This computer's measured compute in a decode step, per local layer and the rest (None before an answer)."""
        return self.chat_pane.local_step_cost() if self.host.info else None

    def apply_settings(self, settings: AppSettings) -> None:
        """Save and use new settings: when they change the engine (a new token included), it reopens at
        once — or, while an answer is being written, for the next message."""
        try:
            save_settings(settings)
        except (SettingsError, OSError) as exc:  # the policy or the disk changed since the dialog checked
            self.status.setText(error_text(exc))
            return
        if settings.language != self.settings.language:  # every window would have to be rebuilt in it
            self.status.setText(translate("MainWindow", "The language changes the next time splitchat starts."))
        before = self.engine_config()
        self.settings = settings
        self.chat_pane.update_banner()
        now = self.engine_config()
        # A new token went to the keyring before this ran, so ``before`` already has it: compare with what
        # the engine was opened with too.
        if now != before or (self.loading_config is not None and now != self.loading_config):
            self.engine_task = None
            if self.loading_config is None:
                pass  # nothing was opened yet: the first message opens the new configuration
            elif self.chat_pane.generating:
                self.status.setText(translate("MainWindow", "Settings saved; they apply from the next message."))
            else:
                self.start()  # at once: a token or endpoint that does not work is reported now
        if self.privacy.view.report is not None or self.host.info is not None:
            self.privacy.show_depth()

    # -- closing ----------------------------------------------------------------------------------
    def closeEvent(self, event) -> None:  # noqa: N802 (Qt's name)
        self.save_layout()
        self.chat_pane.stop_flag.set()
        self.privacy.cancel()
        self.watchdog.stop()
        if self.owns_host:
            self.host.shutdown()  # closes the worker session and stops the embedded worker process
        self.closed.set()
        super().closeEvent(event)
