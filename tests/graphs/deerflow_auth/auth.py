"""DeerFlow's LangGraph-compatibility auth handler (langgraph.json `auth`), same rules:

1. POST/PUT/PATCH/DELETE need the header X-CSRF-Token equal to the csrf_token cookie,
   checked first: 403 "CSRF token missing. Include X-CSRF-Token header." (or "mismatch");
2. every request needs a valid access_token cookie: 401 "Not authenticated" without one,
   "Invalid token" for an expired or forged one (langgraph-api 0.16.7 answers an auth
   handler's refusal as {"detail": "<text>"}: a structured detail cannot get through);
3. each user sees only their own threads (metadata user_id), as DeerFlow's filter does.
"""

from __future__ import annotations

import secrets

import deerflow_sessions as sessions
from langgraph_sdk import Auth

auth = Auth()
STATE_CHANGING = frozenset({"POST", "PUT", "PATCH", "DELETE"})


def _check_csrf(request) -> None:
    if request.method.upper() not in STATE_CHANGING:
        return
    cookie, header = request.cookies.get("csrf_token"), request.headers.get("x-csrf-token")
    if not cookie or not header:
        raise Auth.exceptions.HTTPException(status_code=403, detail="CSRF token missing. Include X-CSRF-Token header.")
    if not secrets.compare_digest(cookie, header):
        raise Auth.exceptions.HTTPException(status_code=403, detail="CSRF token mismatch.")


@auth.authenticate
async def authenticate(request) -> str:
    _check_csrf(request)
    token = request.cookies.get("access_token")
    if not token:
        raise Auth.exceptions.HTTPException(status_code=401, detail="Not authenticated")
    email = sessions.token_user(token)
    if email is None:
        raise Auth.exceptions.HTTPException(status_code=401, detail="Invalid token")
    return email


@auth.on
async def owner_only(ctx: Auth.types.AuthContext, value: dict) -> dict:
    metadata = value.setdefault("metadata", {})
    metadata["user_id"] = ctx.user.identity
    return {"user_id": ctx.user.identity}
