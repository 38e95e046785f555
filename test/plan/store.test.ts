import assert from 'node:assert/strict';
import { existsSync, readFileSync, readdirSync, writeFileSync, mkdirSync, unlinkSync } from 'node:fs';
import { basename, join } from 'node:path';
import { validatePlan } from '../../src/core/plan/validator';
import { TRACKER_BLOCK_START, TRACKER_BLOCK_END } from '../../src/core/plan/trackerBlock';
import { trackerCounts, parseTrackerFile } from '../../src/core/plan/tracker';
import { tempStore, trackerOf, trackerWithStepOneDone, validPlan } from './storeHelpers';

const read = (p: string) => readFileSync(p, 'utf8');

describe('plan store: saving (rules §4)', () => {
  let ctx: ReturnType<typeof tempStore>;
  beforeEach(() => (ctx = tempStore()));
  afterEach(() => ctx.cleanup());

  it('saves a new plan as .vtcode/plans/<yyyy-mm-dd>-<title-slug>.md with history 001.md', async () => {
    const r = await ctx.store.save(validPlan(1));
    assert.ok(r.ok);
    const d = new Date(1_700_000_000_000);
    const day = `${d.getFullYear()}-${String(d.getMonth() + 1).padStart(2, '0')}-${String(d.getDate()).padStart(2, '0')}`;
    assert.equal(r.stem, `${day}-retry-uploads`);
    assert.equal(r.file, join(ctx.root, '.vtcode/plans', `${r.stem}.md`));
    assert.equal(r.revision, 1);
    assert.equal(read(r.file), validPlan(1));
    assert.deepEqual(readdirSync(join(ctx.root, '.vtcode/plans', `${r.stem}.history`)), ['001.md']);
    assert.equal(read(join(ctx.root, '.vtcode/plans', `${r.stem}.history`, '001.md')), validPlan(1));
  });

  it('a second plan with the same title and day gets a unique suffix; a long title is cut at a word', async () => {
    const a = await ctx.store.save(validPlan(1));
    const b = await ctx.store.save(validPlan(1));
    assert.ok(a.ok && b.ok);
    assert.equal(b.stem, `${a.stem}-2`);
    const long = await ctx.store.save(
      validPlan(1, { title: 'Add input validation to the parser and report every error with its line and column' }),
    );
    assert.ok(long.ok);
    assert.match(long.stem, /^\d{4}-\d{2}-\d{2}-add-input-validation-to-the-parser-and-report-every-error$/);
    const symbols = await ctx.store.save(validPlan(1, { title: '!!!' }));
    assert.ok(symbols.ok);
    assert.match(symbols.stem, /^\d{4}-\d{2}-\d{2}-plan$/);
  });

  it('uses a slug of the name the person gives, and rejects a name without letters or digits', async () => {
    const r = await ctx.store.save(validPlan(1), { name: 'Auth Refactor (v2)!' });
    assert.ok(r.ok);
    assert.equal(r.stem, 'auth-refactor-v2');
    await assert.rejects(ctx.store.save(validPlan(1), { name: '///' }), /plan name "\/\/\/" has no letters or digits/);
  });

  it('saves a revision of a stem and keeps every accepted revision', async () => {
    const first = await ctx.store.save(validPlan(1));
    assert.ok(first.ok);
    const second = await ctx.store.save(validPlan(2), { stem: first.stem });
    const third = await ctx.store.save(validPlan(3), { stem: first.stem });
    assert.ok(second.ok && third.ok);
    assert.deepEqual([second.revision, third.revision], [2, 3]);
    assert.equal(read(first.file), validPlan(3));
    const history = await ctx.store.history(first.stem);
    assert.deepEqual(
      history.map((p) => basename(p)),
      ['001.md', '002.md', '003.md'],
    );
    assert.equal(await ctx.store.readRevision(first.stem, 2), validPlan(2));
  });

  it('never overwrites a valid draft with an invalid candidate, and keeps the rejected draft', async () => {
    const first = await ctx.store.save(validPlan(2));
    assert.ok(first.ok);
    const before = read(first.file);
    const bad = validPlan(1, { assumptions: '- TBD' });
    const r = await ctx.store.save(bad, { stem: first.stem });
    assert.equal(r.ok, false);
    if (r.ok) return;
    assert.deepEqual(
      r.errors.map((e) => e.message),
      ['line 19: placeholder "tbd" left in the plan; replace it with the real content'],
    );
    assert.match(r.feedback, /0 of 1 implementation steps failed validation/);
    assert.equal(read(first.file), before);
    assert.equal((await ctx.store.history(first.stem)).length, 1);
    assert.deepEqual(await ctx.store.readRejected(first.stem), {
      file: join(ctx.root, '.vtcode/plans/.rejected', `${first.stem}.md`),
      markdown: bad,
    });
  });

  it('bounds the kept rejected draft to 8 KiB and creates no plan for an invalid new candidate', async () => {
    const bad = validPlan(1, { summary: '', extra: 'x'.repeat(20_000) });
    const r = await ctx.store.save(bad);
    assert.equal(r.ok, false);
    const kept = await ctx.store.readRejected();
    assert.ok(kept);
    assert.equal(Buffer.byteLength(kept.markdown), 8192);
    assert.ok(bad.startsWith(kept.markdown));
    assert.deepEqual(await ctx.store.list(), []);
  });

  it('gives a second plan saved in the same millisecond with the same words its own stem', async () => {
    const c = tempStore({ now: () => 42, random: () => 0 });
    try {
      const a = await c.store.save(validPlan(1));
      const b = await c.store.save(validPlan(2));
      assert.ok(a.ok && b.ok);
      assert.notEqual(a.stem, b.stem);
      assert.equal(b.stem, `${a.stem}-2`);
    } finally {
      c.cleanup();
    }
  });

  it('serialises concurrent saves of one plan into contiguous revisions', async () => {
    const first = await ctx.store.save(validPlan(1));
    assert.ok(first.ok);
    const results = await Promise.all([2, 3, 4, 5, 6].map((n) => ctx.store.save(validPlan(n), { stem: first.stem })));
    assert.deepEqual(
      results.map((r) => (r.ok ? r.revision : -1)),
      [2, 3, 4, 5, 6],
    );
  });

  it('refuses to revise a stem that does not exist', async () => {
    await assert.rejects(
      ctx.store.save(validPlan(1), { stem: 'nope' }),
      /no plan "nope" to revise: .*nope\.md does not exist/,
    );
  });

  it('honours a custom plans folder', async () => {
    const c = tempStore({ plansDir: 'docs/plans' });
    try {
      const r = await c.store.save(validPlan(1));
      assert.ok(r.ok);
      assert.equal(r.file, join(c.root, 'docs/plans', `${r.stem}.md`));
    } finally {
      c.cleanup();
    }
  });
});

describe('plan store: tracker (rules §4)', () => {
  let ctx: ReturnType<typeof tempStore>;
  beforeEach(() => (ctx = tempStore()));
  afterEach(() => ctx.cleanup());

  it('writes the sidecar, the global mirror and the block embedded in the plan; the plan stays valid', async () => {
    const r = await ctx.store.save(validPlan(2));
    assert.ok(r.ok);
    const tracker = trackerOf(2);
    await ctx.store.saveTracker(r.stem, tracker);
    const sidecar = read(join(ctx.root, '.vtcode/plans', `${r.stem}.tasks.md`));
    assert.ok(sidecar.startsWith('# Retry uploads\n\n## Plan of Work\n\n- [ ] Step 1 of the work\n'), sidecar);
    assert.deepEqual(parseTrackerFile(sidecar), tracker);
    assert.deepEqual(parseTrackerFile(read(join(ctx.root, '.vtcode/tasks/current_task.md'))), tracker);
    const planText = read(r.file);
    assert.ok(planText.startsWith(validPlan(2).trimEnd()));
    assert.ok(planText.includes(`${TRACKER_BLOCK_START}\n${sidecar}${TRACKER_BLOCK_END}\n`));
    assert.ok(planText.trimEnd().endsWith(TRACKER_BLOCK_END));
    assert.equal(validatePlan(planText).valid, true);
    const loaded = await ctx.store.load(r.stem);
    assert.equal(loaded.trackerSource, 'sidecar');
    assert.deepEqual(loaded.tracker, tracker);
    assert.equal(loaded.markdown, validPlan(2));
    assert.equal(loaded.revisions, 1);
  });

  it('falls back to the embedded block when the sidecar is missing', async () => {
    const r = await ctx.store.save(validPlan(2));
    assert.ok(r.ok);
    const done = trackerWithStepOneDone(2);
    await ctx.store.saveTracker(r.stem, done);
    unlinkSync(join(ctx.root, '.vtcode/plans', `${r.stem}.tasks.md`));
    const loaded = await ctx.store.load(r.stem);
    assert.equal(loaded.trackerSource, 'embedded');
    assert.deepEqual(loaded.tracker, done);
  });

  it('refreshes the tracker on a revision, keeping the status of surviving steps; history has no block', async () => {
    const r = await ctx.store.save(validPlan(2));
    assert.ok(r.ok);
    await ctx.store.saveTracker(r.stem, trackerWithStepOneDone(2));
    const rev = await ctx.store.save(validPlan(3), { stem: r.stem });
    assert.ok(rev.ok);
    assert.equal(rev.revision, 2);
    const loaded = await ctx.store.load(r.stem);
    assert.deepEqual(
      loaded.tracker?.items.map((i) => [i.description, i.status]),
      [
        ['Step 1 of the work', 'completed'],
        ['Step 2 of the work', 'pending'],
        ['Step 3 of the work', 'pending'],
      ],
    );
    assert.ok(read(rev.file).includes(TRACKER_BLOCK_START));
    assert.equal(await ctx.store.readRevision(r.stem, 2), validPlan(3));
    assert.equal(loaded.revisions, 2);
  });

  it('refuses a tracker for a plan that does not exist', async () => {
    await assert.rejects(
      ctx.store.saveTracker('ghost', { title: 't', items: [] }),
      /cannot save a tracker for "ghost"/,
    );
  });
});

describe('plan store: reading (rules §4)', () => {
  let ctx: ReturnType<typeof tempStore>;
  beforeEach(() => (ctx = tempStore()));
  afterEach(() => ctx.cleanup());

  it('loads a plan written by hand or by VT Code: no tracker block, no history', async () => {
    const dir = join(ctx.root, '.vtcode/plans');
    mkdirSync(dir, { recursive: true });
    writeFileSync(join(dir, 'handmade.md'), validPlan(2));
    const loaded = await ctx.store.load('handmade');
    assert.equal(loaded.valid, true);
    assert.equal(loaded.revisions, 0);
    assert.equal(loaded.tracker, undefined);
    assert.equal((await ctx.store.load('handmade.md')).stem, 'handmade');
    assert.equal((await ctx.store.load('.vtcode/plans/handmade.md')).stem, 'handmade');
    assert.equal((await ctx.store.load(join(dir, 'handmade.md'))).stem, 'handmade');
  });

  it('loads a VT Code plan whose tracker lives only in the embedded block', async () => {
    const dir = join(ctx.root, '.vtcode/plans');
    mkdirSync(dir, { recursive: true });
    const text = `${validPlan(2)}\n${TRACKER_BLOCK_START}\n# Tasks\n\n- [x] Step 1 of the work\n- [~] Step 2 of the work\n${TRACKER_BLOCK_END}\n`;
    writeFileSync(join(dir, 'vt.md'), text);
    const loaded = await ctx.store.load('vt');
    assert.equal(loaded.valid, true);
    assert.equal(loaded.trackerSource, 'embedded');
    assert.deepEqual(trackerCounts(loaded.tracker!), {
      pending: 0,
      in_progress: 1,
      completed: 1,
      blocked: 0,
      total: 2,
      percent: 50,
    });
  });

  it('records a hand-written plan as a revision of its own before revising it, so nothing is lost', async () => {
    const dir = join(ctx.root, '.vtcode/plans');
    mkdirSync(dir, { recursive: true });
    writeFileSync(join(dir, 'handmade.md'), validPlan(1, { summary: 'Written by a person.' }));
    const r = await ctx.store.save(validPlan(2), { stem: 'handmade' });
    assert.ok(r.ok);
    assert.equal(r.revision, 2);
    assert.equal(await ctx.store.readRevision('handmade', 1), validPlan(1, { summary: 'Written by a person.' }));
    assert.equal(await ctx.store.readRevision('handmade', 2), validPlan(2));
  });

  it('records a hand edit made after a save before the next revision replaces it', async () => {
    const r = await ctx.store.save(validPlan(1));
    assert.ok(r.ok);
    writeFileSync(r.file, validPlan(1, { summary: 'Edited by hand.' }));
    const next = await ctx.store.save(validPlan(2), { stem: r.stem });
    assert.ok(next.ok);
    assert.equal(next.revision, 3);
    assert.equal(await ctx.store.readRevision(r.stem, 2), validPlan(1, { summary: 'Edited by hand.' }));
  });

  it('lists plans newest first with validity, steps, revisions and tracker counts, ignoring everything else', async () => {
    const a = await ctx.store.save(validPlan(1));
    const b = await ctx.store.save(validPlan(3));
    assert.ok(a.ok && b.ok);
    await ctx.store.save(validPlan(1, { summary: '' }));
    await ctx.store.saveTracker(b.stem, trackerOf(3));
    const dir = join(ctx.root, '.vtcode/plans');
    writeFileSync(join(dir, `.${a.stem}.md.123.abcd.tmp`), 'partial');
    writeFileSync(join(dir, 'broken.md'), '# Just a title\n');
    const list = await ctx.store.list();
    const byStem = new Map(list.map((l) => [l.stem, l]));
    assert.deepEqual([...byStem.keys()].sort(), [a.stem, b.stem, 'broken'].sort());
    assert.equal(byStem.get('broken')?.valid, false);
    assert.equal(byStem.get(a.stem)?.progress, undefined);
    assert.deepEqual(byStem.get(b.stem)?.progress, {
      counts: { done: 0, inProgress: 0, pending: 3, blocked: 0, total: 3 },
      percent: 0,
    });
    assert.equal(byStem.get(b.stem)?.steps, 3);
    assert.equal(byStem.get(b.stem)?.revisions, 1);
    for (let i = 1; i < list.length; i++) assert.ok((list[i - 1]?.mtimeMs ?? 0) >= (list[i]?.mtimeMs ?? 0));
  });

  it('lists nothing when the plans folder does not exist', async () => {
    assert.deepEqual(await ctx.store.list(), []);
    assert.equal(existsSync(join(ctx.root, '.vtcode')), false);
  });

  it('says what is missing when a plan or revision does not exist', async () => {
    await assert.rejects(
      ctx.store.load('ghost'),
      /no plan "ghost": .*ghost\.md does not exist \(run 'planwise plans' to list plans\)/,
    );
    const r = await ctx.store.save(validPlan(1));
    assert.ok(r.ok);
    await assert.rejects(
      ctx.store.readRevision(r.stem, 7),
      new RegExp(`plan "${r.stem}" has no revision 7: it has revisions 1-1`),
    );
  });
});
