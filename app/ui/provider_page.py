"""The settings panel's Provider tab: where the middle layers run, each provider's endpoint, pin and token
(the token in the system keyring only), its switches (pseudonymise, review, send while typing, compress),
and Test connection. The dialog reads the edited providers back from it when it saves."""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable
from dataclasses import replace

from PySide6.QtCore import Qt
from PySide6.QtWidgets import (
    QCheckBox,
    QComboBox,
    QFormLayout,
    QGroupBox,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QPushButton,
    QWidget,
)

from app.data import credentials
from app.data.settings import EMBEDDED, AppSettings, ProviderProfile, SettingsError
from app.host import WorkerProbe
from app.ui.accessibility import name_form_fields
from app.ui.data_text import error_text
from app.ui.i18n import QT_TRANSLATE_NOOP, number, translate
from app.ui.messages import explain
from app.ui.model_page import shown
from app.ui.palette import colours, css

EMBEDDED_LABEL = QT_TRANSLATE_NOOP("SettingsDialog", "Embedded (this computer only)")
LOCKED_TIP = QT_TRANSLATE_NOOP("SettingsDialog", "Locked by your administrator's policy.")
PSEUDONYMISE_LABEL = QT_TRANSLATE_NOOP("SettingsDialog", "Pseudonymise identifiers before they reach the model")
PSEUDONYMISE_TIP = QT_TRANSLATE_NOOP(
    "SettingsDialog",
    "Names, dates, record numbers, addresses and other identifiers are replaced by consistent stand-ins on this "
    "computer before the model reads them, and put back in the answer. On documents the detector was not tuned "
    "on it finds 92–99 % of identifier words in English and 95–98 % in Spanish, and 91–94 % in chats, voicemail "
    "transcripts and dictation: the rest, and all other text, still "
    "reach the worker as hidden states (see the Privacy tab). Review before sending lets you check each message.",
)
PREFILL_LABEL = QT_TRANSLATE_NOOP(
    "SettingsDialog", "Send long messages to the worker while I type (the answer starts sooner)"
)
PREFILL_WARNING = QT_TRANSLATE_NOOP(
    "SettingsDialog",
    "With this on, what you type reaches the worker (as hidden states, pseudonymised like a sent message) "
    "before you press Send — text you delete or never send included. The worker forgets deleted text.",
)
READING_LABEL = QT_TRANSLATE_NOOP(
    "SettingsDialog", "Also read each message with the bundled model to find identifiers (every provider)"
)
READING_TIP = QT_TRANSLATE_NOOP(
    "SettingsDialog",
    "The detector's last stage reads the whole message with the bundled model on this computer and finds "
    "identifiers only the sentence gives away (about one in ten of those the other stages miss). It costs "
    "about half a second to a second and a half per 1,000 words and about 350 MB of memory. Applies to "
    "conversations opened after saving.",
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


class ProviderPage(QGroupBox):
    """The providers as edited, keyed by their current names, and the shown one's fields."""

    def __init__(
        self,
        settings: AppSettings,
        probe: Callable[[str, str, str | None, bool], Awaitable[WorkerProbe]],
        report: Callable[[str], None],
        parent: QWidget | None = None,
    ):
        super().__init__(parent)
        self.settings = settings
        self.probe = probe
        self.report = report  # the dialog's error line
        self.profiles = {p.name: p for p in settings.profiles}
        self.keyring_names = {name: name for name in self.profiles}  # a renamed profile's token is here
        self.pending_tokens: dict[str, str] = {}  # typed, not yet saved
        self._shown: str | None = None  # the profile whose fields the editor holds
        self.pseudonymise_embedded = settings.pseudonymise_embedded
        self.prefill_embedded = settings.prefill_embedded
        self.probe_task: asyncio.Task | None = None
        self._build()

    @property
    def shown_profile(self) -> str | None:
        """The provider whose fields the tab shows (None for the embedded worker)."""
        return self._shown

    def restyle(self) -> None:
        self.prefill_warning.setStyleSheet(f"color: {css(colours().warning.foreground)};")

    def lock(self, locked: tuple[str, ...]) -> None:
        """What the policy locks here: the provider chosen, and the providers themselves."""
        if "active_profile" in locked:
            self.provider.setEnabled(False)
            self.provider.setToolTip(shown(LOCKED_TIP))
        if "profiles" in locked:
            self.add_profile.setEnabled(False)
        if "read_in_context" in locked:
            self.read_in_context.setEnabled(False)
            self.read_in_context.setToolTip(shown(LOCKED_TIP))

    def _build(self) -> None:
        self.setTitle(translate("SettingsDialog", "Provider (where the middle layers run)"))
        form = QFormLayout(self)
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
        self.read_in_context = QCheckBox(shown(READING_LABEL))
        self.read_in_context.setChecked(self.settings.read_in_context)
        self.read_in_context.setToolTip(shown(READING_TIP))
        form.addRow("", self.read_in_context)
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

    def _provider_changed(self, index: int) -> None:
        """Keep what was typed for the provider being left, then show the chosen one."""
        try:
            self._fold_fields()
        except SettingsError as exc:  # a rename onto another provider's name: stay on it, say why
            self.report(error_text(exc))
            previous = self.provider.findData(self._shown)
            self.provider.blockSignals(True)
            self.provider.setCurrentIndex(previous)
            self.provider.blockSignals(False)
            return
        self.report("")
        self.show_profile()

    def show_profile(self) -> None:
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

    def store_profiles(self) -> None:
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
            self.show_profile()

    def _delete_token(self, stored_as: str) -> bool:
        """Delete a stored token; a keyring that refuses is said on the error line, and nothing changes."""
        try:
            credentials.delete_token(stored_as)
        except credentials.CredentialError as exc:
            self.report(error_text(exc))
            return False
        self.report("")
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
        self.window().adjustSize()
