import assert from 'node:assert/strict';
import type { SessionStop } from '../../src/core/session/api';
import { contextKeyValues } from '../../src/host/contextKeys';
import { PanelHub } from '../../src/host/panel/hub';
import { EventTranslator } from '../../src/host/panel/translate';
import { HostApprover } from '../../src/host/prompts/hostApprover';
import { PendingRequests } from '../../src/host/prompts/pending';
import type { PromptSurface } from '../../src/host/prompts/surface';
import { SessionController } from '../../src/host/session/controller';
import { emptyViewState, type DeltaOp } from '../../src/protocol';
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
    describeGate: async (planFile) => ({
      title: 'Plan',
      summary: 's',
      steps: ['a'],
      validation: { valid: true, problems: [] },
      contextPercent: 10,
      proposedDuringExecution: false,
      hasPreviousRevision: false,
      planFile: planFile.replace(/^\/ws\//, ''),
    }),
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

  it("resolves the engine's approval request when the person decides, with feedback only for revise", async () => {
    const { engine, hub, pending, controller } = setup();
    const surface: PromptSurface = {
      panelVisible: () => true,
      update: (ops: readonly DeltaOp[]) => hub.update(ops),
      offerNative: () => assert.fail('the panel is visible'),
      confirmCommand: async () => false,
    };
    const approver = new HostApprover({
      pending,
      surface,
      validate: async () => ({ valid: true, problems: [] }),
      relativePath: (p) => p,
    });
    const answers: unknown[] = [];
    engine.next = () =>
      Object.assign(new FakeSession(), {
        onStart: async () => {
          answers.push(
            await approver.approvePlan({
              planFile: '/ws/p.md',
              title: 'T',
              summary: 'S',
              steps: ['a'],
              contextUsagePercent: 12,
              proposedDuringExecution: false,
            }),
          );
          return { kind: 'completed', summary: '' } as SessionStop;
        },
      });
    const run = controller.start('task');
    while (!pending.has('approval')) await new Promise((r) => setImmediate(r));
    assert.equal(hub.state.gate?.title, 'T');
    assert.equal(contextKeyValues(controller.contextInputs()).state, 'awaitingApproval');
    assert.equal(await controller.decide('revise', 'smaller steps'), true);
    await run;
    assert.deepEqual(answers, [{ decision: 'revise', feedback: 'smaller steps' }]);
    assert.equal(hub.state.gate, null);
    assert.equal(await controller.decide('execute'), false, 'nothing waits any more');
  });

  it('is not busy while the person is asked, and a new start answers the open gate with cancel', async () => {
    const { engine, hub, pending, controller } = setup();
    const surface: PromptSurface = {
      panelVisible: () => true,
      update: (ops: readonly DeltaOp[]) => hub.update(ops),
      offerNative: () => undefined,
      confirmCommand: async () => false,
    };
    const approver = new HostApprover({
      pending,
      surface,
      validate: async () => ({ valid: true, problems: [] }),
      relativePath: (p) => p,
    });
    const decisions: string[] = [];
    engine.next = () =>
      Object.assign(new FakeSession(), {
        onStart: async () => {
          const r = await approver.approvePlan({
            planFile: '/ws/p.md',
            title: 'T',
            summary: '',
            steps: [],
            contextUsagePercent: 0,
            proposedDuringExecution: false,
          });
          decisions.push(r.decision);
          return { kind: r.decision === 'cancel' ? 'cancelled' : 'completed', summary: '' } as SessionStop;
        },
      });
    const first = controller.start('first plan');
    while (!pending.has('approval')) await new Promise((r) => setImmediate(r));
    assert.equal(controller.isBusy, false);
    assert.equal(contextKeyValues(controller.contextInputs()).busy, false);
    const second = controller.start('second plan');
    assert.equal((await first)?.kind, 'cancelled');
    assert.deepEqual(decisions, ['cancel']);
    while (!pending.has('approval')) await new Promise((r) => setImmediate(r));
    assert.equal(engine.sessions.length, 2);
    assert.equal(controller.current, engine.sessions[1]);
    controller.decide('execute');
    await second;
  });

  it('opens the gate itself when a run stops at awaiting_approval, and decides through the session', async () => {
    const { engine, hub, controller } = setup();
    engine.next = () =>
      Object.assign(new FakeSession(), {
        onStart: (s: FakeSession) => {
          s.state = 'awaiting_approval';
          s.planFile = '/ws/.vtcode/plans/p.md';
          return { kind: 'awaiting_approval', planFile: s.planFile } as SessionStop;
        },
        onDecide: () => ({ kind: 'completed', summary: 'built' }) as SessionStop,
      });
    await controller.start('task');
    const gate = hub.state.gate;
    assert.ok(gate);
    assert.equal(gate.planFile, '.vtcode/plans/p.md');
    assert.equal(await controller.decide('execute', undefined, 'someone-else'), false, 'a wrong request id is refused');
    assert.equal(await controller.decide('fresh_context', undefined, gate.requestId), true);
    await new Promise((r) => setImmediate(r));
    assert.deepEqual(engine.sessions[0]!.calls.slice(1), ['decide fresh_context']);
    assert.equal(hub.state.gate, null);
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
    assert.match(texts(hub).at(-1)!, /Planwise stopped: socket hang up/);
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

  it('resumes a session: the panel is rebuilt from the archive and a pending approval comes back', async () => {
    const { engine, hub, controller } = setup();
    engine.archived = [
      { type: 'thread.started', thread_id: 'old', mode: 'plan', task: 't', seq: 1, at: 1 },
      {
        type: 'item.completed',
        turn_id: 't',
        item: { id: 'u', kind: 'user_message', text: 'Plan the retry' },
        seq: 2,
        at: 2,
      },
      { type: 'turn.started', turn_id: 't2', seq: 3, at: 3 },
    ];
    await controller.resume('old');
    await new Promise((r) => setImmediate(r));
    assert.deepEqual(texts(hub), ['Plan the retry']);
    assert.equal(hub.state.lifecycle.busy, false, 'nothing runs after a resume');
    assert.equal(hub.state.gate?.planFile, '.vtcode/plans/p.md');
    assert.equal(contextKeyValues(controller.contextInputs()).state, 'awaitingApproval');
    assert.equal(await controller.decide('execute'), true);
    await new Promise((r) => setImmediate(r));
    assert.deepEqual(engine.sessions[0]!.calls, ['reopen', 'decide execute']);
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
