import assert from 'node:assert/strict';
import { TurnGuards } from '../../src/core/agent/guards';
import { LowSignalGuard } from '../../src/core/agent/guards/lowSignal';
import type { ToolOutcome } from '../../src/core/agent/guards';
import {
  bookkeeping,
  drive,
  firstTrip,
  miss,
  mutation,
  read,
  recovery,
  search,
  shell,
  times,
  verification,
} from './helpers';

const productive = (i: number): ToolOutcome => read(`src/file${i}.ts`);

describe('guards: low-signal navigation (planning)', () => {
  it('6 consecutive low-signal results schedule one synthesis pass on the 6th', () => {
    const g = new TurnGuards({}, 'plan');
    const actions = drive(g, times(6, miss));
    assert.equal(firstTrip(actions), 5);
    const a = actions[5]!;
    assert.equal(a.type, 'synthesis');
    assert.equal(a.type === 'synthesis' && a.guard, 'low_signal');
    assert.match(a.type === 'synthesis' ? a.reason : '', /6 low-signal navigation results in a row/);
  });

  it('10 total low-signal results in a turn schedule the pass even when productive reads break the run', () => {
    const g = new TurnGuards({}, 'plan');
    // Five misses, a productive read, five misses: never 6 in a row, 10 in all on the last one.
    const seq = [...times(5, miss), productive(0), ...times(5, (i) => miss(i + 10))];
    const actions = drive(g, seq);
    assert.equal(firstTrip(actions), 10);
    assert.match(
      actions[10]!.type === 'synthesis' ? actions[10]!.reason : '',
      /10 low-signal navigation results this turn/,
    );
  });

  const lowKinds: { name: string; make: (i: number) => ToolOutcome }[] = [
    { name: 'an empty result', make: (i) => read(`empty${i}.txt`, { lowSignal: true, bytes: 0 }) },
    { name: 'a search miss', make: (i) => search(`nothing${i}`, { lowSignal: true }) },
    { name: 'a not-found failure', make: (i) => read(`missing${i}.ts`, { lowSignal: true, ok: false }) },
    { name: 'a shell inspection miss', make: (i) => shell(`rg zz${i} src`, { lowSignal: true }) },
    { name: 'a result that only repeats an earlier one', make: (i) => read(`copy${i}.ts`, { resultHash: 'same' }) },
  ];
  for (const k of lowKinds) {
    it(`counts ${k.name} as low-signal`, () => {
      const g = new TurnGuards({}, 'plan');
      // For the repeat case the first result is new, so it takes 7 calls to see 6 repeats.
      const n = k.name.includes('repeats') ? 7 : 6;
      const actions = drive(g, times(n, k.make));
      assert.equal(firstTrip(actions), n - 1);
      assert.equal(g.stats.lowSignal.consecutive, 6);
    });
  }

  it('a productive read resets only the consecutive count', () => {
    const g = new TurnGuards({}, 'plan');
    drive(g, [...times(4, miss), productive(1)]);
    assert.deepEqual(g.stats.lowSignal, { consecutive: 0, total: 4 });
  });

  const fullResets: { name: string; make: () => ToolOutcome }[] = [
    { name: 'verification', make: verification },
    { name: 'mutation', make: mutation },
    { name: 'recovery', make: recovery },
  ];
  for (const r of fullResets) {
    it(`${r.name} resets both counts, so 9 more misses do not trip`, () => {
      const g = new TurnGuards({ lowSignal: { consecutive: 0, total: 10 } }, 'plan');
      drive(g, [...times(5, miss), r.make()]);
      assert.deepEqual(g.stats.lowSignal, { consecutive: 0, total: 0 });
      assert.equal(
        firstTrip(
          drive(
            g,
            times(9, (i) => miss(i + 50)),
          ),
        ),
        -1,
      );
    });
  }

  it('a new turn resets both counts', () => {
    const g = new TurnGuards({}, 'plan');
    drive(g, times(5, miss));
    g.newTurn();
    assert.deepEqual(g.stats.lowSignal, { consecutive: 0, total: 0 });
    assert.equal(
      firstTrip(
        drive(
          g,
          times(5, (i) => miss(i + 20)),
        ),
      ),
      -1,
    );
  });

  it('bookkeeping neither counts nor resets', () => {
    const g = new TurnGuards({}, 'plan');
    const actions = drive(g, [...times(3, miss), bookkeeping(), ...times(3, (i) => miss(i + 3))]);
    assert.equal(firstTrip(actions), 6);
  });

  it('blocked calls are left to the blocked-call fuse', () => {
    const g = new TurnGuards({}, 'plan');
    drive(
      g,
      times(5, (i) => shell(`cat missing${i}`, { blocked: true, lowSignal: true })),
    );
    assert.deepEqual(g.stats.lowSignal, { consecutive: 0, total: 0 });
  });

  it('does not run in build mode (diverse churn covers execution)', () => {
    const g = new TurnGuards({}, 'build');
    assert.equal(firstTrip(drive(g, times(10, miss))), -1);
    assert.deepEqual(g.stats.lowSignal, { consecutive: 0, total: 0 });
  });

  it('repeats are judged per turn: the same result in the next turn is new', () => {
    const g = new TurnGuards({}, 'plan');
    drive(g, [read('a.ts', { resultHash: 'x' })]);
    g.newTurn();
    drive(g, [read('a.ts', { resultHash: 'x' })]);
    assert.equal(g.stats.lowSignal.total, 0);
  });

  it('names the dominant churn family in the reason', () => {
    const guard = new LowSignalGuard(6, 10);
    const families = ['exec::inspection::rg::src', 'exec::inspection::rg::src', 'search::inspection::code_search::.'];
    let trip;
    for (let i = 0; i < 6; i++) trip = guard.observe('navigation', true, families[i % 3]!);
    assert.match(trip!.reason, /dominant churn family exec::inspection::rg::src ×4/);
  });

  it('a threshold of 0 disables that count', () => {
    const guard = new LowSignalGuard(0, 0);
    assert.ok(times(50, () => guard.observe('navigation', true, 'f')).every((t) => t === undefined));
  });
});
