import assert from 'node:assert/strict';
import { DEFAULT_BUDGETS, effectiveBudgets, mergeBudgets } from '../../src/core/agent/budgets';

describe('budgets: defaults and effective budgets', () => {
  it('holds the rules §7 defaults', () => {
    assert.equal(DEFAULT_BUDGETS.blockedCap, 8);
    assert.deepEqual(DEFAULT_BUDGETS.previewTurnBytes, { plan: 96 * 1024, build: 32 * 1024 });
    assert.equal(DEFAULT_BUDGETS.previewResultBytes, 8 * 1024);
    assert.deepEqual(DEFAULT_BUDGETS.lowSignal, { consecutive: 6, total: 10 });
    assert.equal(DEFAULT_BUDGETS.repeatedRequestWindow, 12);
    assert.deepEqual(DEFAULT_BUDGETS.sameTargetListing, { build: 3, plan: 5 });
    assert.equal(DEFAULT_BUDGETS.diverseChurn, 12);
  });

  const floors: {
    name: string;
    calls: number;
    loops: number;
    mode: 'plan' | 'build' | 'recovery';
    want: [number, number];
  }[] = [
    { name: 'planning raises low nonzero limits to 120/60', calls: 30, loops: 10, mode: 'plan', want: [120, 60] },
    { name: 'planning keeps higher limits', calls: 200, loops: 90, mode: 'plan', want: [200, 90] },
    { name: 'planning keeps 0 (unlimited)', calls: 0, loops: 0, mode: 'plan', want: [0, 0] },
    { name: 'planning floors exactly at the floor', calls: 119, loops: 59, mode: 'plan', want: [120, 60] },
    { name: 'build keeps low limits', calls: 30, loops: 10, mode: 'build', want: [30, 10] },
    { name: 'recovery keeps low limits', calls: 30, loops: 10, mode: 'recovery', want: [30, 10] },
  ];
  for (const f of floors) {
    it(f.name, () => {
      const cfg = effectiveBudgets({ toolCallsPerTurn: f.calls, loopsPerTurn: f.loops }, f.mode);
      assert.deepEqual([cfg.toolCallsPerTurn, cfg.loopsPerTurn], f.want);
    });
  }

  it('the default build limits sit below the planning floors, which lift them while planning', () => {
    const build = effectiveBudgets({}, 'build');
    const plan = effectiveBudgets({}, 'plan');
    assert.ok(build.toolCallsPerTurn < 120 && build.loopsPerTurn < 60);
    assert.equal(plan.toolCallsPerTurn, 120);
    assert.equal(plan.loopsPerTurn, 60);
  });

  it('is idempotent and does not touch the input', () => {
    const input = { toolCallsPerTurn: 5 };
    const once = effectiveBudgets(input, 'plan');
    assert.deepEqual(effectiveBudgets(once, 'plan'), once);
    assert.deepEqual(input, { toolCallsPerTurn: 5 });
  });

  it('merges nested settings field by field', () => {
    const cfg = mergeBudgets({ previewTurnBytes: { plan: 1000 }, lowSignal: { total: 4 } });
    assert.deepEqual(cfg.previewTurnBytes, { plan: 1000, build: 32 * 1024 });
    assert.deepEqual(cfg.lowSignal, { consecutive: 6, total: 4 });
  });

  for (const bad of [-1, 1.5, Number.NaN, '8' as unknown as number]) {
    it(`rejects ${String(bad)} with a message naming the setting`, () => {
      assert.throws(
        () => effectiveBudgets({ blockedCap: bad }, 'build'),
        (e: unknown) => e instanceof RangeError && /blockedCap/.test(e.message) && /whole number/.test(e.message),
      );
    });
  }

  it('rejects a bad nested value by its dotted name', () => {
    assert.throws(() => mergeBudgets({ sameTargetListing: { build: -3, plan: 5 } }), /sameTargetListing\.build/);
  });
});
