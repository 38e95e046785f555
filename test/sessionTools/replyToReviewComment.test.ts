import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { runTool } from '../../src/core/tools';
import { replyToReviewCommentTool as tool } from '../../src/core/tools/session/replyToReviewComment';
import { ReviewBook, plannerReplies } from '../../src/core/plan/reviewBook';
import type { ReviewEventBody } from '../../src/core/events/reviewEvents';
import { PlanStore } from '../../src/core/plan/store';
import { NodeWorkspaceWriter } from '../../src/node/fsWorkspace';
import { makeTempWorkspace, type TempWorkspace } from '../support/tempWorkspace';
import { buildPlan } from '../plan/planBuilder';
import { agentContextFor } from './helpers';

describe('reply_to_review_comment', () => {
  let ws: TempWorkspace;
  let book: ReviewBook;
  let file: string;
  let events: ReviewEventBody[];
  beforeEach(async () => {
    ws = makeTempWorkspace();
    const writer = new NodeWorkspaceWriter();
    const store = new PlanStore(ws.reader, writer, { root: ws.root, now: () => 1 });
    const saved = await store.save(buildPlan(), { name: 'retry' });
    assert.ok(saved.ok);
    file = saved.file;
    events = [];
    book = new ReviewBook({ reader: ws.reader, writer, store, now: () => 5, emit: (e) => events.push(e) });
    const added = await book.add(file, { anchor: { kind: 'step', index: 1 } }, 'use zod here');
    assert.ok(added.ok);
  });
  afterEach(() => ws.cleanup());

  const call = (args: unknown) =>
    runTool(tool, JSON.stringify(args), agentContextFor(ws, { review: plannerReplies(book, () => file) }));

  it('stores the reply with its verdict in the sidecar and announces it', async () => {
    const r = await call({ id: 'c1', reply: 'Parsing uses zod now.', status: 'addressed' });
    assert.equal(r.ok, true, r.content);
    assert.match(r.content, /c1 \(step 1\) as addressed/);
    const sidecar = JSON.parse(readFileSync(file.replace(/\.md$/, '.review.json'), 'utf8'));
    assert.deepEqual(sidecar.threads[0].comments[1], {
      id: 'c1.2',
      author: 'planner',
      body: 'Parsing uses zod now.',
      at: 5,
      revision: 1,
      verdict: 'addressed',
    });
    const replied = events.find((e) => e.type === 'review.thread.replied');
    assert.ok(replied && replied.type !== 'review.requested');
    assert.equal(replied.thread.answered, true);
    assert.equal(replied.open, 1);
  });

  it('an unknown id is a tool error naming the threads, not a crash', async () => {
    const r = await call({ id: 'c7', reply: 'done', status: 'addressed' });
    assert.equal(r.ok, false);
    assert.equal(r.content, 'reply_to_review_comment: no review thread "c7"; the threads are c1');
  });

  it('a decline needs a reason', async () => {
    const r = await call({ id: 'c1', reply: 'no', status: 'declined' });
    assert.equal(r.ok, false);
    assert.match(r.content, /reason: a declined comment needs a reason/);
    const ok = await call({
      id: 'c1',
      reply: 'Kept the hand parser.',
      status: 'declined',
      reason: 'no new dependency',
    });
    assert.equal(ok.ok, true, ok.content);
  });

  it('without a review in the context it says the host gave none', async () => {
    const r = await runTool(tool, JSON.stringify({ id: 'c1', reply: 'x', status: 'addressed' }), agentContextFor(ws));
    assert.equal(r.ok, false);
    assert.match(r.content, /no plan review/);
  });
});
