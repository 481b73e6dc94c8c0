"""A tiny stand-in for DeerFlow's lead_agent: it answers "echo: <what you said>"."""

from langchain_core.messages import AIMessage
from langgraph.graph import END, START, MessagesState, StateGraph


def reply(state: MessagesState) -> dict:
    said = state["messages"][-1].content if state["messages"] else ""
    return {"messages": [AIMessage(content=f"echo: {said}")]}


builder = StateGraph(MessagesState)
builder.add_node("lead_agent", reply)
builder.add_edge(START, "lead_agent")
builder.add_edge("lead_agent", END)
graph = builder.compile()
