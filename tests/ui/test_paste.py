"""A paste is text (issue 54): a bracketed paste never runs a key binding, and its control
characters other than newline and tab show as their visible stand-ins and are sent as shown,
in the composer as in every text field (ThreadbenchApp.on_event; an escape, textual_compat/pastes.py)."""

from __future__ import annotations

import pytest
from support.compat import needs_compat
from support.driving import TERMINAL, make_app, new_thread, wait_for, wait_ready
from textual import events
from textual._xterm_parser import XTermParser
from threadbench.ui.textual_compat.pastes import PasteGuard, guard_pastes

TMUX_PASTE = "\x1b[200~a\x07b\x1bc\x1b[201~"
"""What `tmux paste-buffer -p` sent for a buffer of a, BEL, b, ESC, c (read with od)."""


def parsed(*chunks: str) -> list:
    """The events Textual's parser makes of the terminal's input read in `chunks`."""
    guard_pastes()
    parser = XTermParser()
    return [token for chunk in chunks if chunk for token in parser.feed(chunk)]


@needs_compat
@pytest.mark.parametrize("cut", range(len(TMUX_PASTE)))
def test_a_paste_with_an_escape_is_one_paste_and_no_key_wherever_the_read_is_cut(cut: int) -> None:
    tokens = parsed(TMUX_PASTE[:cut], TMUX_PASTE[cut:])
    assert [type(token) for token in tokens] == [events.Paste], "no ^ and c typed as keys"
    assert tokens[0].text == "a\x07b␛c"


def test_the_guard_changes_nothing_outside_a_paste_and_holds_nothing_back() -> None:
    guard = PasteGuard()
    assert guard("\x1b") == "\x1b" and guard("c") == "c"  # (escape, then alt+c: keys as typed)
    assert guard("\x1b[20") == "\x1b[20" and guard("0~x\x1b") == "0~x"  # (a start split in two; the escape held)
    assert guard("[201~q") == "\x1b[201~q" and not guard.pasting


@pytest.mark.server
async def test_a_paste_shows_its_control_characters_and_sends_them_as_shown(server_url: str) -> None:
    app = make_app(server_url)
    async with app.run_test(size=TERMINAL) as pilot:
        await wait_ready(pilot)
        search = app.screen.query_one("#thread-search")
        search.focus()
        app.post_message(events.Paste("x\x07y"))
        await wait_for(pilot, lambda: search.value == "x␇y", what="the paste in the search box")
        composer = await new_thread(pilot)
        thread_id = app.screen.conversation.thread_id
        await pilot.pause()
        app.post_message(events.Paste("a\x07b\x1bc\r\nd"))
        await wait_for(pilot, lambda: composer.text == "a␇b␛c\nd", what="the paste in the composer, as it shows")
        await pilot.press("enter")

        def sent() -> list[str]:
            state = app.screen.conversation.thread_state
            if state is None or state.thread_id != thread_id:
                return []
            return [m.text for m in state.messages if m.type == "human"]

        await wait_for(pilot, lambda: sent() == ["a␇b␛c\nd"], what="the message sent as it showed")
