/** Who wrote each revision: a hand edit the store records is the person's, and stays so in the history files. */
import assert from 'node:assert/strict';
import { readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { NodeWorkspaceReader, NodeWorkspaceWriter } from '../../src/node/fsWorkspace';
import { PlanStore } from '../../src/core/plan/store';
import { tempStore, validPlan } from './storeHelpers';

describe('plan store: revision authors', () => {
  let ctx: ReturnType<typeof tempStore>;
  beforeEach(() => (ctx = tempStore()));
  afterEach(() => ctx.cleanup());

  /** A second store over the same files: what a reloaded window or a new CLI process reads. */
  const reopened = () =>
    new PlanStore(new NodeWorkspaceReader([ctx.root]), new NodeWorkspaceWriter(), { root: ctx.root, now: Date.now });

  it('records a hand edit as the person’s in NNN.meta.json, read back by a new store; the planner’s next one is not', async () => {
    const first = await ctx.store.save(validPlan(1));
    assert.ok(first.ok);
    assert.equal((await ctx.store.load(first.stem)).author, undefined);
    writeFileSync(first.file, validPlan(2));
    const edit = await ctx.store.recordEdit(first.stem);
    assert.deepEqual([edit.kind, edit.revision], ['recorded', 2]);
    const history = join(ctx.root, '.vtcode/plans', `${first.stem}.history`);
    assert.deepEqual(readdirSync(history).sort(), ['001.md', '002.md', '002.meta.json']);
    const meta = JSON.parse(readFileSync(join(history, '002.meta.json'), 'utf8'));
    assert.equal(meta.author, 'person');
    assert.ok(!Number.isNaN(Date.parse(meta.recordedAt)), meta.recordedAt);

    const again = reopened();
    const loaded = await again.load(first.stem);
    assert.deepEqual([loaded.revisions, loaded.author], [2, 'person']);
    assert.equal(await again.revisionAuthor(first.stem, 1), 'planner');
    assert.equal(await again.revisionAuthor(first.stem, 2), 'person');
    assert.equal((await again.history(first.stem)).length, 2, 'the metadata is no revision');

    const third = await again.save(validPlan(3), { stem: first.stem });
    assert.ok(third.ok);
    assert.equal(third.revision, 3);
    assert.equal((await reopened().load(first.stem)).author, undefined);
    assert.equal(await reopened().revisionAuthor(first.stem, 2), 'person');
  });

  it('an invalid or unchanged edit writes no metadata; unreadable metadata counts as the planner’s', async () => {
    const first = await ctx.store.save(validPlan(1));
    assert.ok(first.ok);
    const history = join(ctx.root, '.vtcode/plans', `${first.stem}.history`);
    assert.equal((await ctx.store.recordEdit(first.stem)).kind, 'unchanged');
    writeFileSync(first.file, '# no plan here\n');
    assert.equal((await ctx.store.recordEdit(first.stem)).kind, 'invalid');
    assert.deepEqual(readdirSync(history), ['001.md']);
    writeFileSync(join(history, '001.meta.json'), '{ not json');
    assert.equal(await ctx.store.revisionAuthor(first.stem, 1), 'planner');
  });
});
