import assert from 'node:assert/strict';
import { FamilyTally, churnFamily } from '../../src/core/agent/churnFamily';
import { TurnGuards } from '../../src/core/agent/guards';
import type { ToolOutcome } from '../../src/core/agent/guards';
import {
  bookkeeping,
  drive,
  firstTrip,
  listFiles,
  miss,
  mutation,
  outcome,
  read,
  recovery,
  search,
  shell,
  times,
  verification,
  judged,
} from './helpers';

describe('churn families', () => {
  const table: { call: ToolOutcome; root?: string; want: string }[] = [
    { call: shell('ls src'), want: 'exec::inspection::ls::src' },
    { call: shell('ls -la src/core/agent'), want: 'exec::inspection::ls::src' },
    { call: shell('cd src/core && ls'), want: 'exec::inspection::ls::src' },
    { call: shell("rg -n 'foo' lib/x.ts | head"), want: 'exec::inspection::rg::lib' },
    { call: shell('rg foo'), want: 'exec::inspection::rg::.' },
    { call: shell('rg -e foo -e bar docs'), want: 'exec::inspection::rg::docs' },
    { call: shell("sed -n '1,20p' test/a.ts"), want: 'exec::inspection::sed::test' },
    { call: shell('head -n 20 README.md'), want: 'exec::inspection::head::README.md' },
    { call: shell('git log --oneline'), want: 'exec::inspection::git::log' },
    { call: shell('npm test', { category: 'verification' }), want: 'exec::verification::npm::test' },
    { call: shell('ls /ws/pkg/a'), root: '/ws', want: 'exec::inspection::ls::pkg' },
    { call: read('src/a.ts'), want: 'read::inspection::read_file::src' },
    { call: read('/etc/hosts'), want: 'read::inspection::read_file::/etc' },
    { call: listFiles('.'), want: 'list::inspection::list_files::.' },
    { call: search('foo'), want: 'search::inspection::code_search::.' },
    { call: mutation(), want: 'write::mutation::write_file::src' },
    { call: bookkeeping(), want: 'tracker::bookkeeping::task_tracker::.' },
  ];
  for (const t of table) {
    it(`${t.call.tool} ${JSON.stringify(t.call.args)} → ${t.want}`, () =>
      assert.equal(churnFamily(t.call, t.root), t.want));
  }

  it('the tally names the most frequent family, the first seen on a tie', () => {
    const tally = new FamilyTally();
    assert.equal(tally.label(), '');
    for (const f of ['a', 'b', 'b', 'a', 'c']) tally.add(f);
    assert.equal(tally.label(), 'a ×2');
    tally.add('b');
    assert.equal(tally.label(), 'b ×3');
    tally.remove('b');
    tally.remove('b');
    assert.equal(tally.label(), 'a ×2');
    assert.equal(tally.size, 4);
  });
});

describe('guards: diverse low-signal churn (execution)', () => {
  it('12 low-signal outcomes in one window schedule a recovery pass, even with a new query each time', () => {
    const g = new TurnGuards({}, 'build');
    const actions = drive(g, times(12, miss));
    assert.equal(firstTrip(actions), 11);
    const a = actions[11]!;
    assert.equal(a.type === 'synthesis' && a.guard, 'diverse_churn');
    assert.match(
      a.type === 'synthesis' ? a.reason : '',
      /12 low-signal results.*search::inspection::code_search::\. ×12/,
    );
  });

  it('productive results neither count nor reset the window', () => {
    const g = new TurnGuards({}, 'build');
    const seq = [...times(6, miss), ...times(4, (i) => read(`src/f${i}.ts`)), ...times(6, (i) => miss(i + 6))];
    assert.equal(firstTrip(drive(g, seq)), seq.length - 1);
  });

  for (const r of [
    { name: 'mutation', make: mutation },
    { name: 'verification', make: verification },
  ]) {
    it(`a ${r.name} resets the window, so interrupted churn does not accumulate`, () => {
      const g = new TurnGuards({}, 'build');
      drive(g, [...times(11, miss), r.make()]);
      assert.equal(g.stats.diverseChurn.window, 0);
      assert.equal(
        firstTrip(
          drive(
            g,
            times(11, (i) => miss(i + 20)),
          ),
        ),
        -1,
      );
    });
  }

  it('recovery and bookkeeping do not reset the window', () => {
    const g = new TurnGuards({}, 'build');
    assert.equal(
      firstTrip(drive(g, [...times(6, miss), recovery(), bookkeeping(), ...times(6, (i) => miss(i + 6))])),
      13,
    );
  });

  it('recovery mode watches churn too; planning leaves it to the low-signal guard', () => {
    const rec = new TurnGuards({}, 'recovery');
    assert.equal(firstTrip(drive(rec, times(12, miss))), 11);
    const plan = new TurnGuards({ lowSignal: { consecutive: 0, total: 0 } }, 'plan');
    assert.equal(firstTrip(drive(plan, times(12, miss))), -1);
    assert.equal(plan.stats.diverseChurn.window, 0);
  });
});

describe('guards: one synthesis pass per turn', () => {
  it('is announced once; later trips of the same or another guard are not re-announced', async () => {
    const g = new TurnGuards({}, 'plan');
    // Six misses trip low-signal; then five listings of src would trip same-target.
    const actions = drive(
      g,
      await judged([...times(6, miss), ...times(5, (i) => shell(`ls -${'a'.repeat(i + 1)} src`))]),
    );
    assert.deepEqual(
      actions.map((a) => a.type),
      [...times(5, () => 'continue'), 'synthesis', ...times(5, () => 'continue')],
    );
    assert.equal(g.stats.synthesis, 'low_signal');
    assert.equal(g.stats.sameTargetListing.highest, 5, 'same-target did trip, silently');
  });

  it('a pass pending from the blocked-call fuse is never re-announced', () => {
    const g = new TurnGuards({ blockedCap: 1 }, 'build');
    const stop = drive(g, [shell('rm a', { blocked: true }), shell('rm b', { blocked: true })])[1]!;
    assert.equal(stop.type === 'stop_turn' && stop.synthesis, true);
    assert.equal(g.claimSynthesis('low_signal'), false);
  });

  it('a pass the runloop claimed for itself is never re-announced by a guard', () => {
    const g = new TurnGuards({}, 'plan');
    assert.equal(g.claimSynthesis('empty_response'), true);
    assert.equal(firstTrip(drive(g, times(10, miss))), -1);
    assert.equal(g.stats.synthesis, 'empty_response');
  });

  it('a budget stop after an announced pass does not ask for a second one', () => {
    const g = new TurnGuards({ toolCallsPerTurn: 130 }, 'plan');
    drive(g, times(6, miss));
    drive(
      g,
      times(124, (i) => read(`src/f${i}.ts`)),
    );
    const admission = g.beforeCall({ tool: 'read_file', kind: 'read', args: { path: 'x' } });
    assert.equal(admission.admit, false);
    const action = !admission.admit ? admission.action : undefined;
    assert.equal(action?.type === 'stop_turn' && action.synthesis, false);
  });

  it('a new turn frees the slot', () => {
    const g = new TurnGuards({}, 'plan');
    drive(g, times(6, miss));
    g.newTurn();
    assert.equal(g.stats.synthesis, undefined);
    assert.equal(
      firstTrip(
        drive(
          g,
          times(6, (i) => miss(i + 30)),
        ),
      ),
      5,
    );
  });

  it('every outcome still reaches every guard after the pass is announced', () => {
    const g = new TurnGuards({}, 'plan');
    drive(g, [...times(6, miss), outcome({ tool: 'code_search', kind: 'search', lowSignal: true, args: { q: 'z' } })]);
    assert.deepEqual(g.stats.lowSignal, { consecutive: 7, total: 7 });
  });
});
