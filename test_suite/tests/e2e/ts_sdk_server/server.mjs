// An MCP server on the official TypeScript SDK (npm
// `@modelcontextprotocol/sdk`, pinned in package.json), `McpServer` over
// stdio, for test_suite/tests/host_e2e.rs. Each tool fails (or succeeds) the
// SDK's own way, so the host side's reader is tested against what this SDK
// really answers:
//
// - `throws`: throws `new Error("boom: no such note")` (the SDK turns it into
//   an `isError` result with the message as text); it takes `name:
//   z.string()`, so `{"name": 5}` gets the SDK's input validation error;
// - `typed_out`: has an `outputSchema` and returns structured content (a
//   success);
// - `bad_out`: has an `outputSchema` but returns no structured content (the
//   SDK's output validation error: the server's fault);
// - `hidden`: registered, then disabled (`tool.disable()`);
// - an unknown tool name: the SDK's own answer.
//
// Usage: node server.mjs   (after `npm ci` in this directory)
import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { StdioServerTransport } from "@modelcontextprotocol/sdk/server/stdio.js";
import { z } from "zod";

const server = new McpServer({ name: "ts-sdk-failures", version: "1.0.0" });

server.registerTool(
  "throws",
  {
    description: "Throws a plain Error.",
    inputSchema: { name: z.string() },
  },
  async () => {
    throw new Error("boom: no such note");
  },
);

server.registerTool(
  "typed_out",
  {
    description: "Returns structured content matching its output schema.",
    inputSchema: { name: z.string().optional() },
    outputSchema: { name: z.string(), revision: z.number().int() },
  },
  async ({ name }) => {
    const structuredContent = { name: name ?? "groceries", revision: 3 };
    return {
      content: [{ type: "text", text: JSON.stringify(structuredContent) }],
      structuredContent,
    };
  },
);

server.registerTool(
  "bad_out",
  {
    description: "Breaks its own output schema.",
    outputSchema: { revision: z.number().int() },
  },
  async () => ({ content: [{ type: "text", text: "no structure" }] }),
);

const hidden = server.registerTool(
  "hidden",
  { description: "Turned off." },
  async () => ({ content: [{ type: "text", text: "never" }] }),
);
hidden.disable();

await server.connect(new StdioServerTransport());
