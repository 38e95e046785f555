/**
 * `McpClientPort` over the official MCP SDK: one client per server, connected on first use
 * (stdio: the server's process; streamable HTTP: its URL), closed with the session. Results come
 * back as text: text parts as they are, other parts named, structured content as JSON.
 */
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport, getDefaultEnvironment } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { McpCallResult, McpClientPort, McpServerInfo, McpToolInfo } from '../core/api/ports';
import { readMcpServers, type McpServerConfig } from './mcpConfig';

export interface SdkMcpClientOptions {
  /** The workspace root: where the configuration files are, and a stdio server's default folder. */
  readonly root: string;
  /** The environment `${env:…}` reads and a stdio server inherits (the SDK's safe subset is added). */
  readonly env: Readonly<Record<string, string | undefined>>;
  /** How long starting a server and each request may take (default 30 s). */
  readonly timeoutMs?: number;
  /** The client's name and version as servers see them. */
  readonly clientInfo?: { readonly name: string; readonly version: string };
  readonly log?: (line: string) => void;
}

const DEFAULT_TIMEOUT_MS = 30_000;
/** The end of a stdio server's stderr kept for the message when it fails to start. */
const STDERR_TAIL = 600;

interface Connection {
  readonly client: Client;
  readonly stderr: () => string;
}

function textOf(result: Record<string, unknown>): string {
  const parts: string[] = [];
  const content = Array.isArray(result['content']) ? (result['content'] as Record<string, unknown>[]) : [];
  for (const c of content) {
    if (c['type'] === 'text' && typeof c['text'] === 'string') parts.push(c['text']);
    else if (c['type'] === 'resource') {
      const r = (c['resource'] ?? {}) as Record<string, unknown>;
      parts.push(typeof r['text'] === 'string' ? r['text'] : `[resource ${String(r['uri'] ?? '')}]`);
    } else if (c['type'] === 'resource_link') parts.push(`[resource link ${String(c['uri'] ?? '')}]`);
    else parts.push(`[${String(c['type'])} content${typeof c['mimeType'] === 'string' ? ` (${c['mimeType']})` : ''}]`);
  }
  if (parts.length === 0 && result['structuredContent'] !== undefined) {
    parts.push(JSON.stringify(result['structuredContent'], null, 2));
  }
  return parts.join('\n');
}

export class SdkMcpClient implements McpClientPort {
  private configs: Promise<McpServerConfig[]> | undefined;
  private readonly connections = new Map<string, Promise<Connection>>();
  private closed = false;

  constructor(private readonly o: SdkMcpClientOptions) {}

  private all(): Promise<McpServerConfig[]> {
    return (this.configs ??= readMcpServers(this.o.root, this.o.env));
  }

  async servers(): Promise<readonly McpServerInfo[]> {
    return (await this.all()).map((s) => ({ name: s.name, transport: s.transport, source: s.source }));
  }

  private connect(name: string): Promise<Connection> {
    let c = this.connections.get(name);
    if (!c) {
      c = this.start(name);
      this.connections.set(name, c);
      // A failed start is not cached as a connection: the next use says the same, without a retry storm.
      c.catch(() => undefined);
    }
    return c;
  }

  private async start(name: string): Promise<Connection> {
    if (this.closed) throw new Error('the session has ended');
    const config = (await this.all()).find((s) => s.name === name);
    if (!config) throw new Error(`no MCP server '${name}' is configured`);
    if (config.problem !== undefined) throw new Error(`${config.source} cannot start it as written: ${config.problem}`);
    const client = new Client(this.o.clientInfo ?? { name: 'planwise', version: '0.1.0' }, { capabilities: {} });
    let stderr = '';
    let transport;
    if (config.transport === 'stdio') {
      const stdio = new StdioClientTransport({
        command: config.command,
        args: [...config.args],
        env: { ...getDefaultEnvironment(), ...config.env },
        cwd: config.cwd ?? this.o.root,
        stderr: 'pipe',
      });
      stdio.stderr?.on('data', (chunk: Buffer) => {
        stderr = (stderr + chunk.toString('utf8')).slice(-STDERR_TAIL);
      });
      transport = stdio;
    } else {
      transport = new StreamableHTTPClientTransport(new URL(config.url), { requestInit: { headers: config.headers } });
    }
    try {
      await client.connect(transport, { timeout: this.o.timeoutMs ?? DEFAULT_TIMEOUT_MS });
    } catch (err) {
      await client.close().catch(() => undefined);
      const why = err instanceof Error ? err.message : String(err);
      const tail = stderr.trim().split('\n').slice(-3).join(' | ');
      const what = config.transport === 'stdio' ? `'${config.command}'` : config.url;
      throw new Error(`${what} (${config.source}): ${why}${tail !== '' ? `; it said: ${tail}` : ''}`);
    }
    this.o.log?.(`mcp: started ${name} (${config.transport}, ${config.source})`);
    return { client, stderr: () => stderr };
  }

  async listTools(server: string, signal?: AbortSignal): Promise<readonly McpToolInfo[]> {
    const { client } = await this.connect(server);
    const out: McpToolInfo[] = [];
    let cursor: string | undefined;
    do {
      const page = await client.listTools(cursor !== undefined ? { cursor } : {}, {
        timeout: this.o.timeoutMs ?? DEFAULT_TIMEOUT_MS,
        ...(signal ? { signal } : {}),
      });
      for (const t of page.tools) {
        out.push({
          name: t.name,
          ...(t.description !== undefined ? { description: t.description } : {}),
          inputSchema: t.inputSchema as Record<string, unknown>,
          readOnlyHint: t.annotations?.readOnlyHint === true,
        });
      }
      cursor = page.nextCursor;
    } while (cursor !== undefined);
    return out;
  }

  async callTool(
    server: string,
    tool: string,
    args: Record<string, unknown>,
    signal?: AbortSignal,
  ): Promise<McpCallResult> {
    const { client } = await this.connect(server);
    const result = (await client.callTool({ name: tool, arguments: args }, undefined, {
      timeout: this.o.timeoutMs ?? DEFAULT_TIMEOUT_MS,
      ...(signal ? { signal } : {}),
    })) as Record<string, unknown>;
    return { ok: result['isError'] !== true, text: textOf(result) };
  }

  async close(): Promise<void> {
    this.closed = true;
    const all = [...this.connections.values()];
    this.connections.clear();
    await Promise.all(
      all.map(async (c) => {
        try {
          await (await c).client.close();
        } catch {
          // a server that never started has nothing to stop
        }
      }),
    );
  }
}
