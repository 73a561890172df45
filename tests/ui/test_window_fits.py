"""The window on a laptop screen (issue 33, 5–7): it opens inside the screen and fits 1024×640, its banner
keeps to two lines, a long unbroken run wraps instead of widening the conversation, and Tab only ever stops
on a control the user can see take the focus — real widgets, offscreen."""

from __future__ import annotations

from dataclasses import replace

import pytest
from PySide6.QtCore import QRect, QSize, Qt
from PySide6.QtGui import QFontMetrics
from PySide6.QtWidgets import QApplication, QWidget

from app.data.conversations import ConversationStore
from app.data.settings import AppSettings, ProviderProfile
from app.ui.banner import banner_for
from app.ui.main_window import MainWindow
from app.ui.settings_dialog import SettingsDialog
from tests.ui.test_clinician_window import small_report

SMALL = QSize(1024, 640)
RUN = "ACC-7F3A9C2E5B1D4F6A8C0E2B4D6F8A1C3E5B7D9F1A3C5E7B9D1F7A3C5E"  # 60 characters, no space
REMOTE = AppSettings(profiles=(ProviderProfile("gpu-box", "wss://gpu.example.org:8765"),), active_profile="gpu-box")
BANNERS = {
    "on this computer": AppSettings(),
    "remote, pseudonymised": REMOTE,
    "remote, read back": replace(
        REMOTE, profiles=(replace(REMOTE.profiles[0], pseudonymise=False),), pseudonymise_always=False
    ),
    "remote, a long name": AppSettings(
        profiles=(ProviderProfile("Hospital research cluster, GPU 3", "wss://gpu.example.org:8765"),),
        active_profile="Hospital research cluster, GPU 3",
    ),
}


def make_window(qtbot, host, tmp_path, settings: AppSettings = REMOTE, size: QSize | None = None) -> MainWindow:
    window = MainWindow(host, ConversationStore(tmp_path / "c.sqlite3"), settings, owns_host=False)
    qtbot.addWidget(window)
    window.show()
    if size is not None:  # as a user narrows it: after it is shown
        window.resize(size)
    qtbot.waitUntil(lambda: window.chat_pane.width() > 0 and window.isVisible())
    QApplication.processEvents()
    return window


def settle(qtbot, rounds: int = 5) -> None:
    """Let wrapped text and fitted heights go through their layout passes."""
    for _ in range(rounds):
        QApplication.processEvents()
        qtbot.wait(10)


def inside(widget: QWidget, window: QWidget) -> bool:
    """``widget`` is shown, and all of it lies within ``window``."""
    corner = widget.mapTo(window, widget.rect().topLeft())
    return (
        widget.isVisible()
        and not widget.visibleRegion().isEmpty()
        and window.rect().contains(QRect(corner, widget.size()))
    )


# -- 5. the window fits the screen ------------------------------------------------------------------
@pytest.mark.parametrize(
    "available",
    [QRect(0, 0, 1366, 768), QRect(0, 27, 1366, 741), QRect(0, 0, 1024, 700), QRect(1920, 0, 1280, 1024)],
    ids=["1366x768", "1366x768-top-panel", "1024x700", "second-screen"],
)
def test_the_window_opens_inside_the_screens_available_area_with_room_for_its_frame(available):
    from app.ui.main_window import FRAME_ALLOWANCE, PREFERRED_SIZE, initial_geometry

    opened = initial_geometry(available)
    assert available.contains(opened.marginsAdded(FRAME_ALLOWANCE))
    assert opened.width() == min(PREFERRED_SIZE.width(), available.width() - 16)
    assert opened.height() == min(PREFERRED_SIZE.height(), available.height() - 48)


def test_a_real_window_opens_within_its_screen_and_can_be_1024_by_640(qtbot, engine_host, tmp_path):
    window = make_window(qtbot, engine_host, tmp_path)
    available = window.screen().availableGeometry()
    assert window.height() <= available.height() - 48  # the bottom row and the status bar are on the screen
    # The offscreen screen is 800 px wide, narrower than the three columns: then the window is its narrowest.
    assert window.width() <= max(available.width() - 16, window.minimumSizeHint().width())
    for docks in ("privacy", "privacy and metrics"):
        if docks != "privacy":
            window.metrics.show()
        settle(qtbot)
        hint = window.minimumSizeHint().expandedTo(window.minimumSize())
        assert hint.width() <= SMALL.width() and hint.height() <= SMALL.height(), docks

    window.resize(SMALL)
    settle(qtbot)
    assert window.size() == SMALL
    pane = window.chat_pane
    for control in (pane.send_button, pane.stop_button, pane.export_button, pane.input, window.statusBar()):
        assert inside(control, window), control
    assert inside(window.privacy.view.run_button, window)
    assert pane.width() >= 400  # the chat keeps the most of the three columns

    # Narrowed from a wide window with a 400-pixel panel, the panel gives up width too, not only the chat.
    window.resize(1440, 800)
    window.resizeDocks([window.privacy], [400], Qt.Orientation.Horizontal)
    settle(qtbot)
    window.resize(SMALL)
    settle(qtbot)
    assert pane.width() >= 400 and window.privacy.width() < 400


@pytest.mark.parametrize("case", BANNERS)
def test_at_1024_pixels_the_banner_says_where_text_goes_in_two_lines_and_details_has_the_rest(
    qtbot, engine_host, tmp_path, case
):
    settings = BANNERS[case]
    window = make_window(qtbot, engine_host, tmp_path, settings, SMALL)
    settle(qtbot)
    banner = window.chat_pane.banner
    line = banner.summary.fontMetrics().lineSpacing()
    assert banner.summary.isVisible() and not banner.detail.isVisible()
    assert banner.summary.height() <= 2 * line + 2, banner.summary.text()
    assert banner.height() <= 2 * line + 24  # the button and margins add no line

    whole, _ = banner_for(settings)
    assert banner.text() == whole  # what the existing banner tests read
    banner.details_button.click()
    settle(qtbot)
    assert banner.detail.isVisible() and banner.detail.text() == whole
    assert banner.detail.height() > 2 * line  # all of it, wrapped
    banner.details_button.click()
    settle(qtbot)
    assert not banner.detail.isVisible() and banner.summary.isVisible()


# -- 6. a long unbroken run wraps -------------------------------------------------------------------
def test_a_60_character_run_wraps_inside_the_bubble_and_is_copied_as_written(qtbot, engine_host, tmp_path):
    window = make_window(qtbot, engine_host, tmp_path, size=SMALL)
    view = window.chat_pane.chat_view
    answer = f"The accession number is **{RUN}** — quote it exactly.\n\n```\nlookup --id {RUN}\n```"
    asked = view.add("user", f"Is {RUN} the right one?")
    answered = view.add("assistant", answer)
    settle(qtbot)
    viewport = view.viewport().width()
    assert not view.horizontalScrollBar().isVisible() and view.horizontalScrollBar().maximum() == 0
    line = answered.body.viewport().width()
    assert QFontMetrics(answered.body.font()).horizontalAdvance(RUN) > line  # one line could not hold it
    for bubble in (asked, answered):
        right = bubble.mapTo(view.viewport(), bubble.rect().topRight()).x()
        assert 0 <= right < viewport
        body = bubble.body
        assert body.document().idealWidth() <= body.viewport().width()  # nothing cut off at the right
        assert body.height() >= body.document().size().height()  # nor at the bottom

    answered.copy_button.click()
    assert QApplication.clipboard().text() == answer  # Copy: the Markdown as stored
    answered.body.selectAll()
    answered.body.copy()
    assert RUN in QApplication.clipboard().text()  # a selection: the run unbroken, nothing inserted


# -- 7. every Tab stop is a control that shows the focus -------------------------------------------
def tab_chain(qtbot, start: QWidget, limit: int = 40) -> list[tuple[QWidget, bool]]:
    """Tab from ``start`` until the focus is back: each stop, and whether it looked different while it
    had the focus (grabbed then, and again once Tab had moved on)."""
    start.setFocus()
    qtbot.waitUntil(start.hasFocus)
    stops: list[tuple[QWidget, bool]] = []
    focused = previous = None
    for _ in range(limit):
        qtbot.keyClick(QApplication.focusWidget(), Qt.Key.Key_Tab)
        QApplication.processEvents()
        if previous is not None:
            stops.append((previous, focused != previous.grab().toImage()))
        previous = QApplication.focusWidget()
        if previous is start:
            return stops
        assert previous is not (stops[-1][0] if stops else start), f"Tab stayed on {previous!r}"
        focused = previous.grab().toImage()
    raise AssertionError(f"Tab did not come back to {start!r} in {limit} presses: {[w for w, _ in stops]}")


def assert_visible_stops(stops: list[tuple[QWidget, bool]], window: QWidget) -> None:
    for widget, showed_focus in stops:
        assert widget.isVisible() and widget.isEnabled(), widget
        assert not widget.visibleRegion().isEmpty() and widget.window() is window, widget
        assert showed_focus, f"{widget!r} took the focus and showed none"


def test_tab_from_run_privacy_evaluation_goes_round_the_window_through_controls_that_show_it(
    qtbot, engine_host, tmp_path
):
    window = make_window(qtbot, engine_host, tmp_path)
    pane, conversations, privacy = window.chat_pane, window.conversations, window.privacy.view
    privacy.show_report(small_report(188, 200), 2, True)  # the plot is shown: it must not take the focus
    pane.chat_view.add("user", "What is a lease?")
    pane.chat_view.add("assistant", "A [lease](https://example.org) is a contract.")
    pane.regenerate_button.setEnabled(True)
    pane.input.setCursorWidth(0)  # its frame must show the focus, not only a blinking caret
    window.activateWindow()
    qtbot.waitUntil(window.isActiveWindow)

    stops = tab_chain(qtbot, privacy.run_button)
    assert_visible_stops(stops, window)
    assert [widget for widget, _ in stops] == [
        conversations.search,
        conversations.list,
        conversations.new_button,
        conversations.rename_button,
        conversations.delete_button,
        pane.banner.details_button,
        pane.chat_view,  # PageUp/PageDown read the conversation
        *(bubble.copy_button for bubble in pane.chat_view.bubbles),
        pane.input,
        pane.send_button,  # Stop and "What the model read" are disabled here, and skipped
        pane.regenerate_button,
        pane.export_button,
    ]


def test_tab_goes_round_every_page_of_the_settings_through_controls_that_show_it(qtbot, engine_host):
    dialog = SettingsDialog(REMOTE, 30, small_report(188, 200), engine_host.probe)
    qtbot.addWidget(dialog)
    dialog.show()
    dialog.activateWindow()
    qtbot.waitUntil(dialog.isActiveWindow)
    for page in range(dialog.tabs.count()):
        dialog.tabs.setCurrentIndex(page)
        stops = tab_chain(qtbot, dialog.tabs.tabBar())
        assert_visible_stops(stops, dialog)
        assert dialog.buttons.button(dialog.buttons.StandardButton.Save) in [widget for widget, _ in stops]
        shown = dialog.tabs.currentWidget()
        for widget, _ in stops:  # this page's controls and the dialog's buttons, each once
            assert shown.isAncestorOf(widget) or dialog.buttons.isAncestorOf(widget), widget
        assert len({widget for widget, _ in stops}) == len(stops), f"page {page}: a control took Tab twice"
