/**
 * The session's MCP tools. Once per session, at the first turn, the servers the person's allow-list
 * names are started and asked for their tools; the tools and their schemas are then fixed for the
 * session, so the request prefix stays cache-stable. While planning, a tool is offered only when
 * it declares itself read-only AND the person allowed it; while building, every allowed tool is
 * offered. A server that fails to start is one notice, and the session goes on without it. In an
 * untrusted workspace no server is started: the workspace's own configuration names them, and
 * starting one runs a program.
 */
import type { ToolSchema } from '../agent/model';
import { toolSchemaOf, type ToolDefinition } from '../tools';
import { mcpTool } from './mcpTool';
import { listed, listedServers, mcpToolNames } from './names';
import type { McpClientPort, McpConfig, McpToolInfo } from './ports';

export interface McpToolboxDeps {
  readonly client?: McpClientPort;
  readonly config?: McpConfig;
  readonly trusted: () => boolean;
  /** The names Planwise's own tools take (an MCP tool never shadows one). */
  readonly builtIn: ReadonlySet<string>;
  readonly notice: (text: string, level: 'info' | 'warning') => void;
}

function errorText(err: unknown): string {
  return (err instanceof Error ? err.message : String(err)).replace(/[\s.]+$/, '');
}

export class McpToolbox {
  private prepared: Promise<void> | undefined;
  private plan: readonly ToolDefinition[] = [];
  private build: readonly ToolDefinition[] = [];

  constructor(private readonly deps: McpToolboxDeps) {}

  /** The tools for `mode` (empty until `prepare` has run). */
  tools(mode: 'plan' | 'build'): readonly ToolDefinition[] {
    return mode === 'plan' ? this.plan : this.build;
  }

  private schemaCache = new Map<'plan' | 'build', readonly ToolSchema[]>();

  /** `base` followed by `mode`'s MCP tool schemas, computed once per session. */
  schemas(mode: 'plan' | 'build', base: readonly ToolSchema[]): readonly ToolSchema[] {
    const tools = this.tools(mode);
    if (tools.length === 0) return base;
    let s = this.schemaCache.get(mode);
    if (!s) this.schemaCache.set(mode, (s = [...base, ...tools.map(toolSchemaOf)]));
    return s;
  }

  /** Starts the allowed servers and fixes the session's MCP tools (once; later calls wait for the first). */
  prepare(signal?: AbortSignal): Promise<void> {
    return (this.prepared ??= this.load(signal));
  }

  private async load(signal?: AbortSignal): Promise<void> {
    const { client, config, notice } = this.deps;
    const allow = config?.planningTools ?? [];
    if (!client || allow.length === 0) return;
    let servers;
    try {
      servers = await client.servers();
    } catch (err) {
      notice(
        `The MCP configuration could not be read: ${errorText(err)}. Planning goes on without MCP tools.`,
        'warning',
      );
      return;
    }
    const named = listedServers(allow);
    const known = new Set(servers.map((s) => s.name));
    const missing = [...named].filter((n) => !known.has(n));
    if (missing.length > 0) {
      notice(
        `planwise.mcp.planningTools names ${missing.map((m) => `'${m}'`).join(', ')}, which neither .vscode/mcp.json nor .mcp.json defines.`,
        'warning',
      );
    }
    const wanted = servers.filter((s) => named.has(s.name));
    if (wanted.length === 0) return;
    if (!this.deps.trusted()) {
      notice(
        `MCP servers named by this workspace (${wanted.map((s) => s.name).join(', ')}) are not started in Restricted Mode: starting one runs a program. Trust the workspace, then start a new session to use their tools.`,
        'warning',
      );
      return;
    }
    const found: { server: string; info: McpToolInfo }[] = [];
    for (const s of wanted) {
      try {
        for (const info of await client.listTools(s.name, signal)) {
          if (listed(allow, s.name, info.name)) found.push({ server: s.name, info });
        }
      } catch (err) {
        if (signal?.aborted) throw err;
        notice(
          `The MCP server '${s.name}' did not start: ${errorText(err)}. Planning goes on without its tools.`,
          'warning',
        );
      }
    }
    const names = mcpToolNames(
      found.map((f) => [f.server, f.info.name] as const),
      this.deps.builtIn,
    );
    const always = config?.alwaysAllow ?? [];
    const make = (mode: 'plan' | 'build') =>
      found.map((f, i) =>
        mcpTool({
          name: names[i]!,
          server: f.server,
          info: f.info,
          client,
          mode,
          alwaysAllow: always.includes(`${f.server}/${f.info.name}`),
        }),
      );
    this.plan = make('plan').filter((t) => t.mcp!.planning);
    this.build = make('build');
    const held = found.filter((f) => !f.info.readOnlyHint).map((f) => `${f.server}/${f.info.name}`);
    if (found.length > 0) {
      const offered = this.plan.map((t) => `${t.mcp!.server}/${t.mcp!.tool}`);
      notice(
        `MCP tools while planning: ${offered.length > 0 ? offered.join(', ') : 'none'}.` +
          (held.length > 0
            ? ` Not offered while planning, because they do not declare themselves read-only: ${held.join(', ')}.`
            : ''),
        'info',
      );
    }
  }

  /** Stops the servers this session started. */
  async close(): Promise<void> {
    await this.deps.client?.close();
  }
}
