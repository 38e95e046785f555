/** The editor's view of review threads and the plan's CodeLens row, from the engine's thread info alone. */
import { validatePlan } from '../../src/core/index';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import type { ReviewThreadInfo } from '../../src/core/index';
import { planLenses } from '../../src/host/codelens/lenses';
import { threadView } from '../../src/host/review/threadView';

const thread = (patch: Partial<ReviewThreadInfo> = {}): ReviewThreadInfo => ({
  id: 'c1',
  anchor: { kind: 'step', index: 2 },
  label: 'step 2',
  status: 'open',
  range: { start: 10, end: 12 },
  text: '2. Parse the config with zod',
  comments: [
    { id: 'c1.1', author: 'person', body: 'use zod here', at: 1, revision: 1 },
    { id: 'c1.2', author: 'planner', body: 'Done.', at: 2, revision: 1, verdict: 'addressed' },
  ],
  answered: true,
  ...patch,
});

describe('review threads in the editor', () => {
  it('covers its element’s lines (0-based), names it, and shows who said what with the verdict', () => {
    const v = threadView(thread());
    assert.deepEqual(
      [v.startLine, v.endLine, v.label, v.resolved, v.contextValue],
      [9, 11, 'c1 · step 2', false, 'planThread.open'],
    );
    assert.deepEqual(
      v.comments.map((c) => [c.author, c.body, c.label]),
      [
        ['You', 'use zod here', undefined],
        ['Planner', 'Done.', 'addressed'],
      ],
    );
  });

  it('marks an outdated thread and quotes the text it was written on; a declined reply shows its reason', () => {
    const v = threadView(
      thread({
        outdated: { text: '2. Read the config by hand', revision: 1, since: 2, vanished: false },
        comments: [
          { id: 'c1.1', author: 'person', body: 'use zod here', at: 1, revision: 1 },
          {
            id: 'c1.2',
            author: 'planner',
            body: 'No.',
            at: 2,
            revision: 1,
            verdict: 'declined',
            reason: 'no new dependency',
          },
        ],
      }),
    );
    assert.equal(v.label, 'c1 · step 2 · outdated since revision 2');
    const since = threadView(thread({ outdated: { text: 'x', revision: 1, since: 3, vanished: false } }));
    assert.equal(since.label, 'c1 · step 2 · outdated since revision 3', 'the revision that changed it');
    // The person's words come first: they are the thread's preview in the Comments panel.
    assert.equal(
      v.comments[0]?.body,
      'use zod here\n\n*Written on revision 1, where it read:*\n\n> 2. Read the config by hand',
    );
    assert.equal(v.comments[1]?.body, 'No.\n\n*Reason:* no new dependency');
    const gone = threadView(
      thread({
        anchor: { kind: 'title' },
        label: 'the plan as a whole',
        range: { start: 1, end: 1 },
        outdated: { text: 'x', revision: 1, since: 2, vanished: true },
      }),
    );
    assert.deepEqual([gone.startLine, gone.label], [0, 'c1 · the plan as a whole · outdated: the element was removed']);
    const resolved = threadView(thread({ status: 'resolved' }));
    assert.deepEqual([resolved.resolved, resolved.contextValue], [true, 'planThread.resolved']);
  });

  it('the CodeLens row says "Request changes (N comments)" while the gate is open and comments are unresolved', () => {
    const markdown = readFileSync(
      join(resolve(__dirname, '../fixtures/plans/valid'), 'seed-fix-off-by-one.md'),
      'utf8',
    );
    const top = (openComments: number) =>
      planLenses({
        markdown,
        verdict: validatePlan(markdown),
        trusted: true,
        now: 0,
        resultOf: () => undefined,
        gateOpen: true,
        revisions: 1,
        openComments,
      })
        .filter((l) => l.action.kind === 'revise')
        .map((l) => l.title);
    assert.deepEqual(top(0), ['$(edit) Revise']);
    assert.deepEqual(top(1), ['$(comment-discussion) Request changes (1 comment)']);
    assert.deepEqual(top(3), ['$(comment-discussion) Request changes (3 comments)']);
  });
});
