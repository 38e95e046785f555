import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import type { RunOptions } from '../../src/core/ports';
import { NodeCommandRunner } from '../../src/node/processRunner';
import { makeTempWorkspace, type TempWorkspace } from '../support/tempWorkspace';

describe('NodeCommandRunner', () => {
  let ws: TempWorkspace;
  let options: RunOptions;
  beforeEach(() => {
    ws = makeTempWorkspace({ 'a.txt': 'alpha\n' });
    options = { cwd: ws.root, timeoutMs: 10000, maxOutputBytes: 1 << 20 };
  });
  afterEach(() => ws.cleanup());

  it('runs in the given folder and returns exit code, stdout and stderr', async () => {
    const r = await new NodeCommandRunner().run('pwd; cat a.txt; echo oops >&2; exit 3', options);
    assert.equal(r.exitCode, 3);
    assert.equal(r.stdout, `${ws.root}\nalpha\n`);
    assert.equal(r.stderr, 'oops\n');
    assert.equal(r.timedOut, false);
    assert.equal(r.truncated, false);
  });

  it('gives no stdin: a reader of stdin sees end of input at once', async () => {
    const r = await new NodeCommandRunner().run('cat; echo done', options);
    assert.equal(r.stdout, 'done\n');
  });

  it('lays env over the base environment and removes variables set to undefined', async () => {
    const runner = new NodeCommandRunner('/bin/sh', { PATH: process.env.PATH, KEEP: 'k', DROP: 'd' });
    const r = await runner.run('echo "$KEEP-$DROP-$ADDED"', { ...options, env: { DROP: undefined, ADDED: 'a' } });
    assert.equal(r.stdout, 'k--a\n');
  });

  it('kills the whole process group on timeout', async () => {
    // The background child would create the marker after the timeout if it survived.
    const r = await new NodeCommandRunner().run('(sleep 1; touch marker) & sleep 30', { ...options, timeoutMs: 200 });
    assert.equal(r.timedOut, true);
    assert.equal(r.exitCode, null);
    await new Promise((resolve) => setTimeout(resolve, 1500));
    assert.equal(existsSync(ws.path('marker')), false, 'the background child was killed too');
  });

  it('caps each stream without splitting a UTF-8 character', async () => {
    const r = await new NodeCommandRunner().run("printf 'ééééé'; printf 'xyz' >&2", { ...options, maxOutputBytes: 5 });
    assert.equal(r.truncated, true);
    assert.equal(r.stdout, 'éé'); // 4 bytes: the fifth byte would have split the third é
    assert.equal(r.stderr, 'xyz');
    assert.equal(r.exitCode, 0);
  });

  it('rejects when cancelled, and kills the command', async () => {
    const controller = new AbortController();
    const pending = new NodeCommandRunner().run('sleep 1; touch marker2', { ...options, signal: controller.signal });
    setTimeout(() => controller.abort(new Error('stop')), 100);
    await assert.rejects(pending, /stop/);
    await new Promise((resolve) => setTimeout(resolve, 1300));
    assert.equal(existsSync(ws.path('marker2')), false);
  });

  it('refuses to start when already cancelled', async () => {
    const controller = new AbortController();
    controller.abort();
    await assert.rejects(new NodeCommandRunner().run('touch marker3', { ...options, signal: controller.signal }));
    assert.equal(existsSync(ws.path('marker3')), false);
  });

  it('reports a shell that cannot be started', async () => {
    await assert.rejects(new NodeCommandRunner(ws.path('no-such-shell')).run('true', options), /could not start/);
  });
});
