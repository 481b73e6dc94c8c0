"""A project's own HTTP routes (langgraph.json `http.app`), served next to the graphs."""

import os

from starlette.applications import Starlette
from starlette.responses import JSONResponse
from starlette.routing import Route


async def hello(request):
    return JSONResponse({"hello": os.environ.get("TB_GREETING", "")})


app = Starlette(routes=[Route("/threadbench/hello", hello)])
