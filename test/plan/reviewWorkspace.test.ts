/**
 * The review threads a `ParsedPlan` carries: anchored once in the engine to the revision they now
 * live in, for every surface (the editor's comment threads, the gate, `planwise review`).
 */
import assert from 'node:assert/strict';
import { readFileSync, writeFileSync } from 'node:fs';
import { PlanWorkspace, type ParsedPlan, type PlanChange } from '../../src/core/index';
import { reviewFileOf } from '../../src/core/plan/review';
import { NodeWorkspaceWriter } from '../../src/node/fsWorkspace';
import { runCli } from '../cli/cliHarness';
import { makeTempWorkspace, type TempWorkspace } from '../support/tempWorkspace';

function plan(opts: { summary?: string; step1?: string; step2?: string; step3?: string } = {}): string {
  return `# Greeting helper

## Summary

${opts.summary ?? 'Add `greet(name)` so callers get one greeting.'}

## Implementation Steps

1. ${opts.step1 ?? 'Add the greet function'} -> files: [src/greet.ts] -> verify: [npm test]
2. ${opts.step2 ?? 'Read the config by hand'} -> files: [src/config.ts] -> verify: [npm test]
3. ${opts.step3 ?? 'Document greet'} -> files: [README.md] -> verify: [npm test]

## Test Cases and Validation

- tests: \`npm test\`

## Assumptions and Defaults

- English only
`;
}

/** The 1-based line of `text` that starts with `start`. */
function lineOf(text: string, start: string): number {
  const i = text.split('\n').findIndex((l) => l.startsWith(start));
  assert.ok(i >= 0, `no line starts with ${start}`);
  return i + 1;
}

function threadsOf(p: ParsedPlan) {
  assert.ok(p.review, `the plan carries its review (${p.reviewError ?? 'no error'})`);
  return p.review.threads;
}

describe('review threads in the workspace’s plans', () => {
  let ws: TempWorkspace;
  let plans: PlanWorkspace;
  let clock = 1_000;

  beforeEach(() => {
    ws = makeTempWorkspace({ 'src/.keep': '' });
    plans = new PlanWorkspace({
      reader: ws.reader,
      writer: new NodeWorkspaceWriter(),
      root: ws.root,
      now: () => clock++,
    });
  });
  afterEach(() => {
    plans.dispose();
    ws.cleanup();
  });

  async function save(text: string, stem?: string): Promise<{ file: string; stem: string }> {
    const r = await plans.store.save(text, stem !== undefined ? { stem } : {});
    assert.ok(r.ok, r.ok ? '' : r.feedback);
    return r;
  }

  it('a revision that moves step 1 down: its thread is on step 1’s new line, not outdated; the changed step’s thread is outdated since that revision', async () => {
    const rev1 = plan();
    const { file, stem } = await save(rev1);
    assert.ok((await plans.review.add(file, { anchor: { kind: 'step', index: 1 } }, 'Keep it one line.')).ok);
    assert.ok((await plans.review.add(file, { anchor: { kind: 'step', index: 2 } }, 'Parse it with zod.')).ok);
    const first = threadsOf(await plans.plan(file));
    assert.deepEqual(
      first.map((t) => [t.id, t.range.start]),
      [
        ['c1', lineOf(rev1, '1. Add')],
        ['c2', lineOf(rev1, '2. Read')],
      ],
    );

    const changes: PlanChange[] = [];
    plans.onDidChange((c) => changes.push(c));
    const rev2 = plan({
      summary:
        'Add `greet(name)` so callers get one greeting.\n\nThe CLI and the web form call it.\n\nNothing else changes.',
      step2: 'Parse the config with zod',
    });
    await save(rev2, stem);
    const sidecar = readFileSync(reviewFileOf(file), 'utf8');
    await plans.refresh(file, 'revision');

    // The change the workspace publishes carries the threads anchored to revision 2.
    const published = changes.at(-1)?.plan;
    assert.ok(published);
    const [c1, c2] = threadsOf(published);
    assert.ok(lineOf(rev2, '1. Add') > lineOf(rev1, '1. Add'), 'revision 2 moved step 1 down');
    assert.deepEqual(
      [c1?.id, c1?.label, c1?.range.start, c1?.outdated],
      ['c1', 'step 1', lineOf(rev2, '1. Add'), undefined],
    );
    assert.deepEqual(
      [c2?.id, c2?.range.start, c2?.outdated],
      [
        'c2',
        lineOf(rev2, '2. Parse'),
        {
          text: '2. Read the config by hand -> files: [src/config.ts] -> verify: [npm test]',
          revision: 1,
          since: 2,
          vanished: false,
        },
      ],
    );
    // Each thread keeps its own words.
    assert.deepEqual(
      [c1, c2].map((t) => t?.comments[0]?.body),
      ['Keep it one line.', 'Parse it with zod.'],
    );
    assert.equal(published.review?.revision, 2);
    // Reading the plan does not write the sidecar; the review book does when it follows.
    assert.equal(readFileSync(reviewFileOf(file), 'utf8'), sidecar);
    const followed = await plans.review.follow(file);
    assert.deepEqual(followed.threads, published.review?.threads, 'the book and the plan agree');

    // `planwise review` names the same lines.
    const cli = await runCli(['review', '--workspace', ws.root, stem]);
    assert.equal(cli.code, 0, cli.stderr);
    assert.match(cli.stdout, new RegExp(`^c1 {2}step 1, line ${lineOf(rev2, '1. Add')} {2}\\[open\\]$`, 'm'));
    assert.match(
      cli.stdout,
      new RegExp(`^c2 {2}step 2, line ${lineOf(rev2, '2. Parse')} {2}\\[open, outdated\\]$`, 'm'),
    );
    assert.match(cli.stdout, /^ {4}you: Keep it one line\.$/m);
    assert.match(cli.stdout, /^ {4}you: Parse it with zod\.$/m);
  });

  it('an outdated thread names the revision where its element changed, however many revisions the sidecar missed', async () => {
    const { file, stem } = await save(plan());
    assert.ok((await plans.review.add(file, { anchor: { kind: 'step', index: 2 } }, 'Use zod.')).ok);
    assert.ok((await plans.review.add(file, { anchor: { kind: 'step', index: 3 } }, 'Say where.')).ok);
    assert.ok((await plans.review.add(file, { anchor: { kind: 'step', index: 1 } }, 'Fine.')).ok);
    // Revision 2 changes step 3 only; revision 3 changes step 2 (and step 3 again). Nobody reads
    // the review in between, so its sidecar still refers to revision 1.
    await save(plan({ step3: 'Document greet in the README' }), stem);
    const rev3 = plan({ step2: 'Parse the config with zod', step3: 'Document greet in the README and docs/' });
    await save(rev3, stem);
    const threads = threadsOf(await plans.plan(file));
    assert.deepEqual(
      threads.map((t) => [t.id, t.outdated?.revision, t.outdated?.since, t.range.start]),
      [
        ['c1', 1, 3, lineOf(rev3, '2. Parse')],
        ['c2', 1, 2, lineOf(rev3, '3. Document')],
        ['c3', undefined, undefined, lineOf(rev3, '1. Add')],
      ],
    );
    // The book carries them the same way, and says so once per thread.
    const events: string[] = [];
    plans.onReview((e) => events.push(`${e.type} ${'thread' in e ? e.thread.id : ''}`));
    const state = await plans.review.state(file);
    assert.deepEqual(state.threads, threads);
    assert.deepEqual(events.sort(), ['review.thread.outdated c1', 'review.thread.outdated c2']);
  });

  it('a sidecar that does not say when its thread went outdated: the revision after the one it was written on', async () => {
    const { file, stem } = await save(plan());
    assert.ok((await plans.review.add(file, { anchor: { kind: 'step', index: 2 } }, 'Use zod.')).ok);
    await save(plan({ step2: 'Parse the config with zod' }), stem);
    await plans.review.follow(file);
    const sidecar = JSON.parse(readFileSync(reviewFileOf(file), 'utf8'));
    delete sidecar.threads[0].outdated.since;
    writeFileSync(reviewFileOf(file), JSON.stringify(sidecar));
    const [t] = threadsOf(await plans.plan(file));
    assert.deepEqual(t?.outdated && [t.outdated.revision, t.outdated.since], [1, 2]);
  });

  it('a change through the review book is in the plan’s entry before its event goes out', async () => {
    const { file } = await save(plan());
    await plans.plan(file);
    const seen: (number | undefined)[] = [];
    plans.onReview(() => seen.push(plans.peek(file)?.review?.threads.length));
    assert.ok((await plans.review.add(file, { line: lineOf(plan(), '3. Document') }, 'Which README?')).ok);
    assert.ok((await plans.review.add(file, { anchor: { kind: 'summary' } }, 'Why?')).ok);
    assert.deepEqual(seen, [1, 2]);
    assert.deepEqual(
      plans.peek(file)?.review?.threads.map((t) => [t.id, t.label]),
      [
        ['c1', 'step 3'],
        ['c2', 'the summary'],
      ],
    );
  });

  it('an unreadable sidecar: the plan still loads and says why its threads are missing', async () => {
    const { file } = await save(plan());
    writeFileSync(reviewFileOf(file), '{ not json');
    const p = await plans.plan(file);
    assert.equal(p.review, undefined);
    assert.match(p.reviewError ?? '', /is not valid JSON/);
  });
});
