"""A 10xGraph server (10xgraph-api) over httpx: the client (client.py), its payload mapping
(mapping.py), its refusals as typed errors (errors.py) and its line-JSON run stream (stream.py)."""

from .client import CAPABILITIES, TenXGraphBackend
from .mapping import to_chat_message, to_client_message

__all__ = ["CAPABILITIES", "TenXGraphBackend", "to_chat_message", "to_client_message"]
