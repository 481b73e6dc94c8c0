"""The main screen's key router. Each region declares the keys whose action it owns
(`SCREEN_KEYS`, a class-level list of Bindings beside its code) and implements those actions;
the screen binds them all, so a key acts wherever the focus is on the main screen (Textual
looks only at the bindings of the focused widget and its ancestors: `[` typed in the thread
list moves the inspector's timeline). Each binding is routed to its region through one action
of the screen, `region(id, action)`, which runs the region's action with Textual's
`run_action` (MainScreen.action_region; its check_action asks the region's).

The ids are what the config file's [keymap] rebinds and what the help screen lists (under
"Main screen", in KEY_ORDER, which is also the footer's order).
"""

from dataclasses import replace

from textual.binding import Binding, BindingType

KEY_ORDER = (
    "main.toggle_threads",
    "main.toggle_inspector",
    "main.zoom",
    "main.search",
    "main.new",
    "main.new_anywhere",
    "main.copy",
    "main.send",
    "main.rename",
    "main.delete",
    "main.undo",
    "main.sort",
    "main.refresh",
    "main.cancel",
    "main.compose",
    "main.options",
    "main.answer",
    "main.find",
    "main.older",
    "main.newer",
    "main.older_turn",
    "main.newer_turn",
    "main.live",
    "main.edit",
    "main.fork",
    "main.replay",
    "main.resend",
    "main.compare",
    "main.fan_out",
    "main.inbox",
    "main.artifacts",
    "main.tab_state",
    "main.tab_timeline",
    "main.tab_graph",
    "main.tab_events",
    "main.attach",
    "main.detach",
    "main.uploads",
    "main.follow_up",
    "main.clear_state",
    "main.message_log",
    "main.runs",
    "main.assistants",
    "main.store",
    "main.crons",
    "main.threads",
)
"""Every key of the main screen by id, in the order the help screen and the footer show them."""


def owned_keys(region: type) -> list[Binding]:
    """The keys a region class declares (`SCREEN_KEYS`), its bases' first."""
    found: list[Binding] = []
    for cls in reversed(region.__mro__):
        found.extend(cls.__dict__.get("SCREEN_KEYS", ()))
    return found


def routed(region_id: str, binding: Binding) -> Binding:
    """`binding` as the screen binds it: its action run on the region `region_id`."""
    return replace(binding, action=f"region({region_id!r}, {binding.action!r})")


def screen_bindings(own: list[Binding], regions: dict[str, type]) -> list[BindingType]:
    """The screen's BINDINGS: its own keys and each region's (by the region's id), routed, in
    KEY_ORDER. Every key has an id, once, and KEY_ORDER names every one."""
    by_id: dict[str, Binding] = {}
    keys = [(binding, binding) for binding in own]
    keys += [(routed(region_id, binding), binding) for region_id, cls in regions.items() for binding in owned_keys(cls)]
    for bound, declared in keys:
        if not declared.id or declared.id in by_id:
            raise ValueError(f"a main screen key needs an id of its own: {declared}")
        by_id[declared.id] = bound
    if set(by_id) != set(KEY_ORDER):
        raise ValueError(f"KEY_ORDER and the keys differ: {sorted(set(by_id) ^ set(KEY_ORDER))}")
    return [by_id[binding_id] for binding_id in KEY_ORDER]
