"""The `threadbench` command.

    threadbench                          embedded server + the bundled demo agent
    threadbench --graph my_graph.py:graph  embedded server running your graph
    threadbench --url http://host:2024   any LangGraph Agent Server (or a 10xGraph server)
    threadbench --url URL --email EMAIL  log in first (DeerFlow); password from $THREADBENCH_PASSWORD
    threadbench --url http://host:8001/api  DeerFlow's Gateway
    threadbench --profile NAME           a server profile from the config file
    threadbench --record DIR             write every run streamed to DIR (JSON Lines, one file a run)
    threadbench replay FILE [--instant]  a recorded run, replayed with no server
    threadbench serve [--port P] [ARGS]  the same app in a browser (textual-serve)
    threadbench config                   where the config file is, and its profiles

Settings come from flags > environment > the config file (app/settings_file.py).
Errors the user can fix (a bad URL, an unreachable server, a graph that does not import)
print one paragraph and exit with status 2, never a traceback.
"""

from __future__ import annotations

import sys

from .cli import (
    Parser,
    UsageError,
    ask_password,
    build_parser,
    common_flags,
    enable_textual_devtools,
    probe_server,
    refuse,
    settings_from_args,
    show_config,
    with_common,
)
from .start_checks import check_start

__all__ = ["UsageError", "ask_password", "build_parser", "main", "probe_server", "settings_from_args"]


def main(argv: list[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else list(argv)
    if argv[:1] == ["serve"]:
        from .serve import main as serve_main

        return serve_main(argv[1:])
    if argv[:1] == ["config"]:
        return show_config(argv[1:])
    if argv[:1] == ["replay"]:
        return replay(argv[1:])
    args = build_parser().parse_args(argv)
    try:
        settings = settings_from_args(args)
        check_start(settings)
        ask_password(settings)
        kind = probe_server(settings) if settings.url else "langgraph"
    except UsageError as error:
        return refuse(error)
    except KeyboardInterrupt:  # ctrl+c at the password prompt, or while the server is probed
        print(file=sys.stderr)
        return 130

    if settings.debug:
        import os

        enable_textual_devtools(os.environ)
    from .ui.app import ThreadbenchApp

    app = ThreadbenchApp(settings, backend_kind=kind)
    try:
        app.run()
    finally:
        app.embedded.stop()
    return app.return_code or 0


def replay(argv: list[str]) -> int:
    """`threadbench replay FILE`: the run recorded in FILE, in the workbench, with no server."""
    from pathlib import Path

    from .backends.replay import ReplayBackend
    from .recording import RecordingError, load_recording

    parser = Parser(
        prog="threadbench replay",
        parents=[common_flags()],
        description="Show a run recorded with `threadbench --record DIR` as it streamed, with no server: "
        "open its thread (enter) to replay it.",
    )
    parser.add_argument("file", type=Path, help="a recording (one .jsonl file of the --record folder)")
    parser.add_argument("--instant", action="store_true", help="replay at once, not at the recorded pace")
    args = parser.parse_args(argv)
    try:
        recording = load_recording(args.file)
        settings = settings_from_args(with_common(args))
        backend = ReplayBackend(recording, args.file, instant=args.instant)
        settings.url, settings.profile, settings.record_dir = backend.url, None, None
        check_start(settings)
    except (RecordingError, UsageError) as error:
        return refuse(error)
    if settings.debug:
        import os

        enable_textual_devtools(os.environ)
    from .ui.app import ThreadbenchApp

    app = ThreadbenchApp(settings, backend_kind="replay", backend=backend)
    app.run()
    return app.return_code or 0


if __name__ == "__main__":
    sys.exit(main())
