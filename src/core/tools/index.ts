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
  const { $schema: _ignored, ...parameters } = z.toJSONSchema(tool.schema) as Record<string, unknown>;
  return { name: tool.name, description: tool.description, parameters };
}

/**
 * Parses the model's raw JSON arguments, validates them against the tool's schema and runs it.
 * Bad arguments and thrown errors become a failed result whose message says what to fix.
 */
export async function runTool(tool: ToolDefinition, rawArguments: string, ctx: ToolContext): Promise<ToolResult> {
  let json: unknown;
  try {
    json = rawArguments.trim() === '' ? {} : JSON.parse(rawArguments);
  } catch {
    return failure(`${tool.name}: the arguments are not valid JSON: ${rawArguments.slice(0, 200)}`);
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
