"""The bundled offline demo agent (see agent.py and TRIGGERS.md)."""
