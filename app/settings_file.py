"""The config file: server profiles, default run options, theme and key overrides.

Where: `platformdirs.user_config_dir("threadbench")/config.toml` (on Linux
`~/.config/threadbench/config.toml`), or the file named by `$THREADBENCH_CONFIG`.

    default_profile = "local"          # used when no --url / --graph / --profile is given
    theme = "nord"                     # remembered when you pick a theme (ctrl+t)

    [profiles.local]
    url = "http://127.0.0.1:2024"
    backend = "auto"                   # auto | langgraph | 10xgraph | deerflow-gateway
    api_key_env = "LANGSMITH_API_KEY"  # the NAME of the variable holding the key, never the key
    assistant_id = "agent"             # optional: the assistant runs use on this server
    email = "me@example.com"           # optional: log in with it (DeerFlow)
    password_env = "DEERFLOW_PASSWORD" # the NAME of the variable holding the password

    [run_options]
    assistant_id = "agent"
    send_as = "context"                # or "configurable" for older servers
    thinking_enabled = true            # any other key is a run option

    [keymap]
    "main.new" = "ctrl+n"              # binding id = keys (comma-separated); see the help screen (f1)

Precedence, for every setting: command-line flags > environment variables > this file >
defaults (see `resolve_settings`). API keys and passwords are never read from or written
to this file; a profile names the environment variables that hold them. The app writes the file
(mode 0600) only to remember the theme, and then changes that one line, keeping comments
and everything else as they were.
"""

from __future__ import annotations

import os
import re
import tempfile
import tomllib
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import platformdirs
import tomli_w

from .config import APP_NAME, Profile, Settings, default_data_dir
from .server_kinds import CHOICES

CONFIG_ENV = "THREADBENCH_CONFIG"
PROFILE_ENV = "THREADBENCH_PROFILE"
THEME_ENV = "THREADBENCH_THEME"
DATA_DIR_ENV = "THREADBENCH_DATA_DIR"
TOP_LEVEL_KEYS = {"default_profile", "theme", "data_dir", "profiles", "run_options", "keymap"}
PROFILE_KEYS = {"url", "backend", "api_key_env", "assistant_id", "email", "password_env"}
SECRET_KEYS = {"api_key", "key", "token", "password", "secret"}
_ENV_NAME = re.compile(r"^[A-Za-z_][A-Za-z0-9_]*$")


class ConfigError(Exception):
    """The config file cannot be read (bad TOML, wrong types); str() says where and why."""


def config_path(environ: Mapping[str, str] | None = None) -> Path:
    environ = os.environ if environ is None else environ
    if override := environ.get(CONFIG_ENV):
        return Path(override).expanduser()
    return Path(platformdirs.user_config_dir(APP_NAME)) / "config.toml"


@dataclass
class ConfigFile:
    path: Path
    exists: bool = False
    default_profile: str | None = None
    theme: str | None = None
    data_dir: Path | None = None
    profiles: dict[str, Profile] = field(default_factory=dict)
    run_options: dict[str, Any] = field(default_factory=dict)
    keymap: dict[str, str] = field(default_factory=dict)
    problems: list[str] = field(default_factory=list)
    """Things ignored with a reason (unknown keys, a key value found in a profile...)."""


def load_config(path: Path | None = None) -> ConfigFile:
    """Read the config file; a missing file is an empty config. Raises ConfigError."""
    path = path or config_path()
    config = ConfigFile(path=path)
    try:
        text = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        return config
    except OSError as error:
        raise ConfigError(
            f"Cannot read the config file {path}: {error.strerror or error}. "
            f"Point ${CONFIG_ENV} at a file you can read."
        ) from None
    except UnicodeDecodeError as error:
        raise ConfigError(
            f"The config file {path} is not UTF-8 text (byte {error.start}). Save it as UTF-8, "
            f"or point ${CONFIG_ENV} at another file."
        ) from None
    config.exists = True
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as error:
        raise ConfigError(
            f"The config file {path} is not valid TOML: {error}. Fix that line, or point ${CONFIG_ENV} at another file."
        ) from None
    return parse_config(data, path)


def line_of(path: Path | None, needle: str) -> str:
    """Where `needle` first appears in the file at `path`, as " (line N)" for a message; "" when
    it does not."""
    try:
        lines = path.read_text(encoding="utf-8").splitlines() if path else []
    except (OSError, UnicodeDecodeError):
        return ""
    return next((f" (line {number})" for number, line in enumerate(lines, 1) if needle in line), "")


def parse_config(data: dict[str, Any], path: Path) -> ConfigFile:
    config = ConfigFile(path=path, exists=True)
    problems = config.problems
    for key in data:
        if key not in TOP_LEVEL_KEYS:
            problems.append(f"unknown setting {key!r} (ignored)")

    def text(value: Any, where: str) -> str | None:
        if value is None:
            return None
        if not isinstance(value, str):
            raise ConfigError(f"{path}: {where} must be a string, not {type(value).__name__}")
        return value

    def env_name(value: Any, where: str, example: str, secret: str) -> str | None:
        name = text(value, where)
        if name is not None and not _ENV_NAME.match(name):
            raise ConfigError(
                f"{path}: {where} must be the NAME of an environment variable (like {example}), not {secret}"
            )
        return name

    config.default_profile = text(data.get("default_profile"), "default_profile")
    config.theme = text(data.get("theme"), "theme")
    if (data_dir := text(data.get("data_dir"), "data_dir")) is not None:
        config.data_dir = Path(data_dir).expanduser()

    profiles = data.get("profiles", {})
    if not isinstance(profiles, dict):
        raise ConfigError(f"{path}: [profiles] must be a table of [profiles.NAME] tables")
    for name, spec in profiles.items():
        where = f"[profiles.{name}]"
        if not isinstance(spec, dict):
            raise ConfigError(f'{path}: {where} must be a table with url = "..."')
        for key in spec:
            if key.lower() == "password":
                problems.append(
                    f"{where} {key} is ignored: passwords are never read from the config file. "
                    "Put it in an environment variable and name it with password_env."
                )
            elif key.lower() in SECRET_KEYS:
                problems.append(
                    f"{where} {key} is ignored: keys are never read from the config file. "
                    "Put the key in an environment variable and name it with api_key_env."
                )
            elif key not in PROFILE_KEYS:
                problems.append(f"{where} unknown setting {key!r} (ignored)")
        url = text(spec.get("url"), f"{where} url")
        if not url:
            raise ConfigError(f"{path}: {where} needs a url")
        backend = text(spec.get("backend"), f"{where} backend") or "auto"
        if backend not in CHOICES:
            raise ConfigError(f"{path}: {where} backend must be one of {', '.join(CHOICES)}, not {backend!r}")
        config.profiles[name] = Profile(
            name=name,
            url=url.rstrip("/"),
            backend=backend,
            api_key_env=env_name(spec.get("api_key_env"), f"{where} api_key_env", "LANGSMITH_API_KEY", "a key"),
            assistant_id=text(spec.get("assistant_id"), f"{where} assistant_id"),
            email=text(spec.get("email"), f"{where} email"),
            password_env=env_name(spec.get("password_env"), f"{where} password_env", "DEERFLOW_PASSWORD", "a password"),
        )

    run_options = data.get("run_options", {})
    if not isinstance(run_options, dict):
        raise ConfigError(f"{path}: [run_options] must be a table")
    config.run_options = dict(run_options)

    keymap = data.get("keymap", {})
    if not isinstance(keymap, dict):
        raise ConfigError(f'{path}: [keymap] must be a table of binding-id = "keys"')
    for binding_id, keys in keymap.items():
        if not isinstance(keys, str) or not keys.strip():
            raise ConfigError(f'{path}: [keymap] {binding_id} must be keys like "ctrl+n" or "f5,ctrl+r"')
        config.keymap[str(binding_id)] = keys.replace(" ", "")
    if config.default_profile and config.default_profile not in config.profiles:
        problems.append(f"default_profile {config.default_profile!r} is not a profile (ignored)")
        config.default_profile = None
    return config


# -- precedence -----------------------------------------------------------------------------------


@dataclass
class Flags:
    """What the command line said (None: not given)."""

    url: str | None = None
    api_key: str | None = field(default=None, repr=False)
    email: str | None = None
    backend: str | None = None
    profile: str | None = None
    theme: str | None = None
    graph: str | None = None
    config: Path | None = None
    data_dir: Path | None = None
    debug: bool = False


def resolve_settings(flags: Flags, environ: Mapping[str, str], config: ConfigFile) -> Settings:
    """Flags > environment > config file > defaults. Raises ConfigError for an unknown profile.

    - profile: --profile > $THREADBENCH_PROFILE > default_profile (a profile chosen by the
      environment or the file is not used when --url, --graph or --config is given)
    - url, backend: --url / --backend > the profile > embedded server / auto
    - API key: --api-key > $<profile's api_key_env> > $LANGGRAPH_API_KEY, $LANGSMITH_API_KEY,
      $LANGCHAIN_API_KEY (read when needed, never stored)
    - email: --email > the profile's email; its password: $<profile's password_env> >
      $THREADBENCH_PASSWORD > asked for (read when needed, never stored)
    - theme: --theme > $THREADBENCH_THEME > theme > Textual's default
    - data dir: --data-dir > $THREADBENCH_DATA_DIR > data_dir > the platform's user data dir
    """
    starts_embedded = bool(flags.graph or flags.config)
    profile_name = flags.profile
    if profile_name is None and not starts_embedded and not flags.url:
        profile_name = environ.get(PROFILE_ENV) or config.default_profile
    profile: Profile | None = None
    if profile_name:
        profile = config.profiles.get(profile_name)
        if profile is None:
            known = ", ".join(sorted(config.profiles)) or "none"
            raise ConfigError(
                f"There is no profile {profile_name!r} in {config.path} (its profiles: {known}). "
                f"Name one of them, or add a [profiles.{profile_name}] table with its url."
            )
        if starts_embedded:
            raise ConfigError("--profile connects to a server; --graph and --config start one. Use one or the other.")

    if flags.data_dir is not None:
        data_dir = flags.data_dir.expanduser().resolve()
    elif environ.get(DATA_DIR_ENV):
        data_dir = Path(environ[DATA_DIR_ENV]).expanduser()
    elif config.data_dir is not None:
        data_dir = config.data_dir
    else:
        data_dir = default_data_dir()

    settings = Settings(
        url=flags.url or (profile.url if profile else None),
        api_key=flags.api_key,
        backend=(flags.backend or (profile.backend if profile else None) or "auto"),  # type: ignore[arg-type]
        graph=flags.graph,
        config=flags.config,
        data_dir=data_dir,
        debug=flags.debug,
        profile=profile.name if profile else None,
        api_key_env=profile.api_key_env if profile else None,
        email=flags.email or (profile.email if profile else None),
        password_env=profile.password_env if profile else None,
        theme=flags.theme or environ.get(THEME_ENV) or config.theme,
        theme_source=theme_source(flags, environ, config),
        keymap=dict(config.keymap),
        run_options=dict(config.run_options),
        profiles=dict(config.profiles),
        config_path=config.path,
        config_problems=list(config.problems),
    )
    if profile is not None and profile.assistant_id:
        settings.run_options["assistant_id"] = profile.assistant_id
    return settings


def theme_source(flags: Flags, environ: Mapping[str, str], config: ConfigFile) -> str:
    if flags.theme:
        return "--theme"
    if environ.get(THEME_ENV):
        return f"${THEME_ENV}"
    return f"the config file {config.path}{line_of(config.path, 'theme')}" if config.theme else ""


# -- writing --------------------------------------------------------------------------------------


def write_private(path: Path, text: str) -> None:
    """Write `text` atomically, readable by the user only (0600; the folder 0700 if new)."""
    path.parent.mkdir(parents=True, exist_ok=True, mode=0o700)
    fd, temp = tempfile.mkstemp(dir=path.parent, prefix=".config-", suffix=".toml")
    try:
        os.fchmod(fd, 0o600)
        with os.fdopen(fd, "w", encoding="utf-8") as handle:
            handle.write(text)
            handle.flush()
            os.fsync(handle.fileno())
        os.replace(temp, path)
    except BaseException:
        try:
            os.unlink(temp)
        except OSError:
            pass
        raise
    os.chmod(path, 0o600)


def set_top_level(path: Path, key: str, value: str) -> None:
    """Set one top-level `key = value` in the file, keeping every other line as it is."""
    try:
        text = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        text = ""
    line = tomli_w.dumps({key: value}).strip()
    lines = text.splitlines()
    first_table = next((i for i, row in enumerate(lines) if row.lstrip().startswith("[")), len(lines))
    pattern = re.compile(rf"""^\s*["']?{re.escape(key)}["']?\s*=""")
    for index in range(first_table):
        if pattern.match(lines[index]):
            lines[index] = line
            break
    else:
        insert = first_table
        while insert > 0 and not lines[insert - 1].strip():
            insert -= 1  # keep the blank line(s) before the first table after our line
        lines.insert(insert, line)
    new_text = "\n".join(lines) + "\n"
    try:
        data = tomllib.loads(new_text)
        ok = data.get(key) == value
    except tomllib.TOMLDecodeError:
        ok = False
    if not ok:  # an odd layout (a multi-line value): rewrite the whole file
        data = tomllib.loads(text) if text.strip() else {}
        data[key] = value
        new_text = tomli_w.dumps(data)
    write_private(path, new_text)


def remember_theme(path: Path, theme: str) -> None:
    set_top_level(path, "theme", theme)
