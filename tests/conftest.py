"""The suite's fixtures live in the support package (tests/support/), registered here:
servers (the real LangGraph server, DeerFlow's login, the Gateway stand-in), tenxgraph (the
10xGraph server), ui (deterministic UI: no cursor blink) and loading (the main screen's load,
held until the test lets it go). The helpers that drive the app (search and open, send,
answer, wait until a condition holds) are in support/driving.py; every wait is on a condition,
with a deadline (support/waiting.py), never a fixed pause.

    tests/unit/       no server: parsing, models, timelines, the static checks, packaging
    tests/backends/   each backend against its real server
    tests/ui/         Pilot tests: keys pressed, the screen read (and the browser test)
    tests/snapshots/  SVG snapshots of the main screen and the dialogs
"""

pytest_plugins = ["support.servers", "support.tenxgraph", "support.ui", "support.stuck", "support.loading"]
