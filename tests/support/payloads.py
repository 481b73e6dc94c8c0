"""Interrupt payloads shaped as the servers send them, shared by the unit and the UI tests."""

from __future__ import annotations

EXPENSE_FIELDS = [
    {"name": "title", "label": "Title", "type": "text", "required": True, "placeholder": "Expense title"},
    {"name": "amount", "label": "Amount", "type": "number", "required": True},
    {
        "name": "category",
        "label": "Category",
        "type": "select",
        "required": True,
        "options": [
            {"id": "category-option-1", "label": "travel", "value": "travel"},
            {"id": "category-option-2", "label": "meals", "value": "meals"},
        ],
    },
    {
        "name": "receipts",
        "label": "Receipts",
        "type": "multi_select",
        "required": False,
        "options": [
            {"id": "receipts-option-1", "label": "A-1", "value": "A-1"},
            {"id": "receipts-option-2", "label": "A-2", "value": "A-2"},
        ],
    },
    {"name": "urgent", "label": "Urgent", "type": "checkbox", "required": False},
    {"name": "day", "label": "Day", "type": "date", "required": False},
]
"""DeerFlow's `ask_clarification` form (input_mode "form"): one field of every type."""

DEERFLOW_FORM = {
    "version": 2,
    "kind": "human_input_request",
    "source": "ask_clarification",
    "request_id": "clarification:call-form",
    "clarification_type": "missing_info",
    "question": "Please provide the expense details.",
    "input_mode": "form",
    "fields": EXPENSE_FIELDS,
}
