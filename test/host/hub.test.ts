import assert from 'node:assert/strict';
import { PanelHub } from '../../src/host/panel/hub';
import { applyOps, emptyViewState, type HostMessage, type ViewState } from '../../src/protocol';

/** A webview stand-in: applies what it receives exactly as the real store does (snapshot, then seq+1 deltas). */
function fakeWebview() {
  const received: HostMessage[] = [];
  let state: ViewState | undefined;
  let seq = -1;
  let gap = false;
  let deliver = true;
  return {
    received,
    post: (m: HostMessage) => {
      if (!deliver) return Promise.resolve(false);
      received.push(m);
      if (m.type === 'snapshot') {
        state = m.state;
        seq = m.seq;
        gap = false;
      } else if (m.seq === seq + 1 && state) {
        state = applyOps(state, m.ops);
        seq = m.seq;
      } else {
        gap = true;
      }
      return Promise.resolve(true);
    },
    get state() {
      return state;
    },
    get gap() {
      return gap;
    },
    drop(on: boolean) {
      deliver = !on;
    },
  };
}

function manualScheduler() {
  const queue: (() => void)[] = [];
  return { schedule: (fn: () => void) => queue.push(fn), run: () => queue.splice(0).forEach((f) => f()) };
}

const notice = (id: string, text = id) => ({
  op: 'item.add' as const,
  item: { id, kind: 'notice' as const, level: 'info' as const, text },
});
const tick = () => new Promise((r) => setImmediate(r));

describe('panel hub: snapshot, seq-numbered deltas, buffering while hidden', () => {
  it('posts nothing before the webview is ready, then a snapshot with everything so far', () => {
    const s = manualScheduler();
    const hub = new PanelHub(emptyViewState(), { schedule: s.schedule });
    const web = fakeWebview();
    hub.update([notice('a')]);
    s.run();
    hub.attach(web.post, true);
    hub.update([notice('b')]);
    s.run();
    assert.equal(web.received.length, 0);
    hub.sendSnapshot();
    assert.equal(web.received.length, 1);
    assert.deepEqual(
      web.state?.transcript.map((i) => i.id),
      ['a', 'b'],
    );
  });

  it('sends consecutive deltas after the snapshot, one per batch, with streamed appends merged', () => {
    const s = manualScheduler();
    const hub = new PanelHub(emptyViewState(), { schedule: s.schedule });
    const web = fakeWebview();
    hub.attach(web.post, true);
    hub.sendSnapshot();
    hub.update([{ op: 'item.add', item: { id: 'x', kind: 'assistant', text: '', streaming: true } }]);
    hub.update([{ op: 'item.append', id: 'x', text: 'a' }]);
    hub.update([{ op: 'item.append', id: 'x', text: 'b' }]);
    s.run();
    hub.update([{ op: 'item.append', id: 'x', text: 'c' }]);
    s.run();
    const deltas = web.received.filter((m) => m.type === 'delta');
    assert.equal(deltas.length, 2);
    assert.equal(deltas[0]!.type === 'delta' && deltas[0]!.ops.length, 2, 'the two appends became one op');
    assert.equal(web.gap, false);
    assert.deepEqual(web.state?.transcript, [{ id: 'x', kind: 'assistant', text: 'abc', streaming: true }]);
    assert.deepEqual(web.state, hub.state);
  });

  it('answers every ready with a fresh snapshot', () => {
    const hub = new PanelHub(emptyViewState(), { schedule: (f) => f() });
    const web = fakeWebview();
    hub.attach(web.post, true);
    hub.sendSnapshot();
    hub.update([notice('a')]);
    hub.sendSnapshot();
    assert.deepEqual(
      web.received.map((m) => m.type),
      ['snapshot', 'delta', 'snapshot'],
    );
    assert.ok(web.received[2]!.seq > web.received[1]!.seq);
  });

  it("sends nothing on the page's ready while its snapshot is the latest; the next delta follows it", () => {
    const s = manualScheduler();
    const hub = new PanelHub(emptyViewState(), { schedule: s.schedule });
    hub.update([notice('a')]);
    const web = fakeWebview();
    hub.attach(web.post, true);
    const page = hub.pageSnapshot();
    assert.equal(page.type, 'snapshot');
    assert.deepEqual(
      page.type === 'snapshot' && page.state.transcript.map((i) => i.id),
      ['a'],
      'the page carries what was queued',
    );
    void web.post(page); // the page renders it before any message
    hub.answerReady(page.seq);
    assert.equal(web.received.length, 1, 'no second snapshot');
    hub.update([notice('b')]);
    s.run();
    assert.deepEqual(
      web.received.map((m) => m.type),
      ['snapshot', 'delta'],
    );
    assert.equal(web.gap, false);
    assert.deepEqual(web.state, hub.state);
  });

  it("sends a snapshot on ready when the state moved on since the page's, or the page shows none", () => {
    for (const held of ['old', 'none'] as const) {
      const s = manualScheduler();
      const hub = new PanelHub(emptyViewState(), { schedule: s.schedule });
      const web = fakeWebview();
      hub.attach(web.post, true);
      const page = hub.pageSnapshot();
      void web.post(page);
      hub.update([notice('late')]); // before the page said ready: not posted
      s.run();
      assert.equal(web.received.length, 1);
      hub.answerReady(held === 'old' ? page.seq : undefined);
      assert.deepEqual(
        web.received.map((m) => m.type),
        ['snapshot', 'snapshot'],
        held,
      );
      assert.deepEqual(
        web.state?.transcript.map((i) => i.id),
        ['late'],
        held,
      );
    }
  });

  it("cleans the page's snapshot like every posted message", () => {
    const hub = new PanelHub(emptyViewState(), {
      schedule: (f) => f(),
      sanitize: (m) => JSON.parse(JSON.stringify(m).replace(/sk-secret/g, '[redacted]')) as HostMessage,
    });
    hub.update([notice('a', 'key sk-secret leaked')]);
    hub.attach(fakeWebview().post, true);
    assert.doesNotMatch(JSON.stringify(hub.pageSnapshot()), /sk-secret/);
  });

  it('buffers while hidden and catches up with one snapshot when shown again', () => {
    const hub = new PanelHub(emptyViewState(), { schedule: (f) => f() });
    const web = fakeWebview();
    hub.attach(web.post, true);
    hub.sendSnapshot();
    hub.setVisible(false);
    for (const id of ['a', 'b', 'c']) hub.update([notice(id)]);
    assert.equal(web.received.length, 1, 'nothing is posted to a hidden view');
    hub.setVisible(true);
    assert.deepEqual(
      web.received.map((m) => m.type),
      ['snapshot', 'snapshot'],
    );
    assert.deepEqual(
      web.state?.transcript.map((i) => i.id),
      ['a', 'b', 'c'],
    );
    hub.update([notice('d')]);
    assert.equal(web.received.at(-1)!.type, 'delta');
    assert.equal(web.gap, false);
  });

  it('repairs a message VS Code did not deliver with a snapshot on the next change', async () => {
    const hub = new PanelHub(emptyViewState(), { schedule: (f) => f() });
    const web = fakeWebview();
    hub.attach(web.post, true);
    hub.sendSnapshot();
    web.drop(true);
    hub.update([notice('lost')]);
    await tick();
    web.drop(false);
    hub.update([notice('next')]);
    assert.equal(web.received.at(-1)!.type, 'snapshot');
    assert.deepEqual(
      web.state?.transcript.map((i) => i.id),
      ['lost', 'next'],
    );
  });

  it('starts over after a re-created view: not ready until it says so', () => {
    const hub = new PanelHub(emptyViewState(), { schedule: (f) => f() });
    const first = fakeWebview();
    hub.attach(first.post, true);
    hub.sendSnapshot();
    hub.detach();
    hub.update([notice('while-gone')]);
    const second = fakeWebview();
    hub.attach(second.post, true);
    hub.update([notice('before-ready')]);
    assert.equal(second.received.length, 0);
    hub.sendSnapshot();
    assert.deepEqual(
      second.state?.transcript.map((i) => i.id),
      ['while-gone', 'before-ready'],
    );
  });

  it('sanitises every message before posting and tells state listeners', () => {
    const seen: number[] = [];
    const hub = new PanelHub(emptyViewState(), {
      schedule: (f) => f(),
      sanitize: (m) => JSON.parse(JSON.stringify(m).replace(/secret/g, '[redacted]')) as HostMessage,
    });
    hub.onDidChangeState((s) => seen.push(s.transcript.length));
    const web = fakeWebview();
    hub.attach(web.post, true);
    hub.sendSnapshot();
    hub.update([notice('n', 'the secret is out')]);
    assert.equal((web.state?.transcript[0] as { text: string }).text, 'the [redacted] is out');
    assert.deepEqual(seen, [1]);
  });

  it('replaces the whole state on reset', () => {
    const hub = new PanelHub(emptyViewState(), { schedule: (f) => f() });
    const web = fakeWebview();
    hub.attach(web.post, true);
    hub.sendSnapshot();
    hub.update([notice('old')]);
    hub.reset({ ...emptyViewState(), lifecycle: { state: 'planning', mode: 'plan', busy: true } });
    assert.deepEqual(web.state?.transcript, []);
    assert.equal(web.state?.lifecycle.state, 'planning');
  });
});
