"""The footer shows the keys of what has focus, and is rebuilt only when those change."""

from __future__ import annotations

from support.driving import TERMINAL, make_app, wait_for, wait_ready
from threadbench.ui.widgets.composer import Composer


def footer_keys(app) -> list:
    return list(app.screen.query("FooterKey"))


def described(app) -> list[str]:
    return [str(key.description) for key in footer_keys(app)]


async def test_the_footer_follows_focus_and_is_kept_while_its_keys_stay_the_same(server_url):
    app = make_app(server_url)
    async with app.run_test(size=TERMINAL) as pilot:
        await wait_ready(pilot)
        app.screen.sidebar.thread_list.focus()
        await wait_for(pilot, lambda: "New" in described(app), what="the thread list's keys")
        on_list = footer_keys(app)

        app.screen.refresh_bindings()  # the bindings may have changed; the keys did not
        await pilot.pause()
        await pilot.pause()
        assert footer_keys(app) == on_list  # the very same widgets: not rebuilt

        app.screen.query_one(Composer).focus()
        await wait_for(pilot, lambda: "Send" in described(app), what="the composer's keys")
        assert "New" not in described(app)
        assert "Search" not in described(app)  # / types a slash there (key_characters)

        app.screen.sidebar.thread_list.focus()
        await wait_for(pilot, lambda: "New" in described(app), what="the thread list's keys again")
        assert "Send" not in described(app) and "Search" in described(app)
