"""The command line's pieces, shared by `threadbench` (threadbench.__main__) and `threadbench serve`
(threadbench.serve): the parser, settings from the flags, the password prompt, the server probe."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import NoReturn
from urllib.parse import urlparse

from .backends.headers import api_key_problem
from .config import PASSWORD_ENV, Settings, default_data_dir
from .embedded.launcher import not_a_file
from .sentences import whole_sentences
from .server_kinds import CHOICES
from .settings_file import ConfigError, Flags, config_path, load_config, resolve_settings
from .start_checks import EXIT_USAGE, UsageError, refuse, writable_folder

COMMANDS = (
    "`threadbench replay FILE` (a recorded run, with no server), "
    "`threadbench serve` (the app in a browser), "
    "`threadbench config` (the config file, its profiles and the data folder); each takes --help"
)


class Parser(argparse.ArgumentParser):
    """argparse, but a mistake on the command line is one paragraph, not the usage block."""

    def error(self, message: str) -> NoReturn:
        self.exit(EXIT_USAGE, f"{self.prog}: {whole_sentences(message)} `{self.prog} --help` lists what it takes.\n")


def app_version() -> str:
    from importlib.metadata import PackageNotFoundError, version

    try:
        return version("threadbench")
    except PackageNotFoundError:
        return "0+unknown"


class VersionAction(argparse.Action):
    """--version, looked up only when asked (the package's metadata is read from disk)."""

    def __init__(self, option_strings: list[str], dest: str, **kwargs) -> None:
        super().__init__(option_strings, dest, nargs=0, help="show the version and exit")

    def __call__(self, parser, namespace, values, option_string=None) -> None:
        print(f"threadbench {app_version()}")
        parser.exit()


COMMON = ("theme", "data_dir", "debug")
"""What every command takes (`threadbench`, `replay`, `config`, `serve`): the app's look, where it
keeps its data, its log."""


def common_flags() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(add_help=False)
    parser.add_argument(
        "--theme", metavar="NAME", help="a Textual theme, e.g. nord (default: $THREADBENCH_THEME, then the config file)"
    )
    parser.add_argument(
        "--data-dir",
        metavar="DIR",
        type=Path,
        default=None,
        help=f"where threads and logs are kept (default: {default_data_dir()})",
    )
    parser.add_argument(
        "--debug",
        action="store_true",
        help="verbose log file, and Textual's devtools (see the app's log in `textual console`; "
        "needs `pip install textual-dev`)",
    )
    return parser


def with_common(args: argparse.Namespace) -> argparse.Namespace:
    """The app's own flags, at their defaults but for the common ones given in `args`."""
    app_args = build_parser().parse_args([])
    for name in COMMON:
        setattr(app_args, name, getattr(args, name))
    return app_args


def build_parser() -> argparse.ArgumentParser:
    parser = Parser(
        prog="threadbench",
        parents=[common_flags()],
        description="A keyboard-first terminal workbench for agent conversation threads. "
        "With no --url it starts an embedded LangGraph server with an offline demo agent.",
    )
    parser.add_argument(
        "--url",
        help="an Agent Server to connect to (LangGraph, DeerFlow's Gateway at http://host:8001/api, or 10xGraph)",
    )
    parser.add_argument(
        "--api-key",
        help="API key for --url (default: $LANGGRAPH_API_KEY, $LANGSMITH_API_KEY)",
    )
    parser.add_argument(
        "--email",
        help=f"log in to --url with this email (DeerFlow); the password is read from ${PASSWORD_ENV}, else asked for",
    )
    parser.add_argument(
        "--backend",
        choices=CHOICES,
        default=None,
        help="server kind for --url (default: the profile's, else detect it)",
    )
    parser.add_argument(
        "--profile",
        metavar="NAME",
        help="connect to a server profile of the config file (default: $THREADBENCH_PROFILE, "
        "then the file's default_profile)",
    )
    source = parser.add_mutually_exclusive_group()
    source.add_argument("--graph", metavar="FILE.py:ATTR", help="serve your own graph embedded")
    source.add_argument("--config", metavar="langgraph.json", type=Path, help="serve a langgraph.json embedded")
    parser.add_argument(
        "--record",
        metavar="DIR",
        type=Path,
        default=None,
        help="write every run the app streams to DIR, one JSON Lines file per run, to replay later "
        "with `threadbench replay FILE` (no key, password or session is written)",
    )
    parser.add_argument("--version", action=VersionAction)
    parser.epilog = f"Config file: {config_path()} ($THREADBENCH_CONFIG overrides). Other commands: {COMMANDS}."
    return parser


def settings_from_args(args: argparse.Namespace, environ=None) -> Settings:
    """Flags > environment > config file; see threadbench.settings_file.resolve_settings."""
    import os

    if args.url and (args.graph or args.config):
        raise UsageError("--url connects to a running server; --graph and --config start one. Use one or the other.")
    environ = os.environ if environ is None else environ
    flags = Flags(
        url=check_url(args.url) if args.url else None,
        api_key=args.api_key,
        email=args.email,
        backend=args.backend,
        profile=args.profile,
        theme=args.theme,
        graph=args.graph,
        config=args.config,
        data_dir=args.data_dir,
        debug=args.debug,
    )
    try:
        settings = resolve_settings(flags, environ, load_config(config_path(environ)))
    except ConfigError as error:
        raise UsageError(str(error)) from None
    if settings.url and not flags.url:
        settings.url = check_url(settings.url, where=f"profile {settings.profile!r}")
    if settings.config is not None and not settings.config.is_file():
        raise UsageError(f"--config names {settings.config.resolve()}, {not_a_file(settings.config)}: check the path.")
    if settings.url and (problem := api_key_problem(settings.effective_api_key())):
        source = settings.key_source if settings.key_source == "--api-key" else f"${settings.key_source}"
        raise UsageError(f"The API key from {source} {problem}.")
    if settings.email and not settings.url:
        raise UsageError(
            "--email logs in to a server given with --url or a profile; the embedded server needs no login."
        )
    settings.record_dir = record_folder(args.record)
    return settings


def record_folder(folder: Path | None) -> Path | None:
    """--record DIR, made if needed; a folder that cannot be written is a usage error, said at once."""
    if folder is None:
        return None
    return writable_folder(folder, "write recordings to", "Give a folder you can write with --record.")


def ask_password(settings: Settings, stdin=None) -> None:
    """Ask for the password (not echoed) when an email is given and no variable holds one;
    without a terminal to ask in, say where to put it."""
    import getpass

    stdin = sys.stdin if stdin is None else stdin
    if not settings.email or not settings.url or settings.effective_password():
        return
    where = " or ".join(f"${name}" for name in settings.password_env_vars())
    if not stdin.isatty():
        raise UsageError(
            f"Logging in to {settings.url} as {settings.email} needs a password: set {where}, "
            "or start threadbench in a terminal to be asked for it."
        )
    password = getpass.getpass(f"Password for {settings.email} at {settings.url}: ")
    if not password:
        raise UsageError(f"No password given for {settings.email}: type it, or set {where}.")
    settings.password = password


def check_url(url: str, where: str = "--url") -> str:
    parsed = urlparse(url)
    if parsed.scheme not in ("http", "https") or not parsed.hostname:
        raise UsageError(
            f"{where} {url!r} is not a server address: it should look like http://127.0.0.1:2024 "
            "or https://my-deployment.us.langgraph.app."
        )
    return url.rstrip("/")


def probe_server(settings: Settings) -> str:
    """Reach the server before the UI starts; returns the backend kind to use."""
    import asyncio

    from .backends.base import BackendError, NoLogin, Unauthorized, Unreachable
    from .backends.detect import detect_backend_kind

    assert settings.url is not None
    try:
        detected = asyncio.run(
            detect_backend_kind(settings.url, settings.effective_api_key(), credentials=settings.credentials())
        )
        return detected if settings.backend == "auto" else settings.backend
    except (Unauthorized, NoLogin) as error:  # a login or a session the server wants
        raise UsageError(f"{str(error).rstrip('.')}. {error.hint}") from None
    except Unreachable as error:
        said = str(error).rstrip(".")
        raise UsageError(
            f"Cannot reach an agent server: {said[:1].lower()}{said[1:]}. {error.hint} "
            "To use the embedded server instead, run threadbench without --url."
        ) from None
    except BackendError as error:  # the server answers, but not as asked: its words
        raise UsageError(f"{str(error).rstrip('.')}. {error.hint}".strip()) from None


def enable_textual_devtools(environ) -> None:
    """Turn on Textual's devtools and debug mode, as `textual run --dev` does: Textual reads
    the TEXTUAL variable when an App is made, so this must run before ThreadbenchApp()."""
    features = [f.strip() for f in environ.get("TEXTUAL", "").split(",") if f.strip()]
    features += [f for f in ("devtools", "debug") if f not in features]
    environ["TEXTUAL"] = ",".join(features)


def show_config(argv: list[str] | None = None) -> int:
    """`threadbench config`: the file's path and profiles (key and password variables by
    name, never values), and where the data is kept."""
    import os

    parser = Parser(
        prog="threadbench config",
        parents=[common_flags()],
        description="Show the config file, its profiles and the data folder (flags as for `threadbench`).",
    )
    args = parser.parse_args(argv or [])
    path = config_path()
    print(f"config file: {path}" + ("" if path.exists() else " (not created yet)"))
    try:
        config = load_config(path)
        settings = settings_from_args(with_common(args))
    except (ConfigError, UsageError) as error:
        return refuse(error)
    print(f"data dir: {settings.data_dir}")
    for name, profile in sorted(config.profiles.items()):
        key = "no key"
        if profile.api_key_env:
            key = f"key from ${profile.api_key_env} ({'set' if os.environ.get(profile.api_key_env) else 'not set'})"
        default = "  (default)" if name == config.default_profile else ""
        print(f"profile {name}: {profile.url}  backend {profile.backend}  {key}{login_text(profile)}{default}")
    if config.theme:
        print(f"theme: {config.theme}")
    for problem in config.problems:
        print(f"note: {problem}")
    return 0


def login_text(profile) -> str:
    """How a profile logs in, for `threadbench config` (the password's variable, never its value)."""
    import os

    if not profile.email:
        return ""
    name = profile.password_env or PASSWORD_ENV
    return f"  login {profile.email}, password from ${name} ({'set' if os.environ.get(name) else 'not set'})"
