"""The test DeerFlow's users and sessions, shared by its login route and its auth handler.

Sessions are signed tokens "<email in hex>.<expiry in ms>.<signature>" (plain cookie
characters) with a secret made when the server starts. Users (test-only passwords):

- ada@example.com, bob@example.com, carol@example.com: sessions last an hour;
- brief@example.com: sessions last BRIEF_SECONDS (to test expiry and logging in again);
- any of them can be locked out by failing to log in MAX_FAILURES times.
"""

from __future__ import annotations

import hashlib
import hmac
import secrets
import time
from collections import Counter

PASSWORD = "correct horse battery staple"
USERS = {email: PASSWORD for email in ("ada@example.com", "bob@example.com", "carol@example.com", "brief@example.com")}
BRIEF_SECONDS = 1.5
HOUR = 3600.0
MAX_FAILURES = 5
LOCKOUT_SECONDS = 300

_SECRET = secrets.token_bytes(32)
logins: Counter[str] = Counter()
failures: Counter[tuple[str, str]] = Counter()
locked_until: dict[tuple[str, str], float] = {}


def _signature(text: str) -> str:
    return hmac.new(_SECRET, text.encode(), hashlib.sha256).hexdigest()


def new_token(email: str) -> str:
    lifetime = BRIEF_SECONDS if email.startswith("brief@") else HOUR
    text = f"{email.encode().hex()}.{int((time.time() + lifetime) * 1000)}"
    return f"{text}.{_signature(text)}"


def token_user(token: str) -> str | None:
    """The email a token was made for; None when it is forged, malformed or expired."""
    text, _, signature = token.rpartition(".")
    if not hmac.compare_digest(signature, _signature(text)):
        return None
    email, _, expiry = text.partition(".")
    return bytes.fromhex(email).decode() if int(expiry) > time.time() * 1000 else None
