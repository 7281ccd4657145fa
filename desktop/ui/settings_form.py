"""Settings widgets generated from a pydantic model, the way napari builds its preferences dialog from
its settings schema: a field added to ``desktop/settings.py`` appears here without UI code.

Type → widget: bool → check box, int → spin box (ge/le as its range), float → double spin box,
Literal → combo box, str → line edit, Path → line edit + "Browse…", tuple of numbers → a row of spin
boxes, nested model → group box, anything else → a line edit holding JSON. The description becomes
the tooltip and a grey help line; pydantic's own messages appear in red under the field.

Labels, descriptions and choice names of the app's settings are translated through ``settings_texts``
(lupdate needs them as literal strings); a field without an entry there shows its name made readable.
"""

from __future__ import annotations

import json
import types
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Literal, Union, get_args, get_origin

from pydantic import BaseModel, ValidationError
from pydantic.fields import FieldInfo
from pydantic_core import to_jsonable_python
from PySide6.QtCore import QCoreApplication, SignalInstance
from PySide6.QtGui import QPalette, QWheelEvent
from PySide6.QtWidgets import (
    QCheckBox, QComboBox, QDoubleSpinBox, QFileDialog, QFormLayout, QGroupBox, QHBoxLayout, QLabel, QLineEdit,
    QPushButton, QSpinBox, QVBoxLayout, QWidget,
)

from desktop.ui import settings_texts

INT_LIMIT = 2**31 - 1  # a QSpinBox holds a C int
FLOAT_LIMIT = 1e6  # the range of a float without bounds; wider only makes the box wider
ERROR_STYLE = "color: #c62828;"

_WORDS = {"llm": "LLM", "ocr": "OCR", "rrf": "RRF", "ssl": "SSL", "api": "API", "url": "URL", "kb": "KB",
          "dir": "folder", "s": "(s)"}
_SECRET_WORDS = {"key", "password", "secret", "token"}


def readable(name: str) -> str:
    """``max_answer_tokens`` → "Max answer tokens", ``timeout_s`` → "Timeout (s)"."""
    text = " ".join(_WORDS.get(word, word) for word in name.split("_") if word)
    return text[:1].upper() + text[1:]


def field_label(path: str) -> str:
    """The translated label of a field or section by its dotted path in ``Settings`` ("kb.chunking");
    a field the settings texts do not know gets its name made readable."""
    return settings_texts.label(path) or readable(path.rpartition(".")[2])


def model_section(annotation: Any) -> type[BaseModel] | None:
    """The model class of a field that holds a nested model (shown as a group), else None."""
    return annotation if isinstance(annotation, type) and issubclass(annotation, BaseModel) else None


@dataclass
class Editor:
    """How the form reads and writes one field; custom ones can replace a generated one (``overrides``)."""

    widget: QWidget  # what the form lays out
    get: Callable[[], Any]  # the raw value for pydantic to validate
    set: Callable[[Any], None]
    input: QWidget | None = None  # the widget typed into, when ``widget`` is a container
    changed: tuple[SignalInstance, ...] = field(default_factory=tuple)


class _NoWheelUnlessFocused:
    """Scrolling a long page must not change the value under the pointer: the wheel goes to the page."""

    def wheelEvent(self, event: QWheelEvent) -> None:  # noqa: N802 - Qt's name
        if self.hasFocus():  # type: ignore[attr-defined]
            super().wheelEvent(event)  # type: ignore[misc]
        else:
            event.ignore()


_SpinBox: type[QSpinBox] = type("_SpinBox", (_NoWheelUnlessFocused, QSpinBox), {})
_DoubleSpinBox: type[QDoubleSpinBox] = type("_DoubleSpinBox", (_NoWheelUnlessFocused, QDoubleSpinBox), {})
ComboBox: type[QComboBox] = type("ComboBox", (_NoWheelUnlessFocused, QComboBox), {})


# --- one editor per type ---------------------------------------------------------------------------------


def _optional(annotation: Any) -> tuple[Any, bool]:
    """``X | None`` → (X, True); anything else → (annotation, False)."""
    if get_origin(annotation) in (Union, types.UnionType):
        args = get_args(annotation)
        rest = [a for a in args if a is not type(None)]
        if len(rest) == 1 and len(args) == 2:
            return rest[0], True
    return annotation, False


def _bounds(info: FieldInfo | None, integer: bool) -> tuple[float | None, float | None]:
    """The spin box range from ge/gt/le/lt. A float's exclusive bound stays reachable so that pydantic
    can say what is wrong with it."""
    rules = {key: v for rule in (info.metadata if info else ()) for key in ("ge", "gt", "le", "lt")
             if (v := getattr(rule, key, None)) is not None}
    step = 1 if integer else 0
    low = rules["ge"] if "ge" in rules else rules["gt"] + step if "gt" in rules else None
    high = rules["le"] if "le" in rules else rules["lt"] - step if "lt" in rules else None
    return low, high


def _number_box(kind: type, info: FieldInfo | None) -> QSpinBox | QDoubleSpinBox:
    low, high = _bounds(info, integer=kind is int)
    if kind is int:
        box: QSpinBox | QDoubleSpinBox = _SpinBox()
        box.setRange(int(low if low is not None else -INT_LIMIT), int(high if high is not None else INT_LIMIT))
        box.setGroupSeparatorShown(box.maximum() >= 100_000)  # 16,384 tokens, but port 8000
        return box
    box = _DoubleSpinBox()
    box.setDecimals(2)
    box.setRange(low if low is not None else -FLOAT_LIMIT, high if high is not None else FLOAT_LIMIT)
    box.setSingleStep(0.05 if box.maximum() - box.minimum() <= 2 else 1.0)
    return box


def hbox(*widgets: QWidget, grow: QWidget | None = None) -> QWidget:
    """A row of widgets; ``grow`` takes the spare width, else the row ends in empty space."""
    row = QWidget()
    layout = QHBoxLayout(row)
    layout.setContentsMargins(0, 0, 0, 0)
    for widget in widgets:
        layout.addWidget(widget, 1 if widget is grow else 0)
    if grow is None:
        layout.addStretch(1)
    return row


def _text(edit: QLineEdit, optional: bool) -> str | None:
    text = edit.text().strip()
    return None if optional and not text else text


def _show_text(edit: QLineEdit) -> Callable[[Any], None]:
    return lambda v: edit.setText("" if v is None else str(v))


def _choice_editor(choices: Iterable[Any], path: str) -> Editor:
    box = ComboBox()
    for choice in choices:
        box.addItem(settings_texts.choice(path, choice) or str(choice), choice)
    return Editor(box, box.currentData, lambda v: box.setCurrentIndex(max(0, box.findData(v))),
                  changed=(box.currentIndexChanged,))


def _path_editor(optional: bool, folder: bool) -> Editor:
    edit, browse = QLineEdit(), QPushButton(QCoreApplication.translate("SettingsForm", "Browse…"))
    row = hbox(edit, browse, grow=edit)

    def choose() -> None:
        start = edit.text().strip() or str(Path.home())
        if folder:
            chosen = QFileDialog.getExistingDirectory(
                row, QCoreApplication.translate("SettingsForm", "Choose a folder"), start)
        else:
            chosen = QFileDialog.getOpenFileName(row, QCoreApplication.translate("SettingsForm", "Choose a file"), start)[0]
        if chosen:
            edit.setText(chosen)

    browse.clicked.connect(choose)
    return Editor(row, lambda: _text(edit, optional), _show_text(edit), input=edit, changed=(edit.textChanged,))


def _tuple_editor(kinds: tuple[type, ...]) -> Editor:
    boxes = [_number_box(kind, None) for kind in kinds]

    def set_all(values: Iterable[Any]) -> None:
        for box, v in zip(boxes, values, strict=True):
            box.setValue(v)

    return Editor(hbox(*boxes), lambda: tuple(box.value() for box in boxes), set_all,
                  changed=tuple(box.valueChanged for box in boxes))


def _json_editor(optional: bool) -> Editor:
    """Any other type: JSON text that pydantic validates (and names the problem of)."""
    edit = QLineEdit()

    def get() -> Any:
        text = _text(edit, optional)
        try:
            return json.loads(text) if text else text
        except ValueError:
            return text

    def put(v: Any) -> None:
        edit.setText("" if v is None else json.dumps(to_jsonable_python(v), ensure_ascii=False))

    return Editor(edit, get, put, changed=(edit.textEdited,))


def make_editor(name: str, info: FieldInfo, path: str | None = None) -> Editor:
    """The generated editor for one (non-model) field; ``path`` (dotted, in ``Settings``) names its choices."""
    kind, optional = _optional(info.annotation)
    args = get_args(kind)
    if kind is bool:
        check = QCheckBox()
        return Editor(check, check.isChecked, lambda v: check.setChecked(bool(v)), changed=(check.toggled,))
    if kind in (int, float) and not optional:
        box = _number_box(kind, info)
        return Editor(box, box.value, box.setValue, changed=(box.valueChanged,))
    if get_origin(kind) is Literal and not optional:
        return _choice_editor(args, path or name)
    if kind is str:
        edit = QLineEdit()
        if _SECRET_WORDS & set(name.split("_")):
            edit.setEchoMode(QLineEdit.EchoMode.PasswordEchoOnEdit)
        return Editor(edit, lambda: _text(edit, optional), _show_text(edit), changed=(edit.textEdited,))
    if isinstance(kind, type) and issubclass(kind, Path):
        return _path_editor(optional, folder=name.endswith(("dir", "folder")))
    if get_origin(kind) is tuple and args and Ellipsis not in args and set(args) <= {int, float} and not optional:
        return _tuple_editor(args)
    return _json_editor(optional)


# --- the form ---------------------------------------------------------------------------------------------


@dataclass
class _Row:
    editor: Editor
    label: QLabel
    help: QLabel
    error: QLabel


def _error_label() -> QLabel:
    return QLabel(styleSheet=ERROR_STYLE, wordWrap=True, visible=False)


class SettingsForm(QWidget):
    """Editors for the fields of one pydantic model; nested models become group boxes.

    ``exclude`` hides fields (they keep the value of the model last set); ``overrides`` replaces the
    generated editor of a field (dotted paths reach into nested models)."""

    def __init__(self, model_type: type[BaseModel], value: BaseModel | None = None, *,
                 exclude: Iterable[str] = (), overrides: Mapping[str, Editor] | None = None,
                 parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.model_type = model_type
        self._prefix = settings_texts.prefix(model_type)  # None: a model whose texts are not listed
        self._base = value if value is not None else model_type()
        self._rows: dict[str, _Row] = {}
        self._children: dict[str, SettingsForm] = {}
        self._layout = QFormLayout(self)
        self._layout.setRowWrapPolicy(QFormLayout.RowWrapPolicy.WrapLongRows)
        self._form_error = _error_label()  # problems of the model as a whole (model validators)
        self._layout.addRow(self._form_error)
        overrides = overrides or {}
        hidden = set(exclude)
        for name, info in model_type.model_fields.items():
            if name in hidden:
                continue
            if (section := model_section(info.annotation)) is not None:
                nested = {k.split(".", 1)[1]: e for k, e in overrides.items() if k.startswith(name + ".")}
                self._add_group(name, section, nested)
            else:
                self._add_row(name, info, overrides.get(name) or make_editor(name, info, self._path(name)))
        self._fill(self._base)

    def _path(self, name: str) -> str | None:
        """The dotted path in ``Settings`` of one of this form's fields; None outside ``Settings``."""
        return None if self._prefix is None else self._prefix + name

    def _label(self, name: str) -> str:
        path = self._path(name)
        return field_label(path) if path is not None else readable(name)

    def _description(self, name: str, info: FieldInfo) -> str:
        path = self._path(name)
        text = settings_texts.description(path) if path is not None else None
        return text if text is not None else info.description or ""

    def _add_group(self, name: str, section: type[BaseModel], overrides: Mapping[str, Editor]) -> None:
        box = QGroupBox(self._label(name))
        box.setObjectName(name)
        child = SettingsForm(section, getattr(self._base, name), overrides=overrides)
        QVBoxLayout(box).addWidget(child)
        self._children[name] = child
        self._layout.addRow(box)

    def _add_row(self, name: str, info: FieldInfo, editor: Editor) -> None:
        description = self._description(name, info)
        target = editor.input or editor.widget
        target.setObjectName(name)
        for widget in (editor.widget, target):
            widget.setToolTip(description)
        label = QLabel(self._label(name), toolTip=description)
        label.setBuddy(target)
        help_line = QLabel(description, wordWrap=True)
        if not description:  # (no setVisible(True) here: without a parent yet, it would open a window)
            help_line.hide()
        help_line.setForegroundRole(QPalette.ColorRole.PlaceholderText)  # grey in light and dark themes
        font = help_line.font()
        font.setPointSizeF(font.pointSizeF() * 0.9)
        help_line.setFont(font)
        cell = QWidget()
        column = QVBoxLayout(cell)
        column.setContentsMargins(0, 0, 0, 0)
        column.setSpacing(2)
        row = _Row(editor, label, help_line, _error_label())
        for widget in (editor.widget, help_line, row.error):
            column.addWidget(widget)
        for signal in editor.changed:  # an edited field loses its old complaint
            signal.connect(lambda *_, n=name: self._clear_error(n))
        self._rows[name] = row
        self._layout.addRow(label, cell)

    # --- values ------------------------------------------------------------------------------------------

    def value(self) -> BaseModel | None:
        """The validated model, or None when a field is invalid (each such field then shows why)."""
        self.clear_errors()
        raw = dict(self._base)  # hidden fields keep their values
        failed = False
        for name, child in self._children.items():
            section = child.value()
            failed |= section is None
            if section is not None:
                raw[name] = section
        for name, row in self._rows.items():
            raw[name] = row.editor.get()
        try:
            model = self.model_type.model_validate(raw)
        except ValidationError as exc:
            self._show(exc)
            return None
        return None if failed else model

    def set_value(self, model: BaseModel) -> None:
        self._base = model
        self._fill(model)

    def restore_defaults(self) -> None:
        """The model's defaults into the shown fields; hidden ones are left alone."""
        self._fill(self.model_type())

    def _fill(self, model: BaseModel) -> None:
        for name, row in self._rows.items():
            row.editor.set(getattr(model, name))
        for name, child in self._children.items():
            child.set_value(getattr(model, name))
        self.clear_errors()

    # --- errors --------------------------------------------------------------------------------------------

    def _show(self, exc: ValidationError) -> None:
        for error in exc.errors():
            loc = [str(part) for part in error["loc"]]
            if len(loc) > 1 and loc[0] in self._rows:  # an item of a tuple: say which
                self.set_error(loc[0], f"{int(loc[1]) + 1 if loc[1].isdigit() else loc[1]}: {error['msg']}")
            else:
                self.set_error(".".join(loc), error["msg"])

    def _owner(self, path: str) -> tuple[SettingsForm, str]:
        """The (nested) form holding the field at a dotted path, and the field's name there."""
        head, _, rest = path.partition(".")
        return self._children[head]._owner(rest) if head in self._children and rest else (self, head)

    def set_error(self, path: str, message: str) -> None:
        """Show ``message`` in red under the field at the dotted ``path`` ("" for the whole form)."""
        form, name = self._owner(path)
        label = form._rows[name].error if name in form._rows else form._form_error
        label.setText(f"{label.text()}; {message}" if not label.isHidden() and label.text() else message)
        label.setVisible(True)

    def _clear_error(self, name: str) -> None:
        self._rows[name].error.clear()
        self._rows[name].error.hide()

    def clear_errors(self) -> None:
        self._form_error.clear()
        self._form_error.hide()
        for name in self._rows:
            self._clear_error(name)
        for child in self._children.values():
            child.clear_errors()

    def errors(self) -> dict[str, str]:
        """The messages shown now, by dotted path ("" for the whole form)."""
        found = {name: row.error.text() for name, row in self._rows.items() if not row.error.isHidden()}
        if not self._form_error.isHidden():
            found[""] = self._form_error.text()
        for name, child in self._children.items():
            found.update({f"{name}.{path}".rstrip("."): msg for path, msg in child.errors().items()})
        return found

    # --- lookup ----------------------------------------------------------------------------------------------

    def editor(self, path: str) -> QWidget:
        """The input widget of the field at a dotted path (the group box for a nested model)."""
        form, name = self._owner(path)
        if name in form._children:
            return form._children[name].parentWidget() or form._children[name]
        editor = form._rows[name].editor
        return editor.input or editor.widget

    def label(self, path: str) -> QLabel:
        form, name = self._owner(path)
        return form._rows[name].label

    def leaf_paths(self) -> list[str]:
        """Dotted paths of every field shown, nested ones included."""
        paths = list(self._rows)
        for name, child in self._children.items():
            paths += [f"{name}.{p}" for p in child.leaf_paths()]
        return paths

    def insert_after(self, path: str, widget: QWidget) -> None:
        """Put an extra widget (a button row, say) right below a field or a group, across the whole row."""
        form, name = self._owner(path)
        anchor = form._rows[name].label if name in form._rows else self.editor(path)  # a field, or a group's box
        row, _role = form._layout.getWidgetPosition(anchor)
        form._layout.insertRow(row + 1, widget)

    def set_enabled(self, path: str, enabled: bool) -> None:
        """Enable or grey out a field with its label and help line."""
        form, name = self._owner(path)
        row = form._rows[name]
        for widget in (row.label, row.editor.widget, row.help):
            widget.setEnabled(enabled)
