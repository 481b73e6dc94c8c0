"""The config file's say in the app: the keymap and the theme at start, the theme the user
picks remembered, and each problem found told once (a notice, and the log)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from textual.app import InvalidThemeError

from ..logs import log
from ..settings_file import remember_theme

if TYPE_CHECKING:
    from .app import ThreadbenchApp


def apply_config(app: ThreadbenchApp) -> None:
    settings = app.session.settings
    problems = list(settings.config_problems)
    if app.keymap:
        app.set_keymap(app.keymap)
    if settings.theme:
        try:
            app.theme = settings.theme
        except InvalidThemeError:
            problems.append(f"unknown theme {settings.theme!r}: pick one with ctrl+t")
    for problem in problems:
        config_problem(app, problem)


def check_keymap(app: ThreadbenchApp) -> None:
    """Say which ids in the keymap no binding has (once every screen's module is loaded)."""
    from .screens.help import all_binding_ids

    unknown = sorted(set(app.keymap) - all_binding_ids(type(app))) if app.keymap else []
    if unknown:
        config_problem(app, "[keymap] unknown binding ids (see the help screen, f1): " + ", ".join(unknown))


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
