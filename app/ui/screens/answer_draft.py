"""What was typed in HumanInputScreen, kept when the person leaves the question for later
(escape) and put back when it opens again: the answer box and the option chosen, the
decisions with their messages and edited arguments, a form's fields.

A draft is a plain dict; an empty one (nothing typed, nothing chosen) is not kept.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from textual.widgets import Checkbox, Input, Select, SelectionList, TextArea

from ...json_text import editable_json
from ..widgets.decision_picker import DecisionPicker

if TYPE_CHECKING:
    from .human_input import HumanInputScreen


def draft_of(screen: HumanInputScreen) -> dict[str, Any]:
    """What the person has typed or chosen so far ({} for nothing)."""
    if screen.mode == "review":
        rows = []
        for index, action in enumerate(screen.pending.actions):
            editor = screen.query_one(f"#human-input-args-{index}", TextArea)
            rows.append(
                {
                    "decision": screen.query_one(f"#human-input-decision-{index}", DecisionPicker).value,
                    "message": screen.query_one(f"#human-input-message-{index}", Input).value,
                    "args": editor.text,
                    "edited": editor.text != editable_json(action.args),
                }
            )
        touched = any(row["decision"] is not None or row["message"] or row["edited"] for row in rows)
        return {"rows": rows} if touched else {}
    if screen.mode == "form":
        values = screen.form_values()
        touched = any(value not in ("", [], False, None) for value in values.values())
        return {"form": values} if touched else {}
    draft: dict[str, Any] = {}
    if screen.answer_box.value:
        draft["text"] = screen.answer_box.value
    options = screen.option_list
    if options is not None and options.highlighted is not None:
        draft["option"] = options.highlighted
    return draft


def restore_draft(screen: HumanInputScreen, draft: dict[str, Any]) -> None:
    """Put a kept draft back in the dialog's widgets (before the focus is set)."""
    if screen.mode == "review":
        for index, row in enumerate(draft.get("rows", [])[: len(screen.pending.actions)]):
            if row.get("decision") is not None:
                screen.query_one(f"#human-input-decision-{index}", DecisionPicker).decide(row["decision"])
            screen.query_one(f"#human-input-message-{index}", Input).value = row.get("message", "")
            if row.get("edited"):
                screen.query_one(f"#human-input-args-{index}", TextArea).load_text(row["args"])
        return
    if screen.mode == "form":
        _restore_form(screen, draft.get("form", {}))
        return
    options = screen.option_list
    if options is not None and draft.get("option") is not None:
        options.highlighted = draft["option"]
    if draft.get("text"):
        box = screen.answer_box
        box.value = draft["text"]
        box.cursor_position = len(box.value)


def _restore_form(screen: HumanInputScreen, values: dict[str, Any]) -> None:
    for index, field in enumerate(screen.pending.fields):
        if field.name not in values:
            continue
        value = values[field.name]
        widget = screen.query_one(f"#human-input-field-{index}")
        if isinstance(widget, Checkbox):
            widget.value = bool(value)
        elif isinstance(widget, SelectionList):
            for item in value or []:
                widget.select(item)
        elif isinstance(widget, Select):
            if value:
                widget.value = value
        elif isinstance(widget, TextArea):
            widget.load_text(value)
        elif isinstance(widget, Input):
            widget.value = value
