"""Settings: where the app's data lives and which server it talks to.

Precedence is flags > environment > defaults. The API key is kept out of every repr so
it cannot end up in a log line or a crash report by accident.
"""

from __future__ import annotations

import os
from dataclasses import dataclass, field
from pathlib import Path
from typing import Literal

import platformdirs

APP_NAME = "threadbench"
API_KEY_ENV_VARS = ("LANGGRAPH_API_KEY", "LANGSMITH_API_KEY", "LANGCHAIN_API_KEY")

BackendKind = Literal["auto", "langgraph", "10xgraph"]


def default_data_dir() -> Path:
    return Path(os.environ.get("THREADBENCH_DATA_DIR") or platformdirs.user_data_dir(APP_NAME))


@dataclass
class Settings:
    url: str | None = None
    """None: start the embedded server."""
    api_key: str | None = field(default=None, repr=False)
    backend: BackendKind = "auto"
    graph: str | None = None
    config: Path | None = None
    data_dir: Path = field(default_factory=default_data_dir)
    debug: bool = False

    @property
    def embedded(self) -> bool:
        return self.url is None

    @property
    def key_source(self) -> str:
        """Where the key came from, for display (never the key itself)."""
        if self.api_key:
            return "--api-key"
        for name in API_KEY_ENV_VARS:
            if os.environ.get(name):
                return name
        return "none"

    def effective_api_key(self) -> str | None:
        if self.api_key:
            return self.api_key
        for name in API_KEY_ENV_VARS:
            if value := os.environ.get(name):
                return value
        return None

