/** The plan card's view comes from the engine's parse and reaches the panel with the plan item. */
import assert from 'node:assert/strict';
import type { PlanItem } from '../../src/protocol';
import { sse } from '../support/scriptedServer';
import { planResponse, samplePlan } from '../support/sessionHarness';
import { startEngineHost, until, type EngineHost } from './engineHost';

describe('plan card view', () => {
  let h: EngineHost | undefined;
  afterEach(async () => {
    await h?.close();
    h = undefined;
  });

  it('carries each step as a title, its files and its parsed verify entries', async () => {
    h = await startEngineHost([sse.textTurn(planResponse(samplePlan()))]);
    const run = h.controller.start('add a greeting helper', 'plan');
    await until(() => h!.pending.has('approval'), 'the gate');
    const plan = h.hub.state.transcript.find((i): i is PlanItem => i.kind === 'plan')!;
    assert.deepEqual(plan.view, {
      title: 'Add a greeting helper',
      summary: 'Add `greet(name)` to src/greet.ts so callers get a consistent greeting.',
      steps: [
        {
          index: 1,
          title: 'Add the greet function',
          files: ['src/greet.ts'],
          verify: [{ kind: 'command', text: 'node -e "process.exit(0)"', command: 'node -e "process.exit(0)"' }],
        },
      ],
    });
    assert.match(plan.markdown, /-> files: \[src\/greet\.ts\]/, 'the raw syntax stays in the markdown (and the file)');
    await h.controller.decide('cancel');
    await run;
  });
});
