/** The read-only workspace tools, and the two helpers a runloop needs to offer and call them. */
import * as z from 'zod';
import type { ToolSchema } from '../agent/model';
import { codeSearchTool } from './codeSearch';
import { execCommandTool } from './execCommand';
import { listFilesTool } from './listFiles';
import { readFileTool } from './readFile';
import { readSpoolTool } from './readSpool';
import { failure } from './result';
import type { ToolContext, ToolDefinition, ToolResult } from './types';

export type { ToolContext, ToolDefinition, ToolKind, ToolResult } from './types';
export { codeSearchTool, execCommandTool, listFilesTool, readFileTool, readSpoolTool };
export { createListFilesTool } from './listFiles';

/** Read, list, search, the gated shell, and spool paging. */
export const readOnlyTools: readonly ToolDefinition[] = [
  readFileTool,
  listFilesTool,
  codeSearchTool,
  execCommandTool,
  readSpoolTool,
];

/** The tool as the model sees it: name, description, JSON Schema of the arguments. */
export function toolSchemaOf(tool: ToolDefinition): ToolSchema {
  if (tool.parameters) return { name: tool.name, description: tool.description, parameters: tool.parameters };
  const { $schema: _ignored, ...parameters } = z.toJSONSchema(tool.schema) as Record<string, unknown>;
  return { name: tool.name, description: tool.description, parameters };
}

/**
 * Parses the model's raw JSON arguments, validates them against the tool's schema and runs it.
 * Bad arguments and thrown errors become a failed result whose message says what to fix.
 */
/** A call's JSON arguments, parsed once (by the dispatcher) for the gate, the guards and the tool. */
export function parseToolArguments(raw: string): { ok: true; value: unknown } | { ok: false; error: string } {
  try {
    return { ok: true, value: raw.trim() === '' ? {} : JSON.parse(raw) };
  } catch {
    return { ok: false, error: `the arguments are not valid JSON: ${raw.slice(0, 200)}` };
  }
}

export async function runTool(
  tool: ToolDefinition,
  rawArguments: string | { readonly parsed: unknown },
  ctx: ToolContext,
): Promise<ToolResult> {
  let json: unknown;
  if (typeof rawArguments !== 'string') json = rawArguments.parsed;
  else {
    const parsed = parseToolArguments(rawArguments);
    if (!parsed.ok) return failure(`${tool.name}: ${parsed.error}`);
    json = parsed.value;
  }
  const parsed = tool.schema.safeParse(json);
  if (!parsed.success) {
    const issues = parsed.error.issues
      .map((i) => `${i.path.length > 0 ? i.path.join('.') : 'arguments'}: ${i.message}`)
      .join('; ');
    return failure(`${tool.name}: invalid arguments (${issues})`);
  }
  try {
    return await tool.run(parsed.data, ctx);
  } catch (err) {
    return failure(`${tool.name} failed: ${err instanceof Error ? err.message : String(err)}`);
  }
}
