/**
 * A resumed session goes on from what it had spent: a window reload resets neither the session's
 * tool-call count (nor a limit the person raised) nor its tokens.
 */
import assert from 'node:assert/strict';
import { sse } from '../support/scriptedServer';
import { startHarness } from '../support/sessionHarness';

describe('a resumed session keeps its spend', function () {
  this.timeout(30_000);

  it('two calls before the reload and two after: the fourth asks for more, as it would have without the reload', async () => {
    const reads = sse.toolTurn([
      { name: 'read_file', args: { path: 'a.txt' } },
      { name: 'read_file', args: { path: 'b.txt' } },
    ]);
    const h = await startHarness([reads, sse.textTurn('Which of the two files should change?'), reads], {
      files: { 'a.txt': 'a\n', 'b.txt': 'b\n' },
      config: { budgets: { sessionToolCalls: 3 } },
      grant: () => 0,
    });
    try {
      const first = await h.session.start('change one of the files');
      assert.equal(first.kind, 'completed');
      assert.deepEqual(h.people.grants, [], 'two calls fit in three');
      const spentBefore = h.eventsOf('budget.updated').at(-1)!.budget.tokens;

      const resumed = await h.resume(h.session.id);
      assert.ok(resumed);
      await resumed.submit('a.txt');
      assert.deepEqual(h.people.grants, [{ kind: 'session_tool_calls', used: 3, max: 3 }]);
      const spentAfter = h.eventsOf('budget.updated').at(-1)!.budget.tokens;
      assert.ok(
        spentAfter.input >= spentBefore.input && spentBefore.input > 0,
        JSON.stringify([spentBefore, spentAfter]),
      );
    } finally {
      await h.close();
    }
  });
});
