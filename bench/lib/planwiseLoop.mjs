// Drives a Planwise planning session exactly as a host does: `createSession` with the Node
// adapters (workspace reader and writer, ripgrep, the process runner, the OpenAI-compatible client)
// and the engine's own runloop, guards, gate, tools and plan capture. Nothing is mocked but the
// model (the scripted server) and the person (who never answers: the session is non-interactive).
import { exists, loadTs } from './load.mjs';

export const SESSION_SOURCE = 'src/core/session/session.ts';

const ENTRY = `
  export { createSession } from './src/core/session/session';
  export { planningToolSchemas } from './src/core/session/toolset';
  export { PLANNING_SYSTEM_PROMPT } from './src/core/agent/prompt';
  export { OpenAIModelClient } from './src/node/openaiModelClient';
  export { NodeWorkspaceReader, NodeWorkspaceWriter } from './src/node/fsWorkspace';
  export { createSearcher } from './src/node/ripgrepSearcher';
  export { NodeCommandRunner } from './src/node/processRunner';
  export { systemClock } from './src/node/clock';`;

/** The loaded engine, or `{ missing }` naming what is not there yet. */
export async function loadPlanwise() {
  if (!exists(SESSION_SOURCE)) return { missing: `the session (${SESSION_SOURCE}, createSession) does not exist yet` };
  const mod = await loadTs('planwise-session', ENTRY);
  if (typeof mod.createSession !== 'function') return { missing: `${SESSION_SOURCE} exports no createSession` };
  return mod;
}

const nobody = {
  interviewer: { ask: async () => ({ kind: 'cancelled' }) },
  approver: {
    approvePlan: async () => ({ decision: 'cancel' }),
    grantMore: async () => 0,
    approveCommand: async () => false,
  },
};

/**
 * A planning session in `workspace`: `session.start(userTurns[0])`, then every further string is
 * a revision request (`decide('revise', text)`) at the approval gate. Resolves with the number of
 * events the session emitted; throws when a run did not end at the approval gate.
 */
export async function runPlanwiseSession(mod, { workspace, baseURL, userTurns, budgets = {} }) {
  const reader = new mod.NodeWorkspaceReader([workspace]);
  const session = mod.createSession(
    {
      reader,
      writer: new mod.NodeWorkspaceWriter(),
      searcher: mod.createSearcher(reader),
      runner: new mod.NodeCommandRunner(),
      model: new mod.OpenAIModelClient({ baseURL, maxRetries: 0 }),
      clock: mod.systemClock,
      ...nobody,
    },
    { planningModel: 'scripted-model', trusted: true, interactive: false, budgets },
  );
  let events = 0;
  session.bus.on(() => events++);
  for (const [i, text] of userTurns.entries()) {
    const stop = i === 0 ? await session.start(text) : await session.decide('revise', text);
    if (stop?.kind !== 'awaiting_approval') {
      throw new Error(`Planwise's run ${i + 1} stopped with ${JSON.stringify(stop)} instead of awaiting approval`);
    }
  }
  return { events };
}
