import assert from 'node:assert/strict';
import { TurnGuards, listingTargets } from '../../src/core/agent/guards';
import type { ToolOutcome } from '../../src/core/agent/guards';
import { GUARD_ROOT, drive, firstTrip, judged, listFiles, mutation, read, shell, times, verification } from './helpers';

const targetsOf = (o: ToolOutcome, root?: string) => listingTargets(o, root).map((t) => `${t.program} ${t.root}`);

describe('guards: same-target listings', () => {
  describe('listingTargets', () => {
    const table: { call: ToolOutcome; want: string[]; root?: string }[] = [
      { call: shell('ls src'), want: ['ls src'] },
      { call: shell('ls -la src/'), want: ['ls src'] },
      { call: shell('ls'), want: ['ls .'] },
      { call: shell('ls -R ./src'), want: ['ls src'] },
      { call: shell('cd src && ls -1'), want: ['ls src'] },
      { call: shell('ls', { args: { command: 'ls core', workdir: 'src' } }), want: ['ls src/core'] },
      { call: shell("find src -name '*.ts'"), want: ['find src'] },
      { call: shell('find . -maxdepth 2 -type d'), want: ['find .'] },
      // Refused by the gate (`-L` follows links), so it listed nothing.
      { call: shell('find -L src lib -type f'), want: [] },
      { call: shell("find src -name '*.ts' | head -20"), want: ['find src'] },
      { call: shell('fd -e ts'), want: ['fd .'] },
      { call: shell('fd -e ts Button src'), want: ['fd src'] },
      { call: shell('fd -t f --search-path docs'), want: ['fd docs'] },
      // Refused by the gate, so it listed nothing.
      { call: shell('fdfind foo src'), want: [] },
      { call: shell('ls src 2>&1'), want: ['ls src'] },
      { call: shell('ls src && find lib -type f'), want: ['ls src', 'find lib'] },
      { call: shell('rg --files src'), want: [] },
      { call: shell('cat src/a.ts'), want: [] },
      { call: shell(`ls ${GUARD_ROOT}/src`, {}), root: GUARD_ROOT, want: ['ls src'] },
      { call: listFiles('src'), want: ['list_files src'] },
      { call: listFiles('./src/'), want: ['list_files src'] },
      { call: read('src/a.ts'), want: [] },
    ];
    for (const t of table) {
      it(`${JSON.stringify(t.call.args)} → ${JSON.stringify(t.want)}`, () =>
        assert.deepEqual(targetsOf(t.call, t.root), t.want));
    }
  });

  const variations = ['ls src', 'ls -la src', 'ls -1 src/', 'ls -R ./src', 'cd src && ls', 'ls -lt src'];

  it('build: 3 listings of one root across argument variations schedule the pass on the 3rd', async () => {
    const g = new TurnGuards({}, 'build');
    const actions = drive(g, await judged(variations.slice(0, 3).map((c) => shell(c))));
    assert.equal(firstTrip(actions), 2);
    const a = actions[2]!;
    assert.equal(a.type === 'synthesis' && a.guard, 'same_target_listing');
    assert.match(a.type === 'synthesis' ? a.reason : '', /exec::inspection::ls::src ×3/);
  });

  it('plan: 3 successful listings remain legitimate exploration; the 5th schedules the pass', async () => {
    const g = new TurnGuards({}, 'plan');
    const actions = drive(g, await judged(variations.slice(0, 5).map((c) => shell(c))));
    assert.equal(firstTrip(actions), 4);
    assert.match(actions[4]!.type === 'synthesis' ? actions[4]!.reason : '', /exec::inspection::ls::src ×5/);
  });

  it('the list_files tool groups the same way', () => {
    const g = new TurnGuards({}, 'build');
    const actions = drive(g, [
      listFiles('src'),
      listFiles('./src', { args: { path: './src', depth: 2 } }),
      listFiles('src/', { args: { path: 'src/', max_results: 10 } }),
    ]);
    assert.equal(firstTrip(actions), 2);
    assert.match(actions[2]!.type === 'synthesis' ? actions[2]!.reason : '', /list::inspection::list_files::src ×3/);
  });

  it('scans of distinct trees never group', async () => {
    const g = new TurnGuards({}, 'build');
    const roots = ['src', 'src/core', 'lib', 'test', 'docs', 'src/core/agent', '.'];
    assert.equal(firstTrip(drive(g, await judged(roots.map((r) => shell(`ls -la ${r}`))))), -1);
    assert.equal(g.stats.sameTargetListing.highest, 1);
  });

  it('different listing tools on one root do not group', async () => {
    const g = new TurnGuards({}, 'build');
    const actions = drive(
      g,
      await judged([shell('ls src'), shell('find src -type f'), shell('fd . src'), listFiles('src')]),
    );
    assert.equal(firstTrip(actions), -1);
  });

  it('the reason names the root actually rescanned in a chain', async () => {
    const g = new TurnGuards({}, 'build');
    const actions = drive(g, await judged(times(3, (i) => shell(`ls docs${i} && find lib -type f -name x${i}`))));
    assert.match(
      actions[2]!.type === 'synthesis' ? actions[2]!.reason : '',
      /find scanned the same root "lib" 3 times.*exec::inspection::find::lib ×3/,
    );
  });

  it('a mutation starts the counts again; verification does not', async () => {
    const g = new TurnGuards({}, 'build');
    drive(g, await judged([shell('ls src'), shell('ls -l src'), mutation()]));
    assert.equal(g.stats.sameTargetListing.highest, 0);
    drive(g, await judged([shell('ls src'), shell('ls -l src'), verification()]));
    assert.equal(g.stats.sameTargetListing.highest, 2);
    assert.equal(firstTrip(drive(g, await judged([shell('ls -a src')]))), 0);
  });

  it('a new turn starts the counts again', async () => {
    const g = new TurnGuards({}, 'build');
    drive(g, await judged([shell('ls src'), shell('ls -l src')]));
    g.newTurn();
    assert.equal(firstTrip(drive(g, await judged([shell('ls src'), shell('ls -l src')]))), -1);
  });

  it('blocked listings are not scans', () => {
    const g = new TurnGuards({}, 'build');
    drive(
      g,
      times(3, () => shell('ls src', { blocked: true })),
    );
    assert.equal(g.stats.sameTargetListing.highest, 0);
  });
});
