/**
 * The build run changes no session state itself: it yields its steps, and the session applies
 * each before the run resumes. Recorded here on a real session (scripted model over HTTP).
 */
import assert from 'node:assert/strict';
import type { SessionCore } from '../../src/core/session/core';
import type { FlowStep } from '../../src/core/session/state';
import { planResponse, samplePlan, startHarness, type Harness } from '../support/sessionHarness';
import { sse } from '../support/scriptedServer';

/** Wraps the session core's `follow` so every step a flow yields is recorded, with the state it saw. */
function recordFlows(h: Harness): { steps: FlowStep[]; applyOutsideFlow: string[] } {
  const core = (h.session as unknown as { core: SessionCore }).core;
  const steps: FlowStep[] = [];
  const applyOutsideFlow: string[] = [];
  let inFlow = false;
  const follow = core.follow.bind(core);
  const apply = core.apply.bind(core);
  core.apply = (...effects) => {
    if (inFlow) for (const e of effects) if (!steps.includes(e)) applyOutsideFlow.push(e.type);
    apply(...effects);
  };
  core.follow = async <T>(flow: AsyncGenerator<FlowStep, T>): Promise<T> => {
    async function* recorded(): AsyncGenerator<FlowStep, T> {
      for (let r = await flow.next(); ; r = await flow.next()) {
        if (r.done) return r.value;
        steps.push(r.value);
        yield r.value;
      }
    }
    inFlow = true;
    try {
      return await follow(recorded());
    } finally {
      inFlow = false;
    }
  };
  return { steps, applyOutsideFlow };
}

describe('the build run yields its state changes (FlowStep) instead of writing session state', () => {
  let h: Harness;
  afterEach(async () => h?.close());

  it('a fresh-context handoff: the guard opens, the thread clears, the lifecycle moves, the guard closes', async () => {
    h = await startHarness(
      [
        sse.textTurn(planResponse(samplePlan())),
        sse.toolTurn([{ name: 'write_file', args: { path: 'notes.txt', content: 'x\n' } }]),
        sse.textTurn('Done.'),
      ],
      { approve: () => ({ decision: 'fresh_context' }), config: { buildScope: 'record' } },
    );
    const flows = recordFlows(h);
    const stop = await h.session.start('plan');
    assert.equal(stop.kind, 'completed');
    const kinds = flows.steps.map((s) => (s.type === 'lifecycle' ? `lifecycle:${s.event.type}` : s.type));
    assert.deepEqual(kinds, [
      'build_opened',
      'thread_cleared',
      'lifecycle:handoff_done',
      'user_said',
      'lifecycle:execution_done',
      'build_closed',
    ]);
    // Nothing reached the session's state except through a yielded step.
    assert.deepEqual(flows.applyOutsideFlow, []);
    // The write went through the run's guard (recorded as drift in `record` mode), closed at the end.
    const [done] = h.eventsOf('plan.execution.completed');
    assert.ok(done?.report.outOfScope.some((f) => f.path === 'notes.txt'));
    assert.equal((h.session as unknown as { core: SessionCore }).core.build, undefined);
  });
});
