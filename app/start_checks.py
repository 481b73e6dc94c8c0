"""What the app reads at start, checked before its first frame, and the one way a problem
there is said: a `UsageError`, printed as one paragraph of whole sentences, exit status 2.

Every command that runs the app (`threadbench`, `replay`, `serve`) calls `check_start` once
its settings are resolved; what only the running app can check (the keymap's ids, the
theme) is said the same way by `ThreadbenchApp.fail`.
"""

from __future__ import annotations

import os
import sys
from pathlib import Path

from .config import Settings
from .sentences import whole_sentences
from .settings_file import line_of

EXIT_USAGE = 2


class UsageError(Exception):
    """Something the user can fix; printed as one paragraph, exit status 2."""


def refuse(error: Exception | str) -> int:
    """Say `error` as the one paragraph on stderr; the exit status to return."""
    print(f"threadbench: {whole_sentences(str(error))}", file=sys.stderr)
    return EXIT_USAGE


def check_start(settings: Settings) -> None:
    """Raise UsageError for the first thing the app could not start with."""
    writable_folder(
        settings.data_dir,
        "keep the app's data in",
        "Give a folder you can write with --data-dir (or $THREADBENCH_DATA_DIR, or data_dir in the config file).",
    )
    check_profile_variables(settings)
    if settings.embedded:
        from .embedded.launcher import LaunchError, graph_config

        try:
            graph_config(settings.graph, settings.config)
        except LaunchError as error:
            raise UsageError(str(error)) from None


def writable_folder(folder: Path, doing: str, todo: str) -> Path:
    """`folder`, made if needed; one it cannot write in (as root too: a file in its way, /proc)
    is a UsageError that says why and `todo`."""
    try:
        folder.mkdir(parents=True, exist_ok=True)
        probe = folder / ".threadbench-write-test"
        probe.write_text("")
        probe.unlink()
    except OSError as error:
        raise UsageError(f"Cannot {doing} {folder}: {folder_problem(folder, error)}. {todo}") from None
    return folder


def folder_problem(folder: Path, error: OSError) -> str:
    blocker = next((p for p in (folder, *folder.parents) if p.exists()), None)
    if blocker is not None and not blocker.is_dir():
        return f"{blocker} is a file, not a folder"
    reason = (error.strerror or str(error)).lower()
    return f"no file can be written there ({reason})" if folder.is_dir() else f"the folder cannot be made ({reason})"


def check_profile_variables(settings: Settings) -> None:
    """A variable the profile in use names must be set: else the key of another variable, or
    none, would go to its server unsaid."""
    profile = settings.profiles.get(settings.profile or "")
    if profile is None:
        return
    path = settings.config_path
    where = f"The profile {profile.name!r} in {path}{line_of(path, f'[profiles.{profile.name}]')}"
    if profile.api_key_env and not settings.api_key and not os.environ.get(profile.api_key_env):
        raise UsageError(
            f"{where} takes its API key from ${profile.api_key_env}, which is not set. "
            f"Set it (export {profile.api_key_env}=...), or give the key with --api-key."
        )
    if profile.email and profile.password_env and not os.environ.get(profile.password_env):
        raise UsageError(
            f"{where} takes its password from ${profile.password_env}, which is not set. Set it "
            f"(export {profile.password_env}=...), or remove password_env from the profile to be asked for it."
        )
