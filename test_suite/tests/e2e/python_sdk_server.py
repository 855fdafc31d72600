"""An MCP server nobody here wrote the failure handling of: the official
Python SDK's `MCPServer` (PyPI `mcp==2.3.0`, formerly FastMCP), over stdio.

Each tool fails (or succeeds) in the SDK's own way, so that the host side's
reader (`envelope::host`) is tested against what this SDK really answers:

- `tool_error`: raises `ToolError`, the SDK's anticipated failure (its text
  reaches the client, after "Error executing tool tool_error: ");
- `value_error`: raises a plain `ValueError`, a crash to the SDK (the text
  stays on the server; the client sees "Error executing tool value_error");
- `typed(n: int)`: called with `{"n": "abc"}`, rejected by pydantic before
  the body runs (the validation report as text);
- `slow`: sleeps 30 s, for a client-side timeout;
- `rate_limited`: raises the SDK's `MCPError` (a protocol error: the SDK
  answers with a JSON-RPC error, not a tool result), here the draft
  rate-limited error (`-32023`, `data.retryAfterMs`);
- `structured`: returns a pydantic model, so the tool has an output schema
  and the result `structuredContent` (a success);
- an unknown tool name: the SDK's own answer.

Usage: python3 python_sdk_server.py   (stdio; run by tests/host_e2e.rs)
"""

import asyncio

from pydantic import BaseModel

from mcp.server.mcpserver import MCPServer
from mcp.server.mcpserver.exceptions import ToolError
from mcp.shared.exceptions import MCPError

server = MCPServer(name="python-sdk-failures", version="1.0.0")


class Note(BaseModel):
    name: str
    body: str
    revision: int


@server.tool()
def tool_error(name: str = "x") -> str:
    """Fails with the SDK's ToolError (an anticipated failure)."""
    raise ToolError(f"no note named {name}")


@server.tool()
def value_error() -> str:
    """Fails with a plain exception (a crash to the SDK)."""
    raise ValueError("secret detail")


@server.tool()
def typed(n: int) -> str:
    """Takes an integer; a string is rejected by the SDK's validation."""
    return str(n * 2)


@server.tool()
async def slow() -> str:
    """Answers after 30 seconds, longer than a client's timeout."""
    await asyncio.sleep(30)
    return "done"


@server.tool()
def rate_limited() -> str:
    """Fails with a JSON-RPC error of the tool's own choosing."""
    raise MCPError(-32023, "Rate limited: try again later", {"retryAfterMs": 2000})


@server.tool()
def structured(name: str = "groceries") -> Note:
    """Returns a pydantic model: structured output with an output schema."""
    return Note(name=name, body="milk, eggs", revision=3)


if __name__ == "__main__":
    server.run("stdio")
