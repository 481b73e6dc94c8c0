"""The research subgraph: plan queries -> search -> summarize.

Compiled on its own and added to the agent graph as the node "research", so a client that
streams with `stream_subgraphs=True` sees namespaced events ("updates|research:<id>") and
`get_graph(xray=True)` draws its three nodes. It answers the model's `research` tool call
with a ToolMessage and saves its notes as an artifact. The search step also emits
"custom" stream events (one per query) through the stream writer.
"""

from __future__ import annotations

from typing import Annotated, Any

from langchain_core.messages import AIMessage, AnyMessage, ToolMessage
from langgraph.config import get_stream_writer
from langgraph.graph import END, START, StateGraph
from langgraph.graph.message import add_messages
from typing_extensions import TypedDict

from .state import merge_artifacts

NOTES_PATH = "/mnt/user-data/outputs/research-notes.md"


class ResearchState(TypedDict, total=False):
    messages: Annotated[list[AnyMessage], add_messages]
    artifacts: Annotated[list[str], merge_artifacts]
    topic: str
    tool_call_id: str
    queries: list[str]
    findings: list[str]


class ResearchOutput(TypedDict, total=False):
    messages: Annotated[list[AnyMessage], add_messages]
    artifacts: Annotated[list[str], merge_artifacts]


def _research_call(messages: list[Any]) -> dict[str, Any]:
    for message in reversed(messages):
        if isinstance(message, AIMessage):
            for call in message.tool_calls:
                if call["name"] == "research":
                    return call
            break
    return {"args": {"topic": "the request"}, "id": "research"}


def plan_queries(state: ResearchState) -> dict[str, Any]:
    call = _research_call(state.get("messages", []))
    topic = str(call["args"].get("topic") or "the request")
    queries = [f"{topic}: overview", f"{topic}: best practices", f"{topic}: known pitfalls"]
    return {"topic": topic, "tool_call_id": call["id"], "queries": queries}


def search(state: ResearchState) -> dict[str, Any]:
    write = get_stream_writer()
    findings = []
    for number, query in enumerate(state.get("queries", []), 1):
        write({"research": "search", "query": query, "step": number})
        findings.append(
            f'Source {number} on "{query}": {3 + number} relevant passages, the strongest from section {number * 2}.'
        )
    return {"findings": findings}


def summarize(state: ResearchState) -> dict[str, Any]:
    findings = state.get("findings", [])
    lines = [
        f"It ran {len(state.get('queries', []))} queries on **{state.get('topic', '')}**:",
        "",
        *[f"- {finding}" for finding in findings],
        "",
        f"Notes saved to `{NOTES_PATH}`.",
    ]
    message = ToolMessage(
        content="\n".join(lines),
        tool_call_id=state.get("tool_call_id", "research"),
        name="research",
        artifact={"queries": state.get("queries", []), "findings": findings},
    )
    return {"messages": [message], "artifacts": [NOTES_PATH]}


def build_research_graph():
    builder = StateGraph(ResearchState, output_schema=ResearchOutput)
    builder.add_node("plan_queries", plan_queries)
    builder.add_node("search", search)
    builder.add_node("summarize", summarize)
    builder.add_edge(START, "plan_queries")
    builder.add_edge("plan_queries", "search")
    builder.add_edge("search", "summarize")
    builder.add_edge("summarize", END)
    return builder.compile(name="research")
