import assert from 'node:assert/strict';
import { mkdirSync, chmodSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { CommandRunner, RunOptions, RunResult } from '../../src/core/ports';
import { capUtf8, stripTerminalEscapes } from '../../src/host/adapters/ansi';
import { bundledRipgrepCandidates, findBundledRipgrep } from '../../src/host/adapters/ripgrep';
import { scrubbedEnv } from '../../src/node/env';
import {
  TerminalCommandRunner,
  agentTerminalEnv,
  shellQuote,
  type ShellExecutionLike,
  type ShellIntegrationLike,
  type TerminalHost,
  type TerminalLike,
} from '../../src/host/adapters/terminalRunner';
import { EXEC_ENV } from '../../src/core/tools/execCommand';
import { makeTempWorkspace } from '../support/tempWorkspace';

type Listener<T> = (e: T) => void;

/** A terminal whose shell integration runs scripted commands: output chunks, then an exit code. */
class FakeTerminal implements TerminalLike {
  shellIntegration: ShellIntegrationLike | undefined;
  readonly sent: string[] = [];
  readonly executed: string[] = [];
  shown = 0;
  constructor(
    private readonly host: FakeHost,
    readonly options: { cwd: string; env: Record<string, string | null> },
  ) {}
  show() {
    this.shown++;
  }
  sendText(text: string) {
    this.sent.push(text);
  }
  dispose() {
    this.host.close(this);
  }
  enableIntegration(cwd?: string) {
    const execute = (line: string): ShellExecutionLike => {
      this.executed.push(line);
      const script = this.host.script(line);
      const streamOf = (chunks: readonly string[]): ShellExecutionLike => ({
        async *read() {
          for (const chunk of chunks) {
            await Promise.resolve();
            yield chunk;
          }
        },
      });
      const execution = streamOf(script.detached ? [] : script.chunks);
      // As VS Code does, the start event comes before executeCommand returns.
      this.host.start(this, execution);
      if (script.detached) {
        // The line reached a shell still drawing its prompt: VS Code reports the command as an
        // execution of its own, and the one it returned never ends.
        const own = streamOf(script.chunks);
        setImmediate(() => {
          this.host.start(this, own);
          setImmediate(() => this.host.end(this, own, script.exitCode as number | undefined));
        });
      } else if (script.exitCode !== 'never') {
        setImmediate(() => this.host.end(this, execution, script.exitCode as number | undefined));
      }
      return execution;
    };
    this.shellIntegration = { cwd: cwd ? { fsPath: cwd } : undefined, executeCommand: execute };
    this.host.integrate(this);
  }
}

interface Script {
  chunks: string[];
  exitCode: number | undefined | 'never';
  /** The command runs as another execution than the one executeCommand returns. */
  detached?: boolean;
}

class FakeHost implements TerminalHost<FakeTerminal> {
  readonly terminals: FakeTerminal[] = [];
  private readonly integrationListeners = new Set<
    Listener<{ terminal: FakeTerminal; shellIntegration: ShellIntegrationLike }>
  >();
  private readonly startListeners = new Set<Listener<{ terminal: FakeTerminal; execution: ShellExecutionLike }>>();
  private readonly endListeners = new Set<
    Listener<{ terminal: FakeTerminal; execution: ShellExecutionLike; exitCode: number | undefined }>
  >();
  private readonly closeListeners = new Set<Listener<FakeTerminal>>();
  scripts: Record<string, Script> = {};
  /** Shell integration appears this many microtasks after creation; undefined: never. */
  integrationAfterCreate: boolean = true;

  script(line: string): Script {
    return this.scripts[line] ?? { chunks: [], exitCode: 0 };
  }
  createTerminal(options: { name: string; cwd: string; env: Record<string, string | null> }) {
    const t = new FakeTerminal(this, options);
    this.terminals.push(t);
    if (this.integrationAfterCreate) setImmediate(() => t.enableIntegration());
    return t;
  }
  integrate(t: FakeTerminal) {
    for (const l of this.integrationListeners) l({ terminal: t, shellIntegration: t.shellIntegration! });
  }
  start(t: FakeTerminal, execution: ShellExecutionLike) {
    for (const l of [...this.startListeners]) l({ terminal: t, execution });
  }
  end(t: FakeTerminal, execution: ShellExecutionLike, exitCode: number | undefined) {
    for (const l of [...this.endListeners]) l({ terminal: t, execution, exitCode });
  }
  close(t: FakeTerminal) {
    for (const l of [...this.closeListeners]) l(t);
  }
  private sub<T>(set: Set<Listener<T>>, l: Listener<T>) {
    set.add(l);
    return { dispose: () => set.delete(l) };
  }
  onDidChangeTerminalShellIntegration(l: Listener<{ terminal: FakeTerminal; shellIntegration: ShellIntegrationLike }>) {
    return this.sub(this.integrationListeners, l);
  }
  onDidStartTerminalShellExecution(l: Listener<{ terminal: FakeTerminal; execution: ShellExecutionLike }>) {
    return this.sub(this.startListeners, l);
  }
  onDidEndTerminalShellExecution(
    l: Listener<{ terminal: FakeTerminal; execution: ShellExecutionLike; exitCode: number | undefined }>,
  ) {
    return this.sub(this.endListeners, l);
  }
  onDidCloseTerminal(l: Listener<FakeTerminal>) {
    return this.sub(this.closeListeners, l);
  }
}

/** Timers fired by hand: nothing in these tests waits on the clock. */
function manualTimers() {
  const pending = new Map<number, { fn: () => void; ms: number }>();
  let next = 0;
  return {
    set: (fn: () => void, ms: number) => {
      pending.set(++next, { fn, ms });
      return next;
    },
    clear: (h: unknown) => void pending.delete(h as number),
    fire(ms: number) {
      for (const [id, t] of [...pending]) {
        if (t.ms === ms) {
          pending.delete(id);
          t.fn();
        }
      }
    },
  };
}

class RecordingFallback implements CommandRunner {
  readonly calls: string[] = [];
  async run(command: string): Promise<RunResult> {
    this.calls.push(command);
    return { exitCode: 7, stdout: 'from process', stderr: '', timedOut: false, truncated: false, durationMs: 1 };
  }
}

const CWD = '/ws';
const opts = (patch: Partial<RunOptions> = {}): RunOptions => ({
  cwd: CWD,
  env: EXEC_ENV,
  timeoutMs: 30_000,
  maxOutputBytes: 1 << 20,
  ...patch,
});
const INTEGRATION_MS = 4321;

function setup(settleMs = 0) {
  const host = new FakeHost();
  const fallback = new RecordingFallback();
  const timers = manualTimers();
  const log: string[] = [];
  const runner = new TerminalCommandRunner(host, fallback, {
    name: 'Planwise',
    env: EXEC_ENV,
    integrationTimeoutMs: INTEGRATION_MS,
    firstCommandSettleMs: settleMs,
    timers,
    log: (l) => log.push(l),
  });
  return { host, fallback, timers, runner, log };
}

describe('terminal command runner (shell integration)', () => {
  it('runs in a visible "Planwise" terminal and returns the output without escapes, and the exit code', async () => {
    const { host, runner, fallback } = setup();
    host.scripts['git log -1'] = {
      chunks: ['\u001b]633;C\u0007\u001b[33mcommit\u001b[0m abc\r\n', 'Author: x\r\n'],
      exitCode: 0,
    };
    const r = await runner.run('git log -1', opts());
    assert.equal(r.exitCode, 0);
    assert.equal(r.stdout, 'commit abc\nAuthor: x\n');
    assert.equal(r.timedOut, false);
    assert.equal(runner.lastPath, 'terminal');
    assert.deepEqual(fallback.calls, []);
    const t = host.terminals[0]!;
    assert.equal(t.shown, 1);
    assert.deepEqual(t.options, {
      name: 'Planwise',
      cwd: CWD,
      env: {
        GIT_PAGER: 'cat',
        PAGER: 'cat',
        GIT_OPTIONAL_LOCKS: '0',
        GIT_EXTERNAL_DIFF: null,
        CDPATH: null,
        GLOBIGNORE: null,
        IFS: null,
      },
    });
  });

  it("waits for a new terminal's shell to report its folder, then a moment, before its first command", async () => {
    const { host, runner, timers } = setup(300);
    host.scripts['ls'] = { chunks: ['a\n'], exitCode: 0 };
    const running = runner.run('ls', opts());
    const tick = () => new Promise((r) => setImmediate(r));
    for (let i = 0; i < 5; i++) await tick();
    const t = host.terminals[0]!;
    assert.deepEqual(t.executed, [], 'sent before the shell reported its folder');
    // The shell's first prompt reports its folder: VS Code fires the integration event again.
    t.enableIntegration(CWD);
    await tick();
    assert.deepEqual(t.executed, [], 'sent before the settle time');
    timers.fire(300);
    assert.equal((await running).stdout, 'a\n');
    assert.deepEqual(t.executed, ['ls']);
    // The next command in the same terminal goes at once.
    host.scripts['pwd'] = { chunks: ['/ws\n'], exitCode: 0 };
    assert.equal((await runner.run('pwd', opts())).stdout, '/ws\n');
  });

  it('takes the result of the execution VS Code reports when it is not the one executeCommand returned', async () => {
    const { host, runner, log } = setup();
    host.scripts['sh gen.sh'] = { chunks: ['gen\x1b[0m', 'erated\r\n'], exitCode: 3, detached: true };
    const r = await runner.run('sh gen.sh', opts());
    assert.equal(r.exitCode, 3);
    assert.equal(r.stdout, 'generated\n');
    assert.equal(r.timedOut, false);
    assert.ok(
      log.some((l) => /as an execution of its own/.test(l)),
      log.join('\n'),
    );
    // The next command still runs in the same terminal and is matched as usual.
    host.scripts['echo ok'] = { chunks: ['ok\n'], exitCode: 0 };
    assert.equal((await runner.run('echo ok', opts())).stdout, 'ok\n');
    assert.equal(host.terminals.length, 1);
  });

  it('reports a failing exit code and reuses the same terminal, one command at a time', async () => {
    const { host, runner } = setup();
    host.scripts['npm test'] = { chunks: ['1 failing\n'], exitCode: 1 };
    const [a, b] = await Promise.all([runner.run('npm test', opts()), runner.run('npm test', opts())]);
    assert.equal(a.exitCode, 1);
    assert.equal(b.exitCode, 1);
    assert.equal(host.terminals.length, 1);
    assert.deepEqual(host.terminals[0]!.executed, ['npm test', 'npm test']);
  });

  it('changes folder first when the command runs elsewhere than the terminal is', async () => {
    const { host, runner } = setup();
    await runner.run('ls', opts());
    await runner.run('ls', opts({ cwd: "/ws/it's here" }));
    await runner.run('ls', opts({ cwd: "/ws/it's here" }));
    assert.deepEqual(host.terminals[0]!.executed, ['ls', `cd '/ws/it'\\''s here' && ls`, 'ls']);
  });

  it('falls back to a captured process when shell integration does not start in time, and says so once', async () => {
    const { host, runner, fallback, timers, log } = setup();
    host.integrationAfterCreate = false;
    const first = runner.run('git status', opts());
    await new Promise((r) => setImmediate(r));
    timers.fire(INTEGRATION_MS);
    assert.equal((await first).stdout, 'from process');
    assert.equal((await runner.run('git diff', opts())).exitCode, 7);
    assert.deepEqual(fallback.calls, ['git status', 'git diff']);
    assert.equal(runner.lastPath, 'process');
    assert.equal(log.filter((l) => l.includes('shell integration did not start')).length, 1);
  });

  it('tries the terminal again after the person closed it', async () => {
    const { host, runner, fallback, timers } = setup();
    host.integrationAfterCreate = false;
    const first = runner.run('a', opts());
    await new Promise((r) => setImmediate(r));
    timers.fire(INTEGRATION_MS);
    await first;
    host.terminals[0]!.dispose();
    host.integrationAfterCreate = true;
    await runner.run('b', opts());
    assert.deepEqual(fallback.calls, ['a']);
    assert.deepEqual(host.terminals[1]!.executed, ['b']);
  });

  it('uses the process runner for commands needing other environment variables', async () => {
    const { host, runner, fallback } = setup();
    await runner.run('env', opts({ env: { FOO: 'bar' } }));
    assert.deepEqual(fallback.calls, ['env']);
    assert.equal(host.terminals.length, 0);
  });

  it('runs read-only inspection as a captured process: no terminal opens for it', async () => {
    const { host, runner, fallback } = setup();
    await runner.run('ls src', opts({ captured: true }));
    assert.deepEqual(fallback.calls, ['ls src']);
    assert.equal(host.terminals.length, 0);
  });

  it('interrupts with Ctrl-C on timeout and reports it', async () => {
    const { host, runner, timers } = setup();
    host.scripts['sleep 999'] = { chunks: ['started\n'], exitCode: 'never' };
    const run = runner.run('sleep 999', opts({ timeoutMs: 5000 }));
    while (host.terminals[0]?.executed.length !== 1) await new Promise((r) => setImmediate(r));
    timers.fire(5000);
    const r = await run;
    assert.equal(r.timedOut, true);
    assert.equal(r.exitCode, null);
    assert.deepEqual(host.terminals[0]!.sent, ['\u0003']);
  });

  it('interrupts and rejects when cancelled', async () => {
    const { host, runner } = setup();
    host.scripts['sleep 999'] = { chunks: [], exitCode: 'never' };
    const controller = new AbortController();
    const run = runner.run('sleep 999', opts({ signal: controller.signal }));
    while (host.terminals[0]?.executed.length !== 1) await new Promise((r) => setImmediate(r));
    controller.abort(new Error('stopped by the person'));
    await assert.rejects(run, /stopped by the person/);
    assert.deepEqual(host.terminals[0]!.sent, ['\u0003']);
  });

  it('ends the command when the terminal is closed under it', async () => {
    const { host, runner } = setup();
    host.scripts['watch'] = { chunks: [], exitCode: 'never' };
    const run = runner.run('watch', opts());
    while (host.terminals[0]?.executed.length !== 1) await new Promise((r) => setImmediate(r));
    host.terminals[0]!.dispose();
    assert.equal((await run).exitCode, null);
  });

  it('caps the output at the byte limit and says it was cut', async () => {
    const { host, runner } = setup();
    host.scripts['cat big'] = { chunks: ['é'.repeat(100)], exitCode: 0 };
    const r = await runner.run('cat big', opts({ maxOutputBytes: 51 }));
    assert.equal(r.stdout, 'é'.repeat(25));
    assert.equal(r.truncated, true);
  });
});

describe('agent terminal environment', () => {
  it('unsets every credential variable of the parent environment and keeps the pager settings', () => {
    const env = agentTerminalEnv(
      { PATH: '/bin', OPENAI_API_KEY: 'sk-x', GITHUB_TOKEN: 'ghp', HOME: '/h', AWS_SECRET_ACCESS_KEY: 's' },
      EXEC_ENV,
      scrubbedEnv,
    );
    assert.deepEqual(env, {
      OPENAI_API_KEY: undefined,
      GITHUB_TOKEN: undefined,
      AWS_SECRET_ACCESS_KEY: undefined,
      ...EXEC_ENV,
    });
  });

  it('still takes the terminal path for exec_command, whose environment fits', async () => {
    const host = new FakeHost();
    const runner = new TerminalCommandRunner(host, new RecordingFallback(), {
      name: 'Planwise',
      env: agentTerminalEnv({ OPENAI_API_KEY: 'sk-x' }, EXEC_ENV, scrubbedEnv),
    });
    await runner.run('git status', opts());
    assert.equal(runner.lastPath, 'terminal');
    assert.equal(host.terminals[0]!.options.env.OPENAI_API_KEY, null);
  });
});

describe('terminal text helpers', () => {
  it('strips colours, OSC markers and progress redraws', () => {
    assert.equal(stripTerminalEscapes('\u001b[1;32mok\u001b[0m\r\n'), 'ok\n');
    assert.equal(stripTerminalEscapes('\u001b]0;title\u0007x'), 'x');
    assert.equal(stripTerminalEscapes('10%\r50%\r100%\ndone'), '100%\ndone');
    assert.equal(stripTerminalEscapes('a\u0008b'), 'ab');
  });

  it('caps UTF-8 without splitting characters', () => {
    assert.deepEqual(capUtf8('abc', 10), { text: 'abc', truncated: false });
    assert.deepEqual(capUtf8('aé', 2), { text: 'a', truncated: true });
  });

  it('quotes folders for the shell', () => {
    assert.equal(shellQuote("/a b/c'd"), `'/a b/c'\\''d'`);
  });
});

describe("VS Code's bundled ripgrep", () => {
  it('looks in node_modules and node_modules.asar.unpacked under the app root', () => {
    assert.deepEqual(bundledRipgrepCandidates('/app', 'linux'), [
      '/app/node_modules/@vscode/ripgrep/bin/rg',
      '/app/node_modules.asar.unpacked/@vscode/ripgrep/bin/rg',
    ]);
    assert.match(bundledRipgrepCandidates('C:\\vscode', 'win32')[0]!, /rg\.exe$/);
  });

  it('finds the copy that exists and can run, and nothing without an app root', () => {
    const ws = makeTempWorkspace();
    try {
      const bin = join(ws.root, 'node_modules.asar.unpacked/@vscode/ripgrep/bin');
      mkdirSync(bin, { recursive: true });
      writeFileSync(join(bin, 'rg'), '#!/bin/sh\n');
      chmodSync(join(bin, 'rg'), 0o755);
      const isExecutable = (p: string) => p === join(bin, 'rg');
      assert.equal(findBundledRipgrep(ws.root, isExecutable, 'linux'), join(bin, 'rg'));
      assert.equal(findBundledRipgrep(undefined, isExecutable, 'linux'), undefined);
      assert.equal(
        findBundledRipgrep(ws.root, () => false, 'linux'),
        undefined,
      );
    } finally {
      ws.cleanup();
    }
  });
});
