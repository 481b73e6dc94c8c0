"""The suite's fixtures live in the support package (tests/support/), registered here:
servers (the real LangGraph server, DeerFlow's login, the Gateway stand-in), tenxgraph (the
10xGraph server) and ui (deterministic UI: no cursor blink). The helpers that drive the app
(search and open, send, answer, wait until a condition holds) are in support/driving.py.

    tests/unit/       no server: parsing, models, timelines, the static checks, packaging
    tests/backends/   each backend against its real server
    tests/ui/         Pilot tests: keys pressed, the screen read (and the browser test)
    tests/snapshots/  SVG snapshots of the main screen and the dialogs
"""

pytest_plugins = ["support.servers", "support.tenxgraph", "support.ui", "support.stuck"]
