/**
 * One MCP server's tool as Planwise offers it: the server's JSON Schema shown as is, the call
 * made through the `McpClientPort`, the result measured, spooled and previewed like any tool's.
 * While building, a tool that does not declare itself read-only runs only on the person's yes
 * (the build's command approval) or when the person listed it in `planwise.mcp.alwaysAllow`.
 */
import * as z from 'zod';
import { clipText, code } from '../tools/describe';
import { failure, resultOf } from '../tools/result';
import type { ToolDefinition } from '../tools/types';
import type { AgentToolContext } from '../tools/session/context';
import type { McpClientPort, McpToolInfo } from './ports';

const argsSchema = z.record(z.string(), z.unknown());

export interface McpToolOptions {
  /** The model-facing name (`mcp_<server>_<tool>`, cut to what providers accept). */
  readonly name: string;
  readonly server: string;
  readonly info: McpToolInfo;
  readonly client: McpClientPort;
  readonly mode: 'plan' | 'build';
  /** The person listed it in `planwise.mcp.alwaysAllow`: no yes is asked for each call. */
  readonly alwaysAllow: boolean;
}

/** A JSON Schema object the providers accept (`type: object` at the top). */
function parametersOf(schema: Record<string, unknown>): Record<string, unknown> {
  const { $schema: _ignored, ...rest } = schema;
  return rest['type'] === 'object' ? rest : { type: 'object', properties: {}, ...rest };
}

export function mcpTool(o: McpToolOptions): ToolDefinition<Record<string, unknown>> {
  const label = `${o.server}/${o.info.name}`;
  const readOnly = o.info.readOnlyHint;
  return {
    name: o.name,
    description: `(MCP tool ${label}) ${o.info.description ?? ''}`.trim(),
    kind: 'other',
    schema: argsSchema,
    parameters: parametersOf(o.info.inputSchema),
    mcp: { server: o.server, tool: o.info.name, planning: readOnly },
    // The row names the server and the tool, then the arguments as sent.
    describe(args) {
      const shown = Object.keys(args).length > 0 ? ` with ${code(JSON.stringify(args))}` : '';
      return {
        title: `Called MCP ${o.server} › ${o.info.name}${shown}`,
        subject: clipText(`MCP ${o.server} › ${o.info.name}`),
      };
    },
    async run(args, toolCtx) {
      const ctx = toolCtx as AgentToolContext;
      if (o.mode === 'plan' && !readOnly) {
        return failure(`blocked: ${label} does not declare itself read-only, so it never runs while planning`, {
          blocked: true,
        });
      }
      if (o.mode === 'build' && !readOnly && !o.alwaysAllow) {
        const shown = `MCP ${label} ${JSON.stringify(args)}`;
        const reason = `the MCP tool ${label} does not declare itself read-only (planwise.mcp.alwaysAllow lets it run without asking)`;
        if (!ctx.interactive) {
          return failure(
            `blocked: ${label} does not declare itself read-only and no one can approve it in this run; allow it with planwise.mcp.alwaysAllow (CLI: --mcp-always ${label})`,
            { blocked: true },
          );
        }
        if (!ctx.approver) {
          return failure(`blocked: ${shown} needs the person's approval, but no one can approve it in this session`, {
            blocked: true,
          });
        }
        if (!(await ctx.approver.approveCommand(shown, reason, ctx.signal))) {
          return failure(
            `blocked: the person did not allow ${label}, so it did not run. Do not retry it; find another way, or say in your reply what you need and why`,
            { blocked: true },
          );
        }
      }
      const r = await o.client.callTool(o.server, o.info.name, args, ctx.signal);
      const text = r.ok ? r.text : `${label} failed: ${r.text}`;
      return resultOf(ctx, text, { ok: r.ok, lowSignal: r.text.trim() === '' });
    },
  };
}
