/** A person's Stop and a silent stream, as the panel shows them (translator and shared reducer). */
import assert from 'node:assert/strict';
import { EventBus } from '../../src/core/events/bus';
import type { ThreadEvent, ThreadEventBody } from '../../src/core/events/types';
import { EventTranslator } from '../../src/host/panel/translate';
import { applyOps, emptyViewState, DeltaOpSchema, type ViewState } from '../../src/protocol';

const T0 = 1_700_000_000_000;

function harness() {
  let now = T0;
  const bus = new EventBus(() => now);
  const translator = new EventTranslator({ relativePath: (p) => p });
  let state: ViewState = emptyViewState();
  bus.on((e: ThreadEvent) => {
    const ops = translator.translate(e);
    for (const op of ops) assert.equal(DeltaOpSchema.safeParse(op).success, true, `invalid op ${JSON.stringify(op)}`);
    state = applyOps(state, ops);
  });
  return {
    emit: (...events: ThreadEventBody[]) => events.forEach((e) => bus.emit(e)),
    at: (ms: number) => (now = T0 + ms),
    get state() {
      return state;
    },
  };
}

describe('Stop and waiting in the panel', () => {
  it('a Stop is a neutral "Stopped." with no actions, nothing busy and no plan left streaming', () => {
    const h = harness();
    h.emit(
      { type: 'thread.started', thread_id: 's', mode: 'plan', task: 'x' },
      { type: 'turn.started', turn_id: 't' },
      { type: 'plan.delta', turn_id: 't', delta: '# Half a plan' },
      { type: 'run.stopped', what: 'planning' },
    );
    const notices = h.state.transcript.filter((i) => i.kind === 'notice');
    assert.equal(notices.length, 1);
    const n = notices[0] as { level: string; text: string; actions?: unknown[] };
    assert.equal(n.level, 'info');
    assert.equal(n.text, 'Stopped.');
    assert.equal(n.actions, undefined, 'nothing to fix: no Retry, no Change provider');
    assert.equal(h.state.lifecycle.busy, false);
    const plan = h.state.transcript.find((i) => i.kind === 'plan') as { streaming?: boolean };
    assert.equal(plan.streaming, false);
  });

  it('a stopped build says so', () => {
    const h = harness();
    h.emit({ type: 'turn.started', turn_id: 't' }, { type: 'run.stopped', what: 'build' });
    const n = h.state.transcript.find((i) => i.kind === 'notice') as { text: string };
    assert.equal(n.text, 'Build stopped.');
  });

  it('a silent stream sets since-when on the lifecycle, and the next chunk or the end clears it', () => {
    const h = harness();
    h.emit({ type: 'turn.started', turn_id: 't' });
    h.at(7000);
    h.emit({ type: 'model.waiting', turn_id: 't', waiting: true, silent_ms: 5000 });
    assert.equal(h.state.lifecycle.waitingSince, T0 + 2000);
    h.emit({ type: 'model.waiting', turn_id: 't', waiting: false, silent_ms: 0 });
    assert.equal(h.state.lifecycle.waitingSince, undefined);
    h.emit({ type: 'model.waiting', turn_id: 't', waiting: true, silent_ms: 5000 });
    h.emit({ type: 'run.stopped', what: 'planning' });
    assert.equal(h.state.lifecycle.waitingSince, undefined, 'a run that is over waits for nothing');
  });
});
