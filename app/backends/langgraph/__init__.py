"""A LangGraph Agent Server (local `langgraph dev`, a deployment, DeerFlow's `langgraph dev`
mode) through langgraph-sdk: the client (client.py), payload -> model mapping (mapping.py)
and stream part -> RunEvent decoding (streaming.py)."""

from .client import THREAD_FIELDS, LangGraphBackend
from .streaming import StreamPosition

__all__ = ["THREAD_FIELDS", "LangGraphBackend", "StreamPosition"]
