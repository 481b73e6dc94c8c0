"""DeerFlow's Gateway (gateway.py: a LangGraph-compatible API with its own differences).
DeerFlow's login, which its `langgraph dev` mode needs too, is app/backends/session_auth.py.

Only constants here: detect.py reads them without importing the Gateway's client.
"""

GATEWAY_SERVICE = "deer-flow-gateway"
"""What DeerFlow's Gateway calls itself in GET <origin>/health."""
