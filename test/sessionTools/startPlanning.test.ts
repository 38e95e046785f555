import assert from 'node:assert/strict';
import { runTool } from '../../src/core/tools';
import type { StartPlanningOutcome } from '../../src/core/tools/session/context';
import { startPlanningTool as tool } from '../../src/core/tools/session/startPlanning';
import { makeTempWorkspace, type TempWorkspace } from '../support/tempWorkspace';
import { agentContextFor } from './helpers';

describe('start_planning', () => {
  let ws: TempWorkspace;
  beforeEach(() => (ws = makeTempWorkspace()));
  afterEach(() => ws.cleanup());

  const propose = async (outcome: StartPlanningOutcome) => {
    const reasons: string[] = [];
    const ctx = agentContextFor(ws, {
      onStartPlanning: async (reason) => {
        reasons.push(reason);
        return outcome;
      },
    });
    const r = await tool.run({ reason: 'the API moved to v2' }, ctx);
    return { r, reasons };
  };

  it('only asks: the host hears the reason, and an acceptance tells the model to stop changing files', async () => {
    const { r, reasons } = await propose('accepted');
    assert.deepEqual(reasons, ['the API moved to v2']);
    assert.equal(r.ok, true);
    assert.match(r.content, /agreed to return to planning\. Make no further changes/);
  });

  it('a decline tells the model to carry on with the approved plan', async () => {
    const { r } = await propose('declined');
    assert.match(r.content, /declined to return to planning\. Continue carrying out the approved plan/);
  });

  it('pending (no one can answer now) tells the model to make no changes that need a revised plan', async () => {
    const { r } = await propose('pending');
    assert.match(r.content, /awaits the person, who cannot answer now\. Make no changes that depend on a revised plan/);
  });

  it('needs a reason', async () => {
    const r = await runTool(
      tool,
      JSON.stringify({ reason: '  ' }),
      agentContextFor(ws, { onStartPlanning: async () => 'accepted' }),
    );
    assert.equal(r.ok, false);
    assert.match(r.content, /^start_planning: invalid arguments \(reason: /);
  });

  it('fails clearly when the host offers no way to ask', async () => {
    await assert.rejects(
      tool.run({ reason: 'x' }, agentContextFor(ws)),
      /start_planning is not available here: .*"onStartPlanning"/,
    );
  });
});
