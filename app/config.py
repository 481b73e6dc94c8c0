"""Settings: where the app's data lives and which server it talks to.

Precedence is flags > environment > config file > defaults (threadbench.settings_file reads the
file and resolves it). The API key and the password are kept out of every repr so they
cannot end up in a log line or a crash report by accident; a profile only names the
variables that hold them.
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

import platformdirs

from .server_kinds import KindChoice

# Said here too for the CLI and the connection screen, which check a key before any backend exists.

if TYPE_CHECKING:
    from .backends.base import Credentials

APP_NAME = "threadbench"
API_KEY_ENV_VARS = ("LANGGRAPH_API_KEY", "LANGSMITH_API_KEY", "LANGCHAIN_API_KEY")
PASSWORD_ENV = "THREADBENCH_PASSWORD"


def default_data_dir() -> Path:
    return Path(os.environ.get("THREADBENCH_DATA_DIR") or platformdirs.user_data_dir(APP_NAME))


@dataclass
class Profile:
    name: str
    url: str
    backend: str = "auto"
    api_key_env: str | None = None
    """The name of the environment variable holding this server's key (never the key)."""
    assistant_id: str | None = None
    email: str | None = None
    password_env: str | None = None
    """The name of the environment variable holding the password (never the password)."""

    def key_is_set(self, environ: Mapping[str, str] | None = None) -> bool:
        environ = os.environ if environ is None else environ
        return bool(self.api_key_env and environ.get(self.api_key_env))

    def api_key(self, environ: Mapping[str, str] | None = None) -> str | None:
        """The key from the profile's variable, else from the usual ones (never stored)."""
        environ = os.environ if environ is None else environ
        names = ([self.api_key_env] if self.api_key_env else []) + list(API_KEY_ENV_VARS)
        return next((value for name in names if (value := environ.get(name, "").strip().strip("\"'"))), None)

    def credentials(self, environ: Mapping[str, str] | None = None) -> Credentials | None:
        """The email to log in with and the password from the profile's variable (or $THREADBENCH_PASSWORD)."""
        from .backends.base import Credentials

        environ = os.environ if environ is None else environ
        names = [name for name in (self.password_env, PASSWORD_ENV) if name]
        password = next((environ[name] for name in names if environ.get(name)), None)
        return Credentials(self.email, password) if self.email and password else None


@dataclass
class Settings:
    url: str | None = None
    """None: start the embedded server."""
    api_key: str | None = field(default=None, repr=False)
    backend: KindChoice = "auto"
    graph: str | None = None
    config: Path | None = None
    data_dir: Path = field(default_factory=default_data_dir)
    debug: bool = False
    profile: str | None = None
    """The config-file profile in use, if any."""
    api_key_env: str | None = None
    """The variable the profile reads its key from (a name, never a key)."""
    email: str | None = None
    """Log in to the server with this email (DeerFlow)."""
    password: str | None = field(default=None, repr=False)
    """The password typed at the prompt; else it is read from the environment."""
    password_env: str | None = None
    """The variable the profile reads its password from (a name, never a password)."""
    theme: str | None = None
    theme_source: str = ""
    """Where the theme was named, for a message ("--theme", …)."""
    keymap: dict[str, str] = field(default_factory=dict)
    """Binding id -> keys, from the config file's [keymap]."""
    run_options: dict[str, Any] = field(default_factory=dict)
    """The config file's [run_options] (assistant_id, send_as, option values)."""
    profiles: dict[str, Profile] = field(default_factory=dict)
    config_path: Path | None = None
    """Where the theme is remembered; None (tests, scripts): nothing is ever written."""
    config_problems: list[str] = field(default_factory=list)
    record_dir: Path | None = None
    """--record DIR: every run streamed is written there (threadbench.recording)."""

    @property
    def embedded(self) -> bool:
        return self.url is None

    @property
    def key_source(self) -> str:
        """Where the key came from, for display (never the key itself)."""
        if self.api_key:
            return "--api-key"
        for name in self._key_env_vars():
            if os.environ.get(name):
                return name
        return "none"

    def _key_env_vars(self) -> list[str]:
        first = [self.api_key_env] if self.api_key_env else []
        return first + [name for name in API_KEY_ENV_VARS if name not in first]

    def effective_api_key(self) -> str | None:
        """The key to send: --api-key as given, else the first variable that is set (its
        surrounding whitespace and quotes dropped, as langgraph-sdk does)."""
        if self.api_key:
            return self.api_key
        for name in self._key_env_vars():
            if value := os.environ.get(name, "").strip().strip("\"'"):
                return value
        return None

    def password_env_vars(self) -> list[str]:
        """Where the password is read from, first to last: the profile's variable, then
        $THREADBENCH_PASSWORD."""
        return [name for name in (self.password_env, PASSWORD_ENV) if name]

    def effective_password(self) -> str | None:
        if self.password:
            return self.password
        return next((os.environ[name] for name in self.password_env_vars() if os.environ.get(name)), None)

    def credentials(self) -> Credentials | None:
        """The email and password to log in with, when an email is given."""
        from .backends.base import Credentials

        password = self.effective_password()
        return Credentials(self.email, password) if self.email and password else None
