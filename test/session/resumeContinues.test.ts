/**
 * A reload mid-turn resumes from the last complete tool batch: the thread is checkpointed after
 * every batch (results and interview answers included), so the resumed session sends only the
 * interrupted request again. No tool runs twice, no question is asked twice.
 */
import assert from 'node:assert/strict';
import type { WorkspaceReader } from '../../src/core/ports';
import { sse } from '../support/scriptedServer';
import { planResponse, samplePlan, startHarness, type Harness } from '../support/sessionHarness';

const question = {
  questions: [
    {
      header: 'Greeting',
      question: 'Which greeting?',
      options: [{ label: 'Hello', recommended: true }, { label: 'Howdy' }],
    },
  ],
};

/** The workspace reader, counting the reads of each file the tools ask for. */
function countingReader(inner: WorkspaceReader, reads: Map<string, number>): WorkspaceReader {
  return {
    roots: inner.roots,
    realpath: (p) => inner.realpath(p),
    stat: (p) => inner.stat(p),
    readDir: (p) => inner.readDir(p),
    readFile: (p) => {
      const name = p.split(/[\\/]/).pop()!;
      reads.set(name, (reads.get(name) ?? 0) + 1);
      return inner.readFile(p);
    },
    ...(inner.exists ? { exists: (p: string) => inner.exists!(p) } : {}),
  };
}

async function until(ready: () => boolean, ms = 10_000): Promise<void> {
  const end = Date.now() + ms;
  while (!ready()) {
    if (Date.now() > end) throw new Error('timed out');
    await new Promise((ok) => setTimeout(ok, 10));
  }
}

type Msg = { role: string; content?: unknown; tool_call_id?: string; tool_calls?: unknown[] };

describe('resume after a reload mid-turn', () => {
  let h: Harness | undefined;
  afterEach(async () => {
    await h?.close();
    h = undefined;
  });

  it('continues from the last complete tool batch: the results and answers are sent, nothing runs twice', async () => {
    const reads = new Map<string, number>();
    h = await startHarness(
      [
        sse.toolTurn([
          { name: 'read_file', args: { path: 'alpha.txt' } },
          { name: 'read_file', args: { path: 'beta.txt' } },
        ]),
        sse.toolTurn([{ name: 'request_user_input', args: question }]),
        sse.toolTurn([{ name: 'read_file', args: { path: 'gamma.txt' } }]),
        // The fourth request streams a little and hangs: the window reloads while it does.
        { chunks: [sse.text('Putting the plan together')], stallAfter: 1 },
        sse.textTurn(planResponse(samplePlan('Greet with Howdy'))),
      ],
      {
        files: { 'alpha.txt': 'ALPHA-1\n', 'beta.txt': 'BETA-2\n', 'gamma.txt': 'GAMMA-3\n' },
        interview: (qs) => ({ kind: 'answered', answers: [{ questionId: qs[0]!.id, choice: 'Howdy' }] }),
        readers: (ws) => ({ reader: countingReader(ws.reader, reads), gateFs: ws.reader }),
      },
    );
    void h.session.start('add a greeting');
    await until(() => h!.server.requests.length >= 4);
    assert.equal(h.people.interviews.length, 1);
    // The process dies mid-stream: the session is disposed while the fourth request hangs.
    h.session.dispose();

    const resumed = await h.resume(h.session.id);
    assert.ok(resumed, 'the session can be resumed');
    assert.equal(resumed.interrupted, 'add a greeting');
    const stop = resumed.reopen();
    await until(() => h!.people.approvals.length >= 1);
    assert.equal(await stop.then((s) => s?.kind), 'cancelled');

    assert.equal(h.server.requests.length, 5, 'only the interrupted request was sent again');
    const sent = h.server.requests[4]!.body.messages as Msg[];
    const interrupted = h.server.requests[3]!.body.messages as Msg[];
    assert.deepEqual(sent, interrupted, 'the resumed request is the interrupted one, message for message');
    const results = sent.filter((m) => m.role === 'tool').map((m) => String(m.content));
    assert.equal(results.length, 4, 'three reads and the interview, each answered once');
    assert.match(results[0]!, /ALPHA-1/);
    assert.match(results[1]!, /BETA-2/);
    assert.match(results[2]!, /Howdy/);
    assert.match(results[3]!, /GAMMA-3/);
    assert.equal(sent.filter((m) => m.role === 'user').length, 1, 'the person’s message is sent once');

    assert.equal(h.people.interviews.length, 1, 'no question asked again');
    assert.deepEqual(
      [reads.get('alpha.txt'), reads.get('beta.txt'), reads.get('gamma.txt')],
      [1, 1, 1],
      'each file was read once',
    );
    assert.equal(h.people.approvals[0]!.card.title, 'Greet with Howdy');
  });

  it('a reload inside the first request still runs the turn from the message', async () => {
    h = await startHarness([
      { chunks: [sse.text('Looking')], stallAfter: 1 },
      sse.toolTurn([{ name: 'read_file', args: { path: 'README.md' } }]),
      sse.textTurn(planResponse(samplePlan('Greet politely'))),
    ]);
    void h.session.start('add a polite greeting');
    await until(() => h!.server.requests.length >= 1);
    h.session.dispose();
    const resumed = await h.resume(h.session.id);
    assert.ok(resumed);
    const stop = resumed.reopen();
    await until(() => h!.people.approvals.length >= 1);
    await stop;
    const second = h.server.requests[1]!.body.messages as Msg[];
    assert.deepEqual(
      second.map((m) => m.role),
      ['system', 'user'],
    );
  });
});
