"""The config file: TOML parsing, precedence (flags > env > file), 0600 writes, no key or
password values."""

from __future__ import annotations

import os
import stat
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest
from threadbench.__main__ import UsageError, build_parser, settings_from_args
from threadbench.settings_file import (
    ConfigError,
    Flags,
    config_path,
    load_config,
    remember_theme,
    resolve_settings,
)

CONFIG = """\
# my servers
default_profile = "local"

[profiles.local]
url = "http://127.0.0.1:2024/"
backend = "langgraph"

[profiles.prod]
url = "https://prod.example.com"
api_key_env = "PROD_KEY"
assistant_id = "lead_agent"

[profiles.deer]
url = "http://127.0.0.1:2026/api/langgraph"
email = "ada@example.com"
password_env = "DEER_PASSWORD"

[run_options]
assistant_id = "agent"
send_as = "configurable"
thinking_enabled = true

[keymap]
"main.new" = "ctrl+n, f9"
"""


@pytest.fixture
def config_file(tmp_path: Path) -> Path:
    path = tmp_path / "config.toml"
    path.write_text(CONFIG)
    return path


def settings_for(argv: list[str], environ: dict[str, str], config_file: Path):
    return settings_from_args(build_parser().parse_args(argv), {"THREADBENCH_CONFIG": str(config_file), **environ})


def test_the_file_is_parsed(config_file: Path):
    config = load_config(config_file)
    assert config.exists and config.default_profile == "local"
    assert config.profiles["local"].url == "http://127.0.0.1:2024"  # trailing slash dropped
    assert config.profiles["local"].backend == "langgraph"
    assert config.profiles["prod"].api_key_env == "PROD_KEY"
    assert config.run_options == {"assistant_id": "agent", "send_as": "configurable", "thinking_enabled": True}
    assert config.keymap == {"main.new": "ctrl+n,f9"}
    assert config.problems == []


def test_the_path_comes_from_the_environment_or_the_platform(tmp_path: Path):
    assert config_path({"THREADBENCH_CONFIG": str(tmp_path / "x.toml")}) == tmp_path / "x.toml"
    default = config_path({})
    assert default.name == "config.toml" and "threadbench" in str(default)


def test_a_missing_file_is_an_empty_config(tmp_path: Path):
    config = load_config(tmp_path / "nope.toml")
    assert not config.exists and config.profiles == {} and config.theme is None


@pytest.mark.parametrize(
    ("text", "words"),
    [
        ("theme = ", "not valid TOML"),
        ("[profiles.a]\nbackend = 'langgraph'\n", "needs a url"),
        ("[profiles.a]\nurl = 'http://x'\nbackend = 'grpc'\n", "backend must be one of"),
        ("[profiles.a]\nurl = 'http://x'\napi_key_env = 'lsv2_pt_abc-123'\n", "NAME of an environment variable"),
        ("theme = 3\n", "must be a string"),
        ("[keymap]\n'main.new' = 3\n", "[keymap]"),
    ],
)
def test_mistakes_say_where_and_why(tmp_path: Path, text: str, words: str):
    path = tmp_path / "config.toml"
    path.write_text(text)
    with pytest.raises(ConfigError) as raised:
        load_config(path)
    assert words in str(raised.value) and str(path) in str(raised.value)


def test_a_key_value_in_the_file_is_ignored_with_a_reason(tmp_path: Path):
    path = tmp_path / "config.toml"
    path.write_text("[profiles.a]\nurl = 'http://x'\napi_key = 'lsv2_secret'\n")
    config = load_config(path)
    assert any("never read from the config file" in p for p in config.problems)
    settings = resolve_settings(Flags(profile="a"), {}, config)
    assert settings.api_key is None
    assert "lsv2_secret" not in repr(settings) and "lsv2_secret" not in repr(config)


def test_a_password_in_the_file_is_ignored_with_a_reason(tmp_path: Path):
    path = tmp_path / "config.toml"
    path.write_text("[profiles.a]\nurl = 'http://x'\nemail = 'ada@example.com'\npassword = 'hunter2-secret'\n")
    config = load_config(path)
    assert any("password is ignored: passwords are never read" in p and "password_env" in p for p in config.problems)
    settings = resolve_settings(Flags(profile="a"), {}, config)
    assert settings.email == "ada@example.com" and settings.password is None
    assert "hunter2-secret" not in repr(settings) + repr(config)


def test_the_login_comes_from_the_flag_or_the_profile_and_the_password_from_its_variable(
    config_file: Path, monkeypatch: pytest.MonkeyPatch
):
    for name in ("DEER_PASSWORD", "THREADBENCH_PASSWORD"):
        monkeypatch.delenv(name, raising=False)
    settings = settings_for(["--profile", "deer"], {}, config_file)
    assert settings.email == "ada@example.com" and settings.password_env == "DEER_PASSWORD"
    assert settings.credentials() is None, "no password anywhere yet"
    monkeypatch.setenv("THREADBENCH_PASSWORD", "generic-password")
    assert settings.credentials().password == "generic-password"
    monkeypatch.setenv("DEER_PASSWORD", "deer-password")
    assert settings.credentials().password == "deer-password"
    settings = settings_for(["--profile", "deer", "--email", "bob@example.com"], {}, config_file)
    assert settings.credentials().email == "bob@example.com"
    settings.password = "typed-password"  # asked for at the prompt
    assert settings.credentials().password == "typed-password"
    for secret in ("typed-password", "deer-password"):
        assert secret not in repr(settings) and secret not in repr(settings.credentials())
    with pytest.raises(ConfigError, match="password_env must be the NAME of an environment variable"):
        (config_file.parent / "bad.toml").write_text(
            "[profiles.a]\nurl = 'http://x'\npassword_env = 'hunter2 secret'\n"
        )
        load_config(config_file.parent / "bad.toml")


def test_precedence_flags_over_env_over_file(config_file: Path, tmp_path: Path):
    # nothing given: the file's default profile
    settings = settings_for([], {}, config_file)
    assert (settings.url, settings.backend, settings.profile) == ("http://127.0.0.1:2024", "langgraph", "local")
    # env picks another profile
    settings = settings_for([], {"THREADBENCH_PROFILE": "prod"}, config_file)
    assert settings.profile == "prod" and settings.url == "https://prod.example.com"
    # the flag beats the env
    settings = settings_for(["--profile", "local"], {"THREADBENCH_PROFILE": "prod"}, config_file)
    assert settings.profile == "local"
    # --url beats any profile; --backend beats the profile's backend
    settings = settings_for(["--url", "http://127.0.0.1:9"], {"THREADBENCH_PROFILE": "prod"}, config_file)
    assert settings.url == "http://127.0.0.1:9" and settings.profile is None and settings.backend == "auto"
    settings = settings_for(["--profile", "local", "--backend", "10xgraph"], {}, config_file)
    assert settings.backend == "10xgraph"
    # --graph starts the embedded server: the default profile does not apply
    settings = settings_for(["--graph", "x.py:graph"], {}, config_file)
    assert settings.url is None and settings.embedded
    # theme: flag > env > file
    remember_theme(config_file, "nord")
    assert settings_for([], {}, config_file).theme == "nord"
    assert settings_for([], {"THREADBENCH_THEME": "dracula"}, config_file).theme == "dracula"
    assert settings_for(["--theme", "gruvbox"], {"THREADBENCH_THEME": "dracula"}, config_file).theme == "gruvbox"
    # data dir: flag > env > default
    env_dir = tmp_path / "env-data"
    assert settings_for([], {"THREADBENCH_DATA_DIR": str(env_dir)}, config_file).data_dir == env_dir
    flag_dir = tmp_path / "flag-data"
    assert (
        settings_for(["--data-dir", str(flag_dir)], {"THREADBENCH_DATA_DIR": str(env_dir)}, config_file).data_dir
        == flag_dir
    )
    # run options and keymap come from the file; a profile's assistant wins over [run_options]
    settings = settings_for(["--profile", "prod"], {}, config_file)
    assert settings.run_options["assistant_id"] == "lead_agent" and settings.run_options["thinking_enabled"] is True
    assert settings.keymap == {"main.new": "ctrl+n,f9"}


def test_the_api_key_comes_from_the_flag_then_the_profiles_variable_then_the_usual_ones(
    config_file: Path, monkeypatch: pytest.MonkeyPatch
):
    for name in ("PROD_KEY", "LANGGRAPH_API_KEY", "LANGSMITH_API_KEY", "LANGCHAIN_API_KEY"):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setenv("LANGSMITH_API_KEY", "generic-key")
    settings = settings_for(["--profile", "prod"], {}, config_file)
    assert settings.effective_api_key() == "generic-key" and settings.key_source == "LANGSMITH_API_KEY"
    monkeypatch.setenv("PROD_KEY", "prod-key")
    assert settings.effective_api_key() == "prod-key" and settings.key_source == "PROD_KEY"
    settings = settings_for(["--profile", "prod", "--api-key", "flag-key"], {}, config_file)
    assert settings.effective_api_key() == "flag-key" and settings.key_source == "--api-key"
    assert "flag-key" not in repr(settings) and "prod-key" not in repr(settings)


def test_an_unknown_profile_or_a_profile_with_a_graph_is_a_usage_error(config_file: Path):
    with pytest.raises(UsageError, match="no profile 'staging'.*local, prod"):
        settings_for(["--profile", "staging"], {}, config_file)
    with pytest.raises(UsageError, match="one or the other"):
        settings_for(["--profile", "local", "--graph", "x.py:graph"], {}, config_file)


def test_a_bad_profile_url_is_a_usage_error(tmp_path: Path):
    path = tmp_path / "config.toml"
    path.write_text("[profiles.bad]\nurl = 'localhost:2024'\n")
    with pytest.raises(UsageError, match="profile 'bad'.*not a server address"):
        settings_for(["--profile", "bad"], {}, path)


def test_remembering_the_theme_keeps_the_rest_and_writes_0600(config_file: Path):
    os.chmod(config_file, 0o644)
    remember_theme(config_file, "nord")
    text = config_file.read_text()
    assert text.startswith("# my servers\n")  # comments kept
    assert 'theme = "nord"' in text
    assert stat.S_IMODE(config_file.stat().st_mode) == 0o600
    data = tomllib.loads(text)
    assert data["theme"] == "nord" and data["profiles"]["prod"]["api_key_env"] == "PROD_KEY"
    remember_theme(config_file, "dracula")  # replaced, not added
    text = config_file.read_text()
    assert text.count("theme =") == 1 and tomllib.loads(text)["theme"] == "dracula"


def test_remembering_the_theme_creates_a_private_file_and_folder(tmp_path: Path):
    path = tmp_path / "new" / "config.toml"
    remember_theme(path, "nord")
    assert tomllib.loads(path.read_text()) == {"theme": "nord"}
    assert stat.S_IMODE(path.stat().st_mode) == 0o600
    assert stat.S_IMODE(path.parent.stat().st_mode) == 0o700


def test_threadbench_config_lists_profiles_without_key_or_password_values(config_file: Path):
    env = {
        **os.environ,
        "THREADBENCH_CONFIG": str(config_file),
        "PROD_KEY": "super-secret-value",
        "DEER_PASSWORD": "super-secret-password",
    }
    result = subprocess.run(
        [sys.executable, "-m", "threadbench", "config"], capture_output=True, text=True, env=env, timeout=30
    )
    assert result.returncode == 0, result.stderr
    assert str(config_file) in result.stdout
    assert "profile prod: https://prod.example.com" in result.stdout
    assert "key from $PROD_KEY (set)" in result.stdout
    assert "login ada@example.com, password from $DEER_PASSWORD (set)" in result.stdout
    assert "super-secret-value" not in result.stdout + result.stderr
    assert "super-secret-password" not in result.stdout + result.stderr


def test_the_cli_refuses_a_broken_config_file_with_status_2(tmp_path: Path):
    path = tmp_path / "config.toml"
    path.write_text("[profiles.a\n")
    env = {**os.environ, "THREADBENCH_CONFIG": str(path)}
    result = subprocess.run([sys.executable, "-m", "threadbench"], capture_output=True, text=True, env=env, timeout=30)
    assert result.returncode == 2
    assert "not valid TOML" in result.stderr and "Traceback" not in result.stderr
