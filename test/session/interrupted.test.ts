/**
 * A reload mid-turn: the session was checkpointed after the person's message and before its turn
 * completed, so it comes back as interrupted, and `reopen()` runs that turn again on the thread as
 * it was (the message is sent once, not twice), through to the gate.
 */
import assert from 'node:assert/strict';
import { sse } from '../support/scriptedServer';
import { planResponse, samplePlan, startHarness, type Harness } from '../support/sessionHarness';

const userMessages = (body: { messages: { role: string; content?: unknown }[] }) =>
  body.messages.filter((m) => m.role === 'user').map((m) => String(m.content));

describe('a session interrupted mid-turn', () => {
  let h: Harness | undefined;
  afterEach(async () => {
    await h?.close();
    h = undefined;
  });

  it('is resumed as interrupted, and reopen() runs its turn again to the gate', async () => {
    h = await startHarness([
      // The first request streams a little and then hangs: the window reloads while it does.
      { chunks: [sse.text('Looking at the repository')], stallAfter: 1 },
      sse.textTurn(planResponse(samplePlan('Greet politely'))),
    ]);
    void h.session.start('add a polite greeting');
    const deadline = Date.now() + 10_000;
    while (h.server.requests.length < 1 && Date.now() < deadline) await new Promise((ok) => setTimeout(ok, 10));
    assert.equal(h.server.requests.length, 1, 'the first request was sent');

    // A new window reads the archive the first one left.
    const resumed = await h.resume(h.session.id);
    assert.ok(resumed, 'the session can be resumed: it was checkpointed before its turn ran');
    assert.equal(resumed.interrupted, 'add a polite greeting');
    assert.equal(resumed.state, 'planning');

    const stop = resumed.reopen();
    const until = Date.now() + 10_000;
    while (h.people.approvals.length < 1 && Date.now() < until) await new Promise((ok) => setTimeout(ok, 10));
    assert.equal(h.people.approvals.length, 1, 'the continued turn reached the gate');
    assert.equal(h.people.approvals[0]!.card.title, 'Greet politely');
    assert.equal(resumed.interrupted, undefined, 'reopen() ran the interrupted turn');
    assert.deepEqual(userMessages(h.server.requests[1]!.body as never), ['add a polite greeting']);
    assert.equal(await stop.then((s) => s?.kind), 'cancelled');
  });

  it('a session whose turn completed is not interrupted', async () => {
    h = await startHarness([sse.textTurn('Hello! What should I plan?')]);
    await h.session.start('hi');
    const resumed = await h.resume(h.session.id);
    assert.ok(resumed);
    assert.equal(resumed.interrupted, undefined);
    assert.equal(await resumed.reopen(), undefined, 'nothing to run again');
  });
});
