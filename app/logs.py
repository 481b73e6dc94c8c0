"""The app's log file: rotating, in the data dir, with the API key redacted from every line."""

from __future__ import annotations

import logging
from logging.handlers import RotatingFileHandler
from pathlib import Path

log = logging.getLogger("threadbench")


class RedactSecrets(logging.Filter):
    def __init__(self, secrets: list[str]) -> None:
        super().__init__()
        self.secrets = [s for s in secrets if s]

    def filter(self, record: logging.LogRecord) -> bool:
        message = record.getMessage()
        for secret in self.secrets:
            message = message.replace(secret, "[redacted]")
        record.msg, record.args = message, None
        return True


def setup_logging(data_dir: Path, debug: bool = False, secrets: list[str] | None = None) -> Path:
    data_dir.mkdir(parents=True, exist_ok=True)
    path = data_dir / "threadbench.log"
    handler = RotatingFileHandler(path, maxBytes=1_000_000, backupCount=3, encoding="utf-8")
    handler.setFormatter(logging.Formatter("%(asctime)s %(levelname)s %(name)s: %(message)s"))
    handler.addFilter(RedactSecrets(secrets or []))
    log.handlers[:] = [handler]
    log.setLevel(logging.DEBUG if debug else logging.INFO)
    log.propagate = False
    return path
