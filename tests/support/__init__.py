"""What the tests (and bench/) share: fixtures registered by tests/conftest.py through
`pytest_plugins`, and the driving helpers of driving.py."""
