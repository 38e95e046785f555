import assert from 'node:assert/strict';
import type { Mode } from '../../src/core/agent/budgets';
import { BlockedFuse, blockedFuse } from '../../src/core/agent/guards/blockedFuse';
import { TurnGuards } from '../../src/core/agent/guards';
import { drive, firstTrip, read, shell, times } from './helpers';

/** Feeds a blocked/allowed pattern; returns the 1-based call number that tripped, or 0. */
function tripAt(fuse: BlockedFuse, pattern: readonly boolean[]): number {
  for (let i = 0; i < pattern.length; i++) if (fuse.record(pattern[i]!) !== undefined) return i + 1;
  return 0;
}

/** `n` blocked calls, each followed by an allowed one (never two blocked in a row). */
function alternating(n: number): boolean[] {
  return times(n, () => [true, false]).flat();
}

describe('guards: blocked-call fuse', () => {
  const fuses: { mode: Mode; cap: number; fuse: number }[] = [
    { mode: 'build', cap: 8, fuse: 16 },
    { mode: 'plan', cap: 8, fuse: 32 },
    { mode: 'recovery', cap: 8, fuse: 8 },
    { mode: 'plan', cap: 3, fuse: 12 },
    { mode: 'build', cap: 3, fuse: 6 },
  ];
  for (const f of fuses) {
    it(`${f.mode} with cap ${f.cap}: total fuse ${f.fuse}, tripping only when exceeded`, () => {
      assert.equal(blockedFuse(f.cap, f.mode), f.fuse);
      const fuse = new BlockedFuse(f.cap, f.mode);
      // Non-consecutive blocked calls: the fuse permits exactly `fuse` of them.
      const at = tripAt(fuse, alternating(f.fuse + 1));
      assert.equal(at, 2 * f.fuse + 1, 'stops on blocked call fuse+1');
      assert.equal(fuse.total, f.fuse + 1);
    });
  }

  it('seed example: with cap 3, planning permits 12 non-consecutive blocked calls and stops on call 13', () => {
    const fuse = new BlockedFuse(3, 'plan');
    let blockedSeen = 0;
    let trip;
    for (const blocked of alternating(13)) {
      trip = fuse.record(blocked);
      if (blocked) blockedSeen++;
      if (trip !== undefined) break;
      assert.ok(blockedSeen <= 12);
    }
    assert.equal(blockedSeen, 13);
    assert.deepEqual(
      { budget: trip?.budget, used: trip?.used, max: trip?.max },
      { budget: 'blocked_calls', used: 13, max: 12 },
    );
  });

  const streaks: { cap: number; mode: Mode; want: number }[] = [
    { cap: 8, mode: 'plan', want: 9 },
    { cap: 8, mode: 'build', want: 9 },
    { cap: 3, mode: 'plan', want: 4 },
    { cap: 1, mode: 'build', want: 2 },
  ];
  for (const s of streaks) {
    it(`consecutive cap ${s.cap} (${s.mode}) permits ${s.cap} blocked calls in a row and stops on call ${s.want}`, () => {
      const fuse = new BlockedFuse(s.cap, s.mode);
      const trip = times(s.want, () => fuse.record(true));
      assert.equal(trip.findIndex((t) => t !== undefined) + 1, s.want);
      assert.deepEqual({ used: trip[s.want - 1]?.used, max: trip[s.want - 1]?.max }, { used: s.want, max: s.cap });
      assert.match(trip[s.want - 1]!.reason, new RegExp(`${s.want} blocked tool calls in a row`));
    });
  }

  it('an allowed call resets the consecutive streak but not the total', () => {
    const fuse = new BlockedFuse(8, 'build');
    times(5, () => fuse.record(true));
    fuse.record(false);
    assert.equal(fuse.consecutive, 0);
    assert.equal(fuse.total, 5);
    // Eight more in a row are within the cap again, and the total keeps counting.
    assert.ok(times(8, () => fuse.record(true)).every((t) => t === undefined));
    assert.equal(fuse.total, 13);
  });

  it('cap 0 turns the fuse off', () => {
    const fuse = new BlockedFuse(0, 'plan');
    assert.ok(times(100, () => fuse.record(true)).every((t) => t === undefined));
  });

  it('through TurnGuards: stops the turn with budget blocked_calls and claims the synthesis slot once', () => {
    const g = new TurnGuards({ blockedCap: 3 }, 'recovery');
    const actions = drive(
      g,
      times(4, (i) => shell(`rm x${i}`, { blocked: true, ok: false, category: 'mutation' })),
    );
    assert.equal(firstTrip(actions), 3);
    assert.deepEqual(actions[3], {
      type: 'stop_turn',
      budget: 'blocked_calls',
      used: 4,
      max: 3,
      synthesis: true,
      reason: actions[3]!.type === 'stop_turn' ? actions[3]!.reason : '',
    });
    // Asked again, the stop repeats without a second synthesis pass, and calls are refused.
    const again = g.afterCall(read('a.ts'));
    assert.equal(again.type === 'stop_turn' && again.synthesis, false);
    const admission = g.beforeCall({ tool: 'read_file', kind: 'read', args: { path: 'a.ts' } });
    assert.equal(admission.admit, false);
    assert.equal(g.stats.stopped, 'blocked_calls');
    assert.equal(g.stats.synthesis, 'blocked_calls');
  });

  it('through TurnGuards: a new turn resets both counts', () => {
    const g = new TurnGuards({ blockedCap: 2 }, 'build');
    drive(g, [shell('rm a', { blocked: true }), read('a.ts'), shell('rm b', { blocked: true })]);
    assert.deepEqual(g.stats.blockedCalls, { consecutive: 1, total: 2, cap: 2, fuse: 4 });
    g.newTurn({ mode: 'plan' });
    assert.deepEqual(g.stats.blockedCalls, { consecutive: 0, total: 0, cap: 2, fuse: 8 });
  });
});
