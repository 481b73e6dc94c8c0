"""The demo model's canned replies: the slow one, the one full of markup, and the long
Markdown replies ("long N", "rich N") built from a fixed vocabulary, deterministic (indexed by a
counter, never random), so a benchmark or a snapshot sees the same text every time."""

from __future__ import annotations

import json

SLOW_TEXT = (
    "Taking it slowly: this reply arrives one token every quarter of a second, so you have "
    "plenty of time to press cancel and watch the run stop halfway through a sentence. "
    "If you are still reading, the cancel button did not work."
)

MARKUP_TEXT = "\n".join(
    [
        "This text looks like markup but must show literally:",
        "",
        "[bold]not bold[/bold] [@click=app.quit]x[/]",
        "",
        "- a link tag: [link=https://example.com]not a link[/link]",
        "- square brackets: `items[0] = [1, 2]` and [red]not red[/red]",
        "- an ANSI escape: \x1b[31mnot red either\x1b[0m and a backslash \\[escaped]",
        "- a variable: $accent, and an emoji code :smile:",
    ]
)

# Vocabulary for the long reply (deterministic: indexed by a counter, never random).
_SUBJECTS = [
    "The checkpointer",
    "Each thread",
    "A streamed reply",
    "The graph runtime",
    "Every tool call",
    "The human reviewer",
    "A compiled subgraph",
    "The agent server",
    "This design",
    "The inspector pane",
    "A forked checkpoint",
    "The run queue",
]
_VERBS = [
    "records",
    "replays",
    "keeps track of",
    "exposes",
    "summarises",
    "protects",
    "serialises",
    "validates",
    "streams",
    "reconciles",
    "annotates",
]
_OBJECTS = [
    "the full message history",
    "every intermediate state",
    "the pending interrupt",
    "the list of artifacts",
    "each namespaced event",
    "the todo list",
    "the reducer output",
    "the latest tool result",
    "the run configuration",
    "the checkpoint lineage",
    "the clarification answer",
    "the partial token stream",
    "the thread metadata",
]
_TAILS = [
    "so a failed run can resume from the last good step",
    "without blocking the event loop of the terminal",
    "while the operator keeps typing in the composer",
    "even when the thread holds thousands of messages",
    "which makes debugging a long conversation far less painful",
    "before the next node is scheduled",
    "in a format that any client can parse",
    "so that nothing is lost when the server restarts",
    "and the diff view highlights exactly what changed",
    "so the reviewer sees the same data as the model",
]
_OPENERS = ["", "In practice, ", "As a result, ", "Meanwhile, ", "", "For example, ", "In short, "]
_SECTIONS = [
    "Why threads need a workbench",
    "How checkpoints are stored",
    "Streaming without stalls",
    "Answering interrupts",
    "Reviewing tool calls",
    "Working with subgraphs",
    "Forking and replaying",
    "Keeping memory flat",
    "Testing the whole loop",
    "What to measure",
    "Operating it day to day",
    "Where to go next",
]
_KEYWORDS = ["Durability", "Latency", "Visibility", "Safety", "Replay", "Scale", "Review", "Focus"]
_KEYS = ["todos", "artifacts", "messages", "uploaded_files"]
_STATUSES = ["pending", "in_progress", "completed"]


def _sentence(i: int) -> str:
    opener = _OPENERS[i % len(_OPENERS)]
    subject = _SUBJECTS[(i * 5) % len(_SUBJECTS)]
    if opener:
        subject = subject[0].lower() + subject[1:]
    return (
        f"{opener}{subject} {_VERBS[(i * 7) % len(_VERBS)]} "
        f"{_OBJECTS[(i * 3) % len(_OBJECTS)]} {_TAILS[(i * 7 + i // 10) % len(_TAILS)]}."
    )


def _code_block(k: int) -> str:
    key = _KEYS[k % len(_KEYS)]
    status = _STATUSES[k % len(_STATUSES)]
    kind = k % 3
    if kind == 0:
        return (
            "```python\n"
            f"def step_{k}(state: dict) -> dict:\n"
            f'    """Advance the demo pipeline by one step ({k})."""\n'
            f'    items = list(state.get("{key}", []))\n'
            f'    items.append({{"step": {k}, "status": "{status}"}})\n'
            f'    return {{"{key}": items}}\n'
            "```"
        )
    if kind == 1:
        return (
            "```bash\n"
            f"# step {k}: look at the {key} of the current thread\n"
            f"curl -s \"$SERVER/threads/$THREAD/state\" | jq '.values.{key} | length'\n"
            f'threadbench --url "$SERVER"  # then press t for the timeline\n'
            "```"
        )
    return "```json\n" + json.dumps({"step": k, "status": status, "key": key, "retries": k % 4}, indent=2) + "\n```"


def long_markdown(target_words: int) -> str:
    """About `target_words` words of realistic Markdown: headings, ~60-word paragraphs,
    bullet lists and a fenced code block every ~500 words. Deterministic."""
    blocks: list[str] = ["# A field guide to long-running agent threads"]
    words = 7
    sentence = 0
    since_code = 0
    block_no = 0
    section = 0
    code_no = 0

    def add(block: str) -> None:
        nonlocal words, since_code
        blocks.append(block)
        count = len(block.split())
        words += count
        since_code += count

    while words < target_words:
        if block_no % 6 == 0 and target_words - words > 150:
            section += 1
            add(f"## {section}. {_SECTIONS[(section - 1) % len(_SECTIONS)]}")
        if since_code >= 500:
            code_no += 1
            add("Here is how that looks in code:")
            add(_code_block(code_no))
            since_code = 0
        elif block_no % 3 == 2:
            items = []
            for j in range(4):
                idx = sentence + j
                items.append(
                    f"- **{_KEYWORDS[idx % len(_KEYWORDS)]}**: "
                    f"{_SUBJECTS[idx % len(_SUBJECTS)].lower()} {_VERBS[idx % len(_VERBS)]} "
                    f"{_OBJECTS[(idx * 5) % len(_OBJECTS)]}."
                )
            sentence += 4
            add("\n".join(items))
        else:
            paragraph = []
            count = 0
            while count < 55 and words + count < target_words + 10:
                text = _sentence(sentence)
                sentence += 1
                paragraph.append(text)
                count += len(text.split())
            add(" ".join(paragraph))
        block_no += 1
    return "\n\n".join(blocks)


def _table(k: int) -> str:
    """A Markdown table of 4-6 rows (a row per step: its key, status, retries and a note)."""
    rows = ["| step | key | status | retries | note |", "|---:|---|---|---:|---|"]
    for j in range(4 + k % 3):
        step = k * 10 + j
        rows.append(
            f"| {step} | `{_KEYS[(k + j) % len(_KEYS)]}` | {_STATUSES[(k + j) % len(_STATUSES)]} "
            f"| {(k + j) % 4} | {_OBJECTS[(k * 3 + j) % len(_OBJECTS)]} |"
        )
    return "\n".join(rows)


def _nested_list(k: int) -> str:
    """A list three levels deep, numbered or bulleted at the top, with inline code and bold."""
    lines = []
    for j in range(3):
        idx = k * 3 + j
        top = f"{j + 1}." if k % 2 else "-"
        lines.append(
            f"{top} **{_KEYWORDS[idx % len(_KEYWORDS)]}**: {_SUBJECTS[idx % len(_SUBJECTS)].lower()} "
            f"{_VERBS[idx % len(_VERBS)]} {_OBJECTS[idx % len(_OBJECTS)]}"
        )
        indent = "   " if k % 2 else "  "
        for m in range(2):
            lines.append(f"{indent}- `{_KEYS[(idx + m) % len(_KEYS)]}` {_TAILS[(idx + m) % len(_TAILS)]}")
            if m == 0:
                lines.append(f"{indent}  - then {_OBJECTS[(idx + 5) % len(_OBJECTS)]}, *{_STATUSES[idx % 3]}*")
    return "\n".join(lines)


def rich_markdown(target_words: int) -> str:
    """About `target_words` words of Markdown rich in structure, the way a coding agent
    answers: a heading every few blocks, code fences every ~150 words (Python, bash, JSON),
    tables, nested lists, block quotes, and short paragraphs between. Deterministic."""
    blocks: list[str] = ["# A structured guide to agent threads"]
    words = 6
    block_no = 0
    sentence = 0

    def add(block: str) -> None:
        nonlocal words
        blocks.append(block)
        words += len(block.split())

    while words < target_words:
        kind = block_no % 8
        if kind == 0:
            add(f"## {block_no // 8 + 1}. {_SECTIONS[(block_no // 8) % len(_SECTIONS)]}")
        elif kind in (1, 5):
            add(" ".join(_sentence(sentence + j) for j in range(2)))
            sentence += 2
        elif kind == 2:
            add(_code_block(block_no))
        elif kind == 3:
            add(_table(block_no))
        elif kind == 4:
            add(_nested_list(block_no))
        elif kind == 6:
            add(f"> **Note**: {_sentence(sentence)}")
            sentence += 1
        else:
            add(f"### {_KEYWORDS[block_no % len(_KEYWORDS)]}")
            add(_code_block(block_no + 1))
        block_no += 1
    return "\n\n".join(blocks)
