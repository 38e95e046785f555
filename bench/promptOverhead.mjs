// Figure: prompt overhead. The tokens every request pays before any conversation: the system
// prompt plus the tool schemas, for the planning agent and the build agent; and the planning
// prefix again with a typical AGENTS.md (bench/corpus/AGENTS.typical.md) in its instruction block,
// laid out by the engine's own `InstructionSet` over an in-memory workspace.
//
// Method: the prompts and tool definitions are loaded from the project's sources, turned into the
// exact request body the OpenAI adapter sends (`toRequestBody`), and the system message's content
// and the serialised `tools` array are counted with the o200k_base tokenizer (gpt-tokenizer).
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { encode } from 'gpt-tokenizer/encoding/o200k_base';
import { figureMain, log, measured } from './lib/figure.mjs';
import { loadTs, repoRoot } from './lib/load.mjs';
import { toolsetEntrySource } from './lib/toolset.mjs';
import { formatCount } from './lib/stats.mjs';

export const PLANNING_GOAL_TOKENS = 2000;

const PROMPT_ENTRY = `
  export { PLANNING_SYSTEM_PROMPT, BUILD_SYSTEM_PROMPT } from './src/core/agent/prompt';
  export { toRequestBody } from './src/node/openaiModelClient';
  export { InstructionSet } from './src/core/agent/instructions';`;

/** A workspace holding only `AGENTS.md`, read through the reader port as a host would. */
function oneFileReader(text) {
  const root = '/bench-ws';
  const file = path.join(root, 'AGENTS.md');
  const data = new TextEncoder().encode(text);
  return {
    roots: [root],
    realpath: async (p) => p,
    stat: async (p) =>
      p === file
        ? { type: 'file', size: data.length, mtimeMs: 0 }
        : p === root
          ? { type: 'dir', size: 0, mtimeMs: 0 }
          : undefined,
    readFile: async (p) => {
      if (p !== file) throw Object.assign(new Error('ENOENT'), { code: 'ENOENT' });
      return data;
    },
    readDir: async () => [],
  };
}

const tokens = (text) => encode(text).length;

function count(mod, systemPrompt, tools) {
  const body = mod.toRequestBody({ model: 'bench', messages: [{ role: 'system', content: systemPrompt }], tools });
  const system = body.messages[0].content;
  const toolsJson = JSON.stringify(body.tools ?? []);
  const perTool = (body.tools ?? []).map((t) => ({ name: t.function.name, tokens: tokens(JSON.stringify(t)) }));
  const systemTokens = tokens(system);
  const toolTokens = tokens(toolsJson);
  return {
    systemTokens,
    toolTokens,
    totalTokens: systemTokens + toolTokens,
    tools: perTool,
    systemChars: system.length,
    toolsJsonChars: toolsJson.length,
  };
}

async function prompt() {
  const mod = await loadTs('prompt', `${toolsetEntrySource()}\n${PROMPT_ENTRY}`);
  const plan = mod.planningTools();
  const building = count(mod, mod.BUILD_SYSTEM_PROMPT, mod.buildTools().schemas);
  const planning = count(mod, mod.PLANNING_SYSTEM_PROMPT, plan.schemas);
  const agentsText = readFileSync(path.join(repoRoot, 'bench', 'corpus', 'AGENTS.typical.md'), 'utf8');
  const block = await new mod.InstructionSet(oneFileReader(agentsText), '/bench-ws').block('plan');
  const withAgents = count(mod, `${mod.PLANNING_SYSTEM_PROMPT}\n\n${block.text}`, plan.schemas);
  const names = (c) => c.tools.map((t) => t.name).join(', ');
  log(`prompt: planning tools: ${names(planning)}`);
  log(`prompt: build tools: ${names(building)}`);
  const value =
    `planning ${formatCount(planning.totalTokens)} tokens (system ${formatCount(planning.systemTokens)} + ` +
    `${planning.tools.length} tools ${formatCount(planning.toolTokens)}); build ${formatCount(building.totalTokens)} ` +
    `(system ${formatCount(building.systemTokens)} + ${building.tools.length} tools ${formatCount(building.toolTokens)}); ` +
    `planning with a typical AGENTS.md (${formatCount(agentsText.length)} chars) ${formatCount(withAgents.totalTokens)}`;
  return measured(value, planning.totalTokens <= PLANNING_GOAL_TOKENS, {
    tokenizer: 'o200k_base (gpt-tokenizer)',
    toolSource: plan.source,
    goalTokens: PLANNING_GOAL_TOKENS,
    planning,
    build: building,
    planningWithAgentsMd: { ...withAgents, agentsMdBytes: Buffer.byteLength(agentsText) },
  });
}

await figureMain({ prompt });
