"""DeerFlow's login route, as its Gateway serves it (langgraph.json `http.app`).

POST /api/v1/auth/login/local takes an OAuth2 form (username = the email, password) and
sets the cookies access_token (HttpOnly) and csrf_token (readable). A JSON body gets 422,
a wrong password 401 {"detail": {"code": "invalid_credentials", ...}}, a foreign Origin
403, and MAX_FAILURES failures 429 for LOCKOUT_SECONDS. (DeerFlow counts failures per
IP; here per IP and email, so that one test's lockout does not lock the others out.)

GET /api/test/logins?email=... says how many times that user logged in, and failed to, and
POST /api/test/expire?email=... ends that user's sessions now (for the tests: a session that
expires when the test says, not after a wait).
"""

from __future__ import annotations

import secrets
import time
from urllib.parse import parse_qs

import deerflow_sessions as sessions
from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import JSONResponse
from starlette.routing import Route


def _foreign_origin(request: Request) -> bool:
    origin = request.headers.get("origin")
    return origin is not None and origin.rstrip("/") != f"{request.url.scheme}://{request.url.netloc}"


async def login_local(request: Request) -> JSONResponse:
    if _foreign_origin(request):
        return JSONResponse({"detail": "Cross-site auth request denied."}, status_code=403)
    if not request.headers.get("content-type", "").startswith("application/x-www-form-urlencoded"):
        return JSONResponse({"detail": [{"type": "missing", "loc": ["body", "username"]}]}, status_code=422)
    form = parse_qs((await request.body()).decode())  # (Starlette's form() needs python-multipart)
    email, password = form.get("username", [""])[0], form.get("password", [""])[0]
    key = (request.client.host if request.client else "", email)
    if sessions.locked_until.get(key, 0) > time.time():
        return JSONResponse({"detail": "Too many login attempts. Try again later."}, status_code=429)
    if sessions.USERS.get(email) is None or not secrets.compare_digest(sessions.USERS[email], password):
        sessions.failures[key] += 1
        if sessions.failures[key] >= sessions.MAX_FAILURES:
            sessions.locked_until[key] = time.time() + sessions.LOCKOUT_SECONDS
        detail = {"code": "invalid_credentials", "message": "Incorrect email or password"}
        return JSONResponse({"detail": detail}, status_code=401)
    sessions.failures.pop(key, None)
    sessions.logins[email] += 1
    response = JSONResponse({"expires_in": 7 * 24 * 3600, "needs_setup": False})
    response.set_cookie("access_token", sessions.new_token(email), httponly=True, samesite="lax")
    response.set_cookie("deerflow_session_persistent", "1", httponly=True, samesite="lax")
    response.set_cookie("csrf_token", secrets.token_urlsafe(64), httponly=False, samesite="strict")
    return response


async def login_count(request: Request) -> JSONResponse:
    email = request.query_params.get("email", "")
    failed = sum(count for (_, who), count in sessions.failures.items() if who == email)
    return JSONResponse({"logins": sessions.logins[email], "failures": failed})


async def expire(request: Request) -> JSONResponse:
    sessions.expire_sessions(request.query_params.get("email", ""))
    return JSONResponse({"expired": True})


app = Starlette(
    routes=[
        Route("/api/v1/auth/login/local", login_local, methods=["POST"]),
        Route("/api/test/logins", login_count, methods=["GET"]),
        Route("/api/test/expire", expire, methods=["POST"]),
    ]
)
