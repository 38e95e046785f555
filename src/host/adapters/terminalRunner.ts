/**
 * Runs the commands the gate allowed in a "Planwise" terminal, so the person sees them run. The
 * output comes from shell integration (`execution.read()`), the exit code from
 * `onDidEndTerminalShellExecution`. When shell integration does not come up within a few seconds
 * (a shell without it, a remote without it), commands run as a captured child process instead.
 * Commands run one at a time. Written against structural copies of the VS Code terminal API.
 */
import type { CommandRunner, RunOptions, RunResult } from '../../core/api/ports';
import { capUtf8, stripTerminalEscapes } from './ansi';

export interface ShellExecutionLike {
  read(): AsyncIterable<string>;
}

export interface ShellIntegrationLike {
  readonly cwd: { readonly fsPath: string } | undefined;
  executeCommand(commandLine: string): ShellExecutionLike;
}

export interface TerminalLike {
  readonly shellIntegration: ShellIntegrationLike | undefined;
  show(preserveFocus?: boolean): void;
  sendText(text: string, shouldExecute?: boolean): void;
  dispose(): void;
}

interface Sub {
  dispose(): unknown;
}

export interface TerminalHost<T extends TerminalLike = TerminalLike> {
  createTerminal(options: { name: string; cwd: string; env: Record<string, string | null> }): T;
  onDidChangeTerminalShellIntegration(
    listener: (e: { terminal: T; shellIntegration: ShellIntegrationLike }) => void,
  ): Sub;
  onDidStartTerminalShellExecution(listener: (e: { terminal: T; execution: ShellExecutionLike }) => void): Sub;
  onDidEndTerminalShellExecution(
    listener: (e: { terminal: T; execution: ShellExecutionLike; exitCode: number | undefined }) => void,
  ): Sub;
  onDidCloseTerminal(listener: (terminal: T) => void): Sub;
}

export interface TerminalRunnerOptions {
  readonly name: string;
  /** Variables set in the terminal when it is created (`null` removes one). */
  readonly env: Readonly<Record<string, string | undefined>>;
  /** How long to wait for shell integration in a new terminal (default 5 s). */
  readonly integrationTimeoutMs?: number;
  /**
   * A new terminal's first command waits until the shell has reported its folder (its first prompt
   * is being drawn, at most 2 s) and then this long more (default 300 ms; 0 sends at once).
   */
  readonly firstCommandSettleMs?: number;
  readonly log?: (line: string) => void;
  readonly timers?: { set(fn: () => void, ms: number): unknown; clear(h: unknown): void };
  readonly now?: () => number;
}

const DEFAULT_INTEGRATION_TIMEOUT_MS = 5000;
const DEFAULT_FIRST_COMMAND_SETTLE_MS = 300;
/** How long a new terminal's first command waits for the shell to report its folder. */
const CWD_WAIT_MS = 2000;
/** After the end event, how long the output stream may take to drain. */
const DRAIN_MS = 1000;

/**
 * The terminal's environment for agent-run commands: `base` (e.g. the exec tool's pager settings)
 * plus every credential-looking variable of the parent environment removed (`undefined` becomes
 * `null` in `TerminalOptions.env`, which unsets it), so `env` in that terminal shows no key.
 */
export function agentTerminalEnv(
  parent: Readonly<Record<string, string | undefined>>,
  base: Readonly<Record<string, string | undefined>>,
  scrub: (env: Readonly<Record<string, string | undefined>>) => Record<string, string>,
): Record<string, string | undefined> {
  const kept = scrub(parent);
  const env: Record<string, string | undefined> = {};
  for (const name of Object.keys(parent)) if (!(name in kept)) env[name] = undefined;
  return { ...env, ...base };
}

export function shellQuote(path: string): string {
  return `'${path.replace(/'/g, `'\\''`)}'`;
}

export class TerminalCommandRunner<T extends TerminalLike = TerminalLike> implements CommandRunner {
  private terminal: T | undefined;
  private assumedCwd: string | undefined;
  /** Shell integration never came up in the current terminal: use the fallback until it closes. */
  private integrationMissing = false;
  /** The current terminal has run nothing yet: its shell may still be drawing its first prompt. */
  private fresh = false;
  private queue: Promise<unknown> = Promise.resolve();
  private readonly closeSub: Sub;
  private readonly timers: NonNullable<TerminalRunnerOptions['timers']>;
  private readonly now: () => number;

  /** The programs are the machine's, as for the fallback runner. */
  get safeModes(): CommandRunner['safeModes'] {
    return this.fallback.safeModes;
  }

  constructor(
    private readonly host: TerminalHost<T>,
    private readonly fallback: CommandRunner,
    private readonly options: TerminalRunnerOptions,
  ) {
    this.timers = options.timers ?? {
      set: (fn, ms) => setTimeout(fn, ms),
      clear: (h) => clearTimeout(h as ReturnType<typeof setTimeout>),
    };
    this.now = options.now ?? Date.now;
    this.closeSub = host.onDidCloseTerminal((t) => {
      if (t === this.terminal) {
        this.terminal = undefined;
        this.integrationMissing = false;
        this.assumedCwd = undefined;
      }
    });
  }

  /** True when the last command went through shell integration (for tests and the log). */
  lastPath: 'terminal' | 'process' | undefined;

  run(command: string, options: RunOptions): Promise<RunResult> {
    const next = this.queue.then(() => this.runOne(command, options));
    this.queue = next.catch(() => undefined);
    return next;
  }

  dispose(): void {
    this.closeSub.dispose();
    this.terminal?.dispose();
    this.terminal = undefined;
  }

  private async runOne(command: string, options: RunOptions): Promise<RunResult> {
    if (options.signal?.aborted) throw abortError(options.signal);
    // Planning's read-only inspection is not something the person watches: no terminal opens.
    if (options.captured) return this.viaFallback(command, options);
    if (!this.envFits(options.env)) {
      this.options.log?.(
        `running "${command}" as a captured process: it needs environment variables the terminal lacks`,
      );
      return this.viaFallback(command, options);
    }
    const terminal = this.ensureTerminal(options.cwd);
    const integration = this.integrationMissing ? undefined : await this.waitForIntegration(terminal);
    if (!integration) {
      if (!this.integrationMissing) {
        this.integrationMissing = true;
        this.options.log?.(
          `shell integration did not start in the ${this.options.name} terminal within ` +
            `${(this.options.integrationTimeoutMs ?? DEFAULT_INTEGRATION_TIMEOUT_MS) / 1000} s; ` +
            'commands run as captured processes instead (their output is in this log, not the terminal)',
        );
      }
      return this.viaFallback(command, options);
    }
    terminal.show(true);
    if (this.fresh) {
      this.fresh = false;
      // A line sent while the shell still draws its first prompt is echoed into it, and VS Code
      // then may never report the end of the execution it returned (a clean e2e run under load).
      await this.settle(terminal, integration);
      if (options.signal?.aborted) throw abortError(options.signal);
    }
    return this.execute(terminal, terminal.shellIntegration ?? integration, command, options);
  }

  /** Until the shell has reported its folder (at most CWD_WAIT_MS), then the settle time. */
  private async settle(terminal: T, integration: ShellIntegrationLike): Promise<void> {
    const settleMs = this.options.firstCommandSettleMs ?? DEFAULT_FIRST_COMMAND_SETTLE_MS;
    if (settleMs <= 0) return;
    if (integration.cwd === undefined) {
      await new Promise<void>((resolve) => {
        const sub = this.host.onDidChangeTerminalShellIntegration((e) => {
          if (e.terminal !== terminal || e.shellIntegration.cwd === undefined) return;
          this.timers.clear(timer);
          sub.dispose();
          resolve();
        });
        const timer = this.timers.set(() => {
          sub.dispose();
          resolve();
        }, CWD_WAIT_MS);
      });
    }
    await new Promise<void>((resolve) => this.timers.set(resolve, settleMs));
  }

  private async viaFallback(command: string, options: RunOptions): Promise<RunResult> {
    this.lastPath = 'process';
    return this.fallback.run(command, options);
  }

  private envFits(env: RunOptions['env']): boolean {
    if (!env) return true;
    // A prefix removal (`GIT_*`) cannot be checked against the terminal's environment.
    return Object.entries(env).every(([k, v]) => !k.endsWith('*') && this.options.env[k] === v);
  }

  private ensureTerminal(cwd: string): T {
    if (this.terminal) return this.terminal;
    const env: Record<string, string | null> = {};
    for (const [k, v] of Object.entries(this.options.env)) env[k] = v === undefined ? null : v;
    this.terminal = this.host.createTerminal({ name: this.options.name, cwd, env });
    this.assumedCwd = cwd;
    this.integrationMissing = false;
    this.fresh = true;
    return this.terminal;
  }

  private waitForIntegration(terminal: T): Promise<ShellIntegrationLike | undefined> {
    if (terminal.shellIntegration) return Promise.resolve(terminal.shellIntegration);
    return new Promise((resolve) => {
      const sub = this.host.onDidChangeTerminalShellIntegration((e) => {
        if (e.terminal !== terminal) return;
        this.timers.clear(timer);
        sub.dispose();
        resolve(e.shellIntegration);
      });
      const timer = this.timers.set(() => {
        sub.dispose();
        resolve(terminal.shellIntegration);
      }, this.options.integrationTimeoutMs ?? DEFAULT_INTEGRATION_TIMEOUT_MS);
    });
  }

  private execute(
    terminal: T,
    integration: ShellIntegrationLike,
    command: string,
    options: RunOptions,
  ): Promise<RunResult> {
    const started = this.now();
    const cwdNow = integration.cwd?.fsPath ?? this.assumedCwd;
    const line = cwdNow === options.cwd ? command : `cd ${shellQuote(options.cwd)} && ${command}`;
    this.assumedCwd = options.cwd;
    this.lastPath = 'terminal';

    return new Promise<RunResult>((resolve, reject) => {
      let raw = '';
      let rawBytes = 0;
      let overflow = false;
      let settled = false;
      let drainTimer: unknown;
      let execution: ShellExecutionLike | undefined;
      let reading: Promise<void> = Promise.resolve();
      // Executions that started in this terminal as some other object than the one executeCommand
      // returned: when the line reaches a shell still drawing its first prompt, VS Code can report
      // the command as a new execution, and the one it returned never ends. Each one's output is
      // read from its start; the first to end is this command (the terminal runs one at a time).
      const others = new Map<ShellExecutionLike, { text: string; reading: Promise<void> }>();
      let timeoutTimer: unknown = undefined;
      const cap = options.maxOutputBytes;

      const subs: Sub[] = [];
      const cleanup = () => {
        if (timeoutTimer !== undefined) this.timers.clear(timeoutTimer);
        if (drainTimer !== undefined) this.timers.clear(drainTimer);
        options.signal?.removeEventListener('abort', onAbort);
        for (const s of subs) s.dispose();
      };
      const finish = (exitCode: number | null, timedOut: boolean, output = raw) => {
        if (settled) return;
        settled = true;
        cleanup();
        const clean = capUtf8(stripTerminalEscapes(output), cap);
        resolve({
          exitCode,
          stdout: clean.text,
          stderr: '',
          timedOut,
          truncated: overflow || clean.truncated,
          durationMs: this.now() - started,
        });
      };
      const interrupt = () => terminal.sendText('\u0003', false);
      const onAbort = () => {
        if (settled) return;
        settled = true;
        interrupt();
        cleanup();
        reject(abortError(options.signal));
      };

      subs.push(
        this.host.onDidStartTerminalShellExecution((e) => {
          if (e.terminal !== terminal || settled) return;
          // Ours may start before executeCommand returns: decide once it has.
          void Promise.resolve().then(() => {
            if (e.execution === execution || settled || others.has(e.execution)) return;
            const seen = { text: '', reading: Promise.resolve() };
            seen.reading = (async () => {
              try {
                for await (const chunk of e.execution.read()) {
                  if (settled) break;
                  if (seen.text.length <= cap * 4) seen.text += chunk;
                }
              } catch {
                // its output is lost; the exit code still comes with its end
              }
            })();
            others.set(e.execution, seen);
          });
        }),
        this.host.onDidEndTerminalShellExecution((e) => {
          if (settled) return;
          const other = e.execution === execution ? undefined : others.get(e.execution);
          if (e.execution !== execution && other === undefined) return;
          if (other)
            this.options.log?.(`the terminal reported "${command}" as an execution of its own; its result is taken`);
          if (e.exitCode === undefined) this.options.log?.(`the terminal did not report the exit code of "${command}"`);
          const code = e.exitCode ?? null;
          const output = () => (other && raw === '' ? other.text : raw);
          // The output stream may still hold its last chunk: give it a moment to drain.
          drainTimer = this.timers.set(() => finish(code, false, output()), DRAIN_MS);
          void (other ? other.reading : reading).then(() => finish(code, false, output()));
        }),
        this.host.onDidCloseTerminal((t) => {
          if (t === terminal) finish(null, false);
        }),
      );
      timeoutTimer = this.timers.set(() => {
        interrupt();
        finish(null, true);
      }, options.timeoutMs);
      options.signal?.addEventListener('abort', onAbort, { once: true });

      try {
        execution = integration.executeCommand(line);
      } catch (err) {
        settled = true;
        cleanup();
        reject(err instanceof Error ? err : new Error(String(err)));
        return;
      }
      const stream = execution.read();
      reading = (async () => {
        try {
          for await (const chunk of stream) {
            if (settled) break;
            if (rawBytes > cap * 4) {
              overflow = true;
              continue;
            }
            raw += chunk;
            rawBytes += chunk.length;
          }
        } catch (err) {
          this.options.log?.(`reading the output of "${command}" failed: ${String(err)}`);
        }
      })();
    });
  }
}

function abortError(signal: AbortSignal | undefined): Error {
  return signal?.reason instanceof Error ? signal.reason : new Error('command cancelled');
}
