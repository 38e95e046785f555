import assert from 'node:assert/strict';
import { TurnGuards, metadataStub } from '../../src/core/agent/guards';
import type { GuardCall } from '../../src/core/agent/guards';

const KIB = 1024;
const readCall = (path: string): GuardCall => ({ tool: 'read_file', kind: 'read', args: { path } });
const spoolCall: GuardCall = { tool: 'read_spool', kind: 'spool', args: { id: 's1', offset: 0 } };
const testCall: GuardCall = { tool: 'exec_command', kind: 'shell', args: { command: 'npm test' } };
const interviewCall: GuardCall = { tool: 'request_user_input', kind: 'interview', args: {} };
const trackerCall: GuardCall = { tool: 'task_tracker', kind: 'tracker', args: {} };
const planReread: GuardCall = {
  tool: 'read_file',
  kind: 'read',
  args: { path: '.planwise/plans/p.md' },
  category: 'bookkeeping',
};

/** Admits and charges one read of `bytes`; returns the bytes shown and the afterCall action type. */
function readOf(g: TurnGuards, i: number, bytes: number, explicitMax?: number): { shown: number; action: string } {
  const call = readCall(`src/f${i}.ts`);
  const admission = g.beforeCall(call);
  assert.equal(admission.admit, true, `read ${i} admitted`);
  const shown = g.previewFor(bytes, explicitMax);
  const action = g.afterCall({
    ...call,
    blocked: false,
    ok: true,
    lowSignal: false,
    resultHash: `r${i}`,
    bytes,
    category: 'navigation',
  });
  return { shown, action: action.type };
}

describe('guards: tool preview budget', () => {
  const perResult: { name: string; mode: 'plan' | 'build'; call: GuardCall; explicitMax?: number; want: number }[] = [
    { name: 'planning inspection without an explicit maximum', mode: 'plan', call: readCall('a'), want: 8 * KIB },
    {
      name: 'planning inspection with an explicit maximum',
      mode: 'plan',
      call: readCall('a'),
      explicitMax: 12 * KIB,
      want: 12 * KIB,
    },
    {
      name: 'planning explicit maximum above the full default',
      mode: 'plan',
      call: readCall('a'),
      explicitMax: 64 * KIB,
      want: 16 * KIB,
    },
    { name: 'planning verification command', mode: 'plan', call: testCall, want: 16 * KIB },
    { name: 'build inspection', mode: 'build', call: readCall('a'), want: 16 * KIB },
  ];
  for (const p of perResult) {
    it(`per-result limit: ${p.name} → ${p.want / KIB} KiB`, () => {
      const g = new TurnGuards({}, p.mode);
      assert.equal(g.resultLimit(p.call, p.explicitMax), p.want);
      assert.equal(g.previewFor(100 * KIB, p.explicitMax, p.call), p.want);
    });
  }

  const turnBudgets: { mode: 'plan' | 'build' | 'recovery'; max: number }[] = [
    { mode: 'plan', max: 96 * KIB },
    { mode: 'build', max: 32 * KIB },
    { mode: 'recovery', max: 32 * KIB },
  ];
  for (const t of turnBudgets) {
    it(`${t.mode}: the turn budget is ${t.max / KIB} KiB`, () => {
      const g = new TurnGuards({}, t.mode);
      let shown = 0;
      for (let i = 0; i < 40; i++) shown += g.previewFor(8 * KIB, undefined, readCall(`f${i}`));
      assert.equal(shown, t.max);
      assert.deepEqual(g.snapshot().previewBytes, { used: t.max, max: t.max });
    });
  }

  it('the result that crosses the budget is cut to what remains', () => {
    const g = new TurnGuards({ previewTurnBytes: { plan: 20 * KIB, build: 0 } }, 'plan');
    assert.equal(g.previewFor(8 * KIB, undefined, readCall('a')), 8 * KIB);
    assert.equal(g.previewFor(8 * KIB, undefined, readCall('b')), 8 * KIB);
    assert.equal(g.resultLimit(readCall('c')), 4 * KIB);
    assert.equal(g.previewFor(8 * KIB, undefined, readCall('c')), 4 * KIB);
    assert.equal(g.stats.previewBytes.exhausted, true);
  });

  it('planning: exhaustion schedules ONE synthesis pass immediately, then rejects new inspections at admission', () => {
    const g = new TurnGuards({}, 'plan');
    const results = Array.from({ length: 12 }, (_, i) => readOf(g, i, 10 * KIB));
    assert.deepEqual(
      results.map((r) => r.action),
      [...Array.from({ length: 11 }, () => 'continue'), 'synthesis'],
    );
    assert.equal(g.stats.synthesis, 'preview_budget');
    const admission = g.beforeCall(readCall('src/more.ts'));
    assert.equal(admission.admit, false);
    assert.equal(!admission.admit && admission.action, undefined, 'answered with a stub, not a stop');
    assert.match(
      !admission.admit ? admission.stub : '',
      /read_file was not run: this turn's 96 KiB tool preview budget is exhausted/,
    );
    assert.equal(g.stats.toolCalls.used, 13, 'the rejected call still counts');
  });

  it('build: exhaustion gives metadata stubs but schedules no synthesis pass', () => {
    const g = new TurnGuards({}, 'build');
    const results = Array.from({ length: 4 }, (_, i) => readOf(g, i, 8 * KIB));
    assert.ok(results.every((r) => r.action === 'continue'));
    assert.equal(g.stats.previewBytes.exhausted, true);
    assert.equal(g.stats.synthesis, undefined);
    assert.equal(g.beforeCall(readCall('x')).admit, false);
    assert.equal(g.beforeCall(testCall).admit, true);
    assert.equal(g.previewFor(2000), 0);
  });

  it('verification, interview, tracker and plan-draft re-reads stay open after exhaustion', () => {
    const g = new TurnGuards({ previewTurnBytes: { plan: 8 * KIB, build: 8 * KIB } }, 'plan');
    g.previewFor(8 * KIB, undefined, readCall('a'));
    for (const call of [testCall, interviewCall, trackerCall, planReread]) {
      assert.equal(g.beforeCall(call).admit, true, call.tool);
    }
    // Verification output past the budget becomes a stub; interview, tracker and the plan draft are not previews.
    assert.equal(g.previewFor(3000, undefined, testCall), 0);
    assert.equal(g.previewFor(3000, undefined, interviewCall), 3000);
    assert.equal(g.previewFor(3000, undefined, trackerCall), 3000);
    assert.equal(g.previewFor(3000, undefined, planReread), 3000);
    assert.equal(g.stats.previewBytes.used, 8 * KIB);
  });

  it('paged spool reads keep working on the per-page credit, up to the sequential cap', () => {
    const g = new TurnGuards(
      { previewTurnBytes: { plan: 8 * KIB, build: 0 }, spoolPageCreditBytes: 2 * KIB, spoolSequentialReads: 3 },
      'plan',
    );
    g.previewFor(8 * KIB, undefined, readCall('a'));
    for (let i = 0; i < 3; i++) {
      assert.equal(g.beforeCall(spoolCall).admit, true, `spool page ${i + 1}`);
      assert.equal(g.previewFor(16 * KIB), 2 * KIB);
    }
    const fourth = g.beforeCall(spoolCall);
    assert.equal(fourth.admit, false);
    assert.match(!fourth.admit ? fourth.stub : '', /3 spool pages in a row .* \(at most 3\)/);
    assert.deepEqual(g.stats.spoolCredit, { bytes: 6 * KIB, reads: 3 });
    assert.equal(g.stats.previewBytes.used, 8 * KIB, 'the credit is not charged to the turn budget');
    // Another open call ends the run of spool reads, so paging can resume.
    assert.equal(g.beforeCall(testCall).admit, true);
    assert.equal(g.beforeCall(spoolCall).admit, true);
  });

  it('before exhaustion a spool read is charged like any other preview', () => {
    const g = new TurnGuards({}, 'plan');
    assert.equal(g.beforeCall(spoolCall).admit, true);
    assert.equal(g.previewFor(3000), 3000);
    assert.equal(g.stats.previewBytes.used, 3000);
  });

  it('a new turn restores the budget', () => {
    const g = new TurnGuards({}, 'build');
    g.previewFor(64 * KIB, 64 * KIB, readCall('a'));
    g.previewFor(64 * KIB, 64 * KIB, readCall('b'));
    assert.equal(g.stats.previewBytes.exhausted, true);
    g.newTurn({ mode: 'plan' });
    assert.deepEqual(g.snapshot().previewBytes, { used: 0, max: 96 * KIB });
    assert.equal(g.beforeCall(readCall('c')).admit, true);
  });

  it('0 means unlimited', () => {
    const g = new TurnGuards(
      { previewTurnBytes: { plan: 0, build: 0 }, previewResultBytes: 0, previewResultFullBytes: 0 },
      'plan',
    );
    assert.equal(g.previewFor(10 * 1024 * KIB, undefined, readCall('a')), 10 * 1024 * KIB);
    assert.equal(g.stats.previewBytes.exhausted, false);
  });

  it('previewFor without a call and before any admission says what to do', () => {
    const g = new TurnGuards({}, 'plan');
    assert.throws(() => g.previewFor(10), /pass it, or admit the call with beforeCall first/);
  });

  it('the metadata stub carries size and details but no body', () => {
    const stub = metadataStub('exec_command', 5120, 32 * KIB, 'exit code 1');
    assert.match(
      stub,
      /exec_command result not shown: 5120 bytes; exit code 1\. This turn's 32 KiB tool preview budget is exhausted/,
    );
  });
});
