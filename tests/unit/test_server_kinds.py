"""One registry of server kinds (server_kinds.py): what the CLI, the config file, the
connection screen and the backends' factory take is what it lists."""

from __future__ import annotations

import importlib
from typing import get_args

import pytest
from threadbench.backends.base import Invalid
from threadbench.backends.detect import backend_module, normalize_kind
from threadbench.cli import build_parser
from threadbench.server_kinds import CHOICES, KINDS, REGISTRY, KindChoice, ServerKind, kind_named
from threadbench.settings_file import ConfigError, load_config
from threadbench.ui.screens.connection import KINDS as SCREEN_KINDS


def test_the_types_say_what_the_registry_lists():
    assert get_args(ServerKind) == KINDS and get_args(KindChoice) == CHOICES == ("auto", *KINDS)


@pytest.mark.parametrize("kind", REGISTRY, ids=lambda kind: kind.name)
def test_each_kind_has_its_backend_and_is_found_by_every_name(kind):
    module = importlib.import_module(backend_module(kind.name))
    assert hasattr(module, kind.backend_class)
    for name in (kind.name, *kind.aliases, kind.name.upper()):
        assert kind_named(name) is kind and normalize_kind(name) == kind.name


def test_an_unknown_kind_is_refused_naming_the_known_ones():
    with pytest.raises(Invalid, match=", ".join(KINDS)):
        normalize_kind("graphql")


def test_the_cli_and_the_connection_screen_offer_the_registry(capsys):
    for choice in CHOICES:
        assert build_parser().parse_args(["--backend", choice]).backend == choice
    with pytest.raises(SystemExit):
        build_parser().parse_args(["--backend", "graphql"])
    assert "invalid choice" in capsys.readouterr().err
    assert [value for _, value in SCREEN_KINDS] == list(CHOICES)


def test_the_config_file_takes_the_registry(tmp_path):
    path = tmp_path / "config.toml"
    for choice in CHOICES:
        path.write_text(f'[profiles.p]\nurl = "http://h:1"\nbackend = "{choice}"\n')
        assert load_config(path).profiles["p"].backend == choice
    path.write_text('[profiles.p]\nurl = "http://h:1"\nbackend = "graphql"\n')
    with pytest.raises(ConfigError, match="backend must be one of auto, langgraph"):
        load_config(path)
