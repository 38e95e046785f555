/**
 * An `McpClientPort` that loads the MCP client and SDK (`./mcpClient`) on first use: a session
 * that never reaches an MCP server never parses or runs them. In VS Code the import is the
 * bundle dist/mcp.js (esbuild.mjs); in the CLI's session bundle it is a module evaluated then.
 */
import type { McpClientPort } from '../core/api/ports';
import type { SdkMcpClientOptions } from './mcpClient';

export function lazyMcpClient(options: SdkMcpClientOptions): McpClientPort {
  let client: Promise<McpClientPort> | undefined;
  const get = () => (client ??= import('./mcpClient').then((m) => new m.SdkMcpClient(options)));
  return {
    servers: async () => (await get()).servers(),
    listTools: async (server, signal) => (await get()).listTools(server, signal),
    callTool: async (server, tool, args, signal) => (await get()).callTool(server, tool, args, signal),
    close: async () => {
      if (client) await (await client).close();
    },
  };
}
