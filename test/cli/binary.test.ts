/**
 * The bundled CLI as a user runs it: `node cli.js plan …` in its own process. The bundle is built
 * with esbuild the way esbuild.mjs builds dist/cli.cjs, into a temporary folder (so the test never
 * races another build of dist/). Includes the crash test: a run SIGKILLed at the approval gate
 * resumes to the same pending approval.
 */
import assert from 'node:assert/strict';
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sse } from '../support/scriptedServer';
import { planResponse, samplePlan } from '../support/sessionHarness';
import { NO_RETRIES, buildOneFileCli, modelArgs, pendingPlanOf, sessionIdOf, useCliScene } from './cliHarness';

interface Child {
  readonly proc: ChildProcessWithoutNullStreams;
  out(): string;
  err(): string;
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
}

function start(cli: string, args: readonly string[]): Child {
  const proc = spawn(process.execPath, [cli, ...args], {
    env: { PATH: process.env['PATH'], HOME: process.env['HOME'], ...NO_RETRIES },
    stdio: 'pipe',
  });
  let out = '';
  let err = '';
  proc.stdout.on('data', (d: Buffer) => (out += d.toString('utf8')));
  proc.stderr.on('data', (d: Buffer) => (err += d.toString('utf8')));
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    proc.on('close', (code, signal) => resolve({ code, signal })),
  );
  return { proc, out: () => out, err: () => err, exited };
}

/** Waits until the child's stdout contains `text` (or it exits, which fails the test). */
async function waitFor(child: Child, text: string): Promise<void> {
  let exited = false;
  void child.exited.then(() => (exited = true));
  for (let i = 0; i < 600 && !child.out().includes(text); i++) {
    if (exited) break;
    await new Promise((r) => setTimeout(r, 50));
  }
  assert.ok(child.out().includes(text), `'${text}' never appeared:\n${child.out()}\n${child.err()}`);
}

describe('the built planwise binary', function () {
  this.timeout(60_000);
  let outDir: string;
  let cli: string;
  const { serve, workspace } = useCliScene();

  before(async () => {
    outDir = mkdtempSync(join(tmpdir(), 'planwise-cli-bundle-'));
    cli = await buildOneFileCli(outDir);
  });
  after(() => rmSync(outDir, { recursive: true, force: true }));

  it('plans and stops at the gate (exit 0, plan path printed)', async () => {
    const server = await serve([
      sse.toolTurn([{ name: 'list_files', args: {} }]),
      sse.textTurn(planResponse(samplePlan())),
    ]);
    const ws = workspace({ 'README.md': '# demo\n' });
    const child = start(cli, ['plan', '--workspace', ws.root, ...modelArgs(server.baseURL), 'add a greeting helper']);
    child.proc.stdin.end();
    const { code } = await child.exited;
    assert.equal(code, 0, child.err());
    assert.match(readFileSync(pendingPlanOf(child.out()), 'utf8'), /^# Add a greeting helper/);
    assert.match(child.out(), /✓ Listed the workspace/);
  });

  it('SIGKILLed at the approval gate, then resumed: the same plan awaits approval, and answering it builds', async () => {
    const server = await serve([
      sse.textTurn(planResponse(samplePlan('Add notes', 'notes.txt'))),
      sse.toolTurn([{ name: 'write_file', args: { path: 'notes.txt', content: 'notes\n' } }]),
      sse.textTurn('Wrote notes.txt.'),
    ]);
    const ws = workspace({ 'README.md': '# demo\n' });
    const args = ['--interactive', '--workspace', ws.root, ...modelArgs(server.baseURL)];

    const first = start(cli, ['plan', ...args, 'add notes']);
    await waitFor(first, 'Choose 1-3');
    const id = sessionIdOf(first.out());
    const shownPlan = /plan: (\S+\.md) · context/.exec(first.out())?.[1];
    assert.ok(shownPlan, first.out());
    const planText = readFileSync(ws.path(shownPlan), 'utf8');
    first.proc.kill('SIGKILL');
    assert.equal((await first.exited).signal, 'SIGKILL');

    const second = start(cli, ['resume', id, ...args]);
    await waitFor(second, 'Choose 1-3');
    assert.ok(second.out().includes(`plan: ${shownPlan} · context`), second.out());
    assert.equal(readFileSync(ws.path(shownPlan), 'utf8'), planText);
    assert.equal(server.requests.length, 1, 'resuming asked the model nothing');
    second.proc.stdin.end('1\n');
    const { code } = await second.exited;
    // No step was marked completed, so the build ends incomplete (exit 1; the execution report lists it).
    assert.equal(code, 1, second.err());
    assert.match(second.err(), /The build ended with 1 step incomplete/);
    assert.equal(readFileSync(ws.path('notes.txt'), 'utf8'), 'notes\n');
    assert.match(second.out(), /✓ Build finished\./);
    const archive = readFileSync(ws.path(`.vtcode/sessions/${id}.jsonl`), 'utf8');
    assert.match(archive, /"type":"plan\.approval\.resolved","decision":"execute","automatic":false/);
  });
});
