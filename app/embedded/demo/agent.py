"""Placeholder demo agent: echoes the last human message. Replaced by the scripted agent."""

from langchain_core.messages import AIMessage
from langgraph.graph import MessagesState, StateGraph


def reply(state: MessagesState) -> dict:
    last = state["messages"][-1].content if state["messages"] else ""
    return {"messages": [AIMessage(content=f"You said: {last}")]}


builder = StateGraph(MessagesState)
builder.add_node("agent", reply)
builder.set_entry_point("agent")
builder.set_finish_point("agent")
graph = builder.compile()
