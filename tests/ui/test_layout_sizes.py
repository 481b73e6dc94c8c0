"""The main screen at 80x24, as a newcomer meets it (issue: the chat was one column wide there,
a message sent invisible): the chat and the composer keep 40 columns, the inspector is one key
away over the chat (ctrl+backslash; escape closes it and the composer has the focus again),
ctrl+b hides the thread list and the choice outlives a restart, the focus that goes into a
hidden pane brings it up, and f5 zooms the pane with the focus."""

from __future__ import annotations

import pytest
from support.driving import make_app, send_in_new_thread, settle, wait_for, wait_ready
from threadbench.ui.widgets.composer import Composer
from threadbench.ui.widgets.timeline import Timeline

pytestmark = pytest.mark.server


def shown(app, pane: str) -> bool:
    return app.screen.query_one(f"#{pane}").display


async def test_a_newcomer_at_80x24(server_url, tmp_path) -> None:
    app = make_app(server_url, data_dir=tmp_path)
    async with app.run_test(size=(80, 24)) as pilot:
        await wait_ready(pilot)
        screen = app.screen
        chat = screen.query_one("#chat-pane")
        assert chat.size.width >= 40 and screen.query_one(Composer).size.width >= 40
        assert shown(app, "sidebar") and not shown(app, "inspector")
        await send_in_new_thread(pilot, "hello")
        await wait_for(pilot, lambda: "Hello" in str(screen.query_one("#chat-header").visual), what="the reply")
        assert screen.query_one("#run-status").size.height == 1

        await pilot.press("ctrl+backslash")  # the inspector, over the chat, with the focus
        assert shown(app, "inspector") and screen.inspector.has_class("-over")
        assert screen.focused is not None and screen.inspector in screen.focused.ancestors
        assert screen.inspector.region.right == 80 and screen.inspector.region.x >= screen.sidebar.region.right
        await pilot.press("escape")
        assert not shown(app, "inspector") and isinstance(screen.focused, Composer)

        screen.inspector.active = "tab-timeline"  # a key that moves the focus into it brings it up too
        screen.query_one(Timeline).focus()
        await settle(pilot)
        assert shown(app, "inspector")
        screen.query_one(Composer).focus()  # and the focus gone, it goes
        await settle(pilot)
        assert not shown(app, "inspector")

        await pilot.press("ctrl+b")
        assert not shown(app, "sidebar") and chat.size.width == 80
        await pilot.press("f5")
        assert screen.maximized is chat
        await pilot.press("f5")
        assert screen.maximized is None
        await pilot.press("escape")  # the thread list, though hidden: it comes over the chat
        await settle(pilot)
        assert shown(app, "sidebar") and screen.sidebar.has_class("-over")
        await pilot.press("escape")
        assert not shown(app, "sidebar")

    again = make_app(server_url, data_dir=tmp_path)
    async with again.run_test(size=(80, 24)) as pilot:
        await wait_ready(pilot)
        assert not shown(again, "sidebar")  # the choice is kept
        await pilot.press("ctrl+b")
        assert shown(again, "sidebar")


@pytest.mark.parametrize(("size", "least"), [((120, 40), 60), ((200, 50), 110)])
async def test_wider_screens(server_url, size, least) -> None:
    app = make_app(server_url)
    async with app.run_test(size=size) as pilot:
        await wait_ready(pilot)
        screen = app.screen
        assert screen.query_one("#chat-pane").size.width >= least
        assert shown(app, "sidebar") and shown(app, "inspector") == (size[0] >= 140)


async def test_the_whole_run_status_is_one_key_away(server_url) -> None:
    """At 80 columns a question's status is cut to one row; f1 shows all of it."""
    from threadbench.ui.screens.help import HelpScreen
    from threadbench.ui.screens.human_input import HumanInputScreen

    app = make_app(server_url)
    async with app.run_test(size=(80, 24)) as pilot:
        await wait_ready(pilot)
        await send_in_new_thread(pilot, "clarify")
        await wait_for(pilot, lambda: isinstance(app.screen, HumanInputScreen), what="the question")
        await pilot.press("escape")
        status = app.screen.query_one("#run-status")
        await wait_for(pilot, lambda: status.state == "waiting", what="the status")
        whole = status.full_text
        shown = str(status.visual).strip()
        assert status.size.height == 1 and len(shown) <= status.size.width and shown != whole
        await pilot.press("f1")
        await wait_for(pilot, lambda: isinstance(app.screen, HelpScreen), what="the help")
        assert whole in str(app.screen.query_one("#help-run-status").visual)
