"""The app's log file: rotating, in the data dir, with the API key redacted from every line
(the message, and the traceback or stack of a logged exception too)."""

from __future__ import annotations

import logging
from logging.handlers import RotatingFileHandler
from pathlib import Path

log = logging.getLogger("threadbench")


class RedactSecrets(logging.Filter):
    def __init__(self, secrets: list[str]) -> None:
        super().__init__()
        self.secrets = [s for s in secrets if s]

    def redact(self, text: str) -> str:
        for secret in self.secrets:
            text = text.replace(secret, "[redacted]")
        return text

    def filter(self, record: logging.LogRecord) -> bool:
        record.msg, record.args = self.redact(record.getMessage()), None
        if record.exc_info and not record.exc_text:
            # The formatter would write the traceback after this filter ran: write it now.
            record.exc_text = _FORMATTER.formatException(record.exc_info)
        if record.exc_info or record.exc_text:
            record.exc_info = None  # the text below is what gets written
            record.exc_text = self.redact(record.exc_text or "")
        if record.stack_info:
            record.stack_info = self.redact(record.stack_info)
        return True


_FORMATTER = logging.Formatter()


def redact(text: str) -> str:
    """`text` with every key the log knows replaced by [redacted] (for text shown on screen)."""
    for handler in log.handlers:
        for found in handler.filters:
            if isinstance(found, RedactSecrets):
                text = found.redact(text)
    return text


def setup_logging(data_dir: Path, debug: bool = False, secrets: list[str] | None = None) -> Path:
    data_dir.mkdir(parents=True, exist_ok=True)
    path = data_dir / "threadbench.log"
    handler = RotatingFileHandler(path, maxBytes=1_000_000, backupCount=3, encoding="utf-8")
    handler.setFormatter(logging.Formatter("%(asctime)s %(levelname)s %(name)s: %(message)s"))
    handler.addFilter(RedactSecrets(secrets or []))
    log.handlers[:] = [handler]
    log.setLevel(logging.DEBUG if debug else logging.INFO)
    log.propagate = False
    if debug:
        _note_devtools()
    return path


def _note_devtools() -> None:
    """Say once, in the log, how to see Textual's own log (the devtools console)."""
    try:
        import textual_dev  # noqa: F401 - Textual needs it for devtools; nothing else here does
    except ImportError:
        log.info(
            "debug: Textual's devtools need textual-dev, which is not installed: "
            "`pip install textual-dev`, run `textual console` in another terminal, then start threadbench --debug again"
        )
    else:
        log.info("debug: Textual's devtools are on: run `textual console` in another terminal to see the app's log")
