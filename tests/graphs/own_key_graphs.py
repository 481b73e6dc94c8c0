"""A graph that keeps its conversation under a key of its own, not `messages`.

- ledger: the messages are under `transcript`, beside `entries` (a list of dicts that are
  not messages) and `balance`. It books the amount the newest human message names; over
  100 it asks first (interrupt()). Its input schema is none; its state schema names
  `transcript` as a list of LangChain messages.
"""

from __future__ import annotations

import operator
from typing import Annotated, Any

from langchain_core.messages import AIMessage, AnyMessage, HumanMessage
from langgraph.graph import END, START, StateGraph
from langgraph.graph.message import add_messages
from langgraph.types import interrupt
from typing_extensions import TypedDict


class Ledger(TypedDict, total=False):
    transcript: Annotated[list[AnyMessage], add_messages]
    entries: Annotated[list[dict[str, Any]], operator.add]
    balance: float


def book(state: Ledger) -> dict:
    humans = [m for m in state.get("transcript", []) if isinstance(m, HumanMessage)]
    text = str(humans[-1].content) if humans else ""
    amount = next((float(word) for word in text.split() if word.replace(".", "", 1).isdigit()), 0.0)
    if amount > 100 and interrupt({"question": f"Book {amount:.2f}?", "options": ["yes", "no"]}) != "yes":
        return {"transcript": [AIMessage(content=f"Not booked: {amount:.2f}.")]}
    balance = state.get("balance", 0.0) + amount
    return {
        "entries": [{"text": text, "amount": amount}],
        "balance": balance,
        "transcript": [AIMessage(content=f"Booked {amount:.2f}. Balance: {balance:.2f}.")],
    }


_ledger = StateGraph(Ledger)
_ledger.add_node("book", book)
_ledger.add_edge(START, "book")
_ledger.add_edge("book", END)
ledger = _ledger.compile()
