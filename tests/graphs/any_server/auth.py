"""Hides the assistants from every client, as DeerFlow's auth does for non-Studio clients:
the assistant search answers nothing, while runs on a graph id still work."""

from langgraph_sdk import Auth

auth = Auth()


@auth.authenticate
async def authenticate(headers: dict) -> Auth.types.MinimalUserDict:
    return {"identity": "anyone"}


@auth.on.assistants.search
async def hide_assistants(ctx: Auth.types.AuthContext, value: dict) -> dict:
    return {"visible_to": "nobody"}
