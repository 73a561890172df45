"""A keyboard focus the user can see on views the style draws none for (Fusion: a list, a scroll area)."""

from __future__ import annotations

from PySide6.QtCore import QRectF, Qt
from PySide6.QtGui import QPainter, QPen
from PySide6.QtWidgets import QAbstractScrollArea, QWidget

from app.ui.palette import colours

RING = 2  # pixels: the highlight ring of a focused view (FOCUSED's border)
# The frame thickens into the highlight colour; the padding keeps the content from moving by a pixel.
FRAME = "{name} { border: 1px solid palette(mid); padding: 1px; }"
FOCUSED = "{name}:focus { border: 2px solid palette(highlight); padding: 0px; }"


def show_focus_frame(view: QAbstractScrollArea) -> None:
    """Draw ``view``'s frame in the highlight colour while it has the focus (an empty list showed nothing).

    For a view without widgets inside: a style sheet reaches every child widget, and re-polishing each new
    message bubble cost the conversation a layout pass (see ``paint_focus_ring``)."""
    name = type(view).__name__
    view.setStyleSheet((FRAME + FOCUSED).replace("{name}", name))


def paint_focus_ring(widget: QWidget) -> None:
    """The same ring, painted just inside ``widget``'s edge (call it from its paint event while focused)."""
    pen = QPen(colours().focus.foreground, RING)  # the highlight, darkened where it kept under 3:1 (WCAG 1.4.11)
    pen.setJoinStyle(Qt.PenJoinStyle.MiterJoin)
    painter = QPainter(widget)
    painter.setPen(pen)
    half = RING / 2
    painter.drawRect(QRectF(widget.rect()).adjusted(half, half, -half, -half))
    painter.end()
