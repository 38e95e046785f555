import assert from 'node:assert/strict';
import {
  anchorFromPrefix,
  createReanchorer,
  elementAtLine,
  locateAnchor,
  planElements,
  type PlanAnchor,
} from '../../src/core/plan/anchors';
import {
  addThread,
  emptyReview,
  openThreads,
  reanchorReview,
  recordRequest,
  replyToThread,
  reviewFileSchema,
  setThreadStatus,
  threadInfo,
  type ReviewFile,
} from '../../src/core/plan/review';
import { revisionRequest } from '../../src/core/plan/reviewRequest';
import { buildPlan } from './planBuilder';

const REV1 = buildPlan({
  summary: 'Retry a failed upload once; nothing else changes.',
  steps: [
    '1. Add retry loop -> files: [src/upload.ts] -> verify: [npm test]',
    '2. Log retries',
    '   - **Files/symbols:** src/log.ts',
    '   - **Verify:** npm test',
    '3. Document retries -> files: [README.md] -> verify: [npx prettier --check README.md]',
    '4. Add a retry flag -> files: [src/flags.ts] -> verify: [npm test]',
  ].join('\n'),
  validation: '- tests: `npm test`\n- confirm the log shows one retry',
  assumptions: '- one retry is enough\n- uploads are idempotent',
});

/** The line of REV1 (1-based) whose text starts with `start`. */
function lineOf(plan: string, start: string): number {
  const i = plan.split('\n').findIndex((l) => l.trimStart().startsWith(start));
  assert.ok(i >= 0, `no line starts with ${start}`);
  return i + 1;
}

describe('plan review: anchors', () => {
  it('anchors to each element kind with its lines and text', () => {
    const at = (line: number) => elementAtLine(REV1, line);
    assert.deepEqual(at(lineOf(REV1, 'Retry a failed')).anchor, { kind: 'summary' });
    assert.deepEqual(at(lineOf(REV1, '## Summary')).anchor, { kind: 'summary' });
    assert.deepEqual(at(lineOf(REV1, '# Retry uploads')).anchor, { kind: 'title' });
    // A one-line step is anchored as a whole; a multi-line step's labelled lines are its parts.
    assert.deepEqual(at(lineOf(REV1, '1. Add retry')).anchor, { kind: 'step', index: 1 });
    assert.deepEqual(at(lineOf(REV1, '2. Log retries')).anchor, { kind: 'step', index: 2 });
    assert.deepEqual(at(lineOf(REV1, '- **Files/symbols:**')).anchor, { kind: 'step', index: 2, part: 'files' });
    assert.deepEqual(at(lineOf(REV1, '- **Verify:**')).anchor, { kind: 'step', index: 2, part: 'verify' });
    assert.deepEqual(at(lineOf(REV1, '- confirm the log')).anchor, { kind: 'test', index: 2 });
    assert.deepEqual(at(lineOf(REV1, '- uploads are')).anchor, { kind: 'assumption', index: 2 });

    const step2 = locateAnchor(REV1, { kind: 'step', index: 2 });
    assert.deepEqual([step2?.start, step2?.end], [lineOf(REV1, '2. Log'), lineOf(REV1, '- **Verify:**')]);
    assert.equal(locateAnchor(REV1, { kind: 'step', index: 1, part: 'files' })?.text, 'files: [src/upload.ts]');
    assert.equal(locateAnchor(REV1, { kind: 'assumption', index: 1 })?.text, 'one retry is enough');
    assert.equal(locateAnchor(REV1, { kind: 'step', index: 9 }), undefined);
  });

  it('keeps line numbers of the plan file when it embeds a tracker block', () => {
    const withBlock = REV1.replace(
      '## Assumptions',
      '<!-- vtcode:plan-tracker:start -->\n- [ ] x\n<!-- vtcode:plan-tracker:end -->\n\n## Assumptions',
    );
    assert.equal(locateAnchor(withBlock, { kind: 'assumption', index: 1 })?.start, lineOf(withBlock, '- one retry'));
    assert.equal(planElements(withBlock).filter((e) => e.anchor.kind === 'test').length, 2);
  });

  it('reads the CLI prefixes', () => {
    assert.deepEqual(anchorFromPrefix('step 2: use zod here'), {
      anchor: { kind: 'step', index: 2 },
      body: 'use zod here',
    });
    assert.deepEqual(anchorFromPrefix('Step 2 verify: run tsc too').anchor, { kind: 'step', index: 2, part: 'verify' });
    assert.deepEqual(anchorFromPrefix('summary: shorter').anchor, { kind: 'summary' });
    assert.deepEqual(anchorFromPrefix('assumption 1: really?').anchor, { kind: 'assumption', index: 1 });
    assert.deepEqual(anchorFromPrefix('test 2: which log?').anchor, { kind: 'test', index: 2 });
    assert.deepEqual(anchorFromPrefix('what about retries: none?'), {
      anchor: { kind: 'title' },
      body: 'what about retries: none?',
    });
  });
});

describe('plan review: re-anchoring across a revision', () => {
  // Revision 2 reorders (Document before Log), edits step 1's verify, deletes "Add a retry flag",
  // inserts a metrics step, edits the summary and rewords an assumption.
  const REV2 = buildPlan({
    summary: 'Retry a failed upload once and count retries.',
    steps: [
      '1. Add retry loop -> files: [src/upload.ts] -> verify: [npm test, npx tsc --noEmit]',
      '2. Document retries -> files: [README.md] -> verify: [npx prettier --check README.md]',
      '3. Add a retry metric -> files: [src/metrics.ts] -> verify: [npm test]',
      '4. Log retries',
      '   - **Files/symbols:** src/log.ts',
      '   - **Verify:** npm test',
    ].join('\n'),
    validation: '- confirm the log shows one retry\n- tests: `npm test`',
    assumptions: '- one retry is enough for now\n- uploads are idempotent',
  });
  const carry = createReanchorer(REV1, REV2);
  const expect = (from: PlanAnchor, anchor: PlanAnchor, status: 'same' | 'changed' | 'vanished') => {
    const r = carry(from);
    assert.deepEqual([r.anchor, r.status], [anchor, status], JSON.stringify(from));
    return r;
  };

  it('follows steps by identity, not position', () => {
    expect({ kind: 'step', index: 2 }, { kind: 'step', index: 4 }, 'same');
    expect({ kind: 'step', index: 2, part: 'files' }, { kind: 'step', index: 4, part: 'files' }, 'same');
    expect({ kind: 'step', index: 3 }, { kind: 'step', index: 2 }, 'same');
  });

  it('marks an edited step changed with its old text, and a part by its own text', () => {
    const r = expect({ kind: 'step', index: 1 }, { kind: 'step', index: 1 }, 'changed');
    assert.match(r.oldText, /verify: \[npm test\]$/);
    expect({ kind: 'step', index: 1, part: 'files' }, { kind: 'step', index: 1, part: 'files' }, 'same');
    expect({ kind: 'step', index: 1, part: 'verify' }, { kind: 'step', index: 1, part: 'verify' }, 'changed');
  });

  it('sends a deleted step to the title, and the summary and items follow their text', () => {
    const gone = expect({ kind: 'step', index: 4 }, { kind: 'title' }, 'vanished');
    assert.match(gone.oldText, /Add a retry flag/);
    expect({ kind: 'summary' }, { kind: 'summary' }, 'changed');
    expect({ kind: 'test', index: 1 }, { kind: 'test', index: 2 }, 'same');
    expect({ kind: 'test', index: 2 }, { kind: 'test', index: 1 }, 'same');
    expect({ kind: 'assumption', index: 1 }, { kind: 'assumption', index: 1 }, 'changed');
    expect({ kind: 'assumption', index: 2 }, { kind: 'assumption', index: 2 }, 'same');
    expect({ kind: 'title' }, { kind: 'title' }, 'same');
  });

  it('re-anchors a whole review: outdated flags, old text, lines in the new revision', () => {
    let review: ReviewFile = emptyReview('p', 1);
    const add = (anchor: PlanAnchor, body: string) => (review = addThread(review, REV1, anchor, body, 1).review);
    add({ kind: 'step', index: 2 }, 'log at debug level');
    add({ kind: 'step', index: 1, part: 'verify' }, 'also run tsc');
    add({ kind: 'step', index: 4 }, 'do we need a flag?');
    add({ kind: 'summary' }, 'mention metrics');
    const r = reanchorReview(review, REV1, REV2, 2);
    assert.deepEqual(r.outdated, ['c2', 'c3', 'c4']);
    assert.deepEqual(r.reanchored, ['c1']);
    const byId = new Map(r.review.threads.map((t) => [t.id, threadInfo(t, REV2)]));
    assert.deepEqual(byId.get('c1')?.anchor, { kind: 'step', index: 4 });
    assert.equal(byId.get('c1')?.range.start, lineOf(REV2, '4. Log retries'));
    assert.equal(byId.get('c1')?.outdated, undefined);
    // Written on revision 1; revision 2 changed it.
    assert.deepEqual(byId.get('c2')?.outdated, { text: 'verify: [npm test]', revision: 1, since: 2, vanished: false });
    assert.equal(byId.get('c2')?.text, 'verify: [npm test, npx tsc --noEmit]');
    assert.deepEqual(byId.get('c3')?.anchor, { kind: 'title' });
    assert.equal(byId.get('c3')?.range.start, 1);
    assert.equal(byId.get('c3')?.outdated?.vanished, true);
    assert.match(byId.get('c3')?.outdated?.text ?? '', /Add a retry flag/);
    assert.equal(r.review.revision, 2);
    assert.ok(reviewFileSchema.safeParse(r.review).success);
  });
});

describe('plan review: threads and the revision request', () => {
  const review = () => {
    let r = emptyReview('p', 1);
    r = addThread(r, REV1, { kind: 'step', index: 2 }, 'use zod here', 1).review;
    r = addThread(r, REV1, { kind: 'summary' }, 'say why once is enough', 2).review;
    return r;
  };

  it('quotes each unresolved thread once with its element, its current text and its id, then the note', () => {
    const req = revisionRequest(review(), REV1, 'keep it small');
    assert.ok(req);
    assert.deepEqual(req.threads, ['c1', 'c2']);
    assert.equal(req.body.split('<review_thread id="c1" element="step 2">').length, 2);
    assert.equal(req.body.split('<review_thread id="c2" element="the summary">').length, 2);
    assert.match(req.body, /> 2\. Log retries\n> {4}- \*\*Files\/symbols:\*\* src\/log\.ts/);
    assert.match(req.body, /> use zod here/);
    assert.match(req.body, /> Retry a failed upload once; nothing else changes\./);
    assert.match(req.body, /reply_to_review_comment/);
    assert.match(req.body, /General note from the person:\n> keep it small$/);
  });

  it('does not send resolved threads again', () => {
    const resolved = setThreadStatus(review(), 'c1', 'resolved');
    assert.ok(resolved.ok);
    const req = revisionRequest(resolved.review, REV1);
    assert.deepEqual(req?.threads, ['c2']);
    assert.doesNotMatch(req?.body ?? '', /c1|use zod/);
    const none = setThreadStatus(resolved.review, 'c2', 'resolved');
    assert.ok(none.ok);
    assert.equal(revisionRequest(none.review, REV1), undefined);
    assert.deepEqual(revisionRequest(none.review, REV1, 'just this')?.body, 'Revise the plan: just this');
  });

  it('records replies with verdicts, refuses unknown ids, and keeps which revision answered a request', () => {
    let r = recordRequest(review(), ['c1', 'c2'], 3, 'note');
    const unknown = replyToThread(r, 'c9', { author: 'planner', body: 'ok', verdict: 'addressed', at: 4 });
    assert.deepEqual(unknown, { ok: false, error: 'no review thread "c9"; the threads are c1, c2' });
    const ok = replyToThread(r, 'c1', {
      author: 'planner',
      body: 'Parsing uses zod now.',
      verdict: 'addressed',
      at: 4,
    });
    assert.ok(ok.ok);
    r = ok.review;
    const info = threadInfo(ok.thread, REV1);
    assert.equal(info.answered, true);
    assert.deepEqual(
      info.comments.map((c) => [c.id, c.author, c.verdict]),
      [
        ['c1.1', 'person', undefined],
        ['c1.2', 'planner', 'addressed'],
      ],
    );
    const after = reanchorReview(r, REV1, REV1, 2).review;
    assert.deepEqual(after.requests, [{ revision: 1, threads: ['c1', 'c2'], at: 3, note: 'note', answeredBy: 2 }]);
    assert.deepEqual(
      after.threads.map((t) => t.sentIn),
      [[1], [1]],
    );
    assert.equal(openThreads(after).length, 2);
  });

  it('refuses a comment on an element the plan does not have', () => {
    assert.throws(() => addThread(emptyReview('p', 1), REV1, { kind: 'step', index: 7 }, 'x', 1), /no step 7/);
  });
});
