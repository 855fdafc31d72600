"""An MCP server of the standalone FastMCP framework (PyPI
`fastmcp==2.14.7`, on the `mcp` 1.x SDK it pulls in), over stdio, whose
failures nobody here wrote:

- `tool_error`: raises FastMCP's `ToolError` (its text reaches the client);
- `value_error`: raises a plain `ValueError` (FastMCP's own wording around
  it);
- `typed(n: int)`: called with `{"n": "abc"}`, rejected by pydantic;
- `pick(choice: int | list[int])`: called with `{"choice": "abc"}`, a
  union: pydantic's locations name the member that failed
  (`choice.int`, `choice.list[int]`);
- `hidden`: a tool turned off (`enabled=False`);
- an unknown tool name: the framework's own answer.

Usage: python3 fastmcp_server.py   (stdio; run by tests/host_e2e.rs)
"""

from fastmcp import FastMCP
from fastmcp.exceptions import ToolError

server = FastMCP(name="fastmcp-failures", version="1.0.0")


@server.tool
def tool_error(name: str = "x") -> str:
    """Fails with FastMCP's ToolError."""
    raise ToolError(f"no note named {name}")


@server.tool
def value_error() -> str:
    """Fails with a plain exception."""
    raise ValueError("secret detail")


@server.tool
def typed(n: int) -> str:
    """Takes an integer."""
    return str(n * 2)


@server.tool
def pick(choice: int | list[int]) -> str:
    """Takes an integer or a list of them."""
    return str(choice)


@server.tool(enabled=False)
def hidden() -> str:
    """Turned off."""
    return "never"


if __name__ == "__main__":
    server.run("stdio", show_banner=False)
