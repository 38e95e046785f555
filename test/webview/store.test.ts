import assert from 'node:assert/strict';
import { emptyViewState, parseHostMessage, ViewModel, type WebviewMessage } from '../../src/protocol';
import { PanelStore, type HostMessageCheck } from '../../webview/store';

function setup(check: HostMessageCheck | Promise<HostMessageCheck> = parseHostMessage) {
  const posted: WebviewMessage[] = [];
  const warnings: string[] = [];
  const frames: (() => void)[] = [];
  let clock = 0;
  const store = new PanelStore({
    post: (m) => posted.push(m),
    check,
    schedule: (f) => frames.push(f),
    warn: (m) => warnings.push(m),
    now: () => clock,
  });
  const host = new ViewModel();
  let renders = 0;
  store.subscribe(() => renders++);
  const frame = () => {
    while (frames.length) frames.shift()!();
  };
  return {
    store,
    host,
    posted,
    warnings,
    frame,
    renders: () => renders,
    tick: (ms: number) => {
      clock += ms;
    },
  };
}

const assistant = { id: 'a', kind: 'assistant' as const, text: '', streaming: true };
const t0Delta = () => new ViewModel().update([{ op: 'item.add', item: assistant }])!;

describe('webview store', () => {
  it('says ready on start and applies the snapshot at the next frame', () => {
    const t = setup();
    t.store.start();
    assert.deepEqual(t.posted, [{ type: 'ready' }]);
    t.host.update([{ op: 'item.add', item: assistant }]);
    t.store.receive(t.host.snapshot());
    assert.equal(t.store.getState().transcript.length, 0, 'nothing applied before the frame');
    t.frame();
    assert.equal(t.store.getState().transcript.length, 1);
    assert.equal(t.renders(), 1);
  });

  it("starts from the page's snapshot at once and names its seq in ready", () => {
    const t = setup();
    t.host.update([{ op: 'item.add', item: assistant }]);
    const page = t.host.snapshot();
    t.store.start(page);
    assert.equal(t.store.getState().transcript.length, 1, 'applied before any frame: the first render shows it');
    assert.equal(t.store.awaitingSnapshot, false);
    assert.deepEqual(t.posted, [{ type: 'ready', seq: page.seq }]);
    // The host sends nothing more while nothing changed; the next delta continues from the page's seq.
    t.store.receive(t.host.update([{ op: 'item.append', id: 'a', text: 'Hi' }]));
    t.frame();
    assert.equal((t.store.getState().transcript[0] as { text: string }).text, 'Hi');
    assert.equal(t.posted.length, 1, 'no resync: the delta followed the page');
  });

  it("says a plain ready when the page's snapshot is unusable (malformed, or not a snapshot)", () => {
    for (const bad of [{ type: 'snapshot', seq: 1, state: { nope: true } }, t0Delta()]) {
      const t = setup();
      t.store.start(bad);
      assert.deepEqual(t.posted, [{ type: 'ready' }]);
      assert.equal(t.store.awaitingSnapshot, true);
      assert.equal(t.store.droppedCount, 1);
      assert.match(t.warnings[0]!, /page's snapshot was not used/);
    }
  });

  it('coalesces a burst of streamed deltas into one render per frame', () => {
    const t = setup();
    t.store.receive(t.host.snapshot());
    t.store.receive(t.host.update([{ op: 'item.add', item: assistant }]));
    t.frame();
    const before = t.renders();
    for (const word of ['Hello', ', ', 'world', '!']) {
      t.store.receive(t.host.update([{ op: 'item.append', id: 'a', text: word }]));
    }
    t.frame();
    assert.equal(t.renders() - before, 1);
    const item = t.store.getState().transcript[0]!;
    assert.equal(item.kind === 'assistant' && item.text, 'Hello, world!');
    assert.deepEqual(t.store.getState(), t.host.state);
  });

  it('on a sequence gap asks once for a resync, ignores deltas until a snapshot, then recovers', () => {
    const t = setup();
    t.store.receive(t.host.snapshot());
    t.store.receive(t.host.update([{ op: 'item.add', item: assistant }]));
    t.host.update([{ op: 'item.append', id: 'a', text: 'lost' }]); // never delivered
    t.store.receive(t.host.update([{ op: 'item.append', id: 'a', text: ' later' }]));
    t.store.receive(t.host.update([{ op: 'item.append', id: 'a', text: ' more' }]));
    assert.deepEqual(
      t.posted.filter((m) => m.type === 'resync'),
      [{ type: 'resync', lastSeq: 2 }],
    );
    assert.equal(t.store.awaitingSnapshot, true);
    t.frame();
    const a = t.store.getState().transcript[0]!;
    assert.equal(a.kind === 'assistant' && a.text, '', 'no delta after the gap was applied');
    t.store.receive(t.host.snapshot());
    t.frame();
    assert.deepEqual(t.store.getState(), t.host.state);
    t.store.receive(t.host.update([{ op: 'item.append', id: 'a', text: '!' }]));
    t.frame();
    assert.deepEqual(t.store.getState(), t.host.state);
  });

  it('asks again after a second when the snapshot does not come', () => {
    const t = setup();
    t.store.receive(t.host.snapshot());
    t.host.update([{ op: 'item.add', item: assistant }]);
    t.store.receive(t.host.update([{ op: 'item.append', id: 'a', text: 'x' }]));
    t.tick(500);
    t.store.receive(t.host.update([{ op: 'item.append', id: 'a', text: 'y' }]));
    assert.equal(t.posted.filter((m) => m.type === 'resync').length, 1);
    t.tick(600);
    t.store.receive(t.host.update([{ op: 'item.append', id: 'a', text: 'z' }]));
    assert.equal(t.posted.filter((m) => m.type === 'resync').length, 2);
  });

  it('drops replayed deltas it has already applied', () => {
    const t = setup();
    t.store.receive(t.host.snapshot());
    t.store.receive(t.host.update([{ op: 'item.add', item: assistant }]));
    const d = t.host.update([{ op: 'item.append', id: 'a', text: 'once' }])!;
    t.store.receive(d);
    t.store.receive(d);
    t.frame();
    const a = t.store.getState().transcript[0]!;
    assert.equal(a.kind === 'assistant' && a.text, 'once');
    assert.equal(t.posted.length, 0);
  });

  it('ignores deltas before the first snapshot and asks for one', () => {
    const t = setup();
    t.host.snapshot();
    t.store.receive(t.host.update([{ op: 'item.add', item: assistant }]));
    t.frame();
    assert.deepEqual(t.store.getState(), emptyViewState());
    assert.deepEqual(t.posted, [{ type: 'resync', lastSeq: -1 }]);
  });

  it('drops and counts malformed messages without changing state', () => {
    const t = setup();
    t.store.receive(t.host.snapshot());
    t.frame();
    const state = t.store.getState();
    const seq = t.store.lastSeq;
    for (const bad of [undefined, 'text', { type: 'delta', seq: seq + 1, ops: [{ op: 'gate.set' }] }, { seq: 9 }]) {
      t.store.receive(bad);
    }
    t.frame();
    assert.equal(t.store.droppedCount, 4);
    assert.equal(t.warnings.length, 4);
    assert.match(t.warnings[2]!, /Malformed host message of type 'delta'/);
    assert.equal(t.store.getState(), state);
    assert.equal(t.store.lastSeq, seq, 'a malformed delta does not consume a sequence number');
  });
});

describe('webview store: the check loads after the first paint', () => {
  /** A check whose chunk arrives when the test says. */
  function lateCheck() {
    let arrive!: () => void;
    let fail!: (err: Error) => void;
    const check = new Promise<HostMessageCheck>((resolve, reject) => {
      arrive = () => resolve(parseHostMessage);
      fail = reject;
    });
    // Lets the store's `then` run.
    const settle = () => new Promise<void>((r) => setImmediate(r));
    return { check, arrive, fail, settle };
  }

  it("shows the page's snapshot before the check, and keeps it once checked", async () => {
    const late = lateCheck();
    const t = setup(late.check);
    t.host.update([{ op: 'item.add', item: assistant }]);
    const page = t.host.snapshot();
    t.store.start(page);
    assert.equal(t.store.getState().transcript.length, 1, 'the first render shows it');
    assert.deepEqual(t.posted, [{ type: 'ready', seq: page.seq }]);
    late.arrive();
    await late.settle();
    assert.equal(t.store.getState().transcript.length, 1);
    assert.deepEqual(t.warnings, []);
    assert.equal(t.posted.length, 1, 'no resync');
  });

  it('holds messages until the check arrives, then checks and applies them in order', async () => {
    const late = lateCheck();
    const t = setup(late.check);
    const page = t.host.snapshot();
    t.store.start(page);
    t.store.receive(t.host.update([{ op: 'item.add', item: assistant }]));
    t.store.receive({ type: 'delta', seq: 99, ops: [{ op: 'gate.set' }] });
    t.store.receive(t.host.update([{ op: 'item.append', id: 'a', text: 'Hi' }]));
    t.frame();
    assert.equal(t.store.getState().transcript.length, 0, 'nothing applied before the check');
    late.arrive();
    await late.settle();
    t.frame();
    assert.equal((t.store.getState().transcript[0] as { text: string }).text, 'Hi', 'both deltas, in order');
    assert.equal(t.store.droppedCount, 1, 'the malformed one is dropped');
    assert.match(t.warnings[0]!, /Malformed host message of type 'delta'/);
    assert.equal(t.posted.length, 1, 'no resync: the deltas followed the page');
  });

  it('drops a page snapshot the check refuses, shows the empty state, and asks for a fresh one', async () => {
    const late = lateCheck();
    const t = setup(late.check);
    const bad = { type: 'snapshot', seq: 4, state: { ...emptyViewState(), transcript: [{ id: 'x', kind: 'nope' }] } };
    t.store.start(bad);
    assert.equal(t.store.getState().transcript.length, 1, 'shown before the check');
    const renders = t.renders();
    late.arrive();
    await late.settle();
    assert.deepEqual(t.store.getState(), emptyViewState());
    assert.ok(t.renders() > renders, 'the listeners hear of it');
    assert.equal(t.store.awaitingSnapshot, true);
    assert.equal(t.store.droppedCount, 1);
    assert.match(t.warnings[0]!, /page's snapshot was not used/);
    assert.deepEqual(t.posted, [
      { type: 'ready', seq: 4 },
      { type: 'resync', lastSeq: -1 },
    ]);
    // The host's answer is applied.
    t.store.receive(t.host.snapshot());
    t.frame();
    assert.equal(t.store.awaitingSnapshot, false);
  });

  it('does not show a page snapshot of the wrong shape before the check', () => {
    const t = setup(lateCheck().check);
    t.store.start({ type: 'snapshot', seq: 1, state: { transcript: 'no' } });
    assert.deepEqual(t.store.getState(), emptyViewState());
    assert.equal(t.store.awaitingSnapshot, true);
    assert.deepEqual(t.posted, [{ type: 'ready' }]);
  });

  it('says so when the check cannot load, and applies nothing unchecked', async () => {
    const late = lateCheck();
    const t = setup(late.check);
    t.store.start();
    t.store.receive(t.host.snapshot());
    late.fail(new Error('chunk fetch failed'));
    await late.settle();
    t.frame();
    assert.deepEqual(t.store.getState(), emptyViewState());
    assert.match(t.warnings[0]!, /could not load its message checks.*chunk fetch failed/);
    // Later messages are dropped and counted, not kept.
    t.store.receive(t.host.snapshot());
    assert.equal(t.store.droppedCount, 2);
    assert.equal(t.warnings.length, 1, 'said once');
  });
});
