/** Review threads reach the planner in one revision request, get answers, and follow the plan. */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import type { PlanApprovalRequest } from '../../src/core/lifecycle/ports';
import { sse } from '../support/scriptedServer';
import { planResponse, startHarness, type Harness } from '../support/sessionHarness';

function plan(step2: string, summary = 'Add `greet(name)` so callers get a consistent greeting.'): string {
  return `# Greeting helper

## Summary

${summary}

## Implementation Steps

1. Add the greet function -> files: [src/greet.ts] -> verify: [node -e "process.exit(0)"]
2. ${step2} -> files: [src/config.ts] -> verify: [node -e "process.exit(0)"]

## Test Cases and Validation

- tests: \`node -e "process.exit(0)"\`

## Assumptions and Defaults

- the greeting text is English only
`;
}

const reply = (id: string, text: string, status = 'addressed') =>
  sse.toolTurn([{ name: 'reply_to_review_comment', args: { id, reply: text, status } }]);

/** The last user message of chat request `n`. */
function lastUserMessage(h: Harness, n: number): string {
  const messages = h.server.requests[n]!.body.messages as { role: string; content: string }[];
  return [...messages].reverse().find((m) => m.role === 'user')!.content;
}

describe('plan review in a session', () => {
  let h: Harness | undefined;
  afterEach(async () => {
    await h?.close();
    h = undefined;
  });

  it('sends the threads with the note, records the replies, re-anchors, and resends only unresolved threads', async () => {
    let failure: unknown;
    h = await startHarness(
      [
        sse.textTurn(planResponse(plan('Read the config by hand'))),
        reply('c1', 'The config is parsed with zod now.'),
        reply('c2', 'The summary already says it.', 'declined'),
        sse.textTurn(planResponse(plan('Parse the config with zod'))),
        reply('c1', 'Still zod.'),
        sse.textTurn(planResponse(plan('Parse the config with zod schemas'))),
      ],
      {
        approve: (r, n) =>
          gateAnswer(r, n).catch((err: unknown) => {
            failure = err;
            return { decision: 'cancel' };
          }),
      },
    );
    async function gateAnswer(
      r: PlanApprovalRequest,
      n: number,
    ): Promise<{ decision: 'revise' | 'cancel'; feedback?: string }> {
      const session = h!.session;
      if (n === 1) {
        assert.equal(r.card.openComments, undefined);
        assert.ok((await session.review.add(r.planFile, { anchor: { kind: 'step', index: 2 } }, 'use zod here')).ok);
        assert.ok((await session.review.add(r.planFile, { line: 5 }, 'say why')).ok);
        return { decision: 'revise', feedback: 'keep it small' };
      }
      if (n === 2) {
        assert.deepEqual(
          r.card.openComments?.map((c) => [c.id, c.label, c.line, c.outdated, c.answered]),
          [
            ['c1', 'step 2', 10, true, true],
            ['c2', 'the summary', 5, false, false], // its decline lacked a reason: a tool error
          ],
        );
        assert.ok((await session.review.resolve(r.planFile, 'c2')).ok);
        return { decision: 'revise' };
      }
      return { decision: 'cancel' };
    }
    await h.session.start('plan a greeting');
    if (failure) throw failure;

    const first = lastUserMessage(h, 1);
    assert.equal(first.split('<review_thread id="c1" element="step 2">').length, 2);
    assert.equal(first.split('<review_thread id="c2" element="the summary">').length, 2);
    assert.match(first, /> 2\. Read the config by hand/);
    assert.match(first, /General note from the person:\n> keep it small/);
    // The declined reply was refused for want of a reason, then the plan came.
    const declined = h.eventsOf('item.completed').find((e) => e.item.result && /reason/.test(e.item.result.preview));
    assert.ok(declined, 'the decline without a reason is a tool error');

    const second = lastUserMessage(h, 4);
    assert.match(second, /<review_thread id="c1" element="step 2">/);
    assert.doesNotMatch(second, /c2|say why/);
    assert.match(second, /earlier text of this element:\n> 2\. Read the config by hand/);

    const types = h.events.filter((e) => e.type.startsWith('review.')).map((e) => e.type);
    assert.deepEqual(types, [
      'review.thread.created',
      'review.thread.created',
      'review.requested',
      'review.thread.replied',
      'review.thread.outdated',
      'review.thread.resolved',
      'review.requested',
      'review.thread.replied',
      'review.thread.reanchored', // still outdated: its step changed again in revision 3
    ]);

    const planFile = h.session.planFile!;
    const sidecar = JSON.parse(readFileSync(planFile.replace(/\.md$/, '.review.json'), 'utf8'));
    assert.equal(sidecar.revision, 3);
    assert.deepEqual(
      sidecar.requests.map((q: { revision: number; threads: string[]; answeredBy?: number }) => [
        q.revision,
        q.threads,
        q.answeredBy,
      ]),
      [
        [1, ['c1', 'c2'], 2],
        [2, ['c1'], 3],
      ],
    );
    assert.deepEqual(sidecar.threads[0].outdated, {
      text: '2. Read the config by hand -> files: [src/config.ts] -> verify: [node -e "process.exit(0)"]',
      revision: 1,
      since: 2,
      vanished: false,
    });
  });

  it('a resumed session reads the same threads from the sidecar and its archive', async () => {
    h = await startHarness([sse.textTurn(planResponse(plan('Read the config by hand')))], {
      config: { interactive: false },
    });
    const stop = await h.session.start('plan a greeting');
    assert.equal(stop.kind, 'awaiting_approval');
    const file = h.session.planFile!;
    assert.ok((await h.session.review.add(file, { anchor: { kind: 'step', index: 2 } }, 'use zod here')).ok);
    const resumed = await h.resume(h.session.id);
    assert.ok(resumed);
    const state = await resumed.review.state(file);
    assert.deepEqual(
      state.threads.map((t) => [t.id, t.label, t.comments[0]?.body]),
      [['c1', 'step 2', 'use zod here']],
    );
  });
});
