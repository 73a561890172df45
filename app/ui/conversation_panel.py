"""The conversation list: search, new, rename, delete."""

from __future__ import annotations

from PySide6.QtCore import Qt, Signal
from PySide6.QtGui import QKeySequence, QShortcut
from PySide6.QtWidgets import (
    QHBoxLayout,
    QInputDialog,
    QLineEdit,
    QListWidget,
    QListWidgetItem,
    QMessageBox,
    QPushButton,
    QVBoxLayout,
    QWidget,
)

from app.data.conversations import ConversationStore
from app.ui.i18n import date_time, translate


class ConversationPanel(QWidget):
    """Lists the store's conversations, newest first; emits the one the user picks."""

    selected = Signal(int)  # conversation id
    new_requested = Signal()
    deleted = Signal(int)  # conversation id: the chat must not keep showing (or regenerating) it

    def __init__(self, store: ConversationStore):
        super().__init__()
        self.store = store
        layout = QVBoxLayout(self)
        self.search = QLineEdit()
        self.search.setPlaceholderText(translate("ConversationPanel", "Search conversations…"))
        self.search.setClearButtonEnabled(True)
        # A placeholder is no name for a screen reader: it is gone once something is typed.
        self.search.setAccessibleName(translate("ConversationPanel", "Search conversations"))
        self.search.setAccessibleDescription(
            translate("ConversationPanel", "Shows only the conversations whose title or messages contain the words")
        )
        self.search.textChanged.connect(lambda _: self.refresh())
        self.list = QListWidget()
        self.list.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)  # long titles elide
        self.list.currentItemChanged.connect(self._picked)
        self.list.setTextElideMode(Qt.TextElideMode.ElideRight)
        self.list.setAccessibleName(translate("ConversationPanel", "Conversations"))
        self.list.setAccessibleDescription(
            translate("ConversationPanel", "Newest first; choose one to read it, Delete removes it")
        )
        delete = QShortcut(QKeySequence.StandardKey.Delete, self.list, activated=self._delete_clicked)
        delete.setContext(Qt.ShortcutContext.WidgetShortcut)
        buttons = QHBoxLayout()
        self.new_button = QPushButton(translate("ConversationPanel", "New"))
        self.rename_button = QPushButton(translate("ConversationPanel", "Rename"))
        self.delete_button = QPushButton(translate("ConversationPanel", "Delete"))
        self.new_button.clicked.connect(self.new_requested.emit)
        self.rename_button.clicked.connect(self._rename_clicked)
        self.delete_button.clicked.connect(self._delete_clicked)
        self.new_button.setToolTip(translate("ConversationPanel", "Start a new conversation (Ctrl+N)"))
        self.rename_button.setToolTip(translate("ConversationPanel", "Rename the chosen conversation"))
        self.delete_button.setToolTip(
            translate("ConversationPanel", "Delete the chosen conversation and all its messages (asks first)")
        )
        for button in (self.new_button, self.rename_button, self.delete_button):
            buttons.addWidget(button)
        layout.addWidget(self.search)
        layout.addWidget(self.list, 1)
        layout.addLayout(buttons)
        self.refresh()

    def refresh(self, select: int | None = None) -> None:
        current = select if select is not None else self.current_id()
        self.list.blockSignals(True)
        self.list.clear()
        for conversation in self.store.list(self.search.text()):
            item = QListWidgetItem(conversation.title)
            item.setData(Qt.ItemDataRole.UserRole, conversation.id)
            # When it last changed, as the user's locale writes dates: the list itself keeps to titles.
            item.setToolTip(
                translate("ConversationPanel", "{title}\nLast message: {when}").format(
                    title=conversation.title, when=date_time(conversation.updated)
                )
            )
            self.list.addItem(item)
            if conversation.id == current:
                self.list.setCurrentItem(item)
        self.list.blockSignals(False)

    def current_id(self) -> int | None:
        item = self.list.currentItem()
        return item.data(Qt.ItemDataRole.UserRole) if item else None

    def rename(self, conversation_id: int, title: str) -> None:
        self.store.rename(conversation_id, title)
        self.refresh()

    def delete(self, conversation_id: int) -> None:
        self.store.delete(conversation_id)
        self.refresh()
        self.deleted.emit(conversation_id)

    def _picked(self, item: QListWidgetItem | None, _previous=None) -> None:
        if item is not None:
            self.selected.emit(item.data(Qt.ItemDataRole.UserRole))

    def _rename_clicked(self) -> None:
        conversation_id = self.current_id()
        if conversation_id is None:
            return
        dialog = self.rename_dialog(self.store.get(conversation_id).title)
        if dialog.exec() == QInputDialog.DialogCode.Accepted and dialog.textValue().strip():
            self.rename(conversation_id, dialog.textValue())

    def rename_dialog(self, title: str) -> QInputDialog:
        """Asks for a conversation's new title, ``title`` typed in."""
        dialog = QInputDialog(self)
        dialog.setWindowTitle(translate("ConversationPanel", "Rename conversation"))
        dialog.setLabelText(translate("ConversationPanel", "Title:"))
        dialog.setTextValue(title)
        return dialog

    def _delete_clicked(self) -> None:
        conversation_id = self.current_id()
        if conversation_id is None:
            return
        if self.delete_confirmation(self.store.get(conversation_id).title).exec() == QMessageBox.StandardButton.Yes:
            self.delete(conversation_id)
            self.new_requested.emit()

    def delete_confirmation(self, title: str) -> QMessageBox:
        """Asks before deleting; Enter or Esc keeps the conversation (No is the default)."""
        box = QMessageBox(
            QMessageBox.Icon.Question,
            translate("ConversationPanel", "Delete conversation"),
            translate("ConversationPanel", "Delete “{title}” and all its messages? This cannot be undone.").format(
                title=title
            ),
            QMessageBox.StandardButton.Yes | QMessageBox.StandardButton.No,
            self,
        )
        box.setDefaultButton(QMessageBox.StandardButton.No)
        box.setEscapeButton(QMessageBox.StandardButton.No)
        return box
