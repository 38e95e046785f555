import assert from 'node:assert/strict';
import {
  applyOps,
  coalesceOps,
  emptyViewState,
  parseHostMessage,
  parseWebviewMessage,
  ViewModel,
  type DeltaOp,
  type ViewState,
} from '../../src/protocol';

const assistant = (id: string, text = '') => ({ id, kind: 'assistant' as const, text, streaming: true });

describe('protocol: parsing', () => {
  it('accepts a snapshot of the empty state and a delta of every op kind', () => {
    assert.equal(parseHostMessage({ type: 'snapshot', seq: 0, state: emptyViewState() }).ok, true);
    const ops: DeltaOp[] = [
      { op: 'item.add', item: assistant('a1') },
      { op: 'item.append', id: 'a1', text: 'hi' },
      { op: 'item.patch', id: 'a1', patch: { streaming: false } },
      { op: 'transcript.restart', keep: ['a1'] },
      {
        op: 'tracker.set',
        tracker: {
          title: 'T',
          items: [],
          counts: { done: 0, inProgress: 0, pending: 0, blocked: 0, total: 0 },
          percent: 0,
        },
      },
      { op: 'budget.set', budget: null },
      { op: 'gate.set', gate: null },
      { op: 'interview.set', interview: null },
      { op: 'enterPlanning.set', prompt: { requestId: 'r1' } },
      { op: 'grantMore.set', prompt: null },
      { op: 'lifecycle.set', lifecycle: { state: 'planning', mode: 'plan', busy: true } },
      { op: 'handoff.set', handoff: { steps: [{ label: 'Starting build...', status: 'active' }] } },
      { op: 'notices.set', notices: [] },
      { op: 'flags.set', flags: { hasApiKey: true, trusted: false } },
    ];
    const r = parseHostMessage({ type: 'delta', seq: 1, ops });
    assert.equal(r.ok, true, r.ok ? '' : r.error);
  });

  it('rejects malformed host messages with an actionable description and never throws', () => {
    const bad: unknown[] = [
      null,
      42,
      'snapshot',
      { type: 'snapshot', seq: -1, state: emptyViewState() },
      { type: 'delta', seq: 1, ops: [] },
      { type: 'delta', seq: 1, ops: [{ op: 'item.append', id: 'x' }] },
      { type: 'delta', seq: 1.5, ops: [{ op: 'gate.set', gate: null }] },
      { type: 'delta', seq: 2, ops: [{ op: 'item.patch', id: 'x', patch: { kind: 'user' } }] },
      { type: 'explode' },
    ];
    for (const b of bad) {
      const r = parseHostMessage(b);
      assert.equal(r.ok, false, JSON.stringify(b));
      if (!r.ok) assert.match(r.error, /^Malformed host message/);
    }
    const r = parseHostMessage({ type: 'delta', seq: 1, ops: [{ op: 'item.append', id: 'x' }] });
    assert.ok(!r.ok && /of type 'delta'/.test(r.error) && /text/.test(r.error), !r.ok ? r.error : '');
  });

  it('limits an interview to 1–3 questions of 2–4 options', () => {
    const q = (n: number) => ({
      id: `q${n}`,
      header: 'H',
      question: 'Q?',
      options: [{ label: 'a' }, { label: 'b', recommended: true }],
    });
    const msg = (questions: unknown[]) => ({
      type: 'delta',
      seq: 1,
      ops: [{ op: 'interview.set', interview: { requestId: 'r', questions } }],
    });
    assert.equal(parseHostMessage(msg([q(1)])).ok, true);
    assert.equal(parseHostMessage(msg([q(1), q(2), q(3)])).ok, true);
    assert.equal(parseHostMessage(msg([])).ok, false);
    assert.equal(parseHostMessage(msg([q(1), q(2), q(3), q(4)])).ok, false);
    assert.equal(parseHostMessage(msg([{ ...q(1), options: [{ label: 'only' }] }])).ok, false);
  });

  it('accepts every webview message and rejects wrong shapes', () => {
    const good: unknown[] = [
      { type: 'ready' },
      { type: 'resync', lastSeq: -1 },
      { type: 'submit', text: '/plan' },
      { type: 'setMode', mode: 'build' },
      {
        type: 'interviewResponse',
        requestId: 'r',
        outcome: { kind: 'answered', answers: [{ questionId: 'q1', choice: 'a', note: 'n' }] },
      },
      { type: 'interviewResponse', requestId: 'r', outcome: { kind: 'cancelled' } },
      { type: 'approvalResponse', requestId: 'r', decision: 'revise', feedback: 'more tests' },
      { type: 'enterPlanningResponse', requestId: 'r', accept: false },
      { type: 'grantMore', requestId: 'r', grant: true },
      { type: 'openFile', path: 'src/a.ts', line: 42 },
      { type: 'runVerify', itemPath: '2.1', entry: 'npm test' },
      { type: 'runVerify', planFile: '.vtcode/plans/rate-limiting.md', itemPath: '2.1', entry: 'npm test' },
      { type: 'cancelVerify', itemPath: '2', entry: 'npm test' },
      { type: 'markChecked', itemPath: '3', entry: 'confirm the panel shows the plan' },
      { type: 'compareRevisions' },
      { type: 'resume', sessionId: 's-1' },
      { type: 'setApiKey' },
    ];
    for (const g of good) assert.equal(parseWebviewMessage(g).ok, true, JSON.stringify(g));
    const bad: unknown[] = [
      { type: 'submit', text: '' },
      { type: 'setMode', mode: 'auto' },
      { type: 'approvalResponse', requestId: 'r', decision: 'approve' },
      { type: 'approvalResponse', decision: 'execute' },
      { type: 'openFile', path: 'a.ts', line: 0 },
      { type: 'runVerify', itemPath: '0.1', entry: 'x' },
      { type: 'runVerify', planFile: '', itemPath: '1', entry: 'x' },
      { type: 'markChecked', itemPath: '1', entry: '' },
      { type: 'interviewResponse', requestId: 'r', outcome: { kind: 'answered', answers: [] } },
      { type: 'setUiState', state: {} },
    ];
    for (const b of bad) {
      const r = parseWebviewMessage(b);
      assert.equal(r.ok, false, JSON.stringify(b));
      if (!r.ok) assert.match(r.error, /^Malformed webview message/);
    }
  });
});

describe('protocol: applyOps', () => {
  const base = (): ViewState => ({ ...emptyViewState(), transcript: [assistant('a'), assistant('b', 'x')] });

  it('appends streamed text to the right item and keeps the others by identity', () => {
    const s0 = base();
    const s1 = applyOps(s0, [
      { op: 'item.append', id: 'b', text: 'y' },
      { op: 'item.append', id: 'b', text: 'z' },
    ]);
    assert.equal(s1.transcript[1]!.kind === 'assistant' && s1.transcript[1]!.text, 'xyz');
    assert.equal(s1.transcript[0], s0.transcript[0]);
    assert.equal(s0.transcript[1]!.kind === 'assistant' && s0.transcript[1]!.text, 'x', 'input not mutated');
    assert.equal(s1.gate, s0.gate);
  });

  it('appends to a plan item’s markdown and patches only fields of the item’s kind', () => {
    const s0: ViewState = {
      ...emptyViewState(),
      transcript: [{ id: 'p', kind: 'plan', markdown: '# A', file: '', revision: 1, valid: false, streaming: true }],
    };
    const s1 = applyOps(s0, [
      { op: 'item.append', id: 'p', text: '\n- step' },
      { op: 'item.patch', id: 'p', patch: { streaming: false, valid: true, file: '.vtcode/plans/a.md', ok: true } },
    ]);
    assert.deepEqual(s1.transcript[0], {
      id: 'p',
      kind: 'plan',
      markdown: '# A\n- step',
      file: '.vtcode/plans/a.md',
      revision: 1,
      valid: true,
      streaming: false,
    });
  });

  it('replaces an item added twice and skips ops naming unknown items', () => {
    const s1 = applyOps(base(), [
      { op: 'item.add', item: { id: 'a', kind: 'user', text: 'replaced' } },
      { op: 'item.append', id: 'nope', text: 'x' },
      { op: 'item.patch', id: 'nope', patch: { text: 'x' } },
    ]);
    assert.equal(s1.transcript.length, 2);
    assert.deepEqual(s1.transcript[0], { id: 'a', kind: 'user', text: 'replaced' });
  });

  it('restarts the transcript with only the items named, in their order, and ops after it apply', () => {
    const s0: ViewState = { ...base(), transcript: [assistant('a'), assistant('b', 'x'), assistant('c')] };
    const s1 = applyOps(s0, [
      { op: 'transcript.restart', keep: ['c', 'a', 'gone'] },
      { op: 'item.append', id: 'b', text: 'late' },
      { op: 'item.add', item: assistant('d') },
    ]);
    assert.deepEqual(
      s1.transcript.map((i) => i.id),
      ['a', 'c', 'd'],
    );
    assert.equal(s1.transcript[0], s0.transcript[0], 'kept items keep their identity');
    assert.equal(s0.transcript.length, 3, 'input not mutated');
    assert.equal(applyOps(s0, [{ op: 'transcript.restart', keep: ['a', 'b', 'c'] }]), s0);
  });

  it('returns the same state object when nothing changes', () => {
    const s0 = base();
    assert.equal(applyOps(s0, [{ op: 'item.append', id: 'missing', text: 'x' }]), s0);
  });

  it('coalesces consecutive appends to one item only', () => {
    const ops: DeltaOp[] = [
      { op: 'item.append', id: 'a', text: '1' },
      { op: 'item.append', id: 'a', text: '2' },
      { op: 'item.append', id: 'b', text: '3' },
      { op: 'item.append', id: 'a', text: '4' },
    ];
    assert.deepEqual(coalesceOps(ops), [
      { op: 'item.append', id: 'a', text: '12' },
      { op: 'item.append', id: 'b', text: '3' },
      { op: 'item.append', id: 'a', text: '4' },
    ]);
    assert.deepEqual(applyOps(base(), coalesceOps(ops)), applyOps(base(), ops));
  });
});

describe('protocol: ViewModel', () => {
  it('numbers deltas after the snapshot and a snapshot reflects every update', () => {
    const vm = new ViewModel();
    const snap = vm.snapshot();
    const d1 = vm.update([{ op: 'item.add', item: assistant('a') }])!;
    const d2 = vm.update([{ op: 'item.append', id: 'a', text: 'hello' }])!;
    assert.deepEqual([snap.seq + 1, snap.seq + 2], [d1.seq, d2.seq]);
    assert.equal(vm.update([]), undefined);
    const again = vm.snapshot();
    assert.equal(again.seq, d2.seq + 1);
    assert.deepEqual(again.state, applyOps(applyOps(emptyViewState(), d1.ops), d2.ops));
    assert.equal(parseHostMessage(JSON.parse(JSON.stringify(again))).ok, true);
  });
});
