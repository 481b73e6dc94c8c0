"""A LangGraph Agent Server (local `langgraph dev`, a deployment, DeerFlow's `langgraph dev`
mode) through langgraph-sdk: the client (client.py), payload -> model mapping (mapping.py)
and stream part -> RunEvent decoding (streaming.py).

The names below are imported when first asked for: importing mapping.py (the screens read
refusals with it) must not import langgraph-sdk, which imports langchain-core (0.5-1 s at
start). The app imports the client in the thread that waits for the server."""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from .client import THREAD_FIELDS, LangGraphBackend
    from .streaming import StreamPosition

__all__ = ["THREAD_FIELDS", "LangGraphBackend", "StreamPosition"]
_HOME = {"THREAD_FIELDS": ".client", "LangGraphBackend": ".client", "StreamPosition": ".streaming"}


def __getattr__(name: str) -> Any:
    module = _HOME.get(name)
    if module is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    return getattr(importlib.import_module(module, __name__), name)
