"""The admin settings panel: provider profiles and token, split depth with its costs, decoding, sampling.

Tokens go to the OS keyring when the panel is saved; the token field never shows a stored token, only
whether one is set. Edits to a provider are kept while another is added or shown, until Save or Cancel.
Settings the admin policy locks are shown read-only — but a provider's access token is always the user's
own to enter, even where the policy fixes the endpoint.
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable
from dataclasses import replace

from PySide6.QtCore import QEvent, Qt, Signal
from PySide6.QtWidgets import (
    QCheckBox,
    QComboBox,
    QDialog,
    QDialogButtonBox,
    QDoubleSpinBox,
    QFormLayout,
    QGroupBox,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QPushButton,
    QSpinBox,
    QTabWidget,
    QVBoxLayout,
    QWidget,
)

from app.data import credentials
from app.data.settings import EMBEDDED, MODES, AppSettings, ProviderProfile, SettingsError, check_locks
from app.host import LocalStepCost, ModelFacts, PrivacyReport, WorkerProbe
from app.ui.accessibility import name_form_fields
from app.ui.data_text import error_text
from app.ui.i18n import LANGUAGE_NAMES, QT_TRANSLATE_NOOP, language_name, number, translate
from app.ui.messages import explain
from app.ui.model_page import ModelPage, shown
from app.ui.palette import colours, css, on_palette_change

MIN_WIDTH = 760  # the depth table shows every column without a horizontal scrollbar (1366-pixel screen)
EMBEDDED_LABEL = QT_TRANSLATE_NOOP("SettingsDialog", "Embedded (this computer only)")
LOCKED_TIP = QT_TRANSLATE_NOOP("SettingsDialog", "Locked by your administrator's policy.")
PSEUDONYMISE_LABEL = QT_TRANSLATE_NOOP("SettingsDialog", "Pseudonymise identifiers before they reach the model")
PSEUDONYMISE_TIP = QT_TRANSLATE_NOOP(
    "SettingsDialog",
    "Names, dates, record numbers, addresses and other identifiers are replaced by consistent stand-ins on this "
    "computer before the model reads them, and put back in the answer. On documents the detector was not tuned "
    "on it finds 90–94 % of identifier words in English and 95–96 % in Spanish: the rest, and all other text, still "
    "reach the worker as hidden states (see the Privacy tab). Review before sending lets you check each message.",
)


# The decoding modes as the panel names them (the settings file and the command line keep the names).
MODE_NAMES = {
    "auto": QT_TRANSLATE_NOOP("SettingsDialog", "auto"),
    "learned": QT_TRANSLATE_NOOP("SettingsDialog", "learned"),
    "lookahead": QT_TRANSLATE_NOOP("SettingsDialog", "lookahead"),
    "lookup": QT_TRANSLATE_NOOP("SettingsDialog", "lookup"),
    "sequential": QT_TRANSLATE_NOOP("SettingsDialog", "sequential"),
}
LANGUAGE_NOTE = QT_TRANSLATE_NOOP(
    "SettingsDialog",
    "The window's language, and how numbers and dates are written. A change applies the next time splitchat starts.",
)


PREFILL_LABEL = QT_TRANSLATE_NOOP(
    "SettingsDialog", "Send long messages to the worker while I type (the answer starts sooner)"
)
PREFILL_WARNING = QT_TRANSLATE_NOOP(
    "SettingsDialog",
    "With this on, what you type reaches the worker (as hidden states, pseudonymised like a sent message) "
    "before you press Send — text you delete or never send included. The worker forgets deleted text.",
)
COMPRESS_LABEL = QT_TRANSLATE_NOOP("SettingsDialog", "Compress hidden states on the network (lossless)")
COMPRESS_TIP = QT_TRANSLATE_NOOP(
    "SettingsDialog",
    "Long messages then send about 1.1–1.4× fewer bytes each way, for a few milliseconds of processor time a "
    "megabyte: it pays on links slower than about 500 Mbit/s. The answer is the same either way.",
)
LOOPBACK_COMPRESS_TIP = QT_TRANSLATE_NOOP(
    "SettingsDialog", "The embedded worker runs on this computer: nothing crosses a network to compress."
)
ALWAYS_TIP = QT_TRANSLATE_NOOP(
    "SettingsDialog", "Your administrator's policy requires identifiers to be replaced for every provider."
)
REVIEW_LABEL = QT_TRANSLATE_NOOP("SettingsDialog", "Show each message as the model will read it, before it is sent")
REVIEW_TIP = QT_TRANSLATE_NOOP(
    "SettingsDialog",
    "Send then shows your message with its identifiers replaced, exactly as the worker's model will read it; "
    "you can hide words the detector missed or send a stand-in's original as written. Nothing leaves this "
    "computer until you press Send there.",
)
REVIEW_EMBEDDED_TIP = QT_TRANSLATE_NOOP(
    "SettingsDialog", "The embedded worker runs on this computer: nothing leaves it, so there is nothing to review."
)
REVIEW_ALWAYS_TIP = QT_TRANSLATE_NOOP(
    "SettingsDialog", "Your administrator's policy requires every message to a remote provider to be reviewed."
)
REVIEW_ALWAYS_SET_TIP = QT_TRANSLATE_NOOP(
    "SettingsDialog", "review_always is set in settings.json: every message to a remote provider is reviewed."
)
PREFILL_REVIEW_TIP = QT_TRANSLATE_NOOP(
    "SettingsDialog", "Off while each message is reviewed before it is sent: nothing leaves before you confirm it."
)
ALWAYS_SET_TIP = QT_TRANSLATE_NOOP(
    "SettingsDialog", "pseudonymise_always is set in settings.json: identifiers are replaced for every provider."
)


class SettingsDialog(QDialog):
    export_requested = Signal()

    def __init__(
        self,
        settings: AppSettings,
        num_layers: int,
        privacy_report: PrivacyReport | None,
        probe: Callable[[str, str, str | None, bool], Awaitable[WorkerProbe]],
        parent: QWidget | None = None,
        local_cost: LocalStepCost | None = None,
        inspect: Callable[[str], Awaitable[ModelFacts]] | None = None,
    ):
        super().__init__(parent)
        self.setWindowTitle(translate("SettingsDialog", "splitchat settings"))
        self.settings = settings
        self.probe = probe
        self.save_task: asyncio.Task | None = None
        self.profiles = {p.name: p for p in settings.profiles}  # as edited, keyed by their current names
        self.keyring_names = {name: name for name in self.profiles}  # a renamed profile's token is here
        self.pending_tokens: dict[str, str] = {}  # typed, not yet saved
        self._shown: str | None = None  # the profile whose fields the editor holds
        self.pseudonymise_embedded = settings.pseudonymise_embedded
        self.prefill_embedded = settings.prefill_embedded
        self.probe_task: asyncio.Task | None = None
        layout = QVBoxLayout(self)
        # Tabs rather than one column: the panel fits a 1366×768 screen, and the depth table gets
        # the room to show every column without a horizontal scrollbar.
        self.tabs = QTabWidget()
        self.tabs.addTab(self._provider_group(), translate("SettingsDialog", "&Provider"))
        self.model_page = ModelPage(settings, num_layers, privacy_report, local_cost, inspect)
        self.model_page.export_requested.connect(self.export_requested.emit)
        self.tabs.addTab(self.model_page, translate("SettingsDialog", "&Model and split depth"))
        self.tabs.addTab(self._decoding_group(), translate("SettingsDialog", "&Decoding"))
        self.tabs.addTab(self._language_group(), translate("SettingsDialog", "&Language"))
        layout.addWidget(self.tabs, 1)
        self.error = QLabel("")
        self.error.setWordWrap(True)
        layout.addWidget(self.error)
        self.buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Save | QDialogButtonBox.StandardButton.Cancel)
        self.buttons.accepted.connect(self._save_clicked)
        self.buttons.rejected.connect(self.reject)
        layout.addWidget(self.buttons)
        self._lock(settings.locked)
        self._show_profile()
        self._restyle()
        on_palette_change(self._restyle)
        self._fit_width()
        self.model_page.start_inspection()

    def _fit_width(self) -> None:
        """At least MIN_WIDTH (the depth table's columns), and never narrower than what its rows need: at 150 %
        text a fixed 760 pixels cut the ends off the longer switches."""
        self.setMinimumWidth(max(MIN_WIDTH, self.layout().minimumSize().width()))

    def changeEvent(self, event: QEvent) -> None:  # noqa: N802 (Qt's name)
        super().changeEvent(event)
        if event.type() == QEvent.Type.FontChange and self.layout() is not None:
            self._fit_width()

    def _restyle(self) -> None:
        """The error and warning lines in the palette's colours (app.ui.palette): again when the theme changes."""
        scheme = colours()
        error = f"color: {css(scheme.error.foreground)};"
        self.error.setStyleSheet(error)
        self.prefill_warning.setStyleSheet(f"color: {css(scheme.warning.foreground)};")
        self.model_page.restyle()

    # -- provider ---------------------------------------------------------------------------------
    def _provider_group(self) -> QGroupBox:
        group = QGroupBox(translate("SettingsDialog", "Provider (where the middle layers run)"))
        form = QFormLayout(group)
        self.provider = QComboBox()
        self.provider.addItem(shown(EMBEDDED_LABEL), EMBEDDED)
        for name in self.profiles:
            self.provider.addItem(name, name)
        self.provider.setCurrentIndex(max(0, self.provider.findData(self.settings.active_profile)))
        self.provider.currentIndexChanged.connect(self._provider_changed)
        self.name = QLineEdit()
        self.endpoint = QLineEdit()
        self.endpoint.setPlaceholderText("wss://gpu.example.org:8765")
        self.pin = QLineEdit()
        self.pin.setPlaceholderText(translate("SettingsDialog", "optional: SHA-256 of a self-signed certificate"))
        self.token = QLineEdit()
        self.token.setEchoMode(QLineEdit.EchoMode.Password)
        self.token_state = QLabel("")
        self.clear_token = QPushButton(translate("SettingsDialog", "Forget token"))
        self.clear_token.clicked.connect(self._forget_token)
        token_row = QHBoxLayout()
        token_row.addWidget(self.token, 1)
        token_row.addWidget(self.clear_token)
        buttons = QHBoxLayout()
        self.add_profile = QPushButton(translate("SettingsDialog", "Add provider"))
        self.remove_profile = QPushButton(translate("SettingsDialog", "Remove provider"))
        self.test_button = QPushButton(translate("SettingsDialog", "Test connection"))
        self.add_profile.clicked.connect(self._add_profile)
        self.remove_profile.clicked.connect(self._remove_profile)
        self.test_button.clicked.connect(lambda: self._start_probe())
        for button in (self.add_profile, self.remove_profile, self.test_button):
            buttons.addWidget(button)
        self.test_result = QLabel("")
        self.test_result.setWordWrap(True)
        self.test_result.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.pseudonymise = QCheckBox(shown(PSEUDONYMISE_LABEL))
        self.pseudonymise.setToolTip(shown(PSEUDONYMISE_TIP))
        self.pseudonymise.toggled.connect(self._pseudonymise_toggled)
        form.addRow(translate("SettingsDialog", "Provider"), self.provider)
        form.addRow(translate("SettingsDialog", "Name"), self.name)
        form.addRow(translate("SettingsDialog", "Endpoint"), self.endpoint)
        form.addRow(translate("SettingsDialog", "Certificate pin"), self.pin)
        form.addRow(translate("SettingsDialog", "Access token"), token_row)
        form.addRow("", self.token_state)
        form.addRow("", self.pseudonymise)
        self.review = QCheckBox(shown(REVIEW_LABEL))
        self.review.setToolTip(shown(REVIEW_TIP))
        self.review.toggled.connect(self._review_toggled)
        form.addRow("", self.review)
        self.prefill = QCheckBox(shown(PREFILL_LABEL))
        self.prefill.setToolTip(shown(PREFILL_WARNING))
        self.prefill.toggled.connect(self._prefill_toggled)
        self.prefill_warning = QLabel(shown(PREFILL_WARNING))
        self.prefill_warning.setWordWrap(True)
        form.addRow("", self.prefill)
        form.addRow("", self.prefill_warning)
        self.compress = QCheckBox(shown(COMPRESS_LABEL))
        self.compress.toggled.connect(self._compress_toggled)
        form.addRow("", self.compress)
        form.addRow(buttons)
        form.addRow(self.test_result)
        name_form_fields(form)
        return group

    def _provider_changed(self, index: int) -> None:
        """Keep what was typed for the provider being left, then show the chosen one."""
        try:
            self._fold_fields()
        except SettingsError as exc:  # a rename onto another provider's name: stay on it, say why
            self.error.setText(error_text(exc))
            previous = self.provider.findData(self._shown)
            self.provider.blockSignals(True)
            self.provider.setCurrentIndex(previous)
            self.provider.blockSignals(False)
            return
        self.error.setText("")
        self._show_profile()

    def _show_profile(self) -> None:
        name = self.provider.currentData()
        profile = self.profiles.get(name)
        self._shown = name if profile is not None else None
        editable = profile is not None and "profiles" not in self.settings.locked
        for widget in (self.name, self.endpoint, self.pin, self.remove_profile):
            widget.setEnabled(editable)
            widget.setToolTip(shown(LOCKED_TIP) if profile is not None and not editable else "")
        for widget in (self.token, self.clear_token, self.test_button):  # the token is the user's own
            widget.setEnabled(profile is not None)
        self.name.setText(profile.name if profile else "")
        self.endpoint.setText(profile.endpoint if profile else "")
        self.pin.setText(profile.cert_sha256 if profile else "")
        self.token.clear()
        if profile is None:
            self.token_state.setText(
                translate("SettingsDialog", "The embedded default needs no token: nothing leaves this computer.")
            )
        elif name in self.pending_tokens:
            self.token_state.setText(
                translate("SettingsDialog", "A new token was typed; it is stored in the system keyring when you save.")
            )
        elif credentials.has_token(self.keyring_names[name]):
            self.token_state.setText(
                translate(
                    "SettingsDialog", "A token is set (stored in the system keyring). Type a new one to replace it."
                )
            )
        else:
            self.token_state.setText(translate("SettingsDialog", "No token set."))
        self.test_result.setText("")
        self._show_pseudonymise(profile)
        self._show_review(profile)
        self._show_prefill(profile)
        self._show_compress(profile)

    def _show_pseudonymise(self, profile: ProviderProfile | None) -> None:
        """The switch for the shown provider: on and locked when the policy requires it everywhere."""
        locked = self.settings.locked
        self.pseudonymise.blockSignals(True)
        if self.settings.pseudonymise_always:
            self.pseudonymise.setChecked(True)
            self.pseudonymise.setEnabled(False)
            self.pseudonymise.setToolTip(shown(ALWAYS_TIP if "pseudonymise_always" in locked else ALWAYS_SET_TIP))
        else:
            key = "pseudonymise_embedded" if profile is None else "profiles"
            self.pseudonymise.setChecked(self.pseudonymise_embedded if profile is None else profile.pseudonymise)
            self.pseudonymise.setEnabled(key not in locked)
            self.pseudonymise.setToolTip(shown(LOCKED_TIP if key in locked else PSEUDONYMISE_TIP))
        self.pseudonymise.blockSignals(False)

    def _show_review(self, profile: ProviderProfile | None) -> None:
        """The shown provider's review switch: off and unavailable for the embedded worker, on and locked
        when the policy requires review for every remote provider."""
        self.review.blockSignals(True)
        if profile is None:
            self.review.setChecked(False)
            self.review.setEnabled(False)
            self.review.setToolTip(shown(REVIEW_EMBEDDED_TIP))
        elif self.settings.review_always:
            self.review.setChecked(True)
            self.review.setEnabled(False)
            by_policy = "review_always" in self.settings.locked
            self.review.setToolTip(shown(REVIEW_ALWAYS_TIP if by_policy else REVIEW_ALWAYS_SET_TIP))
        else:
            locked = "profiles" in self.settings.locked
            self.review.setChecked(profile.review_before_sending)
            self.review.setEnabled(not locked)
            self.review.setToolTip(shown(LOCKED_TIP if locked else REVIEW_TIP))
        self.review.blockSignals(False)

    def _show_prefill(self, profile: ProviderProfile | None) -> None:
        key = "prefill_embedded" if profile is None else "profiles"
        # Review wins: a message under review leaves only once confirmed, so nothing is sent as it is typed.
        reviewed = profile is not None and self.review.isChecked()
        self.prefill.blockSignals(True)
        self.prefill.setChecked(
            not reviewed and (self.prefill_embedded if profile is None else profile.prefill_while_typing)
        )
        self.prefill.blockSignals(False)
        self.prefill.setEnabled(key not in self.settings.locked and not reviewed)
        if reviewed:
            self.prefill.setToolTip(shown(PREFILL_REVIEW_TIP))
        else:
            self.prefill.setToolTip(shown(LOCKED_TIP if key in self.settings.locked else PREFILL_WARNING))
        self.prefill_warning.setVisible(self.prefill.isChecked())

    def _show_compress(self, profile: ProviderProfile | None) -> None:
        self.compress.blockSignals(True)
        self.compress.setChecked(profile is not None and profile.compress_wire)
        self.compress.blockSignals(False)
        editable = profile is not None and "profiles" not in self.settings.locked
        self.compress.setEnabled(editable)
        if profile is None:
            self.compress.setToolTip(shown(LOOPBACK_COMPRESS_TIP))
        else:
            self.compress.setToolTip(shown(COMPRESS_TIP if editable else LOCKED_TIP))

    def _compress_toggled(self, on: bool) -> None:
        name = self.provider.currentData()
        if name in self.profiles:
            self.profiles[name] = replace(self.profiles[name], compress_wire=on)

    def _prefill_toggled(self, on: bool) -> None:
        self._switch_changed("prefill_while_typing", "prefill_embedded", on)
        self.prefill_warning.setVisible(on)

    def _review_toggled(self, on: bool) -> None:
        name = self.provider.currentData()
        if name in self.profiles:  # never the embedded worker's: its box is disabled
            self.profiles[name] = replace(self.profiles[name], review_before_sending=on)
            self._show_prefill(self.profiles[name])

    def _pseudonymise_toggled(self, on: bool) -> None:
        self._switch_changed("pseudonymise", "pseudonymise_embedded", on)

    def _switch_changed(self, profile_field: str, embedded_field: str, on: bool) -> None:
        """A per-provider switch, into the shown profile or the embedded default's own setting."""
        name = self.provider.currentData()
        if name in self.profiles:
            self.profiles[name] = replace(self.profiles[name], **{profile_field: on})
        else:
            setattr(self, embedded_field, on)

    def _fold_fields(self) -> None:
        """Fold the editor's fields into the profile they show (a rename re-keys it); nothing is checked or
        stored yet, so a half-typed endpoint survives looking at another provider."""
        old = self._shown
        if old not in self.profiles:
            return
        profile = replace(
            self.profiles[old],
            name=self.name.text().strip(),
            endpoint=self.endpoint.text().strip(),
            cert_sha256=self.pin.text().strip(),
        )
        if profile.name != old:
            if profile.name in self.profiles:
                raise SettingsError(
                    translate("SettingsDialog", "A provider named {name} already exists.").format(
                        name=repr(profile.name)
                    )
                )
            self.profiles = {(profile.name if k == old else k): v for k, v in self.profiles.items()}
            self.keyring_names[profile.name] = self.keyring_names.pop(old)
            if old in self.pending_tokens:
                self.pending_tokens[profile.name] = self.pending_tokens.pop(old)
            index = self.provider.findData(old)
            self.provider.setItemText(index, profile.name)
            self.provider.setItemData(index, profile.name)
            self._shown = profile.name
        self.profiles[profile.name] = profile
        if self.token.text().strip():
            self.pending_tokens[profile.name] = self.token.text().strip()
            self.token.clear()

    def _store_profiles(self) -> None:
        """Check every provider, then move renamed providers' tokens and store the typed ones."""
        self._fold_fields()
        for profile in self.profiles.values():
            profile.check()
        for name in self.profiles:
            stored_as = self.keyring_names[name]
            if stored_as != name:
                token = credentials.get_token(stored_as)
                if token:
                    credentials.set_token(name, token)
                    credentials.delete_token(stored_as)
                self.keyring_names[name] = name
            if name in self.pending_tokens:
                # Forgotten only once stored: a keyring that refuses leaves the typed token for another try.
                credentials.set_token(name, self.pending_tokens[name])
                del self.pending_tokens[name]

    def _add_profile(self) -> None:
        name = "provider"
        index = 1
        while name in self.profiles:
            index += 1
            name = f"provider {index}"
        self.profiles[name] = ProviderProfile(name, "wss://")
        self.keyring_names[name] = name
        self.provider.addItem(name, name)
        self.provider.setCurrentIndex(self.provider.count() - 1)

    def _remove_profile(self) -> None:
        name = self.provider.currentData()
        if name in self.profiles:
            # The token goes first: a keyring that refuses keeps the provider, so no token is left behind
            # with nothing in the app that names it.
            if not self._delete_token(self.keyring_names[name]):
                return
            del self.profiles[name]
            self.pending_tokens.pop(name, None)
            self.keyring_names.pop(name)
            self._shown = None
            self.provider.removeItem(self.provider.currentIndex())
            self.provider.setCurrentIndex(0)

    def _forget_token(self) -> None:
        name = self.provider.currentData()
        if name in self.profiles and self._delete_token(self.keyring_names[name]):
            self.pending_tokens.pop(name, None)
            self._show_profile()

    def _delete_token(self, stored_as: str) -> bool:
        """Delete a stored token; a keyring that refuses is said on the error line, and nothing changes."""
        try:
            credentials.delete_token(stored_as)
        except credentials.CredentialError as exc:
            self.error.setText(error_text(exc))
            return False
        self.error.setText("")
        return True

    def _start_probe(self) -> asyncio.Task:
        self.probe_task = asyncio.ensure_future(self.test_connection())
        return self.probe_task

    async def test_connection(self) -> None:
        """Handshake with the endpoint in the fields; report fingerprint, layers and round trip."""
        endpoint = self.endpoint.text().strip()
        name = self.provider.currentData()
        token = (
            self.token.text().strip()
            or self.pending_tokens.get(name)
            or (credentials.get_token(self.keyring_names[name]) if name in self.keyring_names else None)
            or ""
        )
        self.test_result.setText(translate("SettingsDialog", "Connecting to {endpoint}…").format(endpoint=endpoint))
        self.test_button.setEnabled(False)
        try:
            pin = self.pin.text().strip()
            ProviderProfile("probe", endpoint, pin).check()
            # The rule Save applies, before a byte leaves: the token goes only where it is encrypted or stays
            # on this computer (the transport refuses it again, whoever calls).
            info = await self.probe(endpoint, token, pin or None, self.settings.unencrypted_allowed)
        except Exception as exc:  # shown to the admin, never raised out of the dialog
            what, todo = explain(exc)
            self.test_result.setText(f"✗ {what} {todo}")
        else:
            self.test_result.setText(
                translate(
                    "SettingsDialog",
                    "✓ Connected. Worker serves layers {first}–{last} (fingerprint {fingerprint}…); round trip "
                    "{rtt} ms.",
                ).format(
                    first=info.first_layer,
                    last=info.last_layer - 1,
                    fingerprint=info.fingerprint[:23],
                    rtt=number(info.rtt_ms, 1),
                )
            )
        finally:
            self.test_button.setEnabled(True)
            self._fit_result()

    def _fit_result(self) -> None:
        """A long result wraps onto as many lines as it needs: the dialog grows instead of clipping it."""
        label = self.test_result
        label.setMinimumHeight(label.heightForWidth(max(label.width(), 1)))
        self.adjustSize()

    # -- split depth ------------------------------------------------------------------------------
    # -- language ---------------------------------------------------------------------------------
    def _language_group(self) -> QGroupBox:
        group = QGroupBox(translate("SettingsDialog", "Language"))
        form = QFormLayout(group)
        self.language = QComboBox()
        for language in LANGUAGE_NAMES:
            self.language.addItem(language_name(language), language)
        self.language.setCurrentIndex(max(0, self.language.findData(self.settings.language)))
        note = QLabel(shown(LANGUAGE_NOTE))
        note.setWordWrap(True)
        form.addRow(translate("SettingsDialog", "Language"), self.language)
        form.addRow("", note)
        name_form_fields(form)
        return group

    # -- decoding and sampling --------------------------------------------------------------------
    def _decoding_group(self) -> QGroupBox:
        group = QGroupBox(translate("SettingsDialog", "Decoding and sampling"))
        form = QFormLayout(group)
        self.mode = QComboBox()
        for mode in MODES:  # the command line's names stay the data; the panel shows them in words
            self.mode.addItem(translate("SettingsDialog", MODE_NAMES.get(mode, mode)), mode)
        self.mode.setCurrentIndex(max(0, self.mode.findData(self.settings.mode)))
        self.mode.setToolTip(
            translate(
                "SettingsDialog",
                "auto: every draft source, sized each step from live measurements (recommended)\n"
                "learned: the model's trained draft head plus context lookup\n"
                "lookahead: Jacobi n-grams plus context lookup\n"
                "lookup: n-grams from the conversation only\n"
                "sequential: one token per round trip",
            )
        )
        self.budget = QSpinBox()
        self.budget.setRange(0, 256)
        self.budget.setValue(self.settings.budget)
        self.temperature = QDoubleSpinBox()
        self.temperature.setRange(0.0, 5.0)
        self.temperature.setSingleStep(0.1)
        self.temperature.setValue(self.settings.temperature)
        self.top_p = QDoubleSpinBox()
        self.top_p.setRange(0.01, 1.0)
        self.top_p.setSingleStep(0.05)
        self.top_p.setValue(self.settings.top_p)
        self.max_new_tokens = QSpinBox()
        self.max_new_tokens.setRange(1, 8192)
        self.max_new_tokens.setValue(self.settings.max_new_tokens)
        form.addRow(translate("SettingsDialog", "Decoding mode"), self.mode)
        form.addRow(translate("SettingsDialog", "Speculation budget (tokens per round trip)"), self.budget)
        form.addRow(translate("SettingsDialog", "Temperature (0 = greedy)"), self.temperature)
        form.addRow(translate("SettingsDialog", "Top-p"), self.top_p)
        form.addRow(translate("SettingsDialog", "Longest answer (tokens)"), self.max_new_tokens)
        name_form_fields(form)
        return group

    def _lock(self, locked: tuple[str, ...]) -> None:
        widgets = {
            "split": self.model_page.depth,
            "model": self.model_page.model,
            "device": self.model_page.device,
            "mode": self.mode,
            "budget": self.budget,
            "temperature": self.temperature,
            "top_p": self.top_p,
            "max_new_tokens": self.max_new_tokens,
            "active_profile": self.provider,
            "language": self.language,
        }
        for key in locked:
            if key in widgets:
                widgets[key].setEnabled(False)
                widgets[key].setToolTip(shown(LOCKED_TIP))
        if "profiles" in locked:
            self.add_profile.setEnabled(False)

    # -- result -----------------------------------------------------------------------------------
    def result_settings(self) -> AppSettings:
        """The settings as edited, typed tokens stored in the keyring; raises SettingsError when invalid."""
        self._store_profiles()
        chosen = replace(
            self.settings,
            profiles=tuple(self.profiles.values()),
            active_profile=self.provider.currentData(),
            split=self.model_page.depth.currentData(),
            model=self.model_page.model.text().strip(),
            device=self.model_page.device.currentData(),
            mode=self.mode.currentData(),
            budget=self.budget.value(),
            temperature=round(self.temperature.value(), 3),
            top_p=round(self.top_p.value(), 3),
            max_new_tokens=self.max_new_tokens.value(),
            pseudonymise_embedded=self.pseudonymise_embedded,
            prefill_embedded=self.prefill_embedded,
            language=self.language.currentData(),
        )
        chosen.check()
        return chosen

    def _save_clicked(self) -> None:
        if self.model_page.model_unchecked():
            self.save_task = asyncio.ensure_future(self._save_once_checked())
            return
        self._save_now()

    async def _save_once_checked(self) -> None:
        """Save only a model the panel's own check accepts: a folder that is not a model would make every
        chat fail until the setting was fixed by hand. The saved model stays as it was otherwise."""
        spec = self.model_page.model.text().strip()
        save = self.buttons.button(QDialogButtonBox.StandardButton.Save)
        save.setEnabled(False)
        self.error.setText(translate("SettingsDialog", "Checking {model} before saving…").format(model=spec))
        try:
            await self.model_page.checked(spec)
        except asyncio.CancelledError:
            if asyncio.current_task().cancelling():
                raise  # the dialog is going away
            # the check was replaced by a newer one (the field changed): judged below as unchecked
        finally:
            save.setEnabled(True)
        if self.model_page.model_unchecked():
            self.error.setText(
                translate(
                    "SettingsDialog",
                    "Not saved: {model} is not a model splitchat can use ({why}). The model stays {saved}.",
                ).format(model=spec, why=self.model_page.model_facts.text().lstrip("✗ "), saved=self.settings.model)
            )
            return
        self._save_now()

    def _save_now(self) -> None:
        try:
            self.chosen = self.result_settings()
            check_locks(self.chosen)  # a policy come since the panel opened: said here, not after it closes
        except (SettingsError, credentials.CredentialError) as exc:
            self.error.setText(error_text(exc))  # the data layer's problem, in the user's language
            if isinstance(exc, credentials.CredentialError) and self._shown is not None:
                self._show_profile()  # says the typed token is kept, to be stored on the next Save
            return
        self.accept()
