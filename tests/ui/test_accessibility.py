"""Accessibility (issue 33, 11): what a screen reader is told, the contrast of what is drawn, and the window
at 150 % text — real widgets, offscreen.

Names and descriptions are read as Orca and NVDA read them, through Qt's accessibility interfaces (Qt
infers a name from a button's text or a label's buddy; a field with neither has none). Contrast is
measured on the pixels the widgets draw, under the default palette and a dark and a high-contrast one,
and on every pair ``app.ui.palette`` lists.
"""

from __future__ import annotations

from collections import Counter
from contextlib import contextmanager
from dataclasses import replace

import pytest
from PySide6.QtCore import QRect, QSize
from PySide6.QtGui import QAccessible, QColor, QFont, QGuiApplication, QImage, QPalette
from PySide6.QtWidgets import (
    QAbstractButton,
    QAbstractItemView,
    QAbstractScrollArea,
    QAbstractSlider,
    QAbstractSpinBox,
    QApplication,
    QComboBox,
    QGraphicsView,
    QHeaderView,
    QLabel,
    QLineEdit,
    QPlainTextEdit,
    QProgressBar,
    QScrollBar,
    QTabBar,
    QTextEdit,
    QWidget,
)

from app.data.conversations import ConversationStore
from app.data.settings import AppSettings, ProviderProfile
from app.host import ModelText
from app.ui.chat_view import MessageBubble
from app.ui.main_window import MainWindow
from app.ui.review_dialog import ReviewDialog
from app.ui.settings_dialog import SettingsDialog
from tests.ui.test_clinician_window import small_report

SMALL = QSize(1024, 640)
REMOTE = AppSettings(profiles=(ProviderProfile("gpu-box", "wss://gpu.example.org:8765"),), active_profile="gpu-box")
READ_BACK = replace(REMOTE, profiles=(replace(REMOTE.profiles[0], pseudonymise=False),), pseudonymise_always=False)
# What a person can operate or read as a control: each must have a name a screen reader can say.
CONTROLS = (
    QAbstractButton,
    QLineEdit,
    QTextEdit,
    QPlainTextEdit,
    QComboBox,
    QAbstractSpinBox,
    QAbstractItemView,
    QTabBar,
    QAbstractSlider,
    QGraphicsView,  # the plots
    QProgressBar,
    QAbstractScrollArea,  # the conversation
)
# Pieces of Qt's own composite widgets, spoken for by their owner: a scroll area's bars, a spin box's line
# edit, a combo box's popup list, a table's headers and corner, a line edit's clear button.
INSIDE_OWNER = (QComboBox, QAbstractSpinBox, QLineEdit)


def qt_part(widget: QWidget) -> bool:
    if isinstance(widget, (QScrollBar, QHeaderView)) or widget.objectName().startswith("qt_"):
        return True
    parent = widget.parentWidget()
    while parent is not None:
        if isinstance(parent, INSIDE_OWNER):
            return True
        parent = parent.parentWidget()
    return False


def spoken(widget: QWidget, what: QAccessible.Text = QAccessible.Text.Name) -> str:
    interface = QAccessible.queryAccessibleInterface(widget)
    return interface.text(what).strip() if interface is not None else ""


def label_of(widget: QWidget) -> str:
    """The label a screen reader reads a control by through its "labelled by" relation (a label's buddy)."""
    interface = QAccessible.queryAccessibleInterface(widget)
    relations = interface.relations(QAccessible.Relation.Label) if interface is not None else []
    # A group box labels everything in it too: only a label of the control's own counts.
    labels = [label for label, _ in relations if isinstance(label.object(), QLabel)]
    return " ".join(label.text(QAccessible.Text.Name).strip() for label in labels).strip()


def named(widget: QWidget) -> str:
    """What a screen reader calls ``widget``. On Linux a combo box's accessible name is its current value (Qt
    says so: AT-SPI takes the name from the "labelled by" relation), so a combo box needs a buddy label."""
    if isinstance(widget, QComboBox):
        return label_of(widget)
    return spoken(widget) or label_of(widget)


def unnamed(root: QWidget) -> list[str]:
    """Every control under ``root`` a screen reader could not name."""
    return [
        f"{type(widget).__name__} under {type(widget.parentWidget()).__name__}"
        for widget in [root, *root.findChildren(QWidget)]
        if isinstance(widget, CONTROLS) and not qt_part(widget) and not named(widget)
    ]


def make_window(qtbot, host, tmp_path, settings: AppSettings = REMOTE, size: QSize | None = SMALL) -> MainWindow:
    window = MainWindow(host, ConversationStore(tmp_path / "c.sqlite3"), settings, owns_host=False)
    qtbot.addWidget(window)
    window.show()
    if size is not None:
        window.resize(size)
    qtbot.waitUntil(lambda: window.chat_pane.width() > 0 and window.isVisible())
    settle(qtbot)
    return window


def settle(qtbot, rounds: int = 5) -> None:
    for _ in range(rounds):
        QApplication.processEvents()
        qtbot.wait(10)


def converse(window: MainWindow) -> list[MessageBubble]:
    view = window.chat_pane.chat_view
    return [
        view.add("user", "Summarise the note for Mr Pendleford, please."),
        view.add("assistant", "The patient was **admitted** on Monday.\n\n- Treated\n- Discharged", "stopped"),
    ]


# -- every control has a name (and a description) -------------------------------------------------
def test_every_control_of_the_window_and_its_dialogs_has_an_accessible_name(qtbot, engine_host, tmp_path):
    window = make_window(qtbot, engine_host, tmp_path)
    converse(window)
    window.privacy.view.show_report(small_report(188, 200), 2, True)  # the plot is shown
    window.metrics.show()
    settle(qtbot)
    assert unnamed(window) == []

    dialog = SettingsDialog(REMOTE, 30, small_report(188, 200), engine_host.probe, window)
    qtbot.addWidget(dialog)
    dialog.show()
    for page in range(dialog.tabs.count()):
        dialog.tabs.setCurrentIndex(page)
        settle(qtbot, 2)
        assert unnamed(dialog) == [], dialog.tabs.tabText(page)
    # A field is named by what it asks for, not by its value or the group around it.
    assert named(dialog.provider_page.provider) == "Provider" and named(dialog.model_page.depth) == "Split depth"
    assert named(dialog.mode) == "Decoding mode" and named(dialog.language) == "Language"
    assert (
        spoken(dialog.provider_page.token) == "Access token" and label_of(dialog.provider_page.token) == "Access token"
    )
    assert spoken(dialog.model_page.model) == "Model"  # not the group box's title, "Split depth (layers kept …)"

    text = "Please summarise the note for Pendleford."
    review = ReviewDialog(ModelText(text, ((31, 41),)), None, None, window)
    qtbot.addWidget(review)
    review.show()
    settle(qtbot, 2)
    assert unnamed(review) == []
    box = window.conversations.delete_confirmation("A title")
    qtbot.addWidget(box)
    box.show()
    assert unnamed(box) == []


def test_the_chat_s_controls_say_what_they_do_as_well_as_their_name(qtbot, engine_host, tmp_path):
    window = make_window(qtbot, engine_host, tmp_path)
    bubbles = converse(window)
    pane, panel = window.chat_pane, window.conversations
    controls = [
        panel.search,
        panel.list,
        panel.new_button,
        panel.rename_button,
        panel.delete_button,
        pane.banner.details_button,
        pane.chat_view,
        pane.input,
        pane.send_button,
        pane.stop_button,
        pane.regenerate_button,
        pane.model_view_button,
        pane.export_button,
        window.privacy.view.run_button,
        window.privacy.view.cancel_button,
        window.privacy.view.plot,
        *(bubble.copy_button for bubble in bubbles),
    ]
    assert [c for c in controls if not spoken(c, QAccessible.Text.Description)] == []
    # Each Copy says whose message it copies: a screen reader hears "Copy" once per message.
    assert "You" in spoken(bubbles[0].copy_button, QAccessible.Text.Description)
    assert "Assistant" in spoken(bubbles[1].copy_button, QAccessible.Text.Description)


# -- the conversation, message by message ---------------------------------------------------------
def accessible_objects(interface) -> list:
    """The objects of ``interface``'s accessible subtree, in the order a screen reader walks it."""
    found = []
    for index in range(interface.childCount()):
        child = interface.child(index)
        if child is None:
            continue
        found.append(child.object())
        found += accessible_objects(child)
    return found


def test_a_screen_reader_reads_the_conversation_message_by_message_with_who_wrote_it(qtbot, engine_host, tmp_path):
    window = make_window(qtbot, engine_host, tmp_path)
    asked, answered = converse(window)
    streaming = window.chat_pane.chat_view.add("assistant", "Writing the next")
    streaming.set_streaming(True)
    settle(qtbot)
    view = window.chat_pane.chat_view
    assert spoken(view)  # the conversation itself is named

    walked = [o for o in accessible_objects(QAccessible.queryAccessibleInterface(view)) if isinstance(o, MessageBubble)]
    assert walked == [asked, answered, streaming]  # in the order they were written
    names = [spoken(bubble) for bubble in walked]
    assert names[0] == "You: Summarise the note for Mr Pendleford, please."
    # The answer as words, not Markdown, and how it ended in words too.
    assert names[1].startswith("Assistant (stopped): The patient was admitted on Monday.")
    assert "Treated" in names[1] and "**" not in names[1]
    assert names[2] == "Assistant (writing…): Writing the next"
    # Its text is read as text as well (the body's own name says whose it is).
    assert "You" in spoken(asked.body) and "Assistant" in spoken(answered.body)
    streaming.set_text("Writing the next words")
    streaming.set_streaming(False)
    assert spoken(streaming) == "Assistant: Writing the next words"


def test_a_stand_in_is_underlined_and_named_as_one_not_shown_by_colour_alone(qtbot, engine_host, tmp_path):
    window = make_window(qtbot, engine_host, tmp_path)
    bubble = window.chat_pane.chat_view.add("user", "Please summarise the note for Pendleford.")
    model_text = "Please summarise the note for Ashworth."
    at = model_text.index("Ashworth")
    bubble.show_model_text(model_text, ((at, at + 8),))
    settle(qtbot)
    cursor = bubble.body.document().find("Ashworth")
    assert not cursor.isNull() and cursor.charFormat().fontUnderline()
    plain = bubble.body.document().find("summarise")
    assert not plain.charFormat().fontUnderline()
    name = spoken(bubble)
    assert name.startswith("You (as the model read it): ") and "stand-in “Ashworth”" in name

    review = ReviewDialog(ModelText(model_text, ((at, at + 8),)), None, None, window)
    qtbot.addWidget(review)
    review.show()
    found = review.view.document().find("Ashworth")
    assert found.charFormat().fontUnderline() and not review.view.document().find("note").charFormat().fontUnderline()
    assert "Ashworth" in spoken(review.view, QAccessible.Text.Description)  # the stand-ins listed for a screen reader


# -- contrast -------------------------------------------------------------------------------------
def palette_of(window: str, text: str, base: str, highlight: str) -> QPalette:
    palette = QPalette(QColor(window))
    role = QPalette.ColorRole
    for which, colour in (
        (role.Window, window),
        (role.WindowText, text),
        (role.Base, base),
        (role.AlternateBase, base),
        (role.Text, text),
        (role.Button, window),
        (role.ButtonText, text),
        (role.Highlight, highlight),
        (role.ToolTipBase, base),
        (role.ToolTipText, text),
    ):
        palette.setColor(which, QColor(colour))
    return palette


PALETTES = {
    "default": None,
    "dark": palette_of("#353535", "#ffffff", "#2a2a2a", "#2a82da"),
    "high contrast black": palette_of("#000000", "#ffffff", "#000000", "#1aebff"),
    "high contrast white": palette_of("#ffffff", "#000000", "#ffffff", "#37006e"),
}


@contextmanager
def system_palette(palette: QPalette | None):
    previous = QPalette(QGuiApplication.palette())
    if palette is not None:
        QApplication.setPalette(palette)
    try:
        yield
    finally:
        QApplication.setPalette(previous)


@pytest.mark.parametrize("theme", PALETTES)
def test_every_colour_pair_the_palette_module_gives_keeps_its_contrast(theme):
    from app.ui.palette import TEXT_CONTRAST, colours, contrast

    assert contrast(QColor("#000000"), QColor("#ffffff")) == pytest.approx(21.0)
    assert contrast(QColor("#767676"), QColor("#ffffff")) == pytest.approx(4.54, abs=0.01)  # WCAG's own example
    with system_palette(PALETTES[theme]):
        pairs = colours().pairs()
    assert len(pairs) >= 20
    short = [(what, pair.ratio) for what, pair, minimum in pairs if pair.ratio < minimum]
    assert short == []
    assert all(minimum >= 3.0 for _, _, minimum in pairs)
    assert sum(minimum == TEXT_CONTRAST for _, _, minimum in pairs) >= 15  # text, not only graphics


def drawn_contrast(widget: QWidget, inside: QWidget | None = None) -> float:
    """The contrast of what ``inside`` (a label in ``widget``) draws against what is behind it, read off the
    pixels: the commonest colour is the background, the text is the pixel farthest from it."""
    from app.ui.palette import contrast

    image = widget.grab().toImage().convertToFormat(QImage.Format.Format_RGB32)
    area = QRect(inside.mapTo(widget, inside.rect().topLeft()), inside.size()) if inside is not None else image.rect()
    pixels = Counter(
        image.pixel(x, y) for y in range(area.top(), area.bottom() + 1) for x in range(area.left(), area.right() + 1)
    )
    background = QColor.fromRgb(pixels.most_common(1)[0][0])
    return max(contrast(QColor.fromRgb(pixel), background) for pixel in pixels)


@pytest.mark.parametrize("theme", PALETTES)
def test_what_the_banner_bubbles_stand_ins_and_errors_draw_keeps_4_5_to_1_under_the_system_palette(
    qtbot, engine_host, tmp_path, theme
):
    with system_palette(PALETTES[theme]):
        for settings in (AppSettings(), REMOTE, READ_BACK):
            window = make_window(qtbot, engine_host, tmp_path / str(id(settings)), settings)
            banner = window.chat_pane.banner
            assert drawn_contrast(banner, banner.summary) >= 4.5, banner.summary.text()
            window.close()
        window = make_window(qtbot, engine_host, tmp_path / "chat")
        asked, answered = converse(window)
        pane = window.chat_pane
        pane.error.setText("The worker refused the token. Enter it again in Settings.")
        pane.error.setVisible(True)
        settle(qtbot)
        for bubble in (asked, answered):
            assert drawn_contrast(bubble, bubble.body) >= 4.5, bubble.role
            assert drawn_contrast(bubble, bubble.title) >= 4.5, bubble.role
        assert drawn_contrast(answered, answered.state) >= 4.5  # "(stopped)"
        assert drawn_contrast(pane, pane.error) >= 4.5
        text = "Ashworth Ashworth Ashworth"
        asked.show_model_text(text, ((0, 8), (9, 17), (18, 26)))  # the body all stand-ins: their own pair
        settle(qtbot)
        assert drawn_contrast(asked, asked.body) >= 4.5


def test_a_theme_switched_while_the_app_runs_restyles_the_banner_and_the_bubbles(qtbot, engine_host, tmp_path):
    window = make_window(qtbot, engine_host, tmp_path)
    asked, _ = converse(window)
    banner = window.chat_pane.banner
    with system_palette(PALETTES["dark"]):
        settle(qtbot)
        assert drawn_contrast(banner, banner.summary) >= 4.5
        assert drawn_contrast(asked, asked.body) >= 4.5


# -- 150 % text, and the Privacy panel at 1024×640 -----------------------------------------------
@contextmanager
def font_scaled(factor: float):
    previous = QFont(QApplication.font())
    font = QFont(previous)
    font.setPointSizeF(previous.pointSizeF() * factor)
    QApplication.setFont(font)
    try:
        yield
    finally:
        QApplication.setFont(previous)


def clipped(root: QWidget) -> list[str]:
    """Labels shown with less room than their text needs, and buttons narrower than their text."""
    found = []
    for widget in root.findChildren(QWidget):
        if not widget.isVisible() or widget.visibleRegion().isEmpty():
            continue
        if isinstance(widget, QLabel) and widget.text():
            if widget.wordWrap():
                needed = widget.heightForWidth(widget.width())
                if widget.height() < needed - 1:
                    found.append(f"label {widget.text()[:40]!r}: {widget.height()} px of {needed}")
            elif widget.width() < widget.minimumSizeHint().width() - 1:
                found.append(f"label {widget.text()[:40]!r}: {widget.width()} px wide of {widget.sizeHint().width()}")
        elif isinstance(widget, QAbstractButton) and not widget.objectName().startswith("qt_"):
            hint = widget.sizeHint()
            if widget.width() < hint.width() - 1 or widget.height() < hint.height() - 1:
                found.append(f"button {widget.text()!r}: {widget.size().toTuple()} of {hint.toTuple()}")
    return found


def plot_text_cut(plot) -> list[str]:
    """The plot's title and axis titles that are wider than the room they are drawn in."""
    item = plot.getPlotItem()
    cut = []
    title = item.titleLabel.item
    if title.toPlainText() and title.boundingRect().width() > item.width():
        cut.append(f"title {title.toPlainText()!r}")
    for side, room in (("bottom", lambda axis: axis.width()), ("left", lambda axis: axis.height())):
        axis = item.getAxis(side)
        if axis.label.isVisible() and axis.label.boundingRect().width() > room(axis):
            cut.append(f"{side} axis {axis.label.toPlainText()!r}")
    return cut


@pytest.mark.parametrize("scale", [1.0, 1.5], ids=["100%", "150%"])
def test_at_1024_by_640_the_privacy_panel_and_the_chat_show_all_their_text(qtbot, engine_host, tmp_path, scale):
    from app.host import bundled_model_report

    with font_scaled(scale):
        window = make_window(qtbot, engine_host, tmp_path, REMOTE, size=None)
        window.resize(SMALL)
        converse(window)
        # The longest statement it makes: the shipped measurement, said to be about a remote worker.
        window.privacy.view.show_report(bundled_model_report(), 2, True, True)
        settle(qtbot, 10)
        assert window.size() == SMALL  # nothing made the window larger than the screen
        view = window.privacy.view
        line = view.fontMetrics().lineSpacing()
        assert clipped(window) == []
        assert plot_text_cut(view.plot) == []
        # The plot keeps a readable height and the buttons stay in the window; text that does not fit beside
        # them scrolls (by keyboard too), nothing is squeezed.
        assert view.plot.height() >= 10 * line
        run = view.run_button
        assert window.rect().contains(QRect(run.mapTo(window, run.rect().topLeft()), run.size()))
        for label in (view.statement, view.checkpoint, view.legend):
            assert view.isAncestorOf(label) and label.height() >= label.heightForWidth(label.width()) - 1


def test_at_150_percent_text_every_page_of_the_settings_shows_all_its_text(qtbot, engine_host):
    with font_scaled(1.5):
        dialog = SettingsDialog(REMOTE, 30, small_report(188, 200), engine_host.probe)
        qtbot.addWidget(dialog)
        dialog.show()
        for page in range(dialog.tabs.count()):
            dialog.tabs.setCurrentIndex(page)
            settle(qtbot, 5)
            assert clipped(dialog) == [], dialog.tabs.tabText(page)
