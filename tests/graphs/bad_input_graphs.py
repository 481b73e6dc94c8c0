"""A graph for the bad-input corpus (tests/test_bad_input.py): it stores whatever it is given.

- bi_root: a state that is a plain dict (one root channel, no reducers), so
  update_state(values, as_node="noop") keeps any top-level key and any message dict
  exactly as sent: keys with markup or escape sequences, messages with content null,
  tool_calls null, unknown types, extra fields, values nested 200 levels deep. The
  server answers get_state with those values unchanged, as a real server would send a
  payload the app did not expect. Its context schema has number fields and a key that
  is no identifier, for the run options screen.
"""

from __future__ import annotations

from langgraph.graph import END, START, StateGraph
from typing_extensions import TypedDict

BiContext = TypedDict(
    "BiContext",
    {"max_tokens": int, "temperature": float, "odd key [b]": str},
    total=False,
)


def noop(state: dict) -> dict:
    return {}


_builder = StateGraph(dict, context_schema=BiContext)
_builder.add_node("noop", noop)
_builder.add_edge(START, "noop")
_builder.add_edge("noop", END)
bi_root = _builder.compile()
