"""The test DeerFlow's users and sessions, shared by its login route and its auth handler.

Sessions are signed tokens "<email in hex>.<expiry in ms>.<generation>.<signature>" (plain
cookie characters) with a secret made when the server starts. Users (test-only passwords):

- ada@example.com, bob@example.com, carol@example.com, expiring@example.com: sessions last an
  hour, or until a test ends them (`expire_sessions`: the login's POST /api/test/expire), when
  it tests expiry and logging in again;
- any of them can be locked out by failing to log in MAX_FAILURES times.
"""

from __future__ import annotations

import hashlib
import hmac
import secrets
import time
from collections import Counter

PASSWORD = "correct horse battery staple"
USERS = {
    email: PASSWORD for email in ("ada@example.com", "bob@example.com", "carol@example.com", "expiring@example.com")
}
HOUR = 3600.0
MAX_FAILURES = 5
LOCKOUT_SECONDS = 300

_SECRET = secrets.token_bytes(32)
logins: Counter[str] = Counter()
failures: Counter[tuple[str, str]] = Counter()
locked_until: dict[tuple[str, str], float] = {}
generation: Counter[str] = Counter()
"""A user's sessions made before their generation's last change have expired."""


def _signature(text: str) -> str:
    return hmac.new(_SECRET, text.encode(), hashlib.sha256).hexdigest()


def new_token(email: str) -> str:
    text = f"{email.encode().hex()}.{int((time.time() + HOUR) * 1000)}.{generation[email]}"
    return f"{text}.{_signature(text)}"


def expire_sessions(email: str) -> None:
    """Every session of `email` made so far expires now."""
    generation[email] += 1


def token_user(token: str) -> str | None:
    """The email a token was made for; None when it is forged, malformed or expired."""
    text, _, signature = token.rpartition(".")
    if not hmac.compare_digest(signature, _signature(text)):
        return None
    email_hex, expiry, made_in = text.split(".")
    email = bytes.fromhex(email_hex).decode()
    return email if int(expiry) > time.time() * 1000 and int(made_in) == generation[email] else None
