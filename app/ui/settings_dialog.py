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

from PySide6.QtCore import QEvent, Signal
from PySide6.QtWidgets import (
    QComboBox,
    QDialog,
    QDialogButtonBox,
    QDoubleSpinBox,
    QFormLayout,
    QGroupBox,
    QLabel,
    QSpinBox,
    QTabWidget,
    QVBoxLayout,
    QWidget,
)

from app.data import credentials
from app.data.settings import MODES, AppSettings, SettingsError, check_locks
from app.host import LocalStepCost, ModelFacts, PrivacyReport, WorkerProbe
from app.ui.accessibility import name_form_fields
from app.ui.data_text import error_text
from app.ui.i18n import LANGUAGE_NAMES, QT_TRANSLATE_NOOP, language_name, translate
from app.ui.model_page import ModelPage, shown
from app.ui.palette import colours, css, on_palette_change
from app.ui.provider_page import LOCKED_TIP, ProviderPage

MIN_WIDTH = 760  # the depth table shows every column without a horizontal scrollbar (1366-pixel screen)


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
        layout = QVBoxLayout(self)
        # Tabs rather than one column: the panel fits a 1366×768 screen, and the depth table gets
        # the room to show every column without a horizontal scrollbar.
        self.tabs = QTabWidget()
        self.provider_page = ProviderPage(settings, probe, lambda text: self.error.setText(text))
        self.tabs.addTab(self.provider_page, translate("SettingsDialog", "&Provider"))
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
        self.provider_page.show_profile()
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
        self.provider_page.restyle()
        self.model_page.restyle()

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
            "language": self.language,
        }
        for key in locked:
            if key in widgets:
                widgets[key].setEnabled(False)
                widgets[key].setToolTip(shown(LOCKED_TIP))
        self.provider_page.lock(locked)

    # -- result -----------------------------------------------------------------------------------
    def result_settings(self) -> AppSettings:
        """The settings as edited, typed tokens stored in the keyring; raises SettingsError when invalid."""
        providers = self.provider_page
        providers.store_profiles()
        chosen = replace(
            self.settings,
            profiles=tuple(providers.profiles.values()),
            active_profile=providers.provider.currentData(),
            split=self.model_page.depth.currentData(),
            model=self.model_page.model.text().strip(),
            device=self.model_page.device.currentData(),
            mode=self.mode.currentData(),
            budget=self.budget.value(),
            temperature=round(self.temperature.value(), 3),
            top_p=round(self.top_p.value(), 3),
            max_new_tokens=self.max_new_tokens.value(),
            pseudonymise_embedded=providers.pseudonymise_embedded,
            prefill_embedded=providers.prefill_embedded,
            read_in_context=providers.read_in_context.isChecked(),
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
            if isinstance(exc, credentials.CredentialError) and self.provider_page.shown_profile is not None:
                self.provider_page.show_profile()  # says the typed token is kept, to be stored on the next Save
            return
        self.accept()
