/** The engine's one verify runner and result store, on real processes in a temp workspace. */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { Verifier, type VerifyRecord } from '../../src/core/index';
import { NodeCommandRunner } from '../../src/node/processRunner';
import { makeTempWorkspace, type TempWorkspace } from '../support/tempWorkspace';
import { policyFor } from '../support/commandPolicy';

const cmd = (command: string) => ({ kind: 'command' as const, text: command, command });

describe('Verifier', () => {
  let ws: TempWorkspace;
  let records: VerifyRecord[];
  let verifier: Verifier;
  beforeEach(() => {
    ws = makeTempWorkspace({ 'count.js': "require('fs').appendFileSync('runs.txt', 'x')" });
    verifier = new Verifier({
      runner: new NodeCommandRunner(),
      cwd: () => ws.root,
      now: Date.now,
      policy: policyFor(ws.root, ['node *']),
    });
    records = [];
    verifier.onRecorded((r) => records.push(r));
  });
  afterEach(() => ws.cleanup());

  it('a second run of an entry that is still running joins the first (one process)', async () => {
    const entry = cmd('node count.js');
    const [a, b] = await Promise.all([
      verifier.run('/p.md', '1', entry, { origin: 'person' }),
      verifier.run('/p.md', '1', entry, { origin: 'build' }),
    ]);
    assert.equal(a, b);
    assert.equal(readFileSync(ws.path('runs.txt'), 'utf8'), 'x');
    assert.deepEqual(
      records.map((r) => r.status),
      ['running', 'passed'],
    );
  });

  it('keys results by plan file, step and the entry as written', async () => {
    await verifier.run('/p.md', '1', cmd('node count.js'), { origin: 'person' });
    assert.equal(verifier.latest('/p.md', '1', 'node count.js')?.status, 'passed');
    assert.equal(verifier.latest('/p.md', '2', 'node count.js'), undefined);
    assert.equal(verifier.latest('/q.md', '1', 'node count.js'), undefined);
    verifier.forget('/p.md');
    assert.equal(verifier.hasResults, false);
  });

  it('reads its timeout setting at each run: a changed setting stops the next run in time', async () => {
    let seconds = 300;
    const v = new Verifier({
      runner: new NodeCommandRunner(),
      cwd: () => ws.root,
      now: Date.now,
      timeoutMs: () => seconds * 1000,
      policy: policyFor(ws.root, ['node *']),
    });
    assert.equal(v.timeoutMs, 300_000);
    seconds = 1;
    const r = await v.run('/p.md', '1', cmd('node -e "setInterval(() => {}, 1000)"'), { origin: 'person' });
    assert.equal(r.status, 'timed_out');
    assert.match(r.output, /timed out after 1 s/);
  });

  it('a check is never run, only signed off by a person', async () => {
    await assert.rejects(
      verifier.run('/p.md', '1', { kind: 'check', text: 'confirm it shows' }, { origin: 'build' }),
      /signs off/,
    );
    const r = verifier.signOff('/p.md', '1', 'confirm it shows');
    assert.deepEqual([r.kind, r.status, r.origin], ['check', 'checked', 'person']);
  });

  it('the build turn’s signal and cancelAll stop runs, recorded as cancelled', async () => {
    const turn = new AbortController();
    const hung = verifier.run('/p.md', '1', cmd('node -e "setInterval(() => {}, 1000)"'), {
      origin: 'build',
      signal: turn.signal,
    });
    const other = verifier.run('/p.md', '2', cmd('node -e "setInterval(() => {}, 1000)"'), { origin: 'person' });
    turn.abort(new Error('stopped'));
    assert.equal((await hung).status, 'cancelled');
    verifier.cancelAll();
    assert.equal((await other).status, 'cancelled');
  });

  it('says so when the host has no shell', async () => {
    const none = new Verifier({ cwd: () => ws.root, now: Date.now, policy: policyFor(ws.root, ['node *']) });
    const r = await none.run('/p.md', '1', cmd('node count.js'), { origin: 'build' });
    assert.equal(r.status, 'failed');
    assert.match(r.output, /cannot run here/);
  });
});
