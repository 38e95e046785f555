/**
 * The behaviour composeHost used to hold, now in files of their own: the lens refresh (on every
 * verify result, and every minute while results exist), the plan-file watcher, and auto-resume.
 */
import assert from 'node:assert/strict';
import { Verifier } from '../../src/core/index';
import { NodeCommandRunner } from '../../src/node/processRunner';
import { lensRefresh } from '../../src/host/codelens/lensRefresh';
import { autoResume, LAST_SESSION_KEY } from '../../src/host/session/autoResume';
import type { ThreadEvent } from '../../src/core/events/types';
import { foldStanding, NO_STANDING } from '../../src/core/session/standing';
import { watchPlanFiles, type WatcherLike } from '../../src/host/session/planFileWatcher';
import { FakeSession } from './support';
import { makeTempWorkspace } from '../support/tempWorkspace';
import { CLICK, policyFor } from '../support/commandPolicy';

function manualTimers() {
  const ticks: (() => void)[] = [];
  return {
    timers: { set: (fn: () => void) => ticks.push(fn), clear: () => ticks.splice(0) },
    tick: () => ticks.forEach((t) => t()),
    get active() {
      return ticks.length;
    },
  };
}

describe('lens refresh', () => {
  it('asks for lenses on every verify result, and on each tick only while results exist', async () => {
    const ws = makeTempWorkspace({});
    try {
      const verifier = new Verifier({
        runner: new NodeCommandRunner(),
        cwd: () => ws.root,
        now: Date.now,
        policy: policyFor(ws.root),
      });
      const t = manualTimers();
      let fired = 0;
      const refresh = lensRefresh({ verifier, fire: () => fired++, timers: t.timers });
      t.tick();
      assert.equal(fired, 0, 'no results: nothing to refresh');
      const entry = { kind: 'command' as const, text: 'true', command: 'true' };
      await verifier.run('/p.md', '1', entry, CLICK);
      assert.equal(fired, 2, 'running, then passed');
      t.tick();
      assert.equal(fired, 3, 'a minute later "just now" becomes "1 min ago"');
      refresh.dispose();
      assert.equal(t.active, 0);
      await verifier.run('/p.md', '1', entry, CLICK);
      assert.equal(fired, 3, 'disposed: no more refreshes');
    } finally {
      ws.cleanup();
    }
  });
});

describe('plan-file watcher', () => {
  function fakeWatcher() {
    const channels = { create: [], change: [], delete: [] } as Record<string, ((u: { fsPath: string }) => void)[]>;
    let disposed = false;
    const on = (name: string) => (l: (u: { fsPath: string }) => void) => {
      channels[name]!.push(l);
      return { dispose: () => undefined };
    };
    const watcher: WatcherLike = {
      onDidCreate: on('create'),
      onDidChange: on('change'),
      onDidDelete: on('delete'),
      dispose: () => (disposed = true),
    };
    const emit = (fsPath: string, kind = 'change') => channels[kind]!.forEach((l) => l({ fsPath }));
    return { watcher, emit, disposed: () => disposed };
  }

  it('refreshes lenses and rechecks for plans on a plan or revision change only', async () => {
    const w = fakeWatcher();
    let folder = true;
    let plans = false;
    const seen: boolean[] = [];
    let lenses = 0;
    const changed: string[] = [];
    const watch = watchPlanFiles({
      watcher: w.watcher,
      onDidChangeWorkspaceFolders: () => ({ dispose: () => undefined }),
      hasFolder: () => folder,
      isPlanFile: (p) => /\/\.vtcode\/plans\/[^/]+\.md$/.test(p) && !p.endsWith('.tasks.md'),
      anyPlan: async () => plans,
      lensesChanged: () => lenses++,
      planChanged: (file) => {
        changed.push(file);
        return false;
      },
      onPlansOnDisk: (any) => seen.push(any),
    });
    await watch.recheck();
    assert.deepEqual(seen, [false, false]);
    plans = true;
    w.emit('/ws/README.md');
    assert.equal(lenses, 0, 'not a plan');
    w.emit('/ws/.vtcode/plans/1-a-b.md');
    w.emit('/ws/.vtcode/plans/1-a-b.history/002.md', 'create');
    await new Promise((r) => setImmediate(r));
    w.emit('/ws/.vtcode/plans/1-a-b.tasks.md');
    w.emit('/ws/notes/x.tasks.md');
    await new Promise((r) => setImmediate(r));
    assert.equal(lenses, 2);
    assert.deepEqual(seen.slice(2), [true, true]);
    assert.deepEqual(
      changed,
      ['/ws/.vtcode/plans/1-a-b.md', '/ws/.vtcode/plans/1-a-b.tasks.md'],
      "a plan and its tracker file go to the plans' owner; a revision or another folder's file does not",
    );
    folder = false;
    w.emit('/ws/.vtcode/plans/1-a-b.md');
    assert.equal(lenses, 2, 'no folder open: nothing is a plan');
    watch.dispose();
    assert.equal(w.disposed(), true);
  });
});

describe('plan files followed by their owner', () => {
  it('a plan write the owner re-reads asks for no lenses of its own; a revision still does', () => {
    const listeners: ((uri: { fsPath: string }) => void)[] = [];
    const sub = (l: (uri: { fsPath: string }) => void) => {
      listeners.push(l);
      return { dispose: () => undefined };
    };
    let lenses = 0;
    const watch = watchPlanFiles({
      watcher: { onDidCreate: sub, onDidChange: sub, onDidDelete: sub, dispose: () => undefined },
      onDidChangeWorkspaceFolders: () => ({ dispose: () => undefined }),
      hasFolder: () => true,
      isPlanFile: (p) => /\/\.vtcode\/plans\/[^/]+\.md$/.test(p) && !p.endsWith('.tasks.md'),
      anyPlan: async () => true,
      lensesChanged: () => lenses++,
      planChanged: () => true,
      onPlansOnDisk: () => undefined,
    });
    listeners[1]!({ fsPath: '/ws/.vtcode/plans/1-a-b.md' });
    assert.equal(lenses, 0);
    listeners[0]!({ fsPath: '/ws/.vtcode/plans/1-a-b.history/002.md' });
    assert.equal(lenses, 1);
    watch.dispose();
  });
});

describe('auto-resume', () => {
  function memento(initial: Record<string, unknown> = {}) {
    const data = new Map(Object.entries(initial));
    return {
      get: <T>(k: string) => data.get(k) as T | undefined,
      update: async (k: string, v: unknown) => void data.set(k, v),
      data,
    };
  }

  function fakeController(current?: FakeSession) {
    const listeners = new Set<() => void>();
    const resumed: string[] = [];
    return {
      current,
      resumed,
      onDidChange: (l: () => void) => {
        listeners.add(l);
        return { dispose: () => listeners.delete(l) };
      },
      resume: async (id: string) => void resumed.push(id),
      changed: () => listeners.forEach((l) => l()),
    };
  }

  const log = { info: () => undefined, warn: () => undefined };

  it('keeps the id of a live session, forgets an ended one, and resumes a kept id at start-up', () => {
    const state = memento();
    const c = fakeController();
    const sub = autoResume({ controller: c, state, log, describeError: String });
    assert.deepEqual(c.resumed, [], 'nothing was kept');
    const s = new FakeSession('s-live');
    s.state = 'awaiting_approval';
    c.current = s;
    c.changed();
    assert.equal(state.data.get(LAST_SESSION_KEY), 's-live');
    s.state = 'idle';
    c.changed();
    assert.equal(state.data.get(LAST_SESSION_KEY), undefined);
    sub.dispose();

    const next = fakeController();
    autoResume({ controller: next, state: memento({ [LAST_SESSION_KEY]: 's-old' }), log, describeError: String });
    assert.deepEqual(next.resumed, ['s-old']);
  });

  it("keeps an idle session while a step awaits the person's check, and forgets it once none does", () => {
    const state = memento();
    const c = fakeController();
    let awaiting = true;
    autoResume({ controller: c, state, log, describeError: String, awaitingCheck: () => awaiting });
    const s = new FakeSession('s-built');
    s.state = 'idle';
    c.current = s;
    c.changed();
    assert.equal(state.data.get(LAST_SESSION_KEY), 's-built');
    awaiting = false;
    c.changed();
    assert.equal(state.data.get(LAST_SESSION_KEY), undefined);
    awaiting = true;
    s.state = 'cancelled';
    c.changed();
    assert.equal(state.data.get(LAST_SESSION_KEY), undefined, 'a cancelled session is never kept');
  });

  it("the session's standing reads the engine's awaiting flag at any depth of the announced tracker", () => {
    type Item = Extract<ThreadEvent, { type: 'tracker.updated' }>['items'][number];
    const node = (awaitingCheck: boolean, children: Item[] = []): Item =>
      ({ awaitingCheck, children }) as unknown as Item;
    const fold = (items: Item[]) =>
      foldStanding(NO_STANDING, {
        type: 'tracker.updated',
        title: 'T',
        items,
        counts: { done: 0, inProgress: 0, pending: 1, blocked: 0, total: 1 },
        percent: 0,
        seq: 1,
        at: 0,
      }).tracker?.awaitingCheck;
    assert.equal(fold([node(false), node(false, [node(false)])]), false);
    assert.equal(fold([node(false), node(false, [node(false, [node(true)])])]), true);
  });
});
