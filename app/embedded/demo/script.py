"""What the scripted demo model says: trigger words, run options and reply text.

Pure functions over messages: no network, no randomness, no clock. The same messages and
options always give the same reply. ScriptedChatModel (model.py) turns a `Script` into
streamed chunks; the trigger table lives in agent.py's docstring and TRIGGERS.md.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any

from langchain_core.messages import AIMessage, BaseMessage, HumanMessage, ToolMessage

from .canned import MARKUP_TEXT, SLOW_TEXT, long_markdown, rich_markdown

DEFAULT_MODEL_NAME = "threadbench-demo"
DEFAULT_EFFORT = "medium"
DEFAULT_LONG_WORDS = 5000
MAX_LONG_WORDS = 50_000
SLOW_DELAY = 0.25
OUTPUTS = "/mnt/user-data/outputs"
OPTION_KEYS = (
    "thinking_enabled",
    "reasoning_effort",
    "model_name",
    "is_plan_mode",
    "subagent_enabled",
)

# trigger -> regex over the lower-cased latest human message
TRIGGERS: dict[str, re.Pattern[str]] = {
    name: re.compile(pattern)
    for name, pattern in {
        "crash": r"\bcrash\w*",
        "plan": r"\bplan(?:s|ned|ning)?\b",
        "clarify": r"\bclarif\w*|\bambiguous\b",
        "research": r"\bresearch\w*|\bsubgraphs?\b",
        "file": r"\bfiles?\b|\breports?\b|\bwrite\b",
        "delete": r"\bdelet\w*|\bapprov\w*",
        "deploy": r"\bdeploy\w*",
        "error": r"\berrors?\b|\bfail\w*",
        "long": r"\blong\b|\b\d+\s*words?\b",
        "rich": r"\brich\b",
        "slow": r"\bslow\w*",
        "think": r"\bthink\w*|\breason\w*",
        "hidden": r"\bhidden\b",
        "markup": r"\bmarkup\b",
        "upload": r"\buploads?\b",
    }.items()
}

# (trigger, tool) in the order the model calls them: one tool per model turn
TOOL_ORDER = (
    ("plan", "write_todos"),
    ("clarify", "ask_clarification"),
    ("research", "research"),
    ("file", "write_file"),
    ("delete", "delete_file"),
    ("deploy", "deploy_app"),
    ("error", "run_command"),
)

CLARIFY_OPTIONS = [
    "Option A: a quick summary",
    "Option B: a detailed report",
    "Option C: a step-by-step plan",
]

HELP_LINES = [
    "- `clarify` / `ambiguous`: I ask you a question (an `interrupt()`)",
    "- `plan`: I write a todo list (also with the run option `is_plan_mode`)",
    "- `file` / `write` / `report`: I write an artifact",
    "- `research` / `subgraph`: a research subgraph runs",
    "- `delete` / `approve` / `deploy`: a tool call that waits for your approval",
    "- `error` / `fail`: a tool fails; `crash`: the whole run fails",
    "- `long 2000`, `slow`, `think`, `hidden`, `markup`, `upload`",
]


@dataclass
class Script:
    """One model turn: optional reasoning, visible text, at most one tool call."""

    text: str = ""
    reasoning: str = ""
    tool_call: dict[str, Any] | None = None  # {"name", "args", "id"}
    crash: str | None = None  # raise this (as DemoCrash) after streaming the text
    delay: float = 0.0  # seconds between tokens (the "slow" trigger)
    triggers: set[str] = field(default_factory=set)


class DemoCrash(RuntimeError):
    """Raised on purpose by the "crash" trigger so the run fails."""


# ---------------------------------------------------------------------------- helpers


def text_of(message: BaseMessage) -> str:
    content = message.content
    if isinstance(content, str):
        return content
    parts = []
    for block in content:
        if isinstance(block, str):
            parts.append(block)
        elif isinstance(block, dict) and block.get("type") == "text":
            parts.append(str(block.get("text", "")))
    return "".join(parts)


def is_hidden(message: BaseMessage) -> bool:
    return bool(message.additional_kwargs.get("hide_from_ui"))


def last_human_index(messages: list[BaseMessage]) -> int:
    for index in range(len(messages) - 1, -1, -1):
        if isinstance(messages[index], HumanMessage):
            return index
    return -1


def first_visible_human(messages: list[BaseMessage]) -> str | None:
    for message in messages:
        if isinstance(message, HumanMessage) and not is_hidden(message):
            return text_of(message)
    return None


def detect_triggers(text: str) -> set[str]:
    lowered = text.lower()
    found = {name for name, pattern in TRIGGERS.items() if pattern.search(lowered)}
    if "rich" in found:
        found.discard("long")  # "rich 5000 words": the rich reply, of that length
    if ("long" in found or "rich" in found) and "file" in found and not re.search(r"\bfiles?\b|\breports?\b", lowered):
        found.discard("file")  # "write 5000 words" is a long reply, not a file
    return found


def turn_triggers(messages: list[BaseMessage], options: dict[str, Any]) -> set[str]:
    index = last_human_index(messages)
    found = detect_triggers(text_of(messages[index])) if index >= 0 else set()
    if options.get("is_plan_mode"):
        found.add("plan")
    if options.get("thinking_enabled"):
        found.add("think")
    return found


def long_word_target(text: str) -> int:
    lowered = text.lower()
    match = re.search(r"\b(\d+)\s*words?\b", lowered) or re.search(r"\b(?:long|rich)\D{0,12}?(\d+)", lowered)
    if not match:
        return DEFAULT_LONG_WORDS
    return max(50, min(MAX_LONG_WORDS, int(match.group(1))))


def tokens(text: str) -> list[str]:
    """Split into word-ish tokens (each word with the whitespace after it); "".join() == text."""
    if not text:
        return []
    lead = re.match(r"\s*", text).group()
    parts = re.findall(r"\S+\s*", text[len(lead) :])
    if not parts:
        return [text]
    parts[0] = lead + parts[0]
    return parts


def title_from(text: str, words: int = 6) -> str:
    cleaned = re.sub(r"[`*_#>\[\]]", "", text).split()
    if not cleaned:
        return "Untitled thread"
    title = " ".join(cleaned[:words]).rstrip(".,;:!?")
    title = title[0].upper() + title[1:]
    return title + ("…" if len(cleaned) > words else "")


def short(text: str, limit: int = 80) -> str:
    text = " ".join(text.split())
    return text if len(text) <= limit else text[: limit - 1].rstrip() + "…"


def footer(options: dict[str, Any]) -> str:
    parts = [
        f"model: {options.get('model_name') or DEFAULT_MODEL_NAME}",
        f"effort: {options.get('reasoning_effort') or DEFAULT_EFFORT}",
    ]
    if options.get("thinking_enabled"):
        parts.append("thinking: on")
    if options.get("is_plan_mode"):
        parts.append("plan mode")
    if options.get("subagent_enabled"):
        parts.append("subagents: on")
    return "_" + " · ".join(parts) + "_"


def reasoning_for(request: str, options: dict[str, Any], step: str) -> str:
    effort = (options.get("reasoning_effort") or DEFAULT_EFFORT).lower()
    sentences = [
        f'The user wrote: "{short(request, 60)}".',
        f"Right now I should {step}.",
        "Nothing here needs the network, so I can answer from the script.",
        "I will keep the answer in Markdown so the chat pane can render it.",
        "If a tool is involved, its result comes back as a ToolMessage and I read it next turn.",
        "A human may need to answer an interrupt first; the thread then waits as interrupted.",
        "The todo list, artifacts and title live in the graph state, not in my reply.",
        "Finally I add a footer with the model name and the effort so run options are visible.",
    ]
    count = {"minimal": 1, "low": 2, "medium": 4, "high": 8}.get(effort, 4)
    return " ".join(sentences[:count])


# ---------------------------------------------------------------------------- decision


def decide(messages: list[BaseMessage], tool_names: set[str], options: dict[str, Any]) -> Script:
    """The scripted model's next turn for this conversation."""
    index = last_human_index(messages)
    request = text_of(messages[index]) if index >= 0 else ""
    triggers = turn_triggers(messages, options)
    turn = messages[index + 1 :] if index >= 0 else list(messages)
    results = [m for m in turn if isinstance(m, ToolMessage)]
    called = {call["name"] for m in turn if isinstance(m, AIMessage) for call in m.tool_calls}
    think = "think" in triggers

    answer = re.search(r"my answer is:\s*(.+)", request, re.S)
    if answer and index >= 0 and is_hidden(messages[index]):
        # DeerFlow's UI answers a clarification with a hidden human message.
        reply = f"You chose: {answer.group(1).strip()}.\n\nThanks, I'll go with that."
        return _final(reply, request, triggers, options, think)

    if "crash" in triggers and not results:
        return Script(
            text="Starting the risky operation you asked for. This step is going to ",
            reasoning=reasoning_for(request, options, "run the operation that crashes") if think else "",
            crash="Demo crash: the 'crash' trigger makes this node raise, so the run fails.",
            triggers=triggers,
        )

    for trigger, tool in TOOL_ORDER:
        if trigger in triggers and tool in tool_names and tool not in called:
            preamble, args = _tool_request(tool, request, triggers)
            call_id = f"call_{len(messages)}_{tool}"
            return Script(
                text=preamble,
                reasoning=reasoning_for(request, options, f"call the `{tool}` tool") if think else "",
                tool_call={"name": tool, "args": args, "id": call_id},
                triggers=triggers,
            )

    sections = [_result_section(m) for m in results]
    return _final("\n\n".join(s for s in sections if s), request, triggers, options, think)


def _final(lead: str, request: str, triggers: set[str], options: dict[str, Any], think: bool) -> Script:
    sections = [lead] if lead else []
    delay = 0.0
    if "rich" in triggers:
        sections.append(rich_markdown(long_word_target(request)))
    elif "long" in triggers:
        sections.append(long_markdown(long_word_target(request)))
    elif "slow" in triggers:
        sections.append(SLOW_TEXT)
        delay = SLOW_DELAY
    if "markup" in triggers:
        sections.append(MARKUP_TEXT)
    if "hidden" in triggers:
        sections.append(
            "I also added a message flagged `hide_from_ui`: it is in the thread state, "
            "but a chat view should not show it."
        )
    if "upload" in triggers:
        sections.append(
            "I registered an uploaded file, `notes.txt` (1,234 bytes) in "
            "`/mnt/user-data/uploads/`: see `uploaded_files` in the state."
        )
    if "think" in triggers and not sections:
        sections.append("I thought it through (see the reasoning block above). My answer: yes, this works.")
    if not sections:
        sections.append(hello_text(request))
    sections.append(footer(options))
    return Script(
        text="\n\n".join(sections),
        reasoning=reasoning_for(request, options, "write the final answer") if think else "",
        delay=delay,
        triggers=triggers,
    )


def hello_text(request: str) -> str:
    return "\n".join(
        [
            "Hello! I'm the **Threadbench demo agent**: a scripted chat model that runs "
            "offline, with no API key, and always answers the same way.",
            "",
            "Put one of these words in a message to exercise a part of the workbench:",
            "",
            *HELP_LINES,
        ]
    )


def _tool_request(tool: str, request: str, triggers: set[str]) -> tuple[str, dict[str, Any]]:
    if tool == "write_todos":
        todos = [
            {"content": "Read the request and collect the constraints", "status": "completed"},
            {"content": "Sketch the approach and the data it needs", "status": "in_progress"},
            {"content": "Implement the change in small steps", "status": "pending"},
            {"content": "Check the result and write a summary", "status": "pending"},
        ]
        return "Let me break this down into a plan first.", {"todos": todos}
    if tool == "ask_clarification":
        ambiguous = "ambiguous" in request.lower()
        return "Before I start, I need one detail from you.", {
            "question": "Which kind of answer would help you most?",
            "clarification_type": "ambiguous_requirement" if ambiguous else "approach_choice",
            "context": f'You asked: "{short(request)}". It can be answered in several ways.',
            "options": list(CLARIFY_OPTIONS),
        }
    if tool == "research":
        return "I'll hand this to the research subgraph.", {"topic": short(request, 60)}
    if tool == "write_file":
        name = "report.md" if re.search(r"\breports?\b", request.lower()) else "notes.md"
        path = f"{OUTPUTS}/{name}"
        content = (
            f"# {title_from(request, 8)}\n\n"
            "## Summary\n\nThis file was written by the Threadbench demo agent.\n\n"
            "## Details\n\n- Request: " + short(request) + "\n- Status: done\n"
        )
        return "I'll write that up as a file.", {"path": path, "content": content}
    if tool == "delete_file":
        return (
            "Deleting a file can't be undone, so I'm asking for your approval first.",
            {"path": f"{OUTPUTS}/old-draft.md"},
        )
    if tool == "deploy_app":
        return (
            "A deployment needs your approval before it runs.",
            {"environment": "staging", "version": "1.4.2"},
        )
    if tool == "run_command":
        return "Let me run the test suite to check.", {"command": "make test"}
    raise ValueError(tool)


def _result_section(message: ToolMessage) -> str:
    content = text_of(message)
    name = message.name or ""
    failed = message.status == "error"
    if name == "ask_clarification":
        return (
            f"You chose: {content}.\n\nThanks, that settles it. I'll shape the answer "
            "around that choice and keep the other options in mind in case you change it."
        )
    if name == "write_todos":
        todos = message.artifact if isinstance(message.artifact, list) else []
        marks = {"completed": "[x]", "in_progress": "[~]", "pending": "[ ]"}
        lines = ["Here is the plan and where it stands:", ""]
        for number, todo in enumerate(todos, 1):
            status = todo.get("status", "pending")
            lines.append(f"{number}. {marks.get(status, '[ ]')} {todo.get('content')} ({status.replace('_', ' ')})")
        lines += ["", "I'll keep the todo list in the thread state up to date as I go."]
        return "\n".join(lines)
    if name == "write_file":
        return f"Done: {content}\n\nYou can open it from the artifacts list."
    if name == "research":
        return "The research subgraph is back. " + content
    if name in ("delete_file", "deploy_app"):
        if failed:
            return f"The reviewer did not approve `{name}`. {content}\n\nI left everything as it was."
        return f"Approved and done: {content}"
    if name == "run_command":
        if failed:
            return (
                "Sorry, the command failed:\n\n```text\n" + content + "\n```\n\n"
                "Here is what I would try next:\n\n- re-run it with more logging\n"
                "- check the last change to the test setup\n- ask you before retrying"
            )
        return f"The command finished: {content}"
    return f"Tool `{name}` returned: {content}"
