"""Graphs this project did not name: what a user's own project or DeerFlow serves.

- lead_agent: DeerFlow's lead agent as it behaves on the wire (v2.1.0): the user's text is
  stored under a new message id ending "__user" while the id the client sent is reused for
  a hidden reminder message; the thread gets a `title`; "clarify" in a message makes the
  model call ask_clarification, answered the way ClarificationMiddleware does (a ToolMessage
  with artifact.human_input, the run ends, the thread is idle).
- support_bot: a plain chat graph with its own state field (`ticket`); "approve" in a
  message stops at interrupt() with a question and options.
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Annotated, Any, NotRequired

from langchain_core.messages import AIMessage, AnyMessage, HumanMessage, RemoveMessage, ToolMessage
from langgraph.graph import END, START, StateGraph
from langgraph.graph.message import add_messages
from langgraph.types import Command, interrupt
from typing_extensions import TypedDict

sys.path.insert(0, str(Path(__file__).resolve().parent))  # served through a link: find the siblings
from human_input_graphs import _format_clarification, _human_input_payload, _text  # noqa: E402

LEAD_QUESTION = {
    "question": "Which region should the report cover?",
    "clarification_type": "approach_choice",
    "options": ["Europe", "Asia", "Americas"],
}


class LeadState(TypedDict):
    messages: Annotated[list[AnyMessage], add_messages]
    title: NotRequired[str]


def lead_intake(state: LeadState) -> dict:
    """Re-store the newest human message as DeerFlow does (new id `<id>__user`)."""
    last = state["messages"][-1]
    if not isinstance(last, HumanMessage) or not last.id or last.id.endswith("__user"):
        return {}
    if last.additional_kwargs.get("hide_from_ui"):
        return {}
    update: list[Any] = [
        RemoveMessage(id=last.id),
        HumanMessage(id=f"{last.id}__user", content=last.content, additional_kwargs=last.additional_kwargs),
        HumanMessage(
            id=last.id, content="<system-reminder>be brief</system-reminder>", additional_kwargs={"hide_from_ui": True}
        ),
    ]
    result: dict[str, Any] = {"messages": update}
    if not state.get("title"):
        result["title"] = _text(last)[:40]
    return result


def lead_model(state: LeadState) -> dict:
    humans = [
        m for m in state["messages"] if isinstance(m, HumanMessage) and not _text(m).startswith("<system-reminder>")
    ]
    last = humans[-1] if humans else None  # (DeerFlow's answer to a clarification is hidden from its UI)
    response = last.additional_kwargs.get("human_input_response") if last is not None else None
    if isinstance(response, dict):
        return {"messages": [AIMessage(content=f"Covering {response['value']}.")]}
    text = _text(last) if last is not None else ""
    if "clarify" in text.lower():
        call_id = f"call_{len(state['messages'])}"
        return {
            "messages": [
                AIMessage(content="", tool_calls=[{"name": "ask_clarification", "args": LEAD_QUESTION, "id": call_id}])
            ]
        }
    return {"messages": [AIMessage(content=f"Lead agent here. You said: {text}")]}


def lead_tools(state: LeadState) -> Command:
    call = state["messages"][-1].tool_calls[0]
    request_id = f"clarification:{call['id']}"
    message = ToolMessage(
        id=request_id,
        content=_format_clarification(call["args"]),
        tool_call_id=call["id"],
        name="ask_clarification",
        artifact={"human_input": _human_input_payload(call["args"], call["id"], request_id)},
    )
    return Command(update={"messages": [message]}, goto=END)


def lead_route(state: LeadState) -> str:
    last = state["messages"][-1]
    return "tools" if isinstance(last, AIMessage) and last.tool_calls else END


_lead = StateGraph(LeadState)
_lead.add_node("intake", lead_intake)
_lead.add_node("model", lead_model)
_lead.add_node("tools", lead_tools, destinations=(END,))
_lead.add_edge(START, "intake")
_lead.add_edge("intake", "model")
_lead.add_conditional_edges("model", lead_route, ["tools", END])
lead_agent = _lead.compile()


class SupportState(TypedDict):
    messages: Annotated[list[AnyMessage], add_messages]
    ticket: NotRequired[dict[str, Any]]


def support_reply(state: SupportState) -> dict:
    text = _text(state["messages"][-1])
    ticket = {"opened_by": "support_bot", "turns": len(state["messages"])}
    if "approve" in text.lower():
        choice = interrupt(
            {
                "question": "Refund the customer?",
                "options": ["Refund in full", "Refund half", "No refund"],
            }
        )
        return {"messages": [AIMessage(content=f"Done: {choice}.")], "ticket": ticket}
    return {"messages": [AIMessage(content=f"Support here. You said: {text}")], "ticket": ticket}


_support = StateGraph(SupportState)
_support.add_node("reply", support_reply)
_support.add_edge(START, "reply")
_support.add_edge("reply", END)
support_bot = _support.compile()
