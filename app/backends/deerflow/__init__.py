"""DeerFlow: its Gateway (gateway.py, a LangGraph-compatible API with its own differences)
and its login (session_auth.py, used by every client that talks to a DeerFlow server).

Nothing is imported here: the LangGraph client imports session_auth, and the Gateway
subclasses that client, so importing both from this package would be a cycle.
"""
