/**
 * The tools each agent is offered. Schemas are computed once per process: the request prefix
 * (system prompt + tools) must stay byte-identical from turn to turn so providers can cache it.
 */
import type { ToolSchema } from '../agent/model';
import { readOnlyTools, toolSchemaOf, type ToolDefinition } from '../tools';
import { buildAgentTools } from '../tools/build';
import { planningSessionTools } from '../tools/session';

/** Planning: read, list, search, the gated shell, spool paging, the interview and the tracker. */
export const PLANNING_TOOLS: readonly ToolDefinition[] = [...readOnlyTools, ...planningSessionTools];

/** Building: the read tools (without the read-only shell), writes, commands, the tracker, start_planning. */
export const BUILD_TOOLS: readonly ToolDefinition[] = [
  ...readOnlyTools.filter((t) => t.name !== 'exec_command'),
  ...buildAgentTools,
];

let planningSchemas: readonly ToolSchema[] | undefined;
let buildSchemas: readonly ToolSchema[] | undefined;

export function planningToolSchemas(): readonly ToolSchema[] {
  return (planningSchemas ??= PLANNING_TOOLS.map(toolSchemaOf));
}

export function buildToolSchemas(): readonly ToolSchema[] {
  return (buildSchemas ??= BUILD_TOOLS.map(toolSchemaOf));
}

export function toolMap(tools: readonly ToolDefinition[]): ReadonlyMap<string, ToolDefinition> {
  return new Map(tools.map((t) => [t.name, t]));
}

/** Tool names a model invents to approve its own plan or leave planning; refused and logged. */
export function modelLifecycleAction(name: string): 'approve' | 'exit_plan' | 'switch_mode' | undefined {
  const n = name.toLowerCase();
  if (/approv|accept_plan|implement_plan|execute_plan/.test(n)) return 'approve';
  if (/exit_plan|leave_plan|stop_planning|end_plan/.test(n)) return 'exit_plan';
  if (/switch_mode|set_mode|change_mode|build_mode|start_build/.test(n)) return 'switch_mode';
  return undefined;
}
