"""ScriptedChatModel: a real LangChain chat model that needs no network and no API key.

It decides its reply from the latest human message and the tool results after it
(script.py), then streams it one word-ish token per chunk: reasoning first (in
`additional_kwargs["reasoning_content"]`, DeerFlow style), then the visible text, then the
tool call as `tool_call_chunks`. Because `_stream`/`_astream` are implemented, LangGraph's
"messages" stream mode sees every token; `invoke` aggregates the same chunks.

Run options reach it as the `demo_options` keyword (see agent.py), tools through
`bind_tools` like any provider model.
"""

from __future__ import annotations

import asyncio
import json
import time
from collections.abc import AsyncIterator, Iterator, Sequence
from typing import Any

from langchain_core.callbacks import AsyncCallbackManagerForLLMRun, CallbackManagerForLLMRun
from langchain_core.language_models import BaseChatModel, LanguageModelInput
from langchain_core.messages import AIMessageChunk, BaseMessage, message_chunk_to_message
from langchain_core.outputs import ChatGeneration, ChatGenerationChunk, ChatResult
from langchain_core.runnables import Runnable
from langchain_core.tools import BaseTool
from langchain_core.utils.function_calling import convert_to_openai_tool

from .script import DEFAULT_MODEL_NAME, DemoCrash, Script, decide, tokens

ARGS_PIECE = 16  # characters of tool-call JSON per streamed chunk


class ScriptedChatModel(BaseChatModel):
    """A deterministic, keyword-driven chat model that streams token by token."""

    model_name: str = DEFAULT_MODEL_NAME

    @property
    def _llm_type(self) -> str:
        return "threadbench-scripted"

    @property
    def _identifying_params(self) -> dict[str, Any]:
        return {"model_name": self.model_name}

    def bind_tools(
        self,
        tools: Sequence[dict[str, Any] | type | Any | BaseTool],
        *,
        tool_choice: str | None = None,
        **kwargs: Any,
    ) -> Runnable[LanguageModelInput, BaseMessage]:
        formatted = [convert_to_openai_tool(tool) for tool in tools]
        return self.bind(tools=formatted, **kwargs)

    # ------------------------------------------------------------------ script -> chunks

    def _script(self, messages: list[BaseMessage], kwargs: dict[str, Any]) -> Script:
        names = {tool.get("function", {}).get("name") for tool in kwargs.get("tools") or []}
        options = {"model_name": self.model_name, **(kwargs.get("demo_options") or {})}
        if not options.get("model_name"):
            options["model_name"] = self.model_name
        return decide(list(messages), names, options)

    @staticmethod
    def _chunks(script: Script) -> Iterator[AIMessageChunk]:
        for piece in tokens(script.reasoning):
            yield AIMessageChunk(content="", additional_kwargs={"reasoning_content": piece})
        for piece in tokens(script.text):
            yield AIMessageChunk(content=piece)
        if script.tool_call is not None:
            call = script.tool_call
            args = json.dumps(call["args"], ensure_ascii=False)
            yield AIMessageChunk(
                content="",
                tool_call_chunks=[{"name": call["name"], "args": "", "id": call["id"], "index": 0}],
            )
            for start in range(0, len(args), ARGS_PIECE):
                yield AIMessageChunk(
                    content="",
                    tool_call_chunks=[
                        {
                            "name": None,
                            "args": args[start : start + ARGS_PIECE],
                            "id": None,
                            "index": 0,
                        }
                    ],
                )

    @staticmethod
    def _metadata(script: Script) -> dict[str, Any]:
        return {
            "finish_reason": "tool_calls" if script.tool_call else "stop",
        }

    # ------------------------------------------------------------------ LangChain hooks

    @staticmethod
    def _result(chunks: list[ChatGenerationChunk]) -> ChatResult:
        merged = chunks[0].message
        for chunk in chunks[1:]:
            merged = merged + chunk.message
        return ChatResult(generations=[ChatGeneration(message=message_chunk_to_message(merged))])

    def _generate(
        self,
        messages: list[BaseMessage],
        stop: list[str] | None = None,
        run_manager: CallbackManagerForLLMRun | None = None,
        **kwargs: Any,
    ) -> ChatResult:
        # Not streamed (no streaming callback): the same chunks, with the same pauses, merged.
        return self._result(list(self._stream(messages, stop, None, **kwargs)))

    async def _agenerate(
        self,
        messages: list[BaseMessage],
        stop: list[str] | None = None,
        run_manager: AsyncCallbackManagerForLLMRun | None = None,
        **kwargs: Any,
    ) -> ChatResult:
        return self._result([chunk async for chunk in self._astream(messages, stop, None, **kwargs)])

    def _stream(
        self,
        messages: list[BaseMessage],
        stop: list[str] | None = None,
        run_manager: CallbackManagerForLLMRun | None = None,
        **kwargs: Any,
    ) -> Iterator[ChatGenerationChunk]:
        script = self._script(messages, kwargs)
        for chunk in self._chunks(script):
            if script.delay:
                time.sleep(script.delay)
            yield ChatGenerationChunk(message=chunk)
        if script.crash:
            raise DemoCrash(script.crash)
        yield ChatGenerationChunk(
            message=AIMessageChunk(content="", chunk_position="last", response_metadata=self._metadata(script))
        )

    async def _astream(
        self,
        messages: list[BaseMessage],
        stop: list[str] | None = None,
        run_manager: AsyncCallbackManagerForLLMRun | None = None,
        **kwargs: Any,
    ) -> AsyncIterator[ChatGenerationChunk]:
        script = self._script(messages, kwargs)
        for chunk in self._chunks(script):
            # Give the event loop a turn between tokens (sleep(0) when fast), so a server
            # sends chunks as they are made and a cancel lands mid-reply.
            await asyncio.sleep(script.delay)
            yield ChatGenerationChunk(message=chunk)
        if script.crash:
            raise DemoCrash(script.crash)
        yield ChatGenerationChunk(
            message=AIMessageChunk(content="", chunk_position="last", response_metadata=self._metadata(script))
        )
