"""LangGraph payloads as threadbench.models: kept as a name for the callers (tests, bench) that read
them; the functions live in threadbench.backends.langgraph.mapping and .streaming."""

from .backends.langgraph.mapping import (
    SECOND_TEXT_EXTRACT,
    TITLE_EXTRACT,
    approx_size,
    content_text,
    interrupt_from_dict,
    interrupts_from_thread,
    message_from_dict,
    message_type,
    messages_from_values,
    needs_second_text,
    one_line,
    parse_time,
    state_from_dict,
    thread_from_dict,
    thread_title,
)
from .backends.langgraph.streaming import (
    approx_text,
    error_text,
    run_event_from_part,
)

__all__ = [
    "SECOND_TEXT_EXTRACT",
    "TITLE_EXTRACT",
    "approx_size",
    "approx_text",
    "content_text",
    "error_text",
    "interrupt_from_dict",
    "interrupts_from_thread",
    "message_from_dict",
    "message_type",
    "messages_from_values",
    "needs_second_text",
    "one_line",
    "parse_time",
    "run_event_from_part",
    "state_from_dict",
    "thread_from_dict",
    "thread_title",
]
