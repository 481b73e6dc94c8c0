"""Graphs that stop for a human, one per shape Threadbench answers (no model, no network).

- hi_clarify: interrupt() with an ask_clarification-like value; replies "You chose: X."
- hi_hitl: LangChain v1 HITL request for two tool calls (args_schema on the second);
  replies with what was decided for each.
- hi_inbox: the older Agent Inbox list (accept / edit / respond / ignore).
- hi_deerflow: DeerFlow's ClarificationMiddleware reproduced: the model calls
  ask_clarification, the tool node returns Command(goto=END) with a ToolMessage (id
  "clarification:<tool_call_id>", artifact {"human_input": ...}); the run ends, the thread
  is idle. The next human message answers. "form" in the first message asks with fields.
- hi_seed: the seed document's form: the model's ask_clarification tool call, then the
  graph pauses at a static breakpoint before "ask_human". (LangGraph reserves the node name
  "__interrupt__", so next is ["ask_human"], not the seed's ["__interrupt__"].) Answered by
  update_state(as_node="ask_human") with a user message and a run that continues.
- hi_generic: interrupt() with a value of no known shape; replies with the resume value.
- hi_parallel: Send to two branches that each call interrupt(); answered by interrupt id.
"""

from __future__ import annotations

import json
import operator
from typing import Annotated, Any, NotRequired

from langchain_core.messages import AIMessage, AnyMessage, HumanMessage, ToolMessage
from langgraph.graph import END, START, StateGraph
from langgraph.graph.message import add_messages
from langgraph.types import Command, Send, interrupt
from typing_extensions import TypedDict


class MessagesState(TypedDict):
    messages: Annotated[list[AnyMessage], add_messages]


def _text(message: Any) -> str:
    content = getattr(message, "content", "")
    if isinstance(content, list):
        return "".join(part.get("text", "") for part in content if isinstance(part, dict))
    return str(content)


def _as_text(value: Any) -> str:
    return value if isinstance(value, str) else json.dumps(value, ensure_ascii=False, sort_keys=True)


# -- hi_clarify ----------------------------------------------------------------------------------

CLARIFY_OPTIONS = ["A short summary", "A detailed report", "A bullet list"]


def clarify_node(state: MessagesState) -> dict:
    answer = interrupt(
        {
            "question": "Which kind of answer would help you most?",
            "clarification_type": "approach_choice",
            "context": "The request can be answered in several ways.",
            "options": CLARIFY_OPTIONS,
        }
    )
    return {"messages": [AIMessage(content=f"You chose: {_as_text(answer)}.")]}


_clarify = StateGraph(MessagesState)
_clarify.add_node("clarify", clarify_node)
_clarify.add_edge(START, "clarify")
_clarify.add_edge("clarify", END)
hi_clarify = _clarify.compile()


# -- hi_hitl (LangChain v1 HumanInTheLoopMiddleware shape) ---------------------------------------

HITL_REQUEST = {
    "action_requests": [
        {"name": "delete_file", "args": {"path": "/tmp/old.md"}, "description": "Delete /tmp/old.md?"},
        {"name": "send_email", "args": {"to": "ops@example.com", "subject": "Done"}, "description": "Send the report"},
    ],
    "review_configs": [
        {"action_name": "delete_file", "allowed_decisions": ["approve", "reject"]},
        {
            "action_name": "send_email",
            "allowed_decisions": ["approve", "edit", "reject"],
            "args_schema": {
                "type": "object",
                "properties": {"to": {"type": "string"}, "subject": {"type": "string"}},
                "required": ["to", "subject"],
            },
        },
    ],
}


def hitl_node(state: MessagesState) -> dict:
    response = interrupt(HITL_REQUEST)
    lines = []
    for request, decision in zip(HITL_REQUEST["action_requests"], response["decisions"], strict=True):
        kind = decision["type"]
        if kind == "edit":
            lines.append(f"{request['name']}: edit {json.dumps(decision['edited_action']['args'], sort_keys=True)}")
        elif kind == "reject":
            lines.append(f"{request['name']}: reject ({decision.get('message', '')})")
        else:
            lines.append(f"{request['name']}: {kind}")
    return {"messages": [AIMessage(content="Decisions: " + "; ".join(lines))]}


_hitl = StateGraph(MessagesState)
_hitl.add_node("review", hitl_node)
_hitl.add_edge(START, "review")
_hitl.add_edge("review", END)
hi_hitl = _hitl.compile()


# -- hi_inbox (older Agent Inbox list) -----------------------------------------------------------

INBOX_REQUEST = [
    {
        "action_request": {"action": "write_file", "args": {"path": "notes.md", "content": "hello"}},
        "config": {"allow_accept": True, "allow_edit": True, "allow_respond": True, "allow_ignore": True},
        "description": "Write notes.md",
    }
]


def inbox_node(state: MessagesState) -> dict:
    response = interrupt(INBOX_REQUEST)
    first = response[0] if isinstance(response, list) else response
    args = first.get("args")
    return {"messages": [AIMessage(content=f"Inbox said {first['type']}: {json.dumps(args, sort_keys=True)}")]}


_inbox = StateGraph(MessagesState)
_inbox.add_node("review", inbox_node)
_inbox.add_edge(START, "review")
_inbox.add_edge("review", END)
hi_inbox = _inbox.compile()


# -- hi_deerflow (ClarificationMiddleware: Command(goto=END) with a ToolMessage) -----------------

TYPE_ICONS = {
    "missing_info": "❓",
    "ambiguous_requirement": "🤔",
    "approach_choice": "🔀",
    "risk_confirmation": "⚠️",
    "suggestion": "💡",
}

DEERFLOW_QUESTION = {
    "question": "Which environment should I deploy to?",
    "clarification_type": "risk_confirmation",
    "context": "Deploying restarts the service.",
    "options": ["production", "staging", "a preview"],
}

DEERFLOW_FORM = {
    "question": "Please provide the expense details.",
    "clarification_type": "missing_info",
    "fields": [
        {"name": "title", "label": "Title", "type": "text", "required": True, "placeholder": "Expense title"},
        {"name": "amount", "label": "Amount", "type": "number", "required": True},
        {"name": "category", "label": "Category", "type": "select", "required": True, "options": ["travel", "meals"]},
        {"name": "receipts", "label": "Receipts", "type": "multi_select", "options": ["A-1", "A-2"]},
        {"name": "urgent", "label": "Urgent", "type": "checkbox"},
        {"name": "day", "label": "Day", "type": "date"},
        {"name": "note", "label": "Note", "type": "textarea"},
    ],
}


def _normalize_fields(raw: list[dict[str, Any]]) -> list[dict[str, Any]]:
    fields = []
    for entry in raw:
        name = entry["name"]
        field: dict[str, Any] = {
            "name": name,
            "label": entry.get("label") or name,
            "type": entry.get("type") or "text",
            "required": bool(entry.get("required")),
        }
        if field["type"] in ("select", "multi_select"):
            field["options"] = [
                {"id": f"{name}-option-{index}", "label": option, "value": option}
                for index, option in enumerate(entry.get("options") or [], 1)
            ]
        if entry.get("placeholder"):
            field["placeholder"] = entry["placeholder"]
        fields.append(field)
    return fields


def _human_input_payload(args: dict[str, Any], tool_call_id: str, request_id: str) -> dict[str, Any]:
    """As ClarificationMiddleware._build_human_input_payload builds it."""
    fields = _normalize_fields(args.get("fields") or [])
    options = [str(o) for o in args.get("options") or []]
    if fields:
        version, input_mode = 2, "form"
    elif options:
        version, input_mode = 1, "choice_with_other"
    else:
        version, input_mode = 1, "free_text"
    payload: dict[str, Any] = {
        "version": version,
        "kind": "human_input_request",
        "source": "ask_clarification",
        "request_id": request_id,
        "clarification_type": str(args.get("clarification_type", "missing_info")),
        "question": str(args.get("question") or ""),
        "input_mode": input_mode,
        "tool_call_id": tool_call_id,
    }
    if "context" in args:
        payload["context"] = None if args["context"] is None else str(args["context"])
    if input_mode == "form":
        payload["fields"] = fields
    elif options:
        payload["options"] = [
            {"id": f"option-{index}", "label": option, "value": option} for index, option in enumerate(options, 1)
        ]
    return payload


def _format_clarification(args: dict[str, Any]) -> str:
    """As ClarificationMiddleware._format_clarification_message renders it."""
    icon = TYPE_ICONS.get(str(args.get("clarification_type", "missing_info")), "❓")
    parts = (
        [f"{icon} {args['context']}", f"\n{args['question']}"]
        if args.get("context")
        else [f"{icon} {args['question']}"]
    )
    fields = _normalize_fields(args.get("fields") or [])
    if fields:
        parts.append("")
        for index, field in enumerate(fields, 1):
            line = f"  {index}. {field['label']}" + (" (required)" if field["required"] else "")
            if field.get("options"):
                line += " — options: " + " / ".join(o["label"] for o in field["options"])
            parts.append(line)
        parts += ["", "Please reply with a value for each field."]
    elif args.get("options"):
        parts.append("")
        parts += [f"  {index}. {option}" for index, option in enumerate(args["options"], 1)]
    return "\n".join(parts)


def deerflow_model(state: MessagesState) -> dict:
    messages = state["messages"]
    last = messages[-1]
    response = last.additional_kwargs.get("human_input_response") if isinstance(last, HumanMessage) else None
    if isinstance(response, dict):
        return {"messages": [AIMessage(content=f"Going with {response['value']}.")]}
    if any(isinstance(m, ToolMessage) for m in messages):
        return {"messages": [AIMessage(content=f"Noted: {_text(last)}")]}
    args = DEERFLOW_FORM if "form" in _text(last).lower() else DEERFLOW_QUESTION
    call_id = f"call_{len(messages)}"
    return {
        "messages": [
            AIMessage(
                content="I need one detail first.",
                tool_calls=[{"name": "ask_clarification", "args": args, "id": call_id}],
            )
        ]
    }


def deerflow_tools(state: MessagesState) -> Command:
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


def deerflow_route(state: MessagesState) -> str:
    last = state["messages"][-1]
    return "tools" if isinstance(last, AIMessage) and last.tool_calls else END


_deerflow = StateGraph(MessagesState)
_deerflow.add_node("model", deerflow_model)
_deerflow.add_node("tools", deerflow_tools, destinations=(END,))
_deerflow.add_edge(START, "model")
_deerflow.add_conditional_edges("model", deerflow_route, ["tools", END])
hi_deerflow = _deerflow.compile()


# -- hi_seed (paused before a node, the question in the last AI message's tool call) -------------

SEED_QUESTION = {
    "question": "Which city should the trip start from?",
    "clarification_type": "missing_info",
    "options": ["Paris", "Berlin"],
}


def seed_model(state: MessagesState) -> dict:
    last = state["messages"][-1]
    asked = any(isinstance(m, AIMessage) and m.tool_calls for m in state["messages"])
    if asked and isinstance(last, HumanMessage):
        return {"messages": [AIMessage(content=f"Starting from {_text(last)}.")]}
    return {
        "messages": [
            AIMessage(content="", tool_calls=[{"name": "ask_clarification", "args": SEED_QUESTION, "id": "call_seed"}])
        ]
    }


def seed_route(state: MessagesState) -> str:
    last = state["messages"][-1]
    return "ask_human" if isinstance(last, AIMessage) and last.tool_calls else END


def ask_human(state: MessagesState) -> dict:
    return {}


_seed = StateGraph(MessagesState)
_seed.add_node("model", seed_model)
_seed.add_node("ask_human", ask_human)
_seed.add_edge(START, "model")
_seed.add_conditional_edges("model", seed_route, ["ask_human", END])
_seed.add_edge("ask_human", "model")
hi_seed = _seed.compile(interrupt_before=["ask_human"])


# -- hi_generic ----------------------------------------------------------------------------------

GENERIC_VALUE = {"kind": "budget_check", "limits": [10, 20], "note": "Send a number or an object"}


def generic_node(state: MessagesState) -> dict:
    answer = interrupt(GENERIC_VALUE)
    return {
        "messages": [AIMessage(content=f"Resumed with {json.dumps(answer, sort_keys=True)} ({type(answer).__name__}).")]
    }


_generic = StateGraph(MessagesState)
_generic.add_node("check", generic_node)
_generic.add_edge(START, "check")
_generic.add_edge("check", END)
hi_generic = _generic.compile()


# -- hi_parallel (two branches interrupt at once) ------------------------------------------------


class ParallelState(TypedDict):
    messages: Annotated[list[AnyMessage], add_messages]
    answers: Annotated[list[str], operator.add]
    topic: NotRequired[str]


def fan_out(state: ParallelState) -> list[Send]:
    return [Send("ask", {"topic": "colour"}), Send("ask", {"topic": "size"})]


def ask_branch(state: dict) -> dict:
    answer = interrupt({"question": f"Which {state['topic']}?"})
    return {"answers": [f"{state['topic']}={_as_text(answer)}"]}


def parallel_done(state: ParallelState) -> dict:
    return {"messages": [AIMessage(content="Answers: " + ", ".join(sorted(state["answers"])))]}


_parallel = StateGraph(ParallelState)
_parallel.add_node("ask", ask_branch)
_parallel.add_node("done", parallel_done)
_parallel.add_conditional_edges(START, fan_out, ["ask"])
_parallel.add_edge("ask", "done")
_parallel.add_edge("done", END)
hi_parallel = _parallel.compile()
