"""Every colour the app sets, derived from the system's palette, each foreground held to a contrast its
background allows a reader (WCAG 2.1: 4.5:1 for text, 3:1 for a focus ring or a plotted line).

The banner, the message bubbles, a stand-in's highlight, the error and warning lines, the focus ring and
the plots are tints of the palette's own colours rather than fixed ones: fixed pale backgrounds under a
dark or high-contrast theme's light text were unreadable. A tint is weakened, and a foreground moved
towards black or white, until the pair keeps its contrast — so any theme, light, dark or high contrast,
gets pairs that read. No colour carries a meaning alone: the banner says in words where the text goes, a
stand-in is underlined and named as one to a screen reader, an ending is written on its bubble, and the
plots tell their series apart by line style and marker too.

``colours()`` reads the application's palette now; widgets that paint with these colours restyle when
it changes (``on_palette_change``).
"""

from __future__ import annotations

import weakref
from collections.abc import Callable
from dataclasses import dataclass

from PySide6.QtCore import QEvent, QObject
from PySide6.QtGui import QColor, QGuiApplication, QPalette

TEXT_CONTRAST = 4.5  # WCAG 2.1 AA, 1.4.3: text and images of text
GRAPHIC_CONTRAST = 3.0  # WCAG 2.1 AA, 1.4.11: a focus ring, a plotted line against its background

# The hues things are tinted towards; what is shown is a tint of the palette, never these as they are.
HUES = {
    "local": "#188038",  # the banner: nothing leaves this computer
    "pseudonymised": "#1a73e8",  # the banner: hidden states leave, identifiers replaced
    "readable": "#d93025",  # the banner: hidden states leave, and can be read back
    "user": "#1a73e8",  # bubbles
    "assistant": "#808080",  # a grey bubble
    "system": "#f9ab00",
    "stand_in": "#fbbc04",  # a stand-in for an identifier, wherever the model's text is shown
    "error": "#b00020",
    "warning": "#8a4b00",
}
# How far a background moves towards its hue, on a light and on a dark base (a dark one needs more to show).
BANNER_TINT = (0.12, 0.30)
BUBBLE_TINT = (0.08, 0.18)
STAND_IN_TINT = (0.50, 0.45)
BANNER_KINDS = ("local", "pseudonymised", "readable")
ROLES = ("user", "assistant", "system")
# The plots' series hues (privacy: public-weights and learned attacks, the baseline; metrics: the parts of a step).
SERIES_HUES = {
    "public": "#800080",
    "learned": "#d62728",
    "baseline": "#5a5a5a",
    "depth": "#000000",
    "throughput": "#1f77b4",
    "break_even": "#c80000",
    "network": "#4682b4",
    "local": "#3cb371",
    "remote": "#ff8c00",
    "serialization": "#ba55d3",
}


def luminance(colour: QColor) -> float:
    """WCAG 2.1's relative luminance of an sRGB colour (0 black … 1 white)."""

    def linear(channel: float) -> float:
        return channel / 12.92 if channel <= 0.04045 else ((channel + 0.055) / 1.055) ** 2.4

    return 0.2126 * linear(colour.redF()) + 0.7152 * linear(colour.greenF()) + 0.0722 * linear(colour.blueF())


def contrast(foreground: QColor, background: QColor) -> float:
    """WCAG 2.1's contrast ratio of two opaque colours, 1 (none) … 21 (black on white)."""
    lighter, darker = sorted((luminance(foreground), luminance(background)), reverse=True)
    return (lighter + 0.05) / (darker + 0.05)


def mix(base: QColor, towards: QColor, amount: float) -> QColor:
    """``base`` moved ``amount`` (0 … 1) of the way to ``towards``."""
    return QColor.fromRgbF(
        base.redF() + (towards.redF() - base.redF()) * amount,
        base.greenF() + (towards.greenF() - base.greenF()) * amount,
        base.blueF() + (towards.blueF() - base.blueF()) * amount,
    )


def is_dark(colour: QColor) -> bool:
    return luminance(colour) < 0.18


def readable(foreground: QColor, background: QColor, minimum: float = TEXT_CONTRAST) -> QColor:
    """``foreground``, moved towards black or white (whichever ``background`` allows more of) until it keeps
    ``minimum`` against ``background``. One of black and white always keeps 4.58:1 against any colour."""
    black, white = QColor(0, 0, 0), QColor(255, 255, 255)
    extreme = black if contrast(black, background) >= contrast(white, background) else white
    for step in range(21):
        candidate = mix(foreground, extreme, step / 20)
        if contrast(candidate, background) >= minimum:
            return candidate
    return extreme


def tint(base: QColor, hue: QColor, amount: float, text: QColor, minimum: float = TEXT_CONTRAST) -> Pair:
    """A background ``amount`` of the way from ``base`` to ``hue``, weakened until ``text`` on it keeps
    ``minimum``; the text itself is moved only where the system's own pair falls short."""
    for step in range(11):
        background = mix(base, hue, amount * (1 - step / 10))
        if contrast(text, background) >= minimum:
            return Pair(text, background)
    return Pair(readable(text, base, minimum), base)


@dataclass(frozen=True)
class Pair:
    """A foreground and the background it is drawn on."""

    foreground: QColor
    background: QColor

    @property
    def ratio(self) -> float:
        return contrast(self.foreground, self.background)


@dataclass(frozen=True)
class Colours:
    """The colours of one palette; ``pairs()`` lists each with the contrast it must keep."""

    banner: dict[str, Pair]  # by kind: local, pseudonymised, readable
    bubble: dict[str, Pair]  # by role: the message text on its bubble
    muted: dict[str, Pair]  # by role: a bubble's state ("writing…", an ending) on it
    stand_in: dict[str, Pair]  # by role: a stand-in's text on its highlight inside a bubble; "review": the dialog
    error: Pair  # an error line on the window
    warning: Pair  # a warning line on the window
    focus: Pair  # the focus ring against the window
    plot: Pair  # a plot's axes and labels on its background
    series: dict[str, Pair]  # each plotted series' colour on the plot's background
    legend: dict[str, Pair]  # the same series drawn in the key beside the plot, on the window

    def pairs(self) -> list[tuple[str, Pair, float]]:
        """Every (what, pair, minimum contrast) the app draws."""
        listed = [(f"banner {kind}", pair, TEXT_CONTRAST) for kind, pair in self.banner.items()]
        listed += [(f"{role} message", pair, TEXT_CONTRAST) for role, pair in self.bubble.items()]
        listed += [(f"{role} message state", pair, TEXT_CONTRAST) for role, pair in self.muted.items()]
        listed += [(f"stand-in ({where})", pair, TEXT_CONTRAST) for where, pair in self.stand_in.items()]
        listed += [("error", self.error, TEXT_CONTRAST), ("warning", self.warning, TEXT_CONTRAST)]
        listed += [("plot text", self.plot, TEXT_CONTRAST), ("focus ring", self.focus, GRAPHIC_CONTRAST)]
        listed += [(f"series {name}", pair, GRAPHIC_CONTRAST) for name, pair in self.series.items()]
        listed += [(f"key {name}", pair, GRAPHIC_CONTRAST) for name, pair in self.legend.items()]
        return listed


def colours(palette: QPalette | None = None) -> Colours:
    """The app's colours for ``palette`` (the application's own by default)."""
    palette = palette if palette is not None else QGuiApplication.palette()
    role = QPalette.ColorRole
    window = palette.color(role.Window)
    base, text = palette.color(role.Base), palette.color(role.Text)
    dark = is_dark(base)

    def hue(name: str) -> QColor:
        return QColor(HUES[name]) if HUES[name] else text

    def strength(amounts: tuple[float, float]) -> float:
        return amounts[1] if dark else amounts[0]

    banner = {kind: tint(base, hue(kind), strength(BANNER_TINT), text) for kind in BANNER_KINDS}
    bubble = {name: tint(base, hue(name), strength(BUBBLE_TINT), text) for name in ROLES}
    muted = {
        name: Pair(readable(mix(pair.foreground, pair.background, 0.4), pair.background), pair.background)
        for name, pair in bubble.items()
    }
    stand_in = {
        name: tint(pair.background, hue("stand_in"), strength(STAND_IN_TINT), pair.foreground)
        for name, pair in bubble.items()
    }
    stand_in["review"] = tint(base, hue("stand_in"), strength(STAND_IN_TINT), text)
    plot = Pair(readable(text, base), base)
    series = {name: Pair(readable(QColor(h), base, GRAPHIC_CONTRAST), base) for name, h in SERIES_HUES.items()}
    legend = {  # the key's strokes are text glyphs standing for lines: a graphic's contrast, on the window
        name: Pair(readable(pair.foreground, window, GRAPHIC_CONTRAST), window) for name, pair in series.items()
    }
    return Colours(
        banner=banner,
        bubble=bubble,
        muted=muted,
        stand_in=stand_in,
        error=Pair(readable(QColor(HUES["error"]), window), window),
        warning=Pair(readable(QColor(HUES["warning"]), window), window),
        focus=Pair(readable(palette.color(role.Highlight), window, GRAPHIC_CONTRAST), window),
        plot=plot,
        series=series,
        legend=legend,
    )


def css(colour: QColor) -> str:
    """A colour as a style sheet writes it."""
    return colour.name(QColor.NameFormat.HexRgb)


class _PaletteWatch(QObject):
    """Calls each registered function when the application's palette changes (a theme switched): a widget
    with a style sheet is sent no PaletteChange of its own."""

    def __init__(self):
        super().__init__()
        self.callbacks: list[weakref.WeakMethod] = []
        QGuiApplication.instance().installEventFilter(self)

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:  # noqa: N802 (Qt's name)
        if watched is QGuiApplication.instance() and event.type() == QEvent.Type.ApplicationPaletteChange:
            alive = [(ref, ref()) for ref in self.callbacks]
            self.callbacks = [ref for ref, callback in alive if callback is not None]
            for _, callback in alive:
                if callback is not None:
                    try:
                        callback()
                    except RuntimeError:  # its widget was deleted on the C++ side
                        pass
        return False


_watch: _PaletteWatch | None = None


def on_palette_change(restyle: Callable[[], None]) -> None:
    """Call ``restyle`` (a widget's method, held weakly) whenever the application's palette changes."""
    global _watch
    if _watch is None:
        _watch = _PaletteWatch()
    _watch.callbacks.append(weakref.WeakMethod(restyle))
