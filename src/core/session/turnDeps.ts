/**
 * Everything `runTurn` needs for one turn of a session in `mode`: the model and its name, the
 * system prompt with the repository's instruction block, the tools and their schemas (MCP's
 * included), the dispatch's policies (the lifecycle actions a model invents, the build's commands,
 * the nested instruction files a call reaches), and the budgets and signal the turn runs under.
 */
import { BUILD_SYSTEM_PROMPT, PLANNING_SYSTEM_PROMPT } from '../agent/prompt';
import type { TurnDeps } from '../agent/turn';
import type { InstructionSet } from '../agent/instructions';
import type { TrackerHandle } from '../tools/session/context';
import { decideBuildCommand } from '../tools/build/buildPolicy';
import type { SessionCore } from './core';
import {
  BUILD_TOOLS,
  PLANNING_TOOLS,
  buildToolSchemas,
  modelLifecycleAction,
  planningToolSchemas,
  toolMap,
} from './toolset';
import { toolContextOf } from './toolContext';

/** Everything `runTurn` needs for one turn in `mode`. */
export function turnDepsOf(core: SessionCore, mode: 'plan' | 'build', tracker: TrackerHandle): TurnDeps {
  const planning = mode === 'plan';
  const tools = [...(planning ? PLANNING_TOOLS : BUILD_TOOLS), ...core.mcp.tools(mode)];
  return {
    model: core.deps.model,
    modelName: planning ? core.config.planningModel : (core.config.buildModel ?? core.config.planningModel),
    bus: core.bus,
    guards: core.guards,
    approver: core.deps.approver,
    systemPrompt: withInstructions(planning ? PLANNING_SYSTEM_PROMPT : BUILD_SYSTEM_PROMPT, core.instructionText[mode]),
    toolSchemas: core.mcp.schemas(mode, planning ? planningToolSchemas() : buildToolSchemas()),
    dispatch: {
      mode,
      tools: toolMap(tools),
      toolContext: toolContextOf(core, mode, tracker),
      plansDir: core.plansDir,
      ...(core.instructions ? { afterCall: instructionsAfterCall(core, core.instructions) } : {}),
      onUnknownTool: (name) => {
        const action = modelLifecycleAction(name);
        if (!action) return undefined;
        const r = core.machine.dispatch({ type: 'model_attempt', action });
        for (const e of r.effects) core.effect(e, '');
        return r.ok ? undefined : r.reason;
      },
      buildPolicy: async (tool, args, shell) => {
        if (tool.kind !== 'shell')
          return { allowed: true, reason: `allowed: '${tool.name}' in build mode`, rule: 'tool' };
        const command = typeof args['command'] === 'string' ? args['command'] : '';
        const d = await decideBuildCommand(
          command,
          { ...core.commandPolicy(), approved: core.commands.approved },
          shell,
        );
        // Commands that need the person's approval are asked by run_command itself.
        if ('run' in d && !d.run) return { allowed: false, reason: d.reason, rule: 'build' };
        if ('ask' in d) return { allowed: true, reason: `asks the person: ${d.reason}`, rule: 'build' };
        return { allowed: true, reason: `allowed: ${d.why}`, rule: 'build' };
      },
    },
    newId: (p) => core.newId(p),
    contextWindow: core.contextWindow,
    ...(core.config.compactAtPercent !== undefined ? { compactAtPercent: core.config.compactAtPercent } : {}),
    signal: core.abort.signal,
    onUsage: (u, estimated) => core.budget.record(u, estimated),
    contextPercent: () => core.contextPercent(),
    ...(planning ? {} : { synthesisDirective: buildSynthesisDirective }),
  };
}

/**
 * After each tool call: the nested instruction files it reached (an AGENTS.md inside the folder it
 * read), added once to its result and announced as `instructions.added`.
 */
function instructionsAfterCall(core: SessionCore, set: InstructionSet): NonNullable<TurnDeps['dispatch']['afterCall']> {
  return async (call, args) => {
    try {
      const added = await set.afterCall(call.name, args);
      if (!added) return undefined;
      core.bus.emit({
        type: 'instructions.added',
        turn_id: call.turnId,
        call_id: call.id,
        files: added.files,
        truncated: added.truncated,
        max_bytes: set.bound,
      });
      return added.text;
    } catch (err) {
      core.deps.log?.(`instructions: ${err instanceof Error ? err.message : String(err)}`);
      return undefined;
    }
  };
}

/** The system prompt, then the repository's instruction block (when there is one). */
function withInstructions(system: string, block: string): string {
  return block === '' ? system : `${system}\n\n${block}`;
}

function buildSynthesisDirective(reason: string): string {
  return `Stop calling tools (${reason}). Reply now with a short summary: what was done, changed files, verification run, remaining blockers.`;
}
