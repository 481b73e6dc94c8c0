"""The config file's say in the app: the keymap and the theme at start (one the app has not,
or a binding id no key has, stops it as every bad start-up input does: one paragraph, status
2), the theme the user picks remembered, and each other problem found told once (a notice,
and the log)."""

from __future__ import annotations

from difflib import get_close_matches
from typing import TYPE_CHECKING

from textual.app import InvalidThemeError

from ..logs import log
from ..settings_file import line_of, remember_theme

if TYPE_CHECKING:
    from .app import ThreadbenchApp


def apply_config(app: ThreadbenchApp) -> bool:
    """False when the app cannot start with the config (it is failing)."""
    settings = app.session.settings
    if app.keymap:
        app.set_keymap(app.keymap)
    if settings.theme:
        try:
            app.theme = settings.theme
        except InvalidThemeError:
            named = f", named by {settings.theme_source}" if settings.theme_source else ""
            close = suggestion(settings.theme, set(app.available_themes))
            themes = ", ".join(sorted(app.available_themes))
            app.fail(
                f"There is no theme {settings.theme!r}{named}{close}. The themes are {themes}: "
                "name one of them, or none for Textual's default."
            )
            return False
    for problem in settings.config_problems:
        config_problem(app, problem)
    return True


def check_keymap(app: ThreadbenchApp) -> bool:
    """False (the app is failing) when the keymap names ids no binding has (known once every
    screen's module is loaded)."""
    from .screens.help import all_binding_ids

    known = all_binding_ids(type(app))
    unknown = sorted(set(app.keymap) - known)
    if not unknown:
        return True
    path = app.session.settings.config_path
    quoted = {name: '"' + name + '"' for name in unknown}  # (an id has dots: TOML wants it quoted)
    named = "; ".join(f"{name!r}{line_of(path, quoted[name])}{suggestion(name, known)}" for name in unknown)
    app.fail(
        f"The [keymap] of the config file {path} names binding ids no key has: {named}. Fix or remove them; "
        "the help screen (f1) lists every key's id."
    )
    return False


def suggestion(name: str, known: set[str]) -> str:
    close = get_close_matches(name, known, n=2)
    return f", perhaps {' or '.join(repr(found) for found in close)}" if close else ""


def config_problem(app: ThreadbenchApp, problem: str) -> None:
    log.warning("config: %s", problem)
    app.notify(problem, title="Config file", severity="warning", timeout=8, markup=False)


def save_theme(app: ThreadbenchApp, theme: str) -> None:
    """Remember the theme the user picks (ctrl+t or the palette) in the config file."""
    settings = app.session.settings
    if theme == settings.theme:
        return
    settings.theme = theme
    path = settings.config_path
    if path is None:
        return
    try:
        remember_theme(path, theme)
    except (OSError, ValueError) as error:
        app.notify(f"Could not save the theme in {path}: {error}", severity="warning", markup=False)
    else:
        log.info("theme %s saved in %s", theme, path)
