"""Threadbench's bundled demo agent: offline, no API key, deterministic.

`graph` is served by the embedded LangGraph server as the graph id "agent". A scripted
chat model (model.py) reads the latest human message and answers by keyword, streaming
token by token and calling real tools, so every panel of the workbench has something to
show. The same table is in TRIGGERS.md.

| Trigger word(s)               | What happens                                                       |
|-------------------------------|--------------------------------------------------------------------|
| hello / anything else         | short Markdown greeting ("Hello! ...") listing the trigger words   |
| clarify, ambiguous            | `ask_clarification` tool -> `interrupt({question,                   |
|                               | clarification_type, context, options})`; the resume value (string  |
|                               | or {"value"/"answer"}) becomes the ToolMessage; reply "You chose: X" |
| plan (or is_plan_mode=True)   | `write_todos` sets 4 todos (completed/in_progress/pending), reply    |
|                               | walks them                                                         |
| file, write, report           | `write_file` adds /mnt/user-data/outputs/report.md (or notes.md) to |
|                               | artifacts                                                          |
| research, subgraph            | the "research" node, a compiled subgraph (plan_queries -> search ->  |
|                               | summarize; custom stream events); adds research-notes.md artifact  |
| delete, approve               | `delete_file` waits for approval: interrupt with a LangChain v1 HITL |
|                               | request; resume {"decisions": [{"type": approve|edit|reject}]}      |
| deploy                        | `deploy_app` (environment, version), same approval flow             |
| error, fail                   | `run_command` raises -> ToolMessage status="error", reply apologises |
| crash                         | the model streams a few tokens then raises: the run fails          |
| long / "long 2000" / "N words" | ~N words (default 5000) of Markdown, streamed as fast as possible |
| rich / "rich 5000"            | the same, rich: code fences, tables, nested lists, headings        |
| slow                          | ~40 tokens, 0.25 s apart (for cancel tests)                        |
| think, reason                 | reasoning first, in additional_kwargs["reasoning_content"]         |
|                               | (also thinking_enabled=True; length follows reasoning_effort)      |
| hidden                        | an extra message with additional_kwargs {"hide_from_ui": True}     |
| markup                        | reply containing "[bold]not bold[/bold] [@click=app.quit]x[/]" etc. |
| upload                        | adds notes.txt to uploaded_files                                   |

Tools run one per model turn in this order: plan, clarify, research, file, delete, deploy,
error; so "plan a report" writes todos, then the file, then answers. "write" with a word
count ("write 3000 words") is a long reply, not a file.

Run options come from the runtime context (`context={...}`, schema `Context`) or, for
older clients, `config["configurable"]`: thinking_enabled, reasoning_effort
(minimal|low|medium|high: reasoning length), model_name (shown in the reply's footer line
"_model: X · effort: Y_"), is_plan_mode (write_todos first), subagent_enabled (footer).

Graph: START -> agent -> (tools | research | title); tools -> agent; research -> agent;
title -> END. "title" sets the title from the first human message after the first exchange.
"""

from __future__ import annotations

from typing import Any

from langchain_core.messages import AIMessage, BaseMessage
from langchain_core.runnables import RunnableConfig, RunnableLambda
from langgraph.graph import END, START, StateGraph
from langgraph.prebuilt import ToolNode
from langgraph.runtime import get_runtime

if __package__:
    from .model import ScriptedChatModel
    from .research import build_research_graph
    from .script import (
        OPTION_KEYS,
        first_visible_human,
        title_from,
        turn_triggers,
    )
    from .state import Context, ThreadState
    from .tools import TOOLS
else:  # loaded from its file path, as langgraph.json does ("…/agent.py:graph")
    from threadbench.embedded.demo.model import ScriptedChatModel
    from threadbench.embedded.demo.research import build_research_graph
    from threadbench.embedded.demo.script import (
        OPTION_KEYS,
        first_visible_human,
        title_from,
        turn_triggers,
    )
    from threadbench.embedded.demo.state import Context, ThreadState
    from threadbench.embedded.demo.tools import TOOLS

MODEL = ScriptedChatModel()
THREAD_DATA = {
    "workspace_path": "/mnt/user-data/workspace",
    "uploads_path": "/mnt/user-data/uploads",
    "outputs_path": "/mnt/user-data/outputs",
}
UPLOADED_FILE = {
    "filename": "notes.txt",
    "size": 1234,
    "path": "/mnt/user-data/uploads/notes.txt",
    "extension": ".txt",
}


def run_options(config: RunnableConfig) -> dict[str, Any]:
    """Run options from the runtime context, falling back to config["configurable"]."""
    try:
        context = get_runtime(Context).context
    except Exception:  # not inside a LangGraph run
        context = None
    if context is not None and not isinstance(context, dict):
        context = {key: getattr(context, key) for key in OPTION_KEYS if hasattr(context, key)}
    context = context or {}
    configurable = (config or {}).get("configurable") or {}
    options = {}
    for key in OPTION_KEYS:
        value = context.get(key, configurable.get(key))
        if value is not None:
            options[key] = value
    return options


def _prepare(state: ThreadState, config: RunnableConfig):
    options = run_options(config)
    messages: list[BaseMessage] = list(state.get("messages") or [])
    model = MODEL.bind_tools(TOOLS).bind(demo_options=options)
    return options, messages, model


def _agent_update(
    state: ThreadState, options: dict[str, Any], messages: list[BaseMessage], reply: AIMessage
) -> dict[str, Any]:
    update: dict[str, Any] = {"messages": [reply]}
    if not state.get("thread_data"):
        update["thread_data"] = dict(THREAD_DATA)
        update["sandbox"] = {"sandbox_id": "local"}
    if reply.tool_calls:
        return update
    triggers = turn_triggers(messages, options)
    if "hidden" in triggers:
        hidden = AIMessage(
            content="Internal note: the user asked for the 'hidden' demo. This message is "
            "flagged hide_from_ui, so chat views should skip it.",
            additional_kwargs={"hide_from_ui": True},
            name="internal_note",
        )
        update["messages"] = [hidden, reply]
    if "upload" in triggers:
        files = list(state.get("uploaded_files") or [])
        if UPLOADED_FILE not in files:
            update["uploaded_files"] = [*files, dict(UPLOADED_FILE)]
    return update


def agent_sync(state: ThreadState, config: RunnableConfig) -> dict[str, Any]:
    options, messages, model = _prepare(state, config)
    reply = model.invoke(messages, config)
    return _agent_update(state, options, messages, reply)


async def agent_async(state: ThreadState, config: RunnableConfig) -> dict[str, Any]:
    options, messages, model = _prepare(state, config)
    reply = await model.ainvoke(messages, config)
    return _agent_update(state, options, messages, reply)


def title(state: ThreadState) -> dict[str, Any]:
    """Name the thread after its first human message, once, after the first exchange."""
    if state.get("title"):
        return {}
    first = first_visible_human(list(state.get("messages") or []))
    return {"title": title_from(first)} if first else {}


def route(state: ThreadState) -> str:
    messages = state.get("messages") or []
    last = messages[-1] if messages else None
    if isinstance(last, AIMessage) and last.tool_calls:
        if any(call["name"] == "research" for call in last.tool_calls):
            return "research"
        return "tools"
    return "title"


def build_graph(checkpointer: Any = None):
    """Compile the demo agent (pass a checkpointer to run it in-process with interrupts)."""
    builder = StateGraph(ThreadState, context_schema=Context)
    # Sync and async bodies: graph.invoke works, and the server's async runs never block
    # its event loop (the "slow" reply sleeps with asyncio.sleep, so a cancel is instant).
    builder.add_node("agent", RunnableLambda(agent_sync, afunc=agent_async, name="agent"))
    builder.add_node("tools", ToolNode(TOOLS, handle_tool_errors=True))
    builder.add_node("research", build_research_graph())
    builder.add_node("title", title)
    builder.add_edge(START, "agent")
    builder.add_conditional_edges("agent", route, ["tools", "research", "title"])
    builder.add_edge("tools", "agent")
    builder.add_edge("research", "agent")
    builder.add_edge("title", END)
    return builder.compile(checkpointer=checkpointer, name="agent")


graph = build_graph()

__all__ = ["build_graph", "graph"]
