"""Entry point of the embedded server's process: `langgraph dev` plus a watchdog.

`python -m threadbench.embedded.serve --parent-pid PID --config langgraph.json --port P`

It runs langgraph-cli's own `dev` command, so a langgraph.json is served exactly as
`langgraph dev` serves it: every key (http, store, auth, env, checkpointer...) reaches the
server. The watchdog ends this process when the app that started it is gone (crashed or
killed), so no orphan server outlives the workbench.
"""

from __future__ import annotations

import argparse
import os
import signal
import threading
import time

PERSISTENCE_OFF = "LANGGRAPH_DISABLE_FILE_PERSISTENCE"


def watch_parent(parent_pid: int) -> None:
    def loop() -> None:
        while True:
            time.sleep(0.5)
            if os.getppid() != parent_pid:
                os.kill(os.getpid(), signal.SIGTERM)
                time.sleep(5)
                os._exit(0)

    threading.Thread(target=loop, name="threadbench-watchdog", daemon=True).start()


def keep_persistence_off() -> None:
    """`langgraph dev` sets $LANGGRAPH_DISABLE_FILE_PERSISTENCE from its config's
    `disable_persistence`, which its config validation drops: it is always "false", and
    ours was overwritten. Pass the server what the variable asks for."""
    import langgraph_api.cli

    run_server = langgraph_api.cli.run_server

    def run_without_persistence(*args, **kwargs):
        return run_server(*args, **{**kwargs, "disable_persistence": True})

    langgraph_api.cli.run_server = run_without_persistence


def dev_arguments(config: str, port: int) -> list[str]:
    return [
        "dev",
        "--no-browser",
        "--no-reload",
        "--host",
        "127.0.0.1",
        "--port",
        str(port),
        "--config",
        config,
        "--n-jobs-per-worker",
        "10",
    ]


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--parent-pid", type=int, required=True)
    parser.add_argument("--config", required=True)
    parser.add_argument("--port", type=int, required=True)
    args = parser.parse_args()
    watch_parent(args.parent_pid)
    if os.environ.get(PERSISTENCE_OFF, "").lower() == "true":
        keep_persistence_off()
    from langgraph_cli.cli import cli

    cli.main(dev_arguments(args.config, args.port), prog_name="langgraph")


if __name__ == "__main__":
    main()
