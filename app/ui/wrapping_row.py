"""A row of button groups that puts a group on the next line when the row is too narrow for it.

Side by side, the chat's buttons were what kept the window wider than a 1024-pixel screen; wrapped, the row
needs only its widest group.
"""

from __future__ import annotations

from PySide6.QtCore import QPoint, QRect, QSize, Qt
from PySide6.QtWidgets import QApplication, QHBoxLayout, QLayout, QLayoutItem, QStyle, QWidget


def button_group(*buttons: QWidget) -> QWidget:
    """``buttons`` side by side, as one piece of a wrapping row."""
    group = QWidget()
    row = QHBoxLayout(group)
    row.setContentsMargins(0, 0, 0, 0)
    for button in buttons:
        row.addWidget(button)
    return group


class WrappingRow(QLayout):
    """Groups left to right, the last at the right edge of its line; a group that does not fit starts a line."""

    def __init__(self, parent: QWidget | None = None):
        super().__init__(parent)
        self._items: list[QLayoutItem] = []
        self.setContentsMargins(0, 0, 0, 0)

    # -- QLayout's interface ----------------------------------------------------------------------
    def addItem(self, item: QLayoutItem) -> None:  # noqa: N802 (Qt's names, here and below)
        self._items.append(item)

    def count(self) -> int:
        return len(self._items)

    def itemAt(self, index: int) -> QLayoutItem | None:
        return self._items[index] if 0 <= index < len(self._items) else None

    def takeAt(self, index: int) -> QLayoutItem | None:
        return self._items.pop(index) if 0 <= index < len(self._items) else None

    def expandingDirections(self) -> Qt.Orientation:
        return Qt.Orientation(0)

    def hasHeightForWidth(self) -> bool:
        return True

    def heightForWidth(self, width: int) -> int:
        return self._arrange(QRect(0, 0, width, 0), place=False)

    def setGeometry(self, rect: QRect) -> None:
        super().setGeometry(rect)
        self._arrange(rect, place=True)

    def sizeHint(self) -> QSize:
        """All groups on one line."""
        shown = self._shown()
        width = sum(item.sizeHint().width() for item in shown) + self.gap() * max(len(shown) - 1, 0)
        height = max((item.sizeHint().height() for item in shown), default=0)
        return QSize(width, height)

    def minimumSize(self) -> QSize:
        """The widest group: every other one can go on a line of its own."""
        shown = self._shown()
        return QSize(
            max((item.sizeHint().width() for item in shown), default=0),
            max((item.sizeHint().height() for item in shown), default=0),
        )

    # -- placing ----------------------------------------------------------------------------------
    def gap(self) -> int:
        """The space between groups: set, or the style's (a plain QLayout inherits none)."""
        if self.spacing() >= 0:
            return self.spacing()
        widget = self.parentWidget()
        style = widget.style() if widget is not None else QApplication.style()
        return style.pixelMetric(QStyle.PixelMetric.PM_LayoutHorizontalSpacing)

    def _shown(self) -> list[QLayoutItem]:
        return [item for item in self._items if not item.isEmpty()]

    def _lines(self, width: int) -> list[list[QLayoutItem]]:
        lines: list[list[QLayoutItem]] = []
        used = 0
        for item in self._shown():
            needed = item.sizeHint().width()
            if lines and used + self.gap() + needed <= width:
                lines[-1].append(item)
                used += self.gap() + needed
            else:
                lines.append([item])
                used = needed
        return lines

    def _arrange(self, rect: QRect, place: bool) -> int:
        """Place the groups in ``rect`` (when ``place``); the height they take either way."""
        lines = self._lines(rect.width())
        top = rect.y()
        for number, line in enumerate(lines):
            height = max(item.sizeHint().height() for item in line)
            if place:
                self._place_line(line, rect, top, height, last=number == len(lines) - 1)
            top += height + self.gap()
        return max(top - self.gap() - rect.y(), 0)

    def _place_line(self, line: list[QLayoutItem], rect: QRect, top: int, height: int, last: bool) -> None:
        x = rect.x()
        for index, item in enumerate(line):
            size = item.sizeHint()
            if last and index == len(line) - 1 and len(self._shown()) > 1:
                x = max(x, rect.right() + 1 - size.width())  # the row's last group keeps to the right edge
            item.setGeometry(QRect(QPoint(x, top + (height - size.height()) // 2), size))
            x += size.width() + self.gap()
