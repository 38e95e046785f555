/**
 * Controller mechanics with a scripted session (busy, notices, modes, errors). Gates, decisions,
 * resume and verify run against the real engine in controller.engine.test.ts.
 */
import assert from 'node:assert/strict';
import type { SessionStop } from '../../src/core/session/api';
import { contextKeyValues } from '../../src/host/contextKeys';
import { PanelHub } from '../../src/host/panel/hub';
import { EventTranslator } from '../../src/host/panel/translate';
import { PendingRequests } from '../../src/host/prompts/pending';
import { STOP_SETTLE_MS, SessionController } from '../../src/host/session/controller';
import { emptyViewState } from '../../src/protocol';
import { FakeEngine, FakeSession, deferred } from './support';

function setup() {
  const engine = new FakeEngine();
  const hub = new PanelHub(emptyViewState(), { schedule: (f) => f() });
  const translator = new EventTranslator({ relativePath: (p) => p.replace(/^\/ws\//, '') });
  const pending = new PendingRequests();
  const logs: string[] = [];
  const errors: string[] = [];
  const controller = new SessionController({
    engine,
    hub,
    translator,
    pending,
    flags: () => ({ hasApiKey: true, trusted: true }),
    log: { info: (l) => logs.push(l), warn: (l) => logs.push(l), error: (l) => logs.push(l) },
    onRunError: (m) => errors.push(m),
  });
  return { engine, hub, pending, controller, logs, errors };
}

const texts = (hub: PanelHub) => hub.state.transcript.map((i) => ('text' in i ? i.text : i.kind));

describe('session controller', () => {
  it('starts a session with the task shown once, and runs it in the chosen mode', async () => {
    const { engine, hub, controller } = setup();
    engine.next = () => {
      const s = new FakeSession();
      s.onStart = (x) => {
        x.emit(
          { type: 'thread.started', thread_id: x.id, mode: 'build', task: 'Fix the bug' },
          { type: 'item.completed', turn_id: 't', item: { id: 'u1', kind: 'user_message', text: 'Fix the bug' } },
        );
        return { kind: 'completed', summary: 'ok' };
      };
      return s;
    };
    await controller.start('Fix the bug', 'build');
    assert.deepEqual(engine.sessions[0]!.calls, ['start Fix the bug build']);
    assert.deepEqual(texts(hub), ['Fix the bug']);
    assert.equal(hub.state.flags.hasApiKey, true);
    assert.equal(controller.isBusy, false);
  });

  it('refuses a second start while a run is going on', async () => {
    const { engine, hub, controller } = setup();
    const gate = deferred<SessionStop>();
    engine.next = () => Object.assign(new FakeSession(), { onStart: () => gate.promise });
    const first = controller.start('one');
    await new Promise((r) => setImmediate(r));
    assert.equal(controller.isBusy, true);
    assert.equal(await controller.start('two'), undefined);
    assert.equal(engine.sessions.length, 1);
    assert.match(texts(hub).at(-1)!, /still working/);
    gate.resolve({ kind: 'cancelled' });
    await first;
    assert.equal(controller.isBusy, false);
  });

  it('a Stop holds off Start Planning briefly, so a double click on Stop starts no plan', async () => {
    const { engine, controller } = setup();
    const gate = deferred<SessionStop>();
    engine.next = () => Object.assign(new FakeSession(), { onStart: () => gate.promise });
    const run = controller.start('one');
    await new Promise((r) => setImmediate(r));
    assert.equal(controller.justStopped(1000), false, 'nothing was stopped yet');
    controller.stop(1000);
    gate.resolve({ kind: 'cancelled' });
    await run;
    assert.equal(controller.justStopped(1000 + STOP_SETTLE_MS - 1), true);
    assert.equal(controller.justStopped(1000 + STOP_SETTLE_MS), false);
    controller.stop(5000);
    assert.equal(controller.justStopped(5001), false, 'a Stop with nothing running holds nothing off');
  });

  it('shows a blocked run with resume offered only when the archive can resume it', async () => {
    const { engine, hub, controller } = setup();
    engine.next = () =>
      Object.assign(new FakeSession(), {
        onStart: () => ({ kind: 'blocked', reason: 'blocked calls', resumeId: 's9' }) as SessionStop,
      });
    await controller.start('task');
    assert.deepEqual(
      hub.state.notices.map((n) => [n.kind, n.resumeAvailable, n.sessionId]),
      [['blocked_handoff', true, 's9']],
    );
    engine.next = () =>
      Object.assign(new FakeSession(), { onStart: () => ({ kind: 'blocked', reason: 'x' }) as SessionStop });
    await controller.start('again');
    assert.deepEqual(
      hub.state.notices.map((n) => [n.resumeAvailable, n.sessionId]),
      [[false, undefined]],
    );
  });

  it("keeps host-wide notices across sessions and drops a blocked run's notice with its session", async () => {
    const { engine, hub, controller } = setup();
    controller.setStandingNotice('trust', {
      id: 'restricted-mode',
      kind: 'warning',
      text: 'Restricted Mode',
      resumeAvailable: false,
    });
    engine.next = () =>
      Object.assign(new FakeSession(), { onStart: () => ({ kind: 'blocked', reason: 'stuck' }) as SessionStop });
    await controller.start('one');
    assert.deepEqual(
      hub.state.notices.map((n) => n.kind),
      ['warning', 'blocked_handoff'],
    );
    engine.next = () => new FakeSession();
    await controller.start('two');
    assert.deepEqual(
      hub.state.notices.map((n) => n.id),
      ['restricted-mode'],
    );
    controller.setStandingNotice('trust', undefined);
    assert.deepEqual(hub.state.notices, []);
  });

  it('reports errors in the panel and to the host', async () => {
    const { engine, hub, controller, errors } = setup();
    engine.next = () =>
      Object.assign(new FakeSession(), {
        onStart: () => {
          throw new Error('socket hang up');
        },
      });
    const stop = await controller.start('task');
    assert.deepEqual(stop, { kind: 'error', message: 'socket hang up' });
    assert.deepEqual(errors, ['socket hang up']);
    assert.equal(texts(hub).at(-1), 'socket hang up');
    assert.deepEqual(hub.state.transcript.at(-1), {
      id: hub.state.transcript.at(-1)!.id,
      kind: 'notice',
      level: 'error',
      text: 'socket hang up',
      actions: ['retry', 'changeProvider'],
    });
  });

  it('sends composer text to the live session and starts a new one when the last ended', async () => {
    const { engine, controller } = setup();
    engine.next = () =>
      Object.assign(new FakeSession(), {
        onStart: (s: FakeSession) => {
          s.state = 'planning';
          return { kind: 'completed', summary: '' } as SessionStop;
        },
      });
    await controller.submit('first task');
    await controller.submit('more detail');
    assert.deepEqual(engine.sessions[0]!.calls, ['start first task plan', 'submit more detail']);
    engine.sessions[0]!.state = 'idle';
    await controller.submit('next task');
    assert.equal(engine.sessions.length, 2);
  });

  it('switches modes: remembered before a session, sent as /plan or /plan off during one', async () => {
    const { engine, hub, controller } = setup();
    await controller.setMode('build');
    assert.equal(hub.state.lifecycle.mode, 'build');
    engine.next = () =>
      Object.assign(new FakeSession(), {
        onStart: (s: FakeSession) => {
          s.state = 'executing';
          return { kind: 'completed', summary: '' } as SessionStop;
        },
      });
    await controller.start('task');
    assert.deepEqual(engine.sessions[0]!.calls, ['start task build']);
    await controller.setMode('plan');
    assert.deepEqual(engine.sessions[0]!.calls.slice(1), ['submit /plan']);
  });

  it('cancels a plan: the cancel decision at the gate, otherwise stop and /plan off', async () => {
    const { engine, controller } = setup();
    const hold = deferred<SessionStop>();
    engine.next = () =>
      Object.assign(new FakeSession(), {
        onStart: (s: FakeSession) => {
          s.state = 'planning';
          return hold.promise;
        },
      });
    void controller.start('task');
    await new Promise((r) => setImmediate(r));
    const cancelling = controller.cancelPlan();
    hold.resolve({ kind: 'cancelled' });
    await cancelling;
    const s = engine.sessions[0]!;
    assert.equal(s.cancelled, 1);
    assert.deepEqual(s.calls.slice(1), ['submit /plan off']);
  });

  it('replaces the previous session: it is cancelled and its prompts are closed', async () => {
    const { engine, pending, controller } = setup();
    await controller.start('one');
    const open = pending.open('interview');
    await controller.start('two');
    assert.deepEqual(await open.promise, { kind: 'cancelled' }, 'its open question got the Esc answer');
    assert.equal(engine.sessions[0]!.cancelled, 1);
  });
});

describe('context keys', () => {
  it('maps lifecycle states onto the four when-clause values', () => {
    const base = { hasPlan: false, busy: false, gateOpen: false, pendingQuestion: false, pendingGrant: false };
    const state = (lifecycle: Parameters<typeof contextKeyValues>[0]['lifecycle'], gateOpen = false) =>
      contextKeyValues({ ...base, lifecycle, gateOpen }).state;
    assert.equal(state(undefined), 'idle');
    assert.equal(state('idle'), 'idle');
    assert.equal(state('planning'), 'planning');
    assert.equal(state('revising'), 'planning');
    assert.equal(state('awaiting_approval'), 'awaitingApproval');
    assert.equal(state('executing'), 'executing');
    assert.equal(state('cancelled'), 'idle');
    assert.equal(state('planning', true), 'awaitingApproval', 'an open approval request wins');
  });
});
