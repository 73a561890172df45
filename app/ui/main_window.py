"""The main window: conversations, the streaming chat, the live metrics and the privacy view.

Model work runs on the engine host's thread; this window only awaits it (through qasync) and turns
the host's callbacks into queued Qt signals, so the UI thread never computes a token.
"""

from __future__ import annotations

import asyncio
import threading
import time
from pathlib import Path

from PySide6.QtCore import QObject, Qt, QTimer, Signal
from PySide6.QtGui import QAction, QKeySequence, QShortcut
from PySide6.QtWidgets import (
    QDockWidget,
    QFileDialog,
    QHBoxLayout,
    QLabel,
    QMainWindow,
    QPlainTextEdit,
    QProgressBar,
    QPushButton,
    QSplitter,
    QVBoxLayout,
    QWidget,
)

from app.data import credentials
from app.data.conversations import ConversationStore
from app.data.settings import AppSettings, save_settings
from app.engine.host import EngineConfig, EngineHost
from app.engine.sampling import Sampling
from app.ui.chat_view import ChatView, MessageBubble
from app.ui.conversation_panel import ConversationPanel
from app.ui.messages import explain
from app.ui.metrics_dock import MetricsDock
from app.ui.privacy_view import PrivacyView

STORE_EVERY_S = 0.5  # a streaming answer is written to disk at least this often
TITLE_CHARS = 48


class EngineSignals(QObject):
    """Callbacks from the engine thread, delivered on the UI thread (queued connections)."""

    text = Signal(int, str)  # generation number, text so far
    # One (StepTiming, Plan | None) tuple: a bare None through an ``object`` signal across threads
    # loses a reference to None in PySide6, which crashes the interpreter at exit.
    step = Signal(object)
    notice = Signal(str)
    progress = Signal(str, float)


class MainWindow(QMainWindow):
    def __init__(self, host: EngineHost, store: ConversationStore, settings: AppSettings, owns_host: bool = True):
        super().__init__()
        self.host, self.store, self.settings = host, store, settings
        self.owns_host = owns_host  # tests share one host between windows
        self.conversation_id: int | None = None
        self.generation = 0  # numbers each answer so late signals of an old one are ignored
        self.streaming: MessageBubble | None = None
        self.streaming_row: int | None = None
        self.last_store = 0.0
        self.stop_flag = threading.Event()
        self.current_task: asyncio.Task | None = None
        self.last_reply = None  # the engine's ChatReply of the last finished answer
        self.engine_task: asyncio.Task | None = None
        self.privacy_task: asyncio.Task | None = None
        self.privacy_cancel = threading.Event()
        self.privacy_settings = None  # None: the evaluation's defaults (tests pass smaller ones)
        self.closed = asyncio.Event()
        self.signals = EngineSignals()
        self.signals.text.connect(self._on_text)
        self.signals.notice.connect(self._on_notice)
        self.signals.progress.connect(self._on_progress)
        self._build()
        self.new_conversation()
        self.update_banner()

    # -- layout -----------------------------------------------------------------------------------
    def _build(self) -> None:
        self.setWindowTitle("splitchat")
        self.resize(1280, 800)
        self.banner = QLabel()
        self.banner.setWordWrap(True)
        self.banner.setStyleSheet("background: #e6f4ea; padding: 6px; border-radius: 4px;")
        self.chat_view = ChatView()
        self.error = QLabel("")
        self.error.setWordWrap(True)
        self.error.setStyleSheet("color: #b00020;")
        self.error.setVisible(False)
        self.input = QPlainTextEdit()
        self.input.setPlaceholderText("Type a message — Ctrl+Enter sends")
        self.input.setMaximumHeight(110)
        self.send_button = QPushButton("Send")
        self.stop_button = QPushButton("Stop")
        self.regenerate_button = QPushButton("Regenerate")
        self.export_button = QPushButton("Export…")
        self.send_button.clicked.connect(self.send_clicked)
        self.stop_button.clicked.connect(self.stop)
        self.regenerate_button.clicked.connect(self.regenerate_clicked)
        self.export_button.clicked.connect(self._export_clicked)
        QShortcut(QKeySequence("Ctrl+Return"), self.input, activated=self.send_clicked)
        buttons = QHBoxLayout()
        for button in (self.send_button, self.stop_button, self.regenerate_button):
            buttons.addWidget(button)
        buttons.addStretch(1)
        buttons.addWidget(self.export_button)
        chat = QWidget()
        column = QVBoxLayout(chat)
        column.addWidget(self.banner)
        column.addWidget(self.chat_view, 1)
        column.addWidget(self.error)
        column.addWidget(self.input)
        column.addLayout(buttons)
        self.conversations = ConversationPanel(self.store)
        self.conversations.selected.connect(self.open_conversation)
        self.conversations.new_requested.connect(self.new_conversation)
        splitter = QSplitter()
        splitter.addWidget(self.conversations)
        splitter.addWidget(chat)
        splitter.setStretchFactor(1, 1)
        splitter.setSizes([260, 700])
        self.setCentralWidget(splitter)

        self.metrics = MetricsDock()
        self.signals.step.connect(self.metrics.record)
        self.addDockWidget(Qt.DockWidgetArea.RightDockWidgetArea, self.metrics)
        self.privacy = PrivacyView()
        self.privacy.run_requested.connect(lambda: self._spawn_privacy())
        self.privacy.cancel_requested.connect(self.privacy_cancel.set)
        self.privacy_dock = QDockWidget("Privacy")
        self.privacy_dock.setObjectName("privacy-dock")
        self.privacy_dock.setWidget(self.privacy)
        self.addDockWidget(Qt.DockWidgetArea.RightDockWidgetArea, self.privacy_dock)
        self.tabifyDockWidget(self.metrics, self.privacy_dock)
        self.metrics.raise_()

        self.status = QLabel("Starting…")
        self.load_progress = QProgressBar()
        self.load_progress.setMaximumWidth(220)
        self.load_progress.setVisible(False)
        self.statusBar().addWidget(self.status, 1)
        self.statusBar().addPermanentWidget(self.load_progress)

        menu = self.menuBar()
        file_menu = menu.addMenu("&File")
        export_chat = QAction("Export conversation as Markdown…", self)
        export_chat.triggered.connect(self._export_clicked)
        export_worker = QAction("Export worker bundle…", self)
        export_worker.triggered.connect(self._export_worker_clicked)
        quit_action = QAction("Quit", self)
        quit_action.triggered.connect(self.close)
        for action in (export_chat, export_worker, quit_action):
            file_menu.addAction(action)
        settings_menu = menu.addMenu("&Settings")
        preferences = QAction("Preferences…", self)
        preferences.triggered.connect(self.open_settings)
        settings_menu.addAction(preferences)
        self.watchdog = QTimer(self)
        self.watchdog.timeout.connect(self._watch_worker)
        self.watchdog.start(2000)
        self._set_generating(False)

    def update_banner(self) -> None:
        provider = self.settings.provider
        where = (
            "the embedded worker on this computer (nothing leaves it)"
            if provider is None
            else f"“{provider.name}” at {provider.endpoint}"
        )
        self.banner.setText(
            "<b>Your words stay on this computer.</b> Only hidden states — numbers from the model's inner "
            f"layers, never text or token ids — are sent, to {where}. Split depth {self.settings.split}: "
            f"{self.settings.split} layers at each end run here."
        )

    # -- engine -----------------------------------------------------------------------------------
    def engine_config(self) -> EngineConfig:
        provider = self.settings.provider
        token = credentials.get_token(provider.name) if provider else None
        return EngineConfig(
            model=self.settings.model,
            split=self.settings.split,
            endpoint=provider.endpoint if provider else None,
            token=token,
            cert_sha256=(provider.cert_sha256 or None) if provider else None,
            device=self.settings.device,
            mode=self.settings.mode,
            budget=self.settings.budget,
        )

    def start(self) -> asyncio.Task:
        """Begin loading the model and worker in the background; Send waits for it."""
        self.engine_task = asyncio.ensure_future(self._load_engine())
        return self.engine_task

    async def _load_engine(self):
        self.load_progress.setVisible(True)
        self.status.setText("Loading the model…")
        try:
            chat = await self.host.open(self.engine_config(), self.signals.progress.emit)
        finally:
            self.load_progress.setVisible(False)
        where = "embedded worker" if chat.local_worker else chat.endpoint
        try:
            await self.refresh_privacy()
        except Exception as exc:  # the estimate is extra: never let it block the chat
            self.privacy.statement.setText(f"The privacy estimate could not be read: {exc}")
        self.status.setText(f"Ready: {chat.source.spec}, split {chat.split}, {where}.")
        return chat

    async def ensure_engine(self):
        if self.engine_task is None or (self.engine_task.done() and self.engine_task.exception() is not None):
            self.start()
        return await asyncio.shield(self.engine_task)

    def _on_progress(self, message: str, fraction: float) -> None:
        self.status.setText(message)
        self.load_progress.setValue(int(100 * fraction))

    def _on_notice(self, message: str) -> None:
        self.status.setText(message)

    def _watch_worker(self) -> None:
        """The embedded worker is the app's child: if it dies, say so and restart it on the next message."""
        chat = self.host.chat
        if chat is not None and chat.local_worker is not None and not chat.local_worker.alive():
            self.status.setText("The local worker stopped; it will be restarted for the next message.")
            self.engine_task = None
            asyncio.ensure_future(self.host.close_chat())

    # -- conversations ----------------------------------------------------------------------------
    def new_conversation(self) -> None:
        if self.generating:
            return
        self.conversation_id = None
        self.chat_view.clear()
        self.conversations.list.clearSelection()
        self.input.setFocus()

    def open_conversation(self, conversation_id: int) -> None:
        if self.generating or conversation_id == self.conversation_id:
            return
        self.conversation_id = conversation_id
        self.chat_view.clear()
        for message in self.store.messages(conversation_id):
            self.chat_view.add(message.role, message.content, message.complete)
        self._set_generating(False)

    def export_conversation(self, path: Path) -> None:
        if self.conversation_id is None:
            raise ValueError("there is no conversation to export")
        Path(path).write_text(self.store.export_markdown(self.conversation_id), encoding="utf-8")
        self.status.setText(f"Exported to {path}")

    def _export_clicked(self) -> None:
        if self.conversation_id is None:
            return
        title = self.store.get(self.conversation_id).title
        path, _ = QFileDialog.getSaveFileName(self, "Export conversation", f"{title}.md", "Markdown (*.md)")
        if path:
            self.export_conversation(Path(path))

    # -- generation -------------------------------------------------------------------------------
    @property
    def generating(self) -> bool:
        return self.current_task is not None and not self.current_task.done()

    def _set_generating(self, generating: bool) -> None:
        self.send_button.setEnabled(not generating)
        self.stop_button.setEnabled(generating)
        has_answer = bool(self.chat_view.bubbles) and self.chat_view.bubbles[-1].role == "assistant"
        self.regenerate_button.setEnabled(not generating and has_answer)

    def send_clicked(self) -> None:
        text = self.input.toPlainText().strip()
        if not text or self.generating:
            return
        self.input.clear()
        self.current_task = asyncio.ensure_future(self.send_prompt(text))
        self._set_generating(True)

    def regenerate_clicked(self) -> None:
        if not self.generating:
            self.current_task = asyncio.ensure_future(self.regenerate())
            self._set_generating(True)

    def stop(self) -> None:
        self.stop_flag.set()
        self.status.setText("Stopping…")

    async def send_prompt(self, text: str) -> str | None:
        """Store and show the user's message, then stream the answer; returns the answer's text."""
        if self.conversation_id is None:
            title = text.splitlines()[0][:TITLE_CHARS] or "New conversation"
            self.conversation_id = self.store.create(title).id
            self.conversations.refresh(select=self.conversation_id)
        self.store.add_message(self.conversation_id, "user", text)
        self.chat_view.add("user", text)
        return await self._answer()

    async def regenerate(self) -> str | None:
        """Replace the last answer with a new one."""
        messages = self.store.messages(self.conversation_id) if self.conversation_id else []
        if not messages or messages[-1].role != "assistant":
            return None
        self.store.delete_from(self.conversation_id, messages[-1].id)
        self.chat_view.remove_last()
        return await self._answer()

    async def _answer(self) -> str | None:
        self._set_generating(True)
        self.error.setVisible(False)
        self.stop_flag.clear()
        self.generation += 1
        conversation = self.conversation_id
        history = [{"role": m.role, "content": m.content} for m in self.store.messages(conversation)]
        bubble = self.streaming = self.chat_view.add("assistant", "")
        bubble.set_streaming(True)
        self.streaming_row = None
        number = self.generation
        try:
            await self.ensure_engine()
            self.status.setText("Writing…")
            reply = await self.host.reply(
                history,
                self.settings.max_new_tokens,
                Sampling(temperature=self.settings.temperature, top_p=self.settings.top_p),
                on_text=lambda text: self.signals.text.emit(number, text),
                on_step=lambda step, plan: self.signals.step.emit((step, plan)),
                should_stop=self.stop_flag.is_set,
                on_notice=self.signals.notice.emit,
            )
        except Exception as exc:  # every failure becomes a message; the conversation stays as it was
            self._finish(conversation, bubble.text, complete=False)
            what, todo = explain(exc)
            self.error.setText(f"{what} {todo}")
            self.error.setVisible(True)
            self.status.setText(what)
            return None
        self.last_reply = reply
        stopped = reply.generation.stop_reason == "cancelled"
        self._finish(conversation, reply.text, complete=not stopped)
        stats = reply.generation.stats
        self.status.setText(
            f"{'Stopped' if stopped else 'Done'}: {len(reply.generation.tokens)} tokens, {stats.tok_per_s:.1f} tok/s, "
            f"{stats.tokens_per_round_trip:.2f} tokens per round trip."
        )
        return reply.text

    def _finish(self, conversation: int, text: str, complete: bool) -> None:
        bubble, self.streaming = self.streaming, None
        bubble.set_streaming(False)
        if text:
            bubble.set_text(text, complete)
            self._store_answer(conversation, text, complete)
        elif self.chat_view.bubbles and self.chat_view.bubbles[-1] is bubble:
            self.chat_view.remove_last()  # nothing was produced: no empty answer left behind
        self.streaming_row = None
        self._set_generating(False)
        # The task is still "running" while this runs; buttons follow once it returns.
        QTimer.singleShot(0, lambda: self._set_generating(False))

    def _on_text(self, number: int, text: str) -> None:
        if number != self.generation or self.streaming is None:
            return  # a late signal from an answer that already finished
        self.streaming.set_text(text, True)
        self.streaming.set_streaming(True)
        self.chat_view.follow()
        if time.monotonic() - self.last_store >= STORE_EVERY_S:
            self._store_answer(self.conversation_id, text, complete=False)

    def _store_answer(self, conversation: int, text: str, complete: bool) -> None:
        if self.streaming_row is None:
            self.streaming_row = self.store.add_message(conversation, "assistant", text, complete).id
        else:
            self.store.update_message(self.streaming_row, text, complete)
        self.last_store = time.monotonic()

    # -- settings ---------------------------------------------------------------------------------
    def open_settings(self):
        from app.ui.settings_dialog import SettingsDialog

        chat = self.host.chat
        num_layers = chat.source.num_layers if chat else 30
        dialog = SettingsDialog(
            self.settings, num_layers, self.privacy.report, self.host.probe, self, self.local_ms_per_layer()
        )
        dialog.export_requested.connect(lambda: self._export_worker_clicked(dialog.depth.currentData()))
        dialog.accepted.connect(lambda: self.apply_settings(dialog.chosen))
        dialog.open()
        return dialog

    def local_ms_per_layer(self) -> float | None:
        """Measured local compute per decode step and per local layer, from the last answer (None before one)."""
        if self.last_reply is None or self.host.chat is None:
            return None
        steps = self.last_reply.generation.stats.decode_steps
        split = self.host.chat.split
        if not steps:
            return None
        return sum(s.local_compute_ms for s in steps) / len(steps) / (split.k_in + split.k_out)

    def apply_settings(self, settings: AppSettings) -> None:
        """Save and use new settings; the engine reopens on the next message if they changed it."""
        save_settings(settings)
        before = self.engine_config()
        self.settings = settings
        self.update_banner()
        if self.engine_config() != before:
            self.engine_task = None
            self.status.setText("Settings saved; the model reconnects for the next message.")
        if self.privacy.report is not None or self.host.chat is not None:
            self.privacy.show_report(self.privacy.report, int(self.settings.split.split(",")[0]), self._public())

    # -- privacy ----------------------------------------------------------------------------------
    def _public(self) -> bool:
        chat = self.host.chat
        return chat.source.public_checkpoint if chat else True

    async def _source(self):
        chat = self.host.chat
        if chat is not None:
            return chat.source
        from app.engine.models import resolve_model

        return await asyncio.to_thread(resolve_model, self.settings.model)

    async def refresh_privacy(self) -> None:
        """Show the cached evaluation for the current model, or that none exists."""
        from app.engine.fingerprints import model_fingerprint
        from app.engine.privacy import latest_report

        source = await self._source()
        fingerprint = await asyncio.to_thread(model_fingerprint, source)
        report = await asyncio.to_thread(latest_report, fingerprint)
        self.privacy.show_report(report, int(self.settings.split.split(",")[0]), source.public_checkpoint)

    def _spawn_privacy(self) -> asyncio.Task:
        self.privacy_task = asyncio.ensure_future(self.run_privacy())
        return self.privacy_task

    async def run_privacy(self) -> dict | None:
        from app.engine.jobs import Cancelled
        from app.engine.privacy import PrivacySettings, run

        self.privacy_cancel.clear()
        self.privacy.set_running(True)
        progress = _ThreadProgress(self.privacy.set_progress)
        try:
            source = await self._source()
            settings = self.privacy_settings or PrivacySettings()
            report = await asyncio.to_thread(run, source, settings, progress.emit, self.privacy_cancel)
        except Cancelled:
            self.status.setText("Privacy evaluation cancelled; nothing was saved.")
            return None
        except Exception as exc:
            self.status.setText(" ".join(explain(exc)))
            return None
        finally:
            self.privacy.set_running(False)
        self.privacy.show_report(report, int(self.settings.split.split(",")[0]), source.public_checkpoint)
        self.status.setText("Privacy evaluation finished.")
        return report

    # -- worker bundle ----------------------------------------------------------------------------
    def _export_worker_clicked(self, split: str | None = None) -> None:
        folder = QFileDialog.getExistingDirectory(self, "Export the worker bundle into an empty folder")
        if folder:
            asyncio.ensure_future(self.export_worker_bundle(Path(folder), split))

    async def export_worker_bundle(self, folder: Path, split: str | None = None):
        from app.engine.split import SplitSpec
        from app.engine.worker_bundle import export_worker_bundle as write_bundle

        progress = _ThreadProgress(self._on_progress)
        self.load_progress.setVisible(True)
        try:
            source = await self._source()
            split = SplitSpec.parse(split or self.settings.split)
            manifest = await asyncio.to_thread(write_bundle, source, split, folder, None, progress.emit)
        except Exception as exc:
            self.status.setText(" ".join(explain(exc)))
            return None
        finally:
            self.load_progress.setVisible(False)
        self.status.setText(
            f"Worker bundle written to {folder}: layers {manifest.first_layer}–{manifest.last_layer - 1}, "
            f"fingerprint {manifest.fingerprint[:23]}…"
        )
        return manifest

    # -- closing ----------------------------------------------------------------------------------
    def closeEvent(self, event) -> None:  # noqa: N802 (Qt's name)
        self.stop_flag.set()
        self.privacy_cancel.set()
        self.watchdog.stop()
        if self.owns_host:
            self.host.shutdown()  # closes the worker session and stops the embedded worker process
        self.closed.set()
        super().closeEvent(event)


class _ThreadProgress(QObject):
    """Progress from a worker thread, delivered to a UI-thread callback."""

    changed = Signal(str, float)

    def __init__(self, callback):
        super().__init__()
        self.changed.connect(callback)

    def emit(self, message: str, fraction: float) -> None:
        self.changed.emit(message, fraction)
