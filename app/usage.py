"""Token usage: what a thread's (or a run's) AI messages say their model calls used
(LangChain's `usage_metadata`, mapped to ChatMessage.usage), summed once per message."""

from __future__ import annotations

from collections.abc import Iterable

from .models import ChatMessage, TokenUsage


def total_usage(messages: Iterable[ChatMessage], skip: Iterable[str] = ()) -> TokenUsage | None:
    """The sum of the messages' usage, each message id counted once, those in `skip` (the
    messages there before a run) left out; None when no message says."""
    seen = set(skip)
    total: TokenUsage | None = None
    for message in messages:
        if message.usage is None or (message.id and message.id in seen):
            continue
        if message.id:
            seen.add(message.id)
        total = message.usage if total is None else total + message.usage
    return total


def token_count(count: int) -> str:
    """1,234 under ten thousand, then 12.3K, 4.5M (as DeerFlow's UI writes them)."""
    if count < 10_000:
        return f"{count:,}"
    if count < 10_000_000:
        return f"{count / 1000:.1f}K"
    return f"{count / 1_000_000:.1f}M"


def usage_text(thread: TokenUsage | None, run: TokenUsage | None = None) -> str:
    """ "tokens 6,282 (6,270 in · 12 out)", and the last run's share when it is not all of it."""
    if thread is None:
        return ""
    words = (
        f"tokens {token_count(thread.total_tokens)} "
        f"({token_count(thread.input_tokens)} in · {token_count(thread.output_tokens)} out)"
    )
    if run is not None and run.total_tokens != thread.total_tokens:
        words += f" · last run {token_count(run.total_tokens)}"
    return words
