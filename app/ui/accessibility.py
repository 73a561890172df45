"""What a screen reader (Orca, NVDA) is told about a control, where Qt cannot infer it.

Qt names a button by its text and a field by the label whose buddy it is; a combo box it names by its
current value, and a field laid out beside a button (a row of its own) by the group box around it — so
"auto" or "Provider (where the middle layers run)" was read where "Decoding mode" or "Access token" was
meant. Every control the app shows must have a non-empty accessible name (tests/ui/test_accessibility.py
walks every window for one without).
"""

from __future__ import annotations

from PySide6.QtWidgets import QFormLayout, QLabel, QLayout, QWidget


def first_control(item: QWidget | QLayout | None) -> QWidget | None:
    """The first widget in ``item`` (itself, or the first of a layout's, depth first)."""
    if item is None or isinstance(item, QWidget):
        return item
    for index in range(item.count()):
        child = item.itemAt(index)
        found = first_control(child.widget() or child.layout())
        if found is not None:
            return found
    return None


def name_form_fields(form: QFormLayout) -> None:
    """Each labelled row's field named by its label, and the label made its buddy (so its mnemonic, and a
    click on it, reach the field): for a row of a field and a button, the field."""
    for row in range(form.rowCount()):
        label_item = form.itemAt(row, QFormLayout.ItemRole.LabelRole)
        field_item = form.itemAt(row, QFormLayout.ItemRole.FieldRole)
        label = label_item.widget() if label_item is not None else None
        if not isinstance(label, QLabel) or not label.text() or field_item is None:
            continue
        field = first_control(field_item.widget() or field_item.layout())
        if field is None:
            continue
        label.setBuddy(field)
        if not field.accessibleName():
            field.setAccessibleName(label.text().replace("&&", "\0").replace("&", "").replace("\0", "&").rstrip(":"))
