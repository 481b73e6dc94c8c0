"""Where a graph keeps its conversation: the key of its state that holds the messages.

LangGraph's convention is "messages" (MessagesState; agent-chat-ui and Studio's chat read
it), but a graph may keep them under a key of its own ("transcript", "chat_history"). The
key is found in a state's values (its top-level list of messages) and, for a thread with no
state yet, in the graph's schemas (the property whose items are LangChain messages)."""

from __future__ import annotations

from typing import Any

DEFAULT = "messages"
_KINDS = frozenset("human ai tool system function chat remove user assistant developer".split())


def _is_message(item: Any) -> bool:
    """A message dict: LangChain's (`type`, `content`) or OpenAI's (`role`, `content`)."""
    if not isinstance(item, dict) or "content" not in item:
        return False
    kind = item.get("type") or item.get("role")
    return isinstance(kind, str) and (kind.lower() in _KINDS or kind.endswith("MessageChunk"))


def messages_key(values: Any) -> str | None:
    """The key of a state's `values` that holds its conversation: "messages" where it is
    there, else the first key whose value is a list of messages; None when none is."""
    if not isinstance(values, dict):
        return None
    if DEFAULT in values:
        return DEFAULT
    for key, value in values.items():
        # (the first and the last item: a thread of 10,000 messages is read often)
        if isinstance(value, list) and value and _is_message(value[0]) and _is_message(value[-1]):
            return str(key)
    return None


def messages_key_of_schemas(schemas: Any) -> str | None:
    """The key a graph's input (else its state) keeps messages under, from an assistant's
    schemas (get_schemas): "messages" where it is a property, else the first property whose
    items are LangChain messages; None when none is (or the server gave no schema)."""
    if not isinstance(schemas, dict):
        return None
    for name in ("input_schema", "state_schema"):
        schema = schemas.get(name)
        properties = schema.get("properties") if isinstance(schema, dict) else None
        if not isinstance(properties, dict):
            continue
        if DEFAULT in properties:
            return DEFAULT
        for key, spec in properties.items():
            if isinstance(spec, dict) and any(_names_a_message(ref) for ref in _refs(spec.get("items"))):
                return str(key)
    return None


def _refs(schema: Any) -> list[str]:
    """Every "$ref" in a JSON schema (a list's items: `oneOf` the message classes)."""
    if isinstance(schema, dict):
        found = [schema["$ref"]] if isinstance(schema.get("$ref"), str) else []
        return found + [ref for value in schema.values() for ref in _refs(value)]
    if isinstance(schema, list):
        return [ref for value in schema for ref in _refs(value)]
    return []


def _names_a_message(ref: str) -> bool:
    name = ref.rsplit("/", 1)[-1]
    return name.endswith(("Message", "MessageChunk"))
