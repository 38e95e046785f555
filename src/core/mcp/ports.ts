/**
 * The engine's door to the person's MCP servers. A host implements it over the official MCP SDK
 * (`src/node/mcpClient.ts`); the engine decides which tools are offered and when a call runs.
 */

/** A server named by the workspace's configuration (`.vscode/mcp.json`, `.mcp.json`). */
export interface McpServerInfo {
  readonly name: string;
  readonly transport: 'stdio' | 'http';
  /** The file that names it, workspace-relative. */
  readonly source: string;
}

/** A tool as its server lists it. */
export interface McpToolInfo {
  readonly name: string;
  readonly description?: string;
  /** The JSON Schema of its arguments, as the server gave it. */
  readonly inputSchema: Record<string, unknown>;
  /** The tool's own claim (`annotations.readOnlyHint === true`); never enough alone. */
  readonly readOnlyHint: boolean;
}

/** What a call returned, as text; `ok` false when the server said the call failed (`isError`). */
export interface McpCallResult {
  readonly ok: boolean;
  readonly text: string;
}

export interface McpClientPort {
  /** The servers the workspace's configuration names (nothing is started by asking). */
  servers(): Promise<readonly McpServerInfo[]>;
  /** The server's tools; starts the server on first use. Rejects with a message a person can read. */
  listTools(server: string, signal?: AbortSignal): Promise<readonly McpToolInfo[]>;
  callTool(server: string, tool: string, args: Record<string, unknown>, signal?: AbortSignal): Promise<McpCallResult>;
  /** Stops every server this client started. */
  close(): Promise<void>;
}

/** Which MCP tools the person allowed (`server/tool` or `server/*`). */
export interface McpConfig {
  readonly planningTools: readonly string[];
  /** Tools the build may call without asking though they do not declare themselves read-only. */
  readonly alwaysAllow?: readonly string[];
}
