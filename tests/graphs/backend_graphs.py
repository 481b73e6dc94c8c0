"""Small graphs the backend tests run on the real server (no network, no key).

Registered in langgraph.json with a "be_" prefix:

- be_chat: a scripted chat model that streams reasoning, text tokens and tool-call chunks;
  "tool ..." makes it call the `lookup` tool, then answer. State has a `title` channel.
- be_ask: stops at interrupt() with a clarification-like value, then echoes the answer.
- be_slow: writes a custom event every 0.1 s for `steps` steps (join_stream and cancel).
- be_nested: a parent whose node is a subgraph (namespaced events with stream_subgraphs).
- be_fail: a node that raises (the stream ends with an error event).
"""

from __future__ import annotations

import asyncio
import re
from collections.abc import Iterator
from typing import Annotated, Any, NotRequired

from langchain_core.callbacks import CallbackManagerForLLMRun
from langchain_core.language_models import BaseChatModel
from langchain_core.messages import AIMessage, AIMessageChunk, BaseMessage, ToolMessage
from langchain_core.outputs import ChatGeneration, ChatGenerationChunk, ChatResult
from langgraph.config import get_stream_writer
from langgraph.graph import END, START, StateGraph
from langgraph.graph.message import add_messages
from langgraph.types import interrupt
from typing_extensions import TypedDict


class ScriptedModel(BaseChatModel):
    """Replies from the conversation: streams reasoning, then words, then tool calls."""

    @property
    def _llm_type(self) -> str:
        return "scripted"

    def _reply(self, messages: list[BaseMessage]) -> AIMessage:
        last = messages[-1] if messages else None
        if isinstance(last, ToolMessage):
            return AIMessage(content=f"The tool said {last.content}. Done.")
        text = str(last.content) if last is not None else ""
        if text.startswith("tool"):
            query = text[4:].strip() or "nothing"
            return AIMessage(
                content="Let me look.",
                tool_calls=[{"name": "lookup", "args": {"query": query}, "id": "call_1"}],
            )
        return AIMessage(
            content=f"You said {text}. Here is a reply of several words.",
            additional_kwargs={"reasoning_content": "Thinking it over."},
        )

    def _generate(self, messages, stop=None, run_manager=None, **kwargs: Any) -> ChatResult:
        return ChatResult(generations=[ChatGeneration(message=self._reply(messages))])

    def _stream(
        self,
        messages: list[BaseMessage],
        stop: list[str] | None = None,
        run_manager: CallbackManagerForLLMRun | None = None,
        **kwargs: Any,
    ) -> Iterator[ChatGenerationChunk]:
        reply = self._reply(messages)
        chunks: list[AIMessageChunk] = []
        reasoning = reply.additional_kwargs.get("reasoning_content")
        if reasoning:
            chunks.append(AIMessageChunk(content="", additional_kwargs={"reasoning_content": reasoning}))
        chunks += [AIMessageChunk(content=word) for word in re.split(r"(\s)", str(reply.content)) if word]
        for index, call in enumerate(reply.tool_calls):
            args = str(call["args"]).replace("'", '"')
            half = len(args) // 2
            chunks.append(
                AIMessageChunk(
                    content="",
                    tool_call_chunks=[{"index": index, "id": call["id"], "name": call["name"], "args": args[:half]}],
                )
            )
            chunks.append(
                AIMessageChunk(
                    content="", tool_call_chunks=[{"index": index, "id": None, "name": None, "args": args[half:]}]
                )
            )
        chunks[-1].chunk_position = "last"
        for chunk in chunks:
            generation = ChatGenerationChunk(message=chunk)
            if run_manager:
                run_manager.on_llm_new_token(str(chunk.content), chunk=generation)
            yield generation


class ChatState(TypedDict):
    messages: Annotated[list, add_messages]
    title: NotRequired[str]


model = ScriptedModel()


def call_model(state: ChatState) -> dict:
    return {"messages": [model.invoke(state["messages"])]}


def run_tools(state: ChatState) -> dict:
    calls = state["messages"][-1].tool_calls
    return {
        "messages": [
            ToolMessage(content=f"found {call['args'].get('query')}", tool_call_id=call["id"], name=call["name"])
            for call in calls
        ]
    }


def route(state: ChatState) -> str:
    last = state["messages"][-1]
    return "tools" if getattr(last, "tool_calls", None) else END


_chat = StateGraph(ChatState)
_chat.add_node("model", call_model)
_chat.add_node("tools", run_tools)
_chat.add_edge(START, "model")
_chat.add_conditional_edges("model", route, ["tools", END])
_chat.add_edge("tools", "model")
chat = _chat.compile()


class AskState(TypedDict):
    messages: Annotated[list, add_messages]


def ask_node(state: AskState) -> dict:
    answer = interrupt({"question": "Which colour?", "options": ["red", "blue"]})
    return {"messages": [AIMessage(content=f"You picked {answer}")]}


_ask = StateGraph(AskState)
_ask.add_node("ask", ask_node)
_ask.add_edge(START, "ask")
_ask.add_edge("ask", END)
ask = _ask.compile()


class SlowState(TypedDict):
    steps: NotRequired[int]
    done: NotRequired[int]


async def slow_work(state: SlowState) -> dict:
    writer = get_stream_writer()
    steps = state.get("steps", 30)
    for step in range(steps):
        writer({"step": step})
        await asyncio.sleep(0.1)
    return {"done": steps}


_slow = StateGraph(SlowState)
_slow.add_node("work", slow_work)
_slow.add_edge(START, "work")
_slow.add_edge("work", END)
slow = _slow.compile()


class NestedState(TypedDict):
    messages: Annotated[list, add_messages]


def inner_node(state: NestedState) -> dict:
    return {"messages": [AIMessage(content="from the inside")]}


_inner = StateGraph(NestedState)
_inner.add_node("inner", inner_node)
_inner.add_edge(START, "inner")
_inner.add_edge("inner", END)

_nested = StateGraph(NestedState)
_nested.add_node("outer", _inner.compile())
_nested.add_edge(START, "outer")
_nested.add_edge("outer", END)
nested = _nested.compile()


class FailState(TypedDict):
    messages: Annotated[list, add_messages]


def fail_node(state: FailState) -> dict:
    raise ValueError("boom: the test graph failed on purpose")


_fail = StateGraph(FailState)
_fail.add_node("explode", fail_node)
_fail.add_edge(START, "explode")
_fail.add_edge("explode", END)
fail = _fail.compile()
