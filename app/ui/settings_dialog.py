"""The admin settings panel: provider profiles and token, split depth with its costs, decoding, sampling.

Tokens go straight to the OS keyring; the token field never shows a stored token, only whether one
is set. Settings the admin policy locks are shown read-only.
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable
from dataclasses import replace

from PySide6.QtCore import Signal
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
    QTableWidget,
    QTableWidgetItem,
    QVBoxLayout,
    QWidget,
)

from app.data import credentials
from app.data.settings import DEVICES, EMBEDDED, MODES, AppSettings, ProviderProfile, SettingsError
from app.host import PrivacyReport, WorkerProbe
from app.ui.messages import explain

EMBEDDED_LABEL = "Embedded (this computer only)"
LOCKED_TIP = "Locked by your administrator's policy."
PSEUDONYMISE_LABEL = "Pseudonymise identifiers before they reach the model"
PSEUDONYMISE_TIP = (
    "Names, dates, record numbers, addresses and other identifiers are replaced by consistent stand-ins on this "
    "computer before the model reads them, and put back in the answer. The rest of the text still reaches the "
    "worker as hidden states (see the Privacy tab)."
)
ALWAYS_TIP = "Your administrator's policy requires identifiers to be replaced for every provider."
ALWAYS_SET_TIP = "pseudonymise_always is set in settings.json: identifiers are replaced for every provider."


class SettingsDialog(QDialog):
    export_requested = Signal()

    def __init__(
        self,
        settings: AppSettings,
        num_layers: int,
        privacy_report: PrivacyReport | None,
        probe: Callable[[str, str, str | None], Awaitable[WorkerProbe]],
        parent: QWidget | None = None,
        local_ms_per_layer: float | None = None,
    ):
        super().__init__(parent)
        self.setWindowTitle("splitchat settings")
        self.settings = settings
        self.num_layers = num_layers
        self.report = privacy_report
        self.probe = probe
        self.local_ms_per_layer = local_ms_per_layer  # measured on this computer, None before an answer
        self.profiles = {p.name: p for p in settings.profiles}
        self.pseudonymise_embedded = settings.pseudonymise_embedded
        self.probe_task: asyncio.Task | None = None
        layout = QVBoxLayout(self)
        layout.addWidget(self._provider_group())
        layout.addWidget(self._split_group())
        layout.addWidget(self._decoding_group())
        self.error = QLabel("")
        self.error.setStyleSheet("color: #b00020;")
        self.error.setWordWrap(True)
        layout.addWidget(self.error)
        self.buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Save | QDialogButtonBox.StandardButton.Cancel)
        self.buttons.accepted.connect(self._save_clicked)
        self.buttons.rejected.connect(self.reject)
        layout.addWidget(self.buttons)
        self._lock(settings.locked)
        self._show_profile()

    # -- provider ---------------------------------------------------------------------------------
    def _provider_group(self) -> QGroupBox:
        group = QGroupBox("Provider (where the middle layers run)")
        form = QFormLayout(group)
        self.provider = QComboBox()
        self.provider.addItem(EMBEDDED_LABEL, EMBEDDED)
        for name in self.profiles:
            self.provider.addItem(name, name)
        self.provider.setCurrentIndex(max(0, self.provider.findData(self.settings.active_profile)))
        self.provider.currentIndexChanged.connect(lambda _: self._show_profile())
        self.name = QLineEdit()
        self.endpoint = QLineEdit()
        self.endpoint.setPlaceholderText("wss://gpu.example.org:8765")
        self.pin = QLineEdit()
        self.pin.setPlaceholderText("optional: SHA-256 of a self-signed certificate")
        self.token = QLineEdit()
        self.token.setEchoMode(QLineEdit.EchoMode.Password)
        self.token_state = QLabel("")
        self.clear_token = QPushButton("Forget token")
        self.clear_token.clicked.connect(self._forget_token)
        token_row = QHBoxLayout()
        token_row.addWidget(self.token, 1)
        token_row.addWidget(self.clear_token)
        buttons = QHBoxLayout()
        self.add_profile = QPushButton("Add provider")
        self.remove_profile = QPushButton("Remove provider")
        self.test_button = QPushButton("Test connection")
        self.add_profile.clicked.connect(self._add_profile)
        self.remove_profile.clicked.connect(self._remove_profile)
        self.test_button.clicked.connect(lambda: self._start_probe())
        for button in (self.add_profile, self.remove_profile, self.test_button):
            buttons.addWidget(button)
        self.test_result = QLabel("")
        self.test_result.setWordWrap(True)
        self.pseudonymise = QCheckBox(PSEUDONYMISE_LABEL)
        self.pseudonymise.setToolTip(PSEUDONYMISE_TIP)
        self.pseudonymise.toggled.connect(self._pseudonymise_toggled)
        form.addRow("Provider", self.provider)
        form.addRow("Name", self.name)
        form.addRow("Endpoint", self.endpoint)
        form.addRow("Certificate pin", self.pin)
        form.addRow("Access token", token_row)
        form.addRow("", self.token_state)
        form.addRow("", self.pseudonymise)
        form.addRow(buttons)
        form.addRow(self.test_result)
        return group

    def _show_profile(self) -> None:
        name = self.provider.currentData()
        profile = self.profiles.get(name)
        for widget in (self.name, self.endpoint, self.pin, self.token, self.clear_token, self.test_button):
            widget.setEnabled(profile is not None and "profiles" not in self.settings.locked)
        self.remove_profile.setEnabled(profile is not None and "profiles" not in self.settings.locked)
        self.name.setText(profile.name if profile else "")
        self.endpoint.setText(profile.endpoint if profile else "")
        self.pin.setText(profile.cert_sha256 if profile else "")
        self.token.clear()
        if profile is None:
            self.token_state.setText("The embedded default needs no token: nothing leaves this computer.")
        elif credentials.has_token(profile.name):
            self.token_state.setText("A token is set (stored in the system keyring). Type a new one to replace it.")
        else:
            self.token_state.setText("No token set.")
        self.test_result.setText("")
        self._show_pseudonymise(profile)

    def _show_pseudonymise(self, profile: ProviderProfile | None) -> None:
        """The switch for the shown provider: on and locked when the policy requires it everywhere."""
        locked = self.settings.locked
        self.pseudonymise.blockSignals(True)
        if self.settings.pseudonymise_always:
            self.pseudonymise.setChecked(True)
            self.pseudonymise.setEnabled(False)
            self.pseudonymise.setToolTip(ALWAYS_TIP if "pseudonymise_always" in locked else ALWAYS_SET_TIP)
        else:
            key = "pseudonymise_embedded" if profile is None else "profiles"
            self.pseudonymise.setChecked(self.pseudonymise_embedded if profile is None else profile.pseudonymise)
            self.pseudonymise.setEnabled(key not in locked)
            self.pseudonymise.setToolTip(LOCKED_TIP if key in locked else PSEUDONYMISE_TIP)
        self.pseudonymise.blockSignals(False)

    def _pseudonymise_toggled(self, on: bool) -> None:
        name = self.provider.currentData()
        if name in self.profiles:
            self.profiles[name] = replace(self.profiles[name], pseudonymise=on)
        else:
            self.pseudonymise_embedded = on

    def _store_profile_fields(self) -> None:
        """Fold the editor's fields back into the current profile (renames carry the token along)."""
        old = self.provider.currentData()
        if old not in self.profiles:
            return
        profile = replace(
            self.profiles[old],
            name=self.name.text().strip(),
            endpoint=self.endpoint.text().strip(),
            cert_sha256=self.pin.text().strip(),
        )
        profile.check()
        if profile.name != old:
            if profile.name in self.profiles:
                raise SettingsError(f"A provider named {profile.name!r} already exists.")
            token = credentials.get_token(old)
            if token:
                credentials.set_token(profile.name, token)
                credentials.delete_token(old)
            del self.profiles[old]
            index = self.provider.currentIndex()
            self.provider.setItemText(index, profile.name)
            self.provider.setItemData(index, profile.name)
        self.profiles[profile.name] = profile
        if self.token.text().strip():
            credentials.set_token(profile.name, self.token.text())
            self.token.clear()

    def _add_profile(self) -> None:
        name = "provider"
        index = 1
        while name in self.profiles:
            index += 1
            name = f"provider {index}"
        self.profiles[name] = ProviderProfile(name, "wss://")
        self.provider.addItem(name, name)
        self.provider.setCurrentIndex(self.provider.count() - 1)

    def _remove_profile(self) -> None:
        name = self.provider.currentData()
        if name in self.profiles:
            del self.profiles[name]
            credentials.delete_token(name)
            self.provider.removeItem(self.provider.currentIndex())
            self.provider.setCurrentIndex(0)

    def _forget_token(self) -> None:
        name = self.provider.currentData()
        if name in self.profiles:
            credentials.delete_token(name)
            self._show_profile()

    def _start_probe(self) -> asyncio.Task:
        self.probe_task = asyncio.ensure_future(self.test_connection())
        return self.probe_task

    async def test_connection(self) -> None:
        """Handshake with the endpoint in the fields; report fingerprint, layers and round trip."""
        endpoint = self.endpoint.text().strip()
        token = self.token.text().strip() or credentials.get_token(self.provider.currentData()) or ""
        self.test_result.setText(f"Connecting to {endpoint}…")
        self.test_button.setEnabled(False)
        try:
            pin = self.pin.text().strip()
            ProviderProfile("probe", endpoint, pin).check()
            info = await self.probe(endpoint, token, pin or None)
        except Exception as exc:  # shown to the admin, never raised out of the dialog
            what, todo = explain(exc)
            self.test_result.setText(f"✗ {what} {todo}")
        else:
            self.test_result.setText(
                f"✓ Connected. Worker serves layers {info.first_layer}–{info.last_layer - 1} "
                f"(fingerprint {info.fingerprint[:23]}…); round trip {info.rtt_ms:.1f} ms."
            )
        finally:
            self.test_button.setEnabled(True)

    # -- split depth ------------------------------------------------------------------------------
    def _split_group(self) -> QGroupBox:
        group = QGroupBox("Split depth (layers kept on this computer at each end)")
        layout = QVBoxLayout(group)
        self.depth = QComboBox()
        depths = list(range(1, (self.num_layers - 1) // 2 + 1))
        for depth in depths:
            self.depth.addItem(str(depth), str(depth))
        self.depth.setCurrentIndex(max(0, self.depth.findData(self.settings.split)))
        self.depth_table = QTableWidget(len(depths), 3)
        self.depth_table.setHorizontalHeaderLabels(
            ["Depth", "Computed on this computer", "Tokens an attacker recovers (sent / returned)"]
        )
        self.depth_table.verticalHeader().setVisible(False)
        for row, depth in enumerate(depths):
            share = 2 * depth / self.num_layers
            cost = f"{2 * depth} of {self.num_layers} layers ({share:.0%} of the compute)"
            if self.local_ms_per_layer is not None:
                cost += f", ≈{2 * depth * self.local_ms_per_layer:.0f} ms per step here"
            self.depth_table.setItem(row, 0, QTableWidgetItem(str(depth)))
            self.depth_table.setItem(row, 1, QTableWidgetItem(cost))
            self.depth_table.setItem(row, 2, QTableWidgetItem(self._privacy_cell(depth)))
        self.depth_table.resizeColumnsToContents()
        self.model = QLineEdit(self.settings.model)
        self.device = QComboBox()
        self.device.addItems(list(DEVICES))
        self.device.setCurrentText(self.settings.device)
        self.export_button = QPushButton("Export worker bundle…")
        self.export_button.clicked.connect(self.export_requested.emit)
        form = QFormLayout()
        form.addRow("Split depth", self.depth)
        form.addRow("Model", self.model)
        form.addRow("Device for the local layers", self.device)
        layout.addLayout(form)
        layout.addWidget(self.depth_table)
        layout.addWidget(self.export_button)
        return group

    def _privacy_cell(self, depth: int) -> str:
        if self.report is None:
            return "not measured yet (run the privacy evaluation)"
        exposure = self.report.exposure(depth)
        if exposure.sent is None or exposure.returned is None:
            return "not measured at this depth"
        return f"{100 * exposure.sent.top1:.0f}% / {100 * exposure.returned.top1:.0f}% (top-1, public weights)"

    # -- decoding and sampling --------------------------------------------------------------------
    def _decoding_group(self) -> QGroupBox:
        group = QGroupBox("Decoding and sampling")
        form = QFormLayout(group)
        self.mode = QComboBox()
        self.mode.addItems(list(MODES))
        self.mode.setCurrentText(self.settings.mode)
        self.mode.setToolTip(
            "auto: every draft source, sized each step from live measurements (recommended)\n"
            "learned: the model's trained draft head plus context lookup\n"
            "lookahead: Jacobi n-grams plus context lookup\n"
            "lookup: n-grams from the conversation only\n"
            "sequential: one token per round trip"
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
        form.addRow("Decoding mode", self.mode)
        form.addRow("Speculation budget (tokens per round trip)", self.budget)
        form.addRow("Temperature (0 = greedy)", self.temperature)
        form.addRow("Top-p", self.top_p)
        form.addRow("Longest answer (tokens)", self.max_new_tokens)
        return group

    def _lock(self, locked: tuple[str, ...]) -> None:
        widgets = {
            "split": self.depth,
            "model": self.model,
            "device": self.device,
            "mode": self.mode,
            "budget": self.budget,
            "temperature": self.temperature,
            "top_p": self.top_p,
            "max_new_tokens": self.max_new_tokens,
            "active_profile": self.provider,
        }
        for key in locked:
            if key in widgets:
                widgets[key].setEnabled(False)
                widgets[key].setToolTip(LOCKED_TIP)
        if "profiles" in locked:
            self.add_profile.setEnabled(False)

    # -- result -----------------------------------------------------------------------------------
    def result_settings(self) -> AppSettings:
        """The settings as edited (tokens already went to the keyring); raises SettingsError when invalid."""
        self._store_profile_fields()
        chosen = replace(
            self.settings,
            profiles=tuple(self.profiles.values()),
            active_profile=self.provider.currentData(),
            split=self.depth.currentData(),
            model=self.model.text().strip(),
            device=self.device.currentText(),
            mode=self.mode.currentText(),
            budget=self.budget.value(),
            temperature=round(self.temperature.value(), 3),
            top_p=round(self.top_p.value(), 3),
            max_new_tokens=self.max_new_tokens.value(),
            pseudonymise_embedded=self.pseudonymise_embedded,
        )
        chosen.check()
        return chosen

    def _save_clicked(self) -> None:
        try:
            self.chosen = self.result_settings()
        except (SettingsError, credentials.CredentialError) as exc:
            self.error.setText(str(exc))
            return
        self.accept()
