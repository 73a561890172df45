"""The settings panel's Model and split depth tab: the model named or chosen, checked off the UI thread; the
depth and the device of the local layers; one row per depth of what it costs on each side and what it
exposes; and the worker bundle's export for the depth chosen."""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable

from PySide6.QtCore import Qt, Signal
from PySide6.QtWidgets import (
    QComboBox,
    QFileDialog,
    QFormLayout,
    QGroupBox,
    QHBoxLayout,
    QHeaderView,
    QLabel,
    QLineEdit,
    QProgressBar,
    QPushButton,
    QTableWidget,
    QTableWidgetItem,
    QVBoxLayout,
    QWidget,
)

from app.data.settings import DEVICES, AppSettings
from app.host import LocalStepCost, ModelFacts, PrivacyReport
from app.ui.accessibility import name_form_fields
from app.ui.i18n import QT_TRANSLATE_NOOP, number, translate
from app.ui.messages import explain
from app.ui.palette import colours, css

DEPTH_COLUMNS = (  # (header, its tooltip): short headers, so no column is cut at 1366 pixels
    (
        QT_TRANSLATE_NOOP("SettingsDialog", "Depth"),
        QT_TRANSLATE_NOOP("SettingsDialog", "Layers kept on this computer at each end of the model"),
    ),
    (
        QT_TRANSLATE_NOOP("SettingsDialog", "Compute here"),
        QT_TRANSLATE_NOOP(
            "SettingsDialog", "Layers computed on this computer, their share of the compute, and the time per step"
        ),
    ),
    (
        QT_TRANSLATE_NOOP("SettingsDialog", "Memory here"),
        QT_TRANSLATE_NOOP(
            "SettingsDialog", "Weights this computer holds: embedding, the edge layers, final norm and head"
        ),
    ),
    (
        QT_TRANSLATE_NOOP("SettingsDialog", "Worker memory"),
        QT_TRANSLATE_NOOP("SettingsDialog", "Weights the GPU worker holds (its KV cache comes on top, per session)"),
    ),
    (
        QT_TRANSLATE_NOOP("SettingsDialog", "Recovered (sent / returned)"),
        QT_TRANSLATE_NOOP(
            "SettingsDialog", "Tokens an attacker recovers from what crosses the network (privacy evaluation)"
        ),
    ),
)
WORKER_DTYPE = "bfloat16"  # what a GPU worker computes in by default


# The families' labels (app/model/families.py) that hold words, not only names.
FAMILY_LABELS = {
    "Llama 2/3 (also SmolLM2)": QT_TRANSLATE_NOOP("SettingsDialog", "Llama 2/3 (also SmolLM2)"),
    "Mistral and Mistral NeMo": QT_TRANSLATE_NOOP("SettingsDialog", "Mistral and Mistral NeMo"),
    "Qwen2 and Qwen2.5": QT_TRANSLATE_NOOP("SettingsDialog", "Qwen2 and Qwen2.5"),
    "Phi-3 and Phi-3.5": QT_TRANSLATE_NOOP("SettingsDialog", "Phi-3 and Phi-3.5"),
}


def model_summary(facts: ModelFacts) -> str:
    """A checked model in a line: family, depth, stored type, size and files (ModelFacts.summary, translated)."""
    if facts.files == 1:
        files = translate("SettingsDialog", "1 file")
    else:
        files = translate("SettingsDialog", "{count} files").format(count=number(facts.files))
    family = shown(FAMILY_LABELS[facts.family]) if facts.family in FAMILY_LABELS else facts.family
    text = translate("SettingsDialog", "{family}: {layers} layers, {dtype}, {size} GB in {files}").format(
        family=family,
        layers=facts.num_layers,
        dtype=facts.stored_dtype,
        size=number(facts.stored_bytes / 1e9, 1),
        files=files,
    )
    tied = translate("SettingsDialog", ", tied embeddings") if facts.tied else ""
    return f"{text}{tied}."


def shown(text: str) -> str:
    """One of the panel's constants, as the user reads it (marked for lupdate where it is defined)."""
    return translate("SettingsDialog", text)


def size_text(size: int) -> str:
    return f"{number(size / 1e9, 1)} GB" if size >= 1e9 else f"{number(size / 1e6, 1)} MB"


def torch_dtype_for(device: str) -> str:
    """The compute dtype the workstation's layers use on ``device`` with --dtype auto (devices.py)."""
    return "bfloat16" if device == "cuda" else "float32"


class ModelPage(QGroupBox):
    """The model, the split depth and the device, with each depth's costs and exposure."""

    export_requested = Signal()

    def __init__(
        self,
        settings: AppSettings,
        num_layers: int,
        privacy_report: PrivacyReport | None,
        local_cost: LocalStepCost | None = None,
        inspect: Callable[[str], Awaitable[ModelFacts]] | None = None,
        parent: QWidget | None = None,
    ):
        super().__init__(translate("SettingsDialog", "Split depth (layers kept on this computer at each end)"), parent)
        self.settings = settings
        self.num_layers = num_layers
        self.report = privacy_report
        self.local_cost = local_cost  # measured on this computer, None before an answer
        self.inspect = inspect
        self.facts: ModelFacts | None = None
        self.model_failed = False  # the last check refused the model (said in the error colour)
        self.inspect_task: asyncio.Task | None = None
        self.inspecting = ""  # the model spec the running (or last) check is of
        self._build()

    def restyle(self) -> None:
        """A refused model's line in the palette's error colour (again when the theme changes)."""
        self.model_facts.setStyleSheet(f"color: {css(colours().error.foreground)};" if self.model_failed else "")

    def model_unchecked(self) -> bool:
        """A model other than the saved one that the page has not yet found usable."""
        spec = self.model.text().strip()
        checked = self.facts is not None and self.facts.spec == spec
        return self.inspect is not None and spec != self.settings.model and not checked

    async def checked(self, spec: str) -> None:
        """Wait for the check of ``spec`` (starting it unless it runs already)."""
        task = self.inspect_task
        if task is None or self.inspecting != spec:
            task = self.start_inspection()
        await asyncio.shield(task)

    def _build(self) -> None:
        layout = QVBoxLayout(self)
        self.depth = QComboBox()
        self.depth_table = QTableWidget(0, len(DEPTH_COLUMNS))
        for column, (title, tip) in enumerate(DEPTH_COLUMNS):
            header_item = QTableWidgetItem(shown(title))
            header_item.setToolTip(shown(tip))
            self.depth_table.setHorizontalHeaderItem(column, header_item)
        self.depth_table.verticalHeader().setVisible(False)
        self.depth_table.setWordWrap(True)
        self.depth_table.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        self.depth_table.setEditTriggers(QTableWidget.EditTrigger.NoEditTriggers)
        self.depth_table.setTabKeyNavigation(False)  # Tab leaves the table (it walked every cell); arrows move in it
        header = self.depth_table.horizontalHeader()
        header.setSectionResizeMode(QHeaderView.ResizeMode.Stretch)
        for column in (0, len(DEPTH_COLUMNS) - 1):  # the depth, and the widest header
            header.setSectionResizeMode(column, QHeaderView.ResizeMode.ResizeToContents)
        self.depth_table.setMinimumHeight(200)
        self.depth_table.setAccessibleName(translate("SettingsDialog", "Split depths and what each costs"))
        self.depth_table.setAccessibleDescription(
            translate(
                "SettingsDialog",
                "One row per depth: the compute and memory on this computer and on the worker, and the tokens an "
                "attacker recovers",
            )
        )
        self.fill_depths()
        self.model = QLineEdit(self.settings.model)
        self.model.setToolTip(
            translate("SettingsDialog", "smollm2-135m-instruct (bundled), or a Hugging Face model folder")
        )
        self.model.editingFinished.connect(self.start_inspection)
        self.browse = QPushButton(translate("SettingsDialog", "Choose folder…"))
        self.browse.clicked.connect(self._choose_model_folder)
        self.model_facts = QLabel("")
        self.model_facts.setWordWrap(True)
        model_row = QHBoxLayout()
        model_row.addWidget(self.model, 1)
        model_row.addWidget(self.browse)
        self.device = QComboBox()
        for device in DEVICES:  # "cpu" and "cuda" are names; "auto" is a word
            self.device.addItem(translate("SettingsDialog", "auto") if device == "auto" else device, device)
        self.device.setCurrentIndex(max(0, self.device.findData(self.settings.device)))
        self.device.currentIndexChanged.connect(lambda _: self.fill_depths())
        self.export_button = QPushButton(translate("SettingsDialog", "Export worker bundle…"))
        self.export_button.setToolTip(
            translate("SettingsDialog", "Write the middle layers of this model at this depth, for the GPU server")
        )
        self.export_button.clicked.connect(self.export_requested.emit)
        self.export_progress = QProgressBar()
        self.export_progress.setAccessibleName(translate("SettingsDialog", "Worker bundle export progress"))
        self.export_progress.setVisible(False)
        self.export_status = QLabel("")
        self.export_status.setWordWrap(True)
        form = QFormLayout()
        form.addRow(translate("SettingsDialog", "Model"), model_row)
        form.addRow("", self.model_facts)
        form.addRow(translate("SettingsDialog", "Split depth"), self.depth)
        form.addRow(translate("SettingsDialog", "Device for the local layers"), self.device)
        name_form_fields(form)
        layout.addLayout(form)
        layout.addWidget(self.depth_table, 1)
        layout.addWidget(self.export_button)
        layout.addWidget(self.export_progress)
        layout.addWidget(self.export_status)

    def show_export_progress(self, message: str, fraction: float) -> None:
        self.export_status.setText(message)
        self.export_progress.setValue(int(100 * fraction))

    def fill_depths(self) -> None:
        """One row per depth: compute share, memory on each side (once the model is sized), exposure."""
        layers = self.facts.num_layers if self.facts else self.num_layers
        chosen = self.depth.currentData() or self.settings.split
        depths = list(range(1, (layers - 1) // 2 + 1))
        self.depth.blockSignals(True)
        self.depth.clear()
        for depth in depths:
            self.depth.addItem(str(depth), str(depth))
        self.depth.setCurrentIndex(max(0, self.depth.findData(chosen)))
        self.depth.blockSignals(False)
        self.depth_table.setRowCount(len(depths))
        local_dtype = torch_dtype_for(self.device.currentData() if hasattr(self, "device") else self.settings.device)
        for row, depth in enumerate(depths):
            share = 2 * depth / layers
            cost = translate("SettingsDialog", "{local} of {layers} layers ({share}%)").format(
                local=2 * depth, layers=layers, share=number(100 * share)
            )
            measured_here = self.facts is None or self.facts.spec == self.settings.model
            if self.local_cost is not None and measured_here:
                cost += translate("SettingsDialog", ", ≈{ms} ms a step here").format(
                    ms=number(self.local_cost.at(2 * depth))
                )
            here = there = translate("SettingsDialog", "choose a model to size it")
            if self.facts is not None:
                here = f"{size_text(self.facts.edge_bytes(depth, depth, local_dtype))} ({local_dtype})"
                worker = self.facts.worker_bytes(depth, depth, WORKER_DTYPE)
                there = translate("SettingsDialog", "{size} ({dtype}) + each conversation's cache").format(
                    size=size_text(worker), dtype=WORKER_DTYPE
                )
            for column, text in enumerate((str(depth), cost, here, there, self._privacy_cell(depth))):
                item = QTableWidgetItem(text)
                last = column == len(DEPTH_COLUMNS) - 1
                item.setToolTip(self._privacy_tip(depth) if last else shown(DEPTH_COLUMNS[column][1]))
                self.depth_table.setItem(row, column, item)
        self.depth_table.resizeRowsToContents()

    def _choose_model_folder(self) -> None:
        folder = QFileDialog.getExistingDirectory(
            self, translate("SettingsDialog", "Choose a model folder (config.json, tokenizer, safetensors)")
        )
        if folder:
            self.model.setText(folder)
            self.start_inspection()

    def start_inspection(self) -> asyncio.Task | None:
        """Check the model named in the field (family, files, dtype) and size each depth, off the UI thread."""
        if self.inspect is None:
            return None
        if self.inspect_task is not None and not self.inspect_task.done():
            self.inspect_task.cancel()
        self.inspecting = self.model.text().strip()
        self.inspect_task = asyncio.ensure_future(self._inspect(self.inspecting))
        return self.inspect_task

    async def _inspect(self, spec: str) -> None:
        self.model_failed = False
        self.restyle()
        self.model_facts.setText(translate("SettingsDialog", "Checking {model}…").format(model=spec))
        try:
            facts = await self.inspect(spec)
        except asyncio.CancelledError:
            raise
        except Exception as exc:  # shown to the admin, never raised out of the dialog
            what, todo = explain(exc)
            self.facts = None
            self.model_failed = True  # said in the error colour, and with ✗: not by its colour alone
            self.restyle()
            self.model_facts.setText(f"✗ {what} {todo}".strip())
        else:
            self.facts = facts
            self.model_facts.setText(f"✓ {model_summary(facts)}")
        self.fill_depths()

    def _privacy_tip(self, depth: int) -> str:
        """The privacy cell in words a non-engineer can act on."""
        exposure = self.report.exposure(depth) if self.report is not None else None
        if exposure is None or exposure.sent is None or exposure.returned is None:
            return shown(DEPTH_COLUMNS[-1][1])
        return translate(
            "SettingsDialog",
            "Someone running the worker, holding the published model, could read back about "
            "{sent}% of the words this computer sends it at depth {depth}, and "
            "{returned}% of what it sends back. Keeping more layers here changes this "
            "little; replacing identifiers before sending (Provider tab) is what keeps names, dates and numbers "
            "from the worker.",
        ).format(sent=number(100 * exposure.sent.top1), depth=depth, returned=number(100 * exposure.returned.top1))

    def _privacy_cell(self, depth: int) -> str:
        if self.report is None:
            return translate("SettingsDialog", "not measured yet (run the privacy evaluation)")
        exposure = self.report.exposure(depth)
        if exposure.sent is None or exposure.returned is None:
            return translate("SettingsDialog", "not measured at this depth")
        return translate("SettingsDialog", "{sent}% / {returned}% (public weights)").format(
            sent=number(100 * exposure.sent.top1), returned=number(100 * exposure.returned.top1)
        )
