"""Drive an MCP server over stdio with the official Python SDK (`mcp`).

Starts the server command given after the options, initializes a session,
lists the tools, makes every call of a calls file in order, and prints one
JSON document with what the client received:

    {"client": {"mcp": "2.3.0"},
     "initialize": {...InitializeResult...},
     "tools": [{...Tool...}, ...],
     "calls": [{"id": ..., "name": ..., "arguments": ..., "meta": ...,
                "started_ms": ..., "finished_ms": ...,
                "result": {...CallToolResult...}}          # a tool result
               | {..., "protocol_error": {"code": ..., "message": ...}}],
     "server_log": ["...", ...]}

A call's optional "meta" object is sent as the request's `_meta` (a W3C
`traceparent`, say); "started_ms" and "finished_ms" bracket the call in
Unix epoch milliseconds, the clock of a `retryNotBefore`. "server_log" is
the server's stderr, its operator log, line by line.

Results are dumped as the SDK parsed them (camelCase wire names, absent
fields left out), so `isError`, `content`, `structuredContent` are what a
real client sees. Assertions live in `tests/mcp_e2e.rs`; this script only
records. A protocol error (JSON-RPC error) on one call is recorded and the
session goes on, which checks that the server keeps serving.

Usage:
    python3 tests/e2e/mcp_client.py --probe
        prints the installed `mcp` version; exit status 3 if it is missing
    python3 tests/e2e/mcp_client.py [--calls FILE] SERVER [ARGS...]
        FILE defaults to calls.json next to this script
"""

import argparse
import asyncio
import json
import pathlib
import sys
import time


def probe() -> int:
    try:
        import importlib.metadata

        import mcp  # noqa: F401
    except ImportError as error:
        print(f"python module `mcp` is missing: {error}", file=sys.stderr)
        return 3
    print(importlib.metadata.version("mcp"))
    return 0


def dump(model) -> dict:
    return model.model_dump(mode="json", by_alias=True, exclude_none=True)


async def drive(server: list[str], calls: list[dict]) -> dict:
    import importlib.metadata

    from mcp import ClientSession, MCPError, StdioServerParameters, stdio_client

    import tempfile

    params = StdioServerParameters(command=server[0], args=server[1:])
    transcript = {"client": {"mcp": importlib.metadata.version("mcp")}, "calls": []}
    # The server's stderr is its operator log; keep it for the transcript.
    server_log = tempfile.TemporaryFile(mode="w+", encoding="utf-8")
    async with stdio_client(params, errlog=server_log) as (read, write):
        async with ClientSession(read, write) as session:
            transcript["initialize"] = dump(await session.initialize())
            listing = await session.list_tools()
            transcript["tools"] = [dump(tool) for tool in listing.tools]
            for call in calls:
                record = dict(call)
                record["started_ms"] = time.time_ns() // 1_000_000
                try:
                    result = await session.call_tool(
                        call["name"], call.get("arguments"), meta=call.get("meta")
                    )
                    record["result"] = dump(result)
                except MCPError as error:
                    record["protocol_error"] = {"code": error.code, "message": error.message}
                record["finished_ms"] = time.time_ns() // 1_000_000
                transcript["calls"].append(record)
    server_log.seek(0)
    transcript["server_log"] = server_log.read().splitlines()
    server_log.close()
    return transcript


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--probe", action="store_true", help="print the mcp version and exit")
    parser.add_argument("--calls", type=pathlib.Path, default=pathlib.Path(__file__).with_name("calls.json"))
    parser.add_argument("server", nargs=argparse.REMAINDER, help="server command and its arguments")
    options = parser.parse_args()
    if options.probe:
        return probe()
    if not options.server:
        parser.error("give the server command to start")
    calls = json.loads(options.calls.read_text(encoding="utf-8"))
    transcript = asyncio.run(drive(options.server, calls))
    json.dump(transcript, sys.stdout, indent=1, sort_keys=True)
    print()
    return 0


if __name__ == "__main__":
    sys.exit(main())
