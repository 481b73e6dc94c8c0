"""`threadbench serve`: the same app in a browser, through textual-serve.

    threadbench serve [--host H] [--port P] [ARGS...]

ARGS are the app's own (--url, --profile, --graph...). Each browser tab runs its own
`threadbench ARGS` process. With no server given, one embedded server is started here and
shared by every tab (so they see the same threads), and stopped when serve stops.
An --api-key is handed to the app processes through the environment, never on a
command line (where `ps` would show it).
"""

from __future__ import annotations

import argparse
import os
import shlex
import socket
import sys

DEFAULT_PORT = 8000


def build_parser() -> argparse.ArgumentParser:
    from .cli import Parser, common_flags

    parser = Parser(
        prog="threadbench serve",
        parents=[common_flags()],
        description="Serve Threadbench in a browser (textual-serve). Other arguments are the app's "
        "own, e.g. `threadbench serve --port 8080 --url http://127.0.0.1:2024`.",
    )
    parser.add_argument("--host", default="localhost", help="address to listen on (default: localhost)")
    parser.add_argument("--port", type=int, default=DEFAULT_PORT, help=f"port (default: {DEFAULT_PORT})")
    parser.add_argument("--public-url", default=None, help="the URL browsers reach this server at, behind a proxy")
    return parser


def app_command(app_args: list[str]) -> str:
    return shlex.join([sys.executable, "-m", "threadbench", *app_args])


def pop_option(args: list[str], name: str) -> tuple[str | None, list[str]]:
    """Take `--name VALUE` / `--name=VALUE` out of args."""
    rest: list[str] = []
    value = None
    skip = False
    for index, arg in enumerate(args):
        if skip:
            skip = False
            continue
        if arg == name and index + 1 < len(args):
            value, skip = args[index + 1], True
        elif arg.startswith(name + "="):
            value = arg.split("=", 1)[1]
        else:
            rest.append(arg)
    return value, rest


def common_args(options: argparse.Namespace) -> list[str]:
    """The flags every command takes, as serve was given them, for each tab's app."""
    args = ["--theme", options.theme] if options.theme else []
    args += ["--data-dir", str(options.data_dir)] if options.data_dir is not None else []
    return args + (["--debug"] if options.debug else [])


def port_problem(host: str, port: int) -> str | None:
    """Why serve could not listen at host:port (a port in use, a host it has not), before
    anything is started; None when it can."""
    try:
        addresses = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM)
    except socket.gaierror as error:
        return f"Cannot serve on {host}: the name does not resolve ({error.strerror}). Give another --host."
    for family, kind, protocol, _, address in addresses:
        with socket.socket(family, kind, protocol) as listener:
            listener.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)  # as the server's own
            try:
                listener.bind(address)
            except OSError as error:
                reason = (error.strerror or str(error)).lower()
                return f"Cannot serve on {host} port {port}: {reason}. Give another --port (or --host)."
    return None


def main(argv: list[str] | None = None) -> int:
    from .cli import refuse

    options, app_args = build_parser().parse_known_args(argv)
    app_args = [*common_args(options), *app_args]
    try:
        from textual_serve.server import Server
    except ImportError:
        return refuse("serve needs textual-serve: pip install textual-serve")

    api_key, app_args = pop_option(app_args, "--api-key")
    if api_key:
        os.environ["LANGGRAPH_API_KEY"] = api_key  # inherited by each app process
    from .cli import UsageError, ask_password, settings_from_args
    from .cli import build_parser as app_parser
    from .config import PASSWORD_ENV
    from .start_checks import check_start

    try:
        settings = settings_from_args(app_parser().parse_args(app_args))
        check_start(settings)
        ask_password(settings)  # here, in the terminal: a tab's app has none to ask in
    except UsageError as error:
        return refuse(error)
    if problem := port_problem(options.host, options.port):
        return refuse(problem)
    if settings.password:
        os.environ[PASSWORD_ENV] = settings.password  # inherited by each app process
    server = None
    if settings.url is None:  # one embedded server for every tab
        from .embedded.launcher import EmbeddedServer, LaunchError

        _, app_args = pop_option(app_args, "--graph")
        _, app_args = pop_option(app_args, "--config")
        server = EmbeddedServer(settings.data_dir, graph=settings.graph, config=settings.config)
        print("threadbench: starting the embedded server…", file=sys.stderr)
        try:
            server.start()
            server.wait_ready(timeout=120)
        except (LaunchError, OSError) as error:
            server.stop()
            return refuse(error)
        app_args = ["--url", server.url, *app_args]
    try:
        Server(
            app_command(app_args),
            host=options.host,
            port=options.port,
            title="Threadbench",
            public_url=options.public_url,
        ).serve()
    finally:
        if server is not None:
            server.stop()
    return 0
