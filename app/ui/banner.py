"""The chat's banner: two lines on where the text goes, and the whole statement one click away.

In the width a laptop screen leaves the chat, the whole statement pushed the conversation down by most of
a page; the summary keeps to its headline and the one caution that matters, Details shows the rest.
"""

from __future__ import annotations

import html

from PySide6.QtCore import Qt, Signal
from PySide6.QtGui import QPalette
from PySide6.QtWidgets import QFrame, QHBoxLayout, QLabel, QToolButton, QVBoxLayout

from app.data.settings import AppSettings
from app.host import BUNDLED_SPEC, bundled_model_report
from app.ui.i18n import QT_TRANSLATE_NOOP, translate
from app.ui.i18n import number as locale_number
from app.ui.palette import colours, css, on_palette_change, readable

NAME_CHARS = 16  # a provider's name in the summary, elided beyond this so the summary keeps to two lines
DEMO_SUMMARY = QT_TRANSLATE_NOOP("Banner", "Demonstration model: check every fact.")
SHOW_DETAILS, HIDE_DETAILS = QT_TRANSLATE_NOOP("Banner", "Details"), QT_TRANSLATE_NOOP("Banner", "Less")


def elided(name: str, chars: int = NAME_CHARS) -> str:
    """``name``, cut to ``chars`` characters with an ellipsis."""
    return name if len(name) <= chars else f"{name[: chars - 1].rstrip()}…"


def banner_summary(settings: AppSettings) -> str:
    """The banner's headline for these settings (rich text): where the text goes, and whether what leaves
    can be read back; the demonstration model's caution when it answers."""
    provider = settings.provider
    if provider is None:
        headline = translate("Banner", "<b>Nothing leaves this computer.</b>")
    else:
        name = html.escape(elided(provider.name))
        if settings.pseudonymising:
            headline = translate("Banner", "<b>Only hidden states go to “{name}”, identifiers replaced.</b>")
        else:
            headline = translate("Banner", "<b>Only hidden states go to “{name}” — and can be read back.</b>")
        headline = headline.format(name=name)
    demo = translate("Banner", DEMO_SUMMARY)
    return f"{headline} {demo}" if settings.model == BUNDLED_SPEC else headline


class Banner(QFrame):
    """The summary, a Details button, and the whole statement (shown in the summary's place on Details)."""

    linkActivated = Signal(str)  # noqa: N815 (QLabel's name: a link in the statement, e.g. the Privacy tab)

    def __init__(self):
        super().__init__()
        self.setObjectName("banner")
        self.setAccessibleName(translate("Banner", "Where your text goes"))
        self.kind = "local"  # palette.BANNER_KINDS: its colours
        self.summary = self._label()
        self.detail = self._label()
        self.detail.setVisible(False)
        self.details_button = QToolButton()  # narrower than a push button: the summary keeps the width
        self.details_button.setText(translate("Banner", SHOW_DETAILS))
        self.details_button.setCheckable(True)
        self.details_button.setToolTip(
            translate("Banner", "Show the whole statement: what leaves, who can read it back, as measured")
        )
        self.details_button.toggled.connect(self._show_detail)
        text = QVBoxLayout()
        text.setContentsMargins(0, 0, 0, 0)
        text.addWidget(self.summary)
        text.addWidget(self.detail)
        row = QHBoxLayout(self)
        row.setContentsMargins(8, 6, 6, 6)
        row.addLayout(text, 1)
        row.addWidget(self.details_button, 0, Qt.AlignmentFlag.AlignTop)
        on_palette_change(self.restyle)

    def _label(self) -> QLabel:
        label = QLabel()
        label.setWordWrap(True)
        label.setTextFormat(Qt.TextFormat.RichText)
        label.linkActivated.connect(self.linkActivated.emit)
        return label

    def set_statement(self, summary: str, detail: str, kind: str) -> None:
        """Show ``summary`` (Details keeps ``detail``, the whole statement) in the colours of ``kind`` (one of
        ``palette.BANNER_KINDS``): the words say where the text goes, the colour only repeats it."""
        self.summary.setText(summary)
        self.detail.setText(detail)
        self.kind = kind
        self.restyle()

    def restyle(self) -> None:
        """The background a tint of the palette's, the text (and the link to the Privacy tab) readable on it."""
        pair = colours().banner[self.kind]
        self.setStyleSheet(f"#banner {{ background: {css(pair.background)}; border-radius: 4px; }}")
        for label in (self.summary, self.detail):
            palette = QPalette(label.palette())
            palette.setColor(QPalette.ColorRole.WindowText, pair.foreground)
            palette.setColor(QPalette.ColorRole.Link, readable(palette.color(QPalette.ColorRole.Link), pair.background))
            label.setPalette(palette)

    def text(self) -> str:
        """The whole statement, whether or not Details shows it."""
        return self.detail.text()

    def _show_detail(self, shown: bool) -> None:
        self.summary.setVisible(not shown)
        self.detail.setVisible(shown)
        self.details_button.setText(translate("Banner", HIDE_DETAILS if shown else SHOW_DETAILS))


# Said on every screen where the demonstration model answers: its summary of a discharge note once got
# the lobe and the date wrong.
DEMO_MODEL_NOTE = QT_TRANSLATE_NOOP(
    "ChatPane",
    "The built-in model is a small demonstration model: its answers are often wrong — check every fact "
    "against the source.",
)
REVIEW_BANNER = QT_TRANSLATE_NOOP(
    "ChatPane", "Each message is shown to you as the model will read it, and sent only once you confirm it."
)


def privacy_link() -> str:
    return '<a href="privacy">{}</a>'.format(translate("ChatPane", "Privacy tab"))


def measured_elsewhere() -> str:
    """Said when no evaluation of the current model exists yet, and said to be whose: the range is read from
    the bundled model's report shipped with the app (docs/PRIVACY.md's), the one its Privacy tab shows, so
    the banner cannot quote a figure that report does not hold."""
    report = bundled_model_report()
    span = report.sent_range() if report is not None else None
    if span is None:
        return translate(
            "ChatPane", "most of the words it receives (run the evaluation in the Privacy tab to measure this model)"
        )
    low, high = (locale_number(100 * rate) for rate in span)
    return translate(
        "ChatPane",
        "{low}–{high} % of the words it receives (measured for the built-in model at every split depth; "
        "run the evaluation in the Privacy tab to measure this model)",
    ).format(low=low, high=high)


# What docs/PRIVACY.md measured of the detector on documents by authors who never saw it (held-out sets), and
# on informal text by a writer whose text no rule was read from.
DETECTION_MEASURED = QT_TRANSLATE_NOOP(
    "ChatPane",
    "more than 9 identifier words in 10 are found (92–99 % in English, 95–98 % in Spanish, measured on documents "
    "the detector was not tuned on; 91–94 % in chats and transcripts); the rest reach it as written",
)


def banner_for(settings: AppSettings, exposure: str | None = None) -> tuple[str, str]:
    """What the banner says for these settings, and which of its kinds it is (``palette.BANNER_KINDS``, its
    colours): only what is true of them. The words say it; the colour only repeats it.

    ``exposure`` is the measured share of the text a worker can read back at this model and depth, in
    words (PrivacyView.exposure_words); without one the banner quotes the project's own measurement and
    says whose it is.
    """
    provider = settings.provider
    demo = f" {translate('ChatPane', DEMO_MODEL_NOTE)}" if settings.model == BUNDLED_SPEC else ""
    depth = translate("ChatPane", "Split depth {depth}: {depth} layers at each end run here.").format(
        depth=settings.split
    )
    if provider is None:
        replaced = (
            " " + translate("ChatPane", "Identifiers are also replaced by stand-ins before the model reads them.")
            if settings.pseudonymising
            else ""
        )
        text = translate(
            "ChatPane",
            "<b>Nothing leaves this computer.</b> The model runs here, its middle layers in a worker process "
            "on this machine.",
        )
        return f"{text}{replaced} {depth}{demo}", "local"
    where = f"“{provider.name}” ({provider.endpoint})"
    readable = exposure or measured_elsewhere()
    review = " " + translate("ChatPane", REVIEW_BANNER) if settings.reviewing else ""
    if settings.pseudonymising:
        text = translate(
            "ChatPane",
            "<b>Only hidden states leave for {where}, with identifiers replaced.</b> Names, dates, record "
            "numbers, addresses and the like are replaced by stand-ins and put back in the answer here: "
            "{detection}. From the hidden states, whoever runs the worker can read back {readable} — see the "
            "{privacy_tab}.",
        ).format(
            where=where,
            detection=translate("ChatPane", DETECTION_MEASURED),
            readable=readable,
            privacy_tab=privacy_link(),
        )
        return f"{text}{review} {depth}{demo}", "pseudonymised"
    text = translate(
        "ChatPane",
        "<b>Only hidden states leave for {where} — but they can be read back.</b> Whoever runs the worker can "
        "recover {readable}, identifiers included: pseudonymisation is off for this provider. See the "
        "{privacy_tab}.",
    ).format(where=where, readable=readable, privacy_tab=privacy_link())
    return f"{text}{review} {depth}{demo}", "readable"
