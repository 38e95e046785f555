import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { chmodSync, existsSync } from 'node:fs';
import { GATE_RUN_ENV } from '../../src/core/gate/runEnv';
import { EXEC_DEFAULT_TIMEOUT_MS, execCommandTool } from '../../src/core/tools/execCommand';
import type { ToolContext } from '../../src/core/tools/types';
import { makeTempWorkspace, type TempWorkspace } from '../support/tempWorkspace';
import { contextFor, RecordingRunner } from './helpers';

describe('exec_command', () => {
  let ws: TempWorkspace;
  let ctx: ToolContext;
  beforeEach(() => {
    ws = makeTempWorkspace({ 'a.txt': 'alpha\n', 'src/b.ts': 'b\n' });
    ctx = contextFor(ws);
  });
  afterEach(() => ws.cleanup());

  it('runs an allowed command in the workspace root and returns exit code, stdout and stderr', async () => {
    const r = await execCommandTool.run({ command: 'pwd && ls src' }, ctx);
    assert.equal(r.ok, true);
    assert.equal(r.content, `exit code 0\nstdout:\n${ws.root}\nb.ts\nstderr: (empty)`);
    assert.equal(r.lowSignal, undefined);
  });

  it('reports a failing command with its exit code and stderr, as low signal when it printed nothing', async () => {
    const r = await execCommandTool.run({ command: 'cat missing.txt' }, ctx);
    assert.equal(r.ok, false);
    assert.equal(r.lowSignal, true);
    assert.match(r.content, /^exit code 1\nstdout: \(empty\)\nstderr:\n.*missing\.txt.*No such file/);
  });

  it('never runs what the gate blocks: the file the command would create does not appear', async () => {
    for (const command of [
      'touch made.txt',
      'echo hi > made.txt',
      'ls && touch made.txt',
      'cat a.txt | tee made.txt',
    ]) {
      const r = await execCommandTool.run({ command }, ctx);
      assert.equal(r.ok, false, command);
      assert.equal(r.blocked, true, command);
      assert.match(r.content, /^blocked: /, command);
      assert.equal(existsSync(ws.path('made.txt')), false, `${command} was not executed`);
    }
  });

  it('does not call the runner for a blocked command', async () => {
    const runner = new RecordingRunner();
    const r = await execCommandTool.run({ command: 'rm -rf src' }, { ...ctx, runner });
    assert.equal(r.blocked, true);
    assert.deepEqual(runner.calls, []);
    assert.equal(existsSync(ws.path('src/b.ts')), true);
  });

  it('is off in an untrusted workspace, even for a harmless command', async () => {
    const runner = new RecordingRunner();
    const r = await execCommandTool.run({ command: 'ls' }, { ...ctx, runner, trusted: false });
    assert.equal(r.blocked, true);
    assert.match(r.content, /^blocked: exec_command is off because this workspace is not trusted/);
    assert.deepEqual(runner.calls, []);
  });

  it('passes the root, the pager/lock environment, the timeout and an output cap to the runner', async () => {
    const runner = new RecordingRunner();
    await execCommandTool.run({ command: 'git log --oneline' }, { ...ctx, runner });
    assert.equal(runner.calls.length, 1);
    const { command, options } = runner.calls[0]!;
    assert.equal(command, 'git log --no-textconv --no-ext-diff --oneline', "the gate's runnable form runs");
    assert.equal(options.cwd, ws.root);
    assert.equal(options.captured, true, 'inspection runs captured, never in the visible terminal');
    assert.equal(options.env, GATE_RUN_ENV, "the parse's environment is the one that runs");
    for (const [k, v] of Object.entries({ GIT_PAGER: 'cat', PAGER: 'cat', GIT_OPTIONAL_LOCKS: '0', LC_ALL: 'C' }))
      assert.equal(options.env![k], v, k);
    for (const k of ['GIT_*', 'CDPATH', 'GLOBIGNORE', 'IFS', 'RIPGREP_CONFIG_PATH'])
      assert.ok(k in options.env! && options.env![k] === undefined, `${k} is removed, not inherited`);
    assert.equal(options.timeoutMs, EXEC_DEFAULT_TIMEOUT_MS);
    assert.ok(options.maxOutputBytes > 0);
  });

  it('removes an inherited GIT_EXTERNAL_DIFF, so git diff cannot run an outside program', async () => {
    const git = (...args: string[]) => execFileSync('git', args, { cwd: ws.root, stdio: 'ignore' });
    git('init', '-q');
    git('-c', 'user.email=t@example.com', '-c', 'user.name=t', 'add', 'a.txt');
    git('-c', 'user.email=t@example.com', '-c', 'user.name=t', 'commit', '-q', '-m', 'first');
    ws.write('a.txt', 'alpha changed\n');
    const marker = ws.path('../outside/external-diff-ran');
    const script = ws.write('../outside/diff.sh', `#!/bin/sh\ntouch '${marker}'\n`);
    chmodSync(script, 0o755);
    const saved = process.env.GIT_EXTERNAL_DIFF;
    process.env.GIT_EXTERNAL_DIFF = script;
    try {
      const r = await execCommandTool.run({ command: 'git diff' }, ctx);
      assert.match(r.content, /^exit code 0\nstdout:\ndiff --git a\/a\.txt b\/a\.txt/);
      assert.ok(r.content.includes('+alpha changed'));
      assert.equal(existsSync(marker), false, 'the external diff program never ran');
    } finally {
      if (saved === undefined) delete process.env.GIT_EXTERNAL_DIFF;
      else process.env.GIT_EXTERNAL_DIFF = saved;
    }
  });

  it('removes an inherited CDPATH, so `cd src` goes where the gate judged it goes', async () => {
    ws.write('src/secret.txt', 'inside\n');
    ws.write('../outside/src/secret.txt', 'outside\n');
    const saved = process.env.CDPATH;
    process.env.CDPATH = ws.path('../outside');
    try {
      const r = await execCommandTool.run({ command: 'cd src && cat secret.txt' }, ctx);
      assert.equal(r.content, 'exit code 0\nstdout:\ninside\nstderr: (empty)');
    } finally {
      if (saved === undefined) delete process.env.CDPATH;
      else process.env.CDPATH = saved;
    }
  });

  it('kills a command that runs past the timeout and says so', async () => {
    // `tail -f` never ends, so the gate refuses it; reading a FIFO nobody writes to blocks the same way.
    execFileSync('mkfifo', [ws.path('never')]);
    const r = await execCommandTool.run({ command: 'cat a.txt never' }, { ...ctx, execTimeoutMs: 2000 });
    assert.equal(r.ok, false);
    assert.match(r.content, /^timed out after 2 s and was killed; output so far:\nstdout:\nalpha\n/);
  });

  it('spools long output, keeping head and tail', async () => {
    ws.write('big.txt', Array.from({ length: 3000 }, (_, i) => `row ${i}`).join('\n') + '\n');
    const r = await execCommandTool.run({ command: 'cat big.txt' }, ctx);
    assert.ok(r.spoolId);
    assert.ok(r.content.startsWith('exit code 0\nstdout:\nrow 0\n'));
    assert.ok(r.content.includes('row 2999\nstderr: (empty)'));
    assert.ok(r.bytes > ctx.previewLimitBytes);
  });

  it('says so when the host cannot run commands', async () => {
    const { runner: _none, ...noRunner } = ctx;
    const r = await execCommandTool.run({ command: 'ls' }, noRunner);
    assert.match(r.content, /not available here/);
  });
});
