"""Moved to support/driving.py (tests/support). Kept only so that test files written on other
branches before the move still import; new tests import `support.driving`. Delete once none
imports it."""

from support.driving import *  # noqa: F403
from support.driving import StableCheckpointIds, make_app, wait_for  # noqa: F401 - the names most used
