"""Entry point of the embedded server's process: the LangGraph server plus a watchdog.

`python -m app.embedded.serve --parent-pid PID --config langgraph.json --port P`

The watchdog ends this process when the app that started it is gone (crashed or
killed), so no orphan server outlives the workbench.
"""

from __future__ import annotations

import argparse
import os
import signal
import sys
import threading
import time


def watch_parent(parent_pid: int) -> None:
    def loop() -> None:
        while True:
            time.sleep(0.5)
            if os.getppid() != parent_pid:
                os.kill(os.getpid(), signal.SIGTERM)
                time.sleep(5)
                os._exit(0)

    threading.Thread(target=loop, name="threadbench-watchdog", daemon=True).start()


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--parent-pid", type=int, required=True)
    parser.add_argument("--config", required=True)
    parser.add_argument("--port", type=int, required=True)
    args = parser.parse_args()
    watch_parent(args.parent_pid)
    sys.argv = [
        "langgraph_api.cli",
        "--config", args.config,
        "--port", str(args.port),
        "--host", "127.0.0.1",
        "--no-reload",
        "--n-jobs-per-worker", "10",
    ]
    from langgraph_api.cli import main as serve

    serve()


if __name__ == "__main__":
    main()
