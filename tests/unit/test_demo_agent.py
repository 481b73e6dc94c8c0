"""The bundled demo agent, run in-process (no server): every trigger word and run option."""

from __future__ import annotations

import re
import time
import uuid

import pytest
from langchain_core.messages import AIMessage, AIMessageChunk, HumanMessage, ToolMessage
from langgraph.checkpoint.memory import InMemorySaver
from langgraph.types import Command
from threadbench.embedded.demo.agent import build_graph, graph
from threadbench.embedded.demo.canned import long_markdown, rich_markdown
from threadbench.embedded.demo.model import ScriptedChatModel
from threadbench.embedded.demo.script import DemoCrash, decide, title_from, tokens
from threadbench.embedded.demo.tools import TOOLS


@pytest.fixture
def agent():
    return build_graph(InMemorySaver())


def config(**configurable) -> dict:
    return {"configurable": {"thread_id": str(uuid.uuid4()), **configurable}}


def ask(agent, text: str, cfg: dict | None = None, **kwargs) -> tuple[dict, dict]:
    cfg = cfg or config()
    return agent.invoke({"messages": [{"role": "human", "content": text}]}, cfg, **kwargs), cfg


def last_ai(values: dict) -> AIMessage:
    return [m for m in values["messages"] if isinstance(m, AIMessage)][-1]


def tool_messages(values: dict) -> list[ToolMessage]:
    return [m for m in values["messages"] if isinstance(m, ToolMessage)]


# ------------------------------------------------------------------------ basics


def test_module_graph_is_compiled_and_exposes_schemas():
    assert graph.name == "agent"
    assert set(graph.get_input_jsonschema()["properties"]) >= {
        "messages",
        "title",
        "artifacts",
        "todos",
        "uploaded_files",
        "sandbox",
        "thread_data",
    }
    assert set(graph.get_context_jsonschema()["properties"]) == {
        "thinking_enabled",
        "reasoning_effort",
        "model_name",
        "is_plan_mode",
        "subagent_enabled",
    }
    nodes = set(graph.get_graph().nodes)
    assert {"agent", "tools", "research", "title"} <= nodes


def test_hello_reply_title_and_thread_data(agent):
    values, _ = ask(agent, "hello")
    reply = last_ai(values)
    assert "Hello" in reply.content
    assert "`clarify`" in reply.content and "`plan`" in reply.content
    assert reply.content.rstrip().endswith("_model: threadbench-demo · effort: medium_")
    assert values["title"] == "Hello"
    assert values["thread_data"]["outputs_path"] == "/mnt/user-data/outputs"
    assert values["sandbox"] == {"sandbox_id": "local"}
    assert values["artifacts"] == []


def test_title_is_set_once_from_first_message(agent):
    values, cfg = ask(agent, "Please summarise the quarterly numbers for the whole team")
    assert values["title"] == "Please summarise the quarterly numbers for…"
    values, _ = ask(agent, "hello again", cfg)
    assert values["title"] == "Please summarise the quarterly numbers for…"
    assert title_from("hi.") == "Hi"


def test_same_input_same_reply(agent):
    first, _ = ask(agent, "long 400 think")
    second, _ = ask(agent, "long 400 think")
    assert last_ai(first).content == last_ai(second).content
    assert last_ai(first).additional_kwargs == last_ai(second).additional_kwargs


async def test_streams_token_by_token(agent):
    chunks = []
    async for message, meta in agent.astream(
        {"messages": [{"role": "human", "content": "hello"}]}, config(), stream_mode="messages"
    ):
        if isinstance(message, AIMessageChunk) and meta["langgraph_node"] == "agent":
            chunks.append(message)
    texts = [c.content for c in chunks if c.content]
    assert len(texts) > 50
    assert all(len(t.split()) <= 1 for t in texts)  # one word-ish token per chunk
    assert len({c.id for c in chunks}) == 1
    assert chunks[-1].chunk_position == "last"
    assert "".join(texts).startswith("Hello!")


async def test_tool_calls_stream_as_chunks(agent):
    chunks = []
    cfg = config()
    async for message, _ in agent.astream(
        {"messages": [{"role": "human", "content": "plan it"}]}, cfg, stream_mode="messages"
    ):
        if isinstance(message, AIMessageChunk) and message.tool_call_chunks:
            chunks.append(message)
    assert len(chunks) > 3
    assert chunks[0].tool_call_chunks[0]["name"] == "write_todos"
    values = (await agent.aget_state(cfg)).values
    call = [m for m in values["messages"] if isinstance(m, AIMessage) and m.tool_calls][0]
    assert call.tool_calls[0]["name"] == "write_todos"
    assert len(call.tool_calls[0]["args"]["todos"]) == 4


# ------------------------------------------------------------------------ interrupts


@pytest.mark.parametrize("resume", ["Option B", {"value": "Option B"}, {"answer": "Option B"}])
def test_clarify_interrupt_and_resume(agent, resume):
    values, cfg = ask(agent, "this is ambiguous, clarify please")
    (pending,) = values["__interrupt__"]
    assert set(pending.value) == {"question", "clarification_type", "context", "options"}
    assert pending.value["clarification_type"] == "ambiguous_requirement"
    assert len(pending.value["options"]) == 3
    assert agent.get_state(cfg).next == ("tools",)

    values = agent.invoke(Command(resume=resume), cfg)
    assert "__interrupt__" not in values
    (answer,) = tool_messages(values)
    assert answer.name == "ask_clarification" and answer.content == "Option B"
    assert "You chose: Option B" in last_ai(values).content
    assert agent.get_state(cfg).next == ()


def test_deerflow_style_answer_message(agent):
    cfg = config()
    agent.invoke(
        {
            "messages": [
                HumanMessage(
                    'For your clarification "Which one?", my answer is: Option C',
                    additional_kwargs={"hide_from_ui": True},
                )
            ]
        },
        cfg,
    )
    assert "You chose: Option C" in last_ai(agent.get_state(cfg).values).content


HITL_CASES = {
    "approve": ({"type": "approve"}, "success", "deleted `/mnt/user-data/outputs/old-draft.md`"),
    "edit": (
        {"type": "edit", "edited_action": {"name": "delete_file", "args": {"path": "/tmp/x.md"}}},
        "success",
        "deleted `/tmp/x.md` (with edited arguments)",
    ),
    "reject": ({"type": "reject", "message": "keep it"}, "error", "Rejected by the reviewer: keep it"),
}


@pytest.mark.parametrize("kind", list(HITL_CASES))
def test_hitl_approval(agent, kind):
    decision, status, content = HITL_CASES[kind]
    values, cfg = ask(agent, "delete the old draft")
    (pending,) = values["__interrupt__"]
    request = pending.value
    assert request["action_requests"][0]["name"] == "delete_file"
    assert request["action_requests"][0]["args"] == {"path": "/mnt/user-data/outputs/old-draft.md"}
    assert request["action_requests"][0]["description"]
    assert request["review_configs"] == [
        {"action_name": "delete_file", "allowed_decisions": ["approve", "edit", "reject"]}
    ]
    values = agent.invoke(Command(resume={"decisions": [decision]}), cfg)
    (result,) = tool_messages(values)
    assert result.status == status
    assert content in result.content
    reply = last_ai(values).content
    assert ("did not approve" in reply) == (kind == "reject")


def test_deploy_needs_approval_too(agent):
    values, cfg = ask(agent, "deploy it")
    assert values["__interrupt__"][0].value["action_requests"][0]["name"] == "deploy_app"
    values = agent.invoke(Command(resume={"decisions": [{"type": "approve"}]}), cfg)
    assert "deployed version 1.4.2 to staging" in tool_messages(values)[0].content


# ------------------------------------------------------------------------ state panels


def test_plan_sets_todos(agent):
    values, _ = ask(agent, "make a plan")
    statuses = [todo["status"] for todo in values["todos"]]
    assert statuses == ["completed", "in_progress", "pending", "pending"]
    reply = last_ai(values).content
    assert all(todo["content"] in reply for todo in values["todos"])


def test_plan_mode_run_option(agent):
    values, _ = ask(agent, "do the thing", context={"is_plan_mode": True})
    assert len(values["todos"]) == 4
    assert "plan mode" in last_ai(values).content


def test_report_adds_artifact_once(agent):
    values, cfg = ask(agent, "write a report")
    assert values["artifacts"] == ["/mnt/user-data/outputs/report.md"]
    assert "report.md" in last_ai(values).content
    values, _ = ask(agent, "write the report again", cfg)
    assert values["artifacts"] == ["/mnt/user-data/outputs/report.md"]
    values, _ = ask(agent, "save a file", cfg)
    assert values["artifacts"] == ["/mnt/user-data/outputs/report.md", "/mnt/user-data/outputs/notes.md"]


def test_research_runs_the_subgraph(agent):
    assert {"research:plan_queries", "research:search", "research:summarize"} <= set(agent.get_graph(xray=True).nodes)
    namespaces = set()
    custom = []
    for namespace, mode, data in agent.stream(
        {"messages": [{"role": "human", "content": "research checkpoints"}]},
        cfg := config(),
        stream_mode=["updates", "custom"],
        subgraphs=True,
    ):
        namespaces.add(namespace)
        if mode == "custom":
            custom.append(data)
    assert any(ns and ns[0].startswith("research:") for ns in namespaces)
    assert len(custom) == 3
    values = agent.get_state(cfg).values
    (result,) = tool_messages(values)
    assert result.name == "research" and "3 queries" in result.content
    assert "/mnt/user-data/outputs/research-notes.md" in values["artifacts"]


def test_upload_and_hidden_message(agent):
    values, _ = ask(agent, "upload something hidden")
    assert values["uploaded_files"] == [
        {
            "filename": "notes.txt",
            "size": 1234,
            "path": "/mnt/user-data/uploads/notes.txt",
            "extension": ".txt",
        }
    ]
    hidden = [m for m in values["messages"] if m.additional_kwargs.get("hide_from_ui")]
    assert len(hidden) == 1 and isinstance(hidden[0], AIMessage)
    assert not last_ai(values).additional_kwargs.get("hide_from_ui")


# ------------------------------------------------------------------------ failures


def test_failing_tool_gives_error_tool_message(agent):
    values, _ = ask(agent, "run the tests, they fail")
    (result,) = tool_messages(values)
    assert result.name == "run_command" and result.status == "error"
    assert "exited with status 2" in result.content
    assert last_ai(values).content.startswith("Sorry")


def test_crash_fails_the_run(agent):
    cfg = config()
    with pytest.raises(DemoCrash):
        ask(agent, "crash now", cfg)
    state = agent.get_state(cfg)
    assert state.next == ("agent",)
    assert not [m for m in state.values["messages"] if isinstance(m, AIMessage)]


async def test_crash_streams_a_few_tokens_first(agent):
    seen = []
    with pytest.raises(DemoCrash):
        async for message, _ in agent.astream(
            {"messages": [{"role": "human", "content": "crash"}]}, config(), stream_mode="messages"
        ):
            seen.append(message.content)
    assert "".join(seen).startswith("Starting the risky operation")


# ------------------------------------------------------------------------ reply shapes


def test_long_reply_length_and_shape(agent):
    started = time.perf_counter()
    values, _ = ask(agent, "long")
    assert time.perf_counter() - started < 3
    text = last_ai(values).content
    assert 4900 <= len(text.split()) <= 5200
    fences = text.count("```")
    assert fences % 2 == 0 and 8 <= fences // 2 <= 12  # a code block every ~500 words
    blocks = text.split("\n\n")
    paragraphs = [b for b in blocks if not b.startswith(("#", "-", "```", "_", "Here is"))]
    sizes = [len(p.split()) for p in paragraphs]
    assert max(sizes) <= 90 and sum(sizes) / len(sizes) > 45
    assert sum(1 for b in blocks if b.startswith("- ")) >= 10  # bullet lists
    assert text.count("\n## ") >= 5  # headings


@pytest.mark.parametrize(("message", "words"), [("long 2000", 2000), ("write 3000 words", 3000), ("long 300", 300)])
def test_long_reply_word_count_from_message(agent, message, words):
    values, _ = ask(agent, message)
    assert abs(len(last_ai(values).content.split()) - words) <= words * 0.05 + 30
    assert values["artifacts"] == []  # "write N words" is not a file


@pytest.mark.parametrize(("message", "words"), [("rich", 5000), ("rich 1000", 1000), ("rich 2000 words", 2000)])
def test_rich_reply_mixes_code_tables_and_nested_lists(agent, message, words):
    values, _ = ask(agent, message)
    text = last_ai(values).content
    assert abs(len(text.split()) - words) <= words * 0.05 + 30
    fences = text.count("```")
    assert fences % 2 == 0 and fences // 2 >= words // 250  # a code block every ~150 words
    assert text.count("|---:|") >= words // 250  # tables
    assert "\n    - then " in text  # lists three levels deep
    assert text.count("\n## ") >= 3 and "\n> **Note**" in text
    assert values["artifacts"] == []


def test_long_markdown_is_deterministic_and_tokenizes_losslessly():
    text = long_markdown(1500)
    assert text == long_markdown(1500)
    assert "".join(tokens(text)) == text
    rich = rich_markdown(1500)
    assert rich == rich_markdown(1500) and "".join(tokens(rich)) == rich
    assert "".join(tokens("  lead\n\n- a  b\n")) == "  lead\n\n- a  b\n"


def test_thinking_keyword_adds_reasoning(agent):
    values, _ = ask(agent, "think about it")
    reasoning = last_ai(values).additional_kwargs["reasoning_content"]
    assert reasoning.startswith('The user wrote: "think about it"')
    assert "reasoning block" in last_ai(values).content


def test_thinking_run_options_and_effort(agent):
    low, _ = ask(agent, "hello", context={"thinking_enabled": True, "reasoning_effort": "low"})
    high, _ = ask(agent, "hello", context={"thinking_enabled": True, "reasoning_effort": "high"})
    low_text = last_ai(low).additional_kwargs["reasoning_content"]
    high_text = last_ai(high).additional_kwargs["reasoning_content"]
    assert len(high_text) > 2 * len(low_text)
    assert "effort: high · thinking: on" in last_ai(high).content


async def test_reasoning_streams_before_the_answer(agent):
    kinds = []
    async for message, _ in agent.astream(
        {"messages": [{"role": "human", "content": "reason about it"}]},
        config(),
        stream_mode="messages",
    ):
        if message.additional_kwargs.get("reasoning_content"):
            kinds.append("reasoning")
        elif message.content:
            kinds.append("text")
    assert kinds[0] == "reasoning" and kinds[-1] == "text"
    assert kinds.index("text") == kinds.count("reasoning")  # all reasoning comes first


def test_model_name_from_context_and_configurable(agent):
    values, _ = ask(agent, "hello", context={"model_name": "demo-fast", "reasoning_effort": "high"})
    assert "_model: demo-fast · effort: high_" in last_ai(values).content
    values, _ = ask(agent, "hello", config(model_name="older-client"))
    assert "_model: older-client · effort: medium_" in last_ai(values).content


def test_markup_reply_is_literal(agent):
    values, _ = ask(agent, "show markup")
    text = last_ai(values).content
    assert "[bold]not bold[/bold] [@click=app.quit]x[/]" in text
    assert "\x1b[31m" in text


async def test_slow_reply_paces_tokens():
    script = decide([HumanMessage("slow please")], set(), {})
    assert script.delay == 0.25
    assert 35 <= len(tokens(script.text)) <= 60
    model = ScriptedChatModel()
    stamps = []
    async for _ in model.astream("go slow"):
        stamps.append(time.perf_counter())
        if len(stamps) == 3:
            break
    assert stamps[2] - stamps[0] >= 0.4


async def test_async_invoke_matches_sync(agent):
    cfg = config()
    values = await agent.ainvoke({"messages": [{"role": "human", "content": "hello"}]}, cfg)
    sync_values, _ = ask(agent, "hello")
    assert last_ai(values).content == last_ai(sync_values).content


def test_model_uses_only_bound_tools():
    model = ScriptedChatModel()
    plain = model.invoke("make a plan")  # no tools bound: it just answers
    assert not plain.tool_calls
    bound = model.bind_tools(TOOLS).invoke("make a plan")
    assert bound.tool_calls[0]["name"] == "write_todos"
    assert bound.response_metadata.get("finish_reason") == "tool_calls"
    assert re.fullmatch(r"call_\d+_write_todos", bound.tool_calls[0]["id"])
