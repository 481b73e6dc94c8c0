"""The main screen's keys belong to its regions (threadbench.ui.main_keys): each region declares
the keys whose action it owns and implements that action; the screen binds every one (routed to
its region), the config file's [keymap] knows each id, and the help screen lists it."""

from __future__ import annotations

import pytest
from textual.binding import Binding
from textual.screen import Screen
from threadbench.ui.app import ThreadbenchApp
from threadbench.ui.main_keys import KEY_ORDER, owned_keys, screen_bindings
from threadbench.ui.main_screen import OWN_KEYS, MainScreen
from threadbench.ui.regions.conversation import Conversation
from threadbench.ui.regions.inspector import Inspector
from threadbench.ui.regions.thread_sidebar import ThreadSidebar
from threadbench.ui.screens.help import all_binding_ids, group_rows

REGIONS = {"sidebar": ThreadSidebar, "chat-pane": Conversation, "inspector": Inspector}
SPANNING = {"refresh", "compare", "fan_out"}
"""The screen's own keys: they act on more than one region."""
LAYOUT = {"toggle_pane('sidebar')", "toggle_pane('inspector')", "zoom"}
"""And the keys that lay the regions out (pane_layout.py)."""


def bound_on_the_screen() -> dict[str, Binding]:
    return {binding.id: binding for binding in MainScreen.BINDINGS if isinstance(binding, Binding) and binding.id}


@pytest.mark.parametrize("region_id", list(REGIONS))
def test_each_region_key_is_bound_on_the_screen_routed_to_the_region_that_acts(region_id: str) -> None:
    region = REGIONS[region_id]
    declared = owned_keys(region)
    assert declared, f"{region.__name__} declares no key"
    screen = bound_on_the_screen()
    for binding in declared:
        assert binding.id and binding.id.startswith("main."), binding  # the ids user config files rebind
        assert callable(getattr(region, f"action_{binding.action}", None)), f"{region.__name__}: {binding.action}"
        bound = screen[binding.id]
        assert bound.action == f"region({region_id!r}, {binding.action!r})"
        for field in ("key", "description", "show", "priority", "tooltip", "key_display"):
            assert getattr(bound, field) == getattr(binding, field), (binding.id, field)


def test_every_region_key_id_is_in_the_keymap_and_the_help_lists_it() -> None:
    keymap_ids = all_binding_ids(ThreadbenchApp)  # what check_keymap accepts in [keymap]
    rows = {row.binding_id: row for row in group_rows("Main screen", MainScreen, False, {"main.older": "f7"})}
    for binding in [b for region in REGIONS.values() for b in owned_keys(region)]:
        assert binding.id in keymap_ids, binding.id
        row = rows[binding.id]
        assert row.description == binding.tooltip
        if binding.id == "main.older":
            assert row.keys == ["f7"]  # the keymap's key, not the default
        else:
            assert row.keys == binding.key.split(",")


def test_the_screen_binds_each_key_once_in_key_order_and_keeps_only_the_keys_that_span_regions() -> None:
    assert [b.id for b in MainScreen.BINDINGS if isinstance(b, Binding)] == list(KEY_ORDER)
    assert {b.action for b in OWN_KEYS} == SPANNING | LAYOUT
    # no action of the screen's that forwards to a region: the router, and what spans the regions
    actions = {name.removeprefix("action_") for name in dir(MainScreen) if name.startswith("action_")}
    textuals = {name.removeprefix("action_") for name in dir(Screen) if name.startswith("action_")}
    assert actions - textuals == {"region", *SPANNING, "toggle_pane", "zoom", "close_over"}


def test_a_key_without_an_id_or_out_of_key_order_is_refused() -> None:
    with pytest.raises(ValueError, match="id"):
        screen_bindings([*OWN_KEYS, Binding("z", "refresh", "Again")], REGIONS)
    with pytest.raises(ValueError, match="KEY_ORDER"):
        screen_bindings([*OWN_KEYS, Binding("z", "refresh", "Again", id="main.again")], REGIONS)
    with pytest.raises(ValueError, match="KEY_ORDER"):
        screen_bindings(OWN_KEYS, {"sidebar": ThreadSidebar})
