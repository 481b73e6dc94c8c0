"""The demo agent's tools (run by a LangGraph ToolNode named "tools").

- ask_clarification: pauses the run with `interrupt()` (a DeerFlow-shaped question).
- write_todos / write_file: update the state (todos, artifacts) with a Command.
- delete_file / deploy_app: wait for approval with a LangChain v1 HITL request.
- run_command: always raises (the ToolNode turns it into a ToolMessage with status "error").
- research: answered by the research subgraph node, never by the ToolNode.
"""

from __future__ import annotations

import json
from typing import Annotated, Any, Literal

from langchain_core.messages import ToolMessage
from langchain_core.tools import InjectedToolCallId, tool
from langgraph.types import Command, interrupt

from .state import Todo

ClarificationType = Literal[
    "missing_info", "ambiguous_requirement", "approach_choice", "risk_confirmation", "suggestion"
]


def answer_text(value: Any) -> str:
    """The text of a resume value: a string, or a dict with "value"/"answer"."""
    if isinstance(value, dict):
        for key in ("value", "answer", "response", "text"):
            if key in value:
                return answer_text(value[key])
        return json.dumps(value, ensure_ascii=False)
    if isinstance(value, list) and len(value) == 1:
        return answer_text(value[0])
    if isinstance(value, str):
        return value
    return json.dumps(value, ensure_ascii=False)


@tool
def ask_clarification(
    question: str,
    clarification_type: ClarificationType,
    context: str | None = None,
    options: list[str] | None = None,
) -> str:
    """Ask the user a question and wait for the answer before going on."""
    answer = interrupt(
        {
            "question": question,
            "clarification_type": clarification_type,
            "context": context,
            "options": list(options or []),
        }
    )
    return answer_text(answer)


@tool
def write_todos(todos: list[Todo], tool_call_id: Annotated[str, InjectedToolCallId]) -> Command:
    """Replace the todo list of this thread (each item: content and status)."""
    todos = [dict(item) for item in todos]
    done = sum(1 for item in todos if item.get("status") == "completed")
    message = ToolMessage(
        content=f"Updated the todo list: {len(todos)} items, {done} completed.",
        tool_call_id=tool_call_id,
        name="write_todos",
        artifact=todos,
    )
    return Command(update={"todos": todos, "messages": [message]})


@tool
def write_file(path: str, content: str, tool_call_id: Annotated[str, InjectedToolCallId]) -> Command:
    """Write a file to the outputs folder and present it as an artifact."""
    words = len(content.split())
    message = ToolMessage(
        content=f"wrote `{path}` ({words} words).",
        tool_call_id=tool_call_id,
        name="write_file",
        artifact={"path": path, "content": content},
    )
    return Command(update={"artifacts": [path], "messages": [message]})


@tool
def research(topic: str) -> str:
    """Research a topic with the research subgraph (queries, search, summary)."""
    return f"Research on {topic!r} is handled by the research node."


def _approval(name: str, args: dict[str, Any], description: str) -> tuple[str, dict[str, Any], str]:
    """Ask for approval (HITL middleware shape); returns (decision, args, message)."""
    response = interrupt(
        {
            "action_requests": [{"name": name, "args": args, "description": description}],
            "review_configs": [{"action_name": name, "allowed_decisions": ["approve", "edit", "reject"]}],
        }
    )
    decision: Any = response
    if isinstance(response, dict) and "decisions" in response:
        decision = (response["decisions"] or [{}])[0]
    elif isinstance(response, list) and response:
        decision = response[0]
    if isinstance(decision, str):
        lowered = decision.strip().lower()
        if lowered in ("approve", "approved", "accept", "yes", "y", "ok"):
            return "approve", args, ""
        return "reject", args, decision
    if not isinstance(decision, dict):
        return "reject", args, f"unreadable decision {decision!r}"
    kind = decision.get("type")
    if kind in ("approve", "accept"):
        return "approve", args, ""
    if kind == "edit":
        edited = decision.get("edited_action") or {}
        new_args = edited.get("args")
        if new_args is None and isinstance(decision.get("args"), dict):  # Agent Inbox shape
            new_args = decision["args"].get("args")
        return "edit", {**args, **(new_args or {})}, ""
    message = decision.get("message") or decision.get("args") or ""
    return "reject", args, message if isinstance(message, str) else json.dumps(message)


def _rejected(name: str, tool_call_id: str, message: str) -> ToolMessage:
    text = f"Rejected by the reviewer: {message}" if message else "Rejected by the reviewer."
    return ToolMessage(content=text, tool_call_id=tool_call_id, name=name, status="error")


@tool
def delete_file(path: str, tool_call_id: Annotated[str, InjectedToolCallId]) -> ToolMessage:
    """Delete a file from the workspace (needs the user's approval)."""
    decision, args, message = _approval("delete_file", {"path": path}, f"Delete {path}? This cannot be undone.")
    if decision == "reject":
        return _rejected("delete_file", tool_call_id, message)
    note = " (with edited arguments)" if decision == "edit" else ""
    return ToolMessage(content=f"deleted `{args['path']}`{note}.", tool_call_id=tool_call_id, name="delete_file")


@tool
def deploy_app(environment: str, version: str, tool_call_id: Annotated[str, InjectedToolCallId]) -> ToolMessage:
    """Deploy a version of the app to an environment (needs the user's approval)."""
    decision, args, message = _approval(
        "deploy_app",
        {"environment": environment, "version": version},
        f"Deploy version {version} to {environment}?",
    )
    if decision == "reject":
        return _rejected("deploy_app", tool_call_id, message)
    note = " (with edited arguments)" if decision == "edit" else ""
    return ToolMessage(
        content=f"deployed version {args['version']} to {args['environment']}{note}.",
        tool_call_id=tool_call_id,
        name="deploy_app",
    )


@tool
def run_command(command: str) -> str:
    """Run a shell command in the sandbox (in the demo it always fails)."""
    raise RuntimeError(f"`{command}` exited with status 2: 3 tests failed (demo failure)")


TOOLS = [
    write_todos,
    ask_clarification,
    research,
    write_file,
    delete_file,
    deploy_app,
    run_command,
]
