/**
 * Runs one command line the gate already admitted, through `/bin/sh -c`, with no stdin, in its own
 * process group so a timeout or cancel kills everything it started. Each output stream is capped.
 */
import { spawn } from 'node:child_process';
import type { CommandRunner, RunOptions, RunResult } from '../core/api/ports';
import { scrubbedEnv } from './env';
import { gnuSed, nodeSafeModes } from './gnuSed';

export { gnuSed };

/** After killing the group, how long to wait for the pipes to close before giving up on them. */
const CLOSE_GRACE_MS = 2000;

export class NodeCommandRunner implements CommandRunner {
  /** GNU sed runs with `--sandbox` when the gate admits it (found out when a command runs sed). */
  readonly safeModes = nodeSafeModes;

  /**
   * `baseEnv` is the environment options.env is laid over: by default this process's, with every
   * credential-looking variable removed (see `scrubbedEnv`).
   */
  constructor(
    private readonly shell = '/bin/sh',
    private readonly baseEnv: Readonly<Record<string, string | undefined>> = scrubbedEnv(process.env),
  ) {}

  run(command: string, options: RunOptions): Promise<RunResult> {
    const started = Date.now();
    const signal = options.signal;
    if (signal?.aborted) return Promise.reject(abortError(signal));
    const env = runEnv(this.baseEnv, options.env);

    return new Promise<RunResult>((resolve, reject) => {
      const child = spawn(this.shell, ['-c', command], {
        cwd: options.cwd,
        env,
        stdio: ['ignore', 'pipe', 'pipe'],
        detached: process.platform !== 'win32',
        windowsHide: true,
      });
      const stdout = new CappedBuffer(options.maxOutputBytes);
      const stderr = new CappedBuffer(options.maxOutputBytes);
      let timedOut = false;
      let killed = false;
      let settled = false;
      let graceTimer: NodeJS.Timeout | undefined;

      const killGroup = () => {
        if (killed) return;
        killed = true;
        try {
          if (child.pid !== undefined && process.platform !== 'win32') process.kill(-child.pid, 'SIGKILL');
          else child.kill('SIGKILL');
        } catch {
          // already gone
        }
        // A grandchild that left the group may hold the pipes open: do not wait on it forever.
        graceTimer = setTimeout(() => finish(null), CLOSE_GRACE_MS);
      };
      const timer = setTimeout(() => {
        timedOut = true;
        killGroup();
      }, options.timeoutMs);
      const onAbort = () => killGroup();
      signal?.addEventListener('abort', onAbort, { once: true });

      const finish = (exitCode: number | null) => {
        if (settled) return;
        settled = true;
        clearTimeout(timer);
        if (graceTimer) clearTimeout(graceTimer);
        signal?.removeEventListener('abort', onAbort);
        child.stdout.destroy();
        child.stderr.destroy();
        if (signal?.aborted) return reject(abortError(signal));
        resolve({
          exitCode: killed ? null : exitCode,
          stdout: stdout.text(),
          stderr: stderr.text(),
          timedOut,
          truncated: stdout.truncated || stderr.truncated,
          durationMs: Date.now() - started,
        });
      };

      child.stdout.on('data', (chunk: Buffer) => stdout.push(chunk));
      child.stderr.on('data', (chunk: Buffer) => stderr.push(chunk));
      child.on('error', (err) => {
        if (settled) return;
        settled = true;
        clearTimeout(timer);
        signal?.removeEventListener('abort', onAbort);
        reject(new Error(`could not start ${this.shell}: ${err.message}`));
      });
      child.on('close', (code) => finish(code));
    });
  }
}

/**
 * `changes` laid over `base`: `undefined` removes a variable, and a name ending in `*` with
 * `undefined` removes every variable of `base` with that prefix first (`GIT_*`).
 */
export function runEnv(
  base: Readonly<Record<string, string | undefined>>,
  changes: Readonly<Record<string, string | undefined>> = {},
): Record<string, string> {
  const prefixes = Object.keys(changes)
    .filter((k) => k.endsWith('*') && changes[k] === undefined)
    .map((k) => k.slice(0, -1));
  const env: Record<string, string> = {};
  for (const [k, v] of Object.entries(base)) {
    if (v !== undefined && !prefixes.some((p) => k.startsWith(p))) env[k] = v;
  }
  for (const [k, v] of Object.entries(changes)) {
    if (k.endsWith('*')) continue;
    if (v === undefined) delete env[k];
    else env[k] = v;
  }
  return env;
}

/** Keeps the first `limit` bytes of a stream; the text never ends inside a UTF-8 character. */
class CappedBuffer {
  private readonly chunks: Buffer[] = [];
  private size = 0;
  truncated = false;

  constructor(private readonly limit: number) {}

  push(chunk: Buffer): void {
    const room = this.limit - this.size;
    if (room <= 0) {
      if (chunk.length > 0) this.truncated = true;
      return;
    }
    if (chunk.length > room) {
      this.truncated = true;
      chunk = chunk.subarray(0, room);
    }
    this.chunks.push(chunk);
    this.size += chunk.length;
  }

  text(): string {
    let data = Buffer.concat(this.chunks);
    if (this.truncated) {
      let end = data.length;
      while (end > 0 && (data[end - 1]! & 0xc0) === 0x80) end--;
      // `end - 1` is now a lead byte (or ASCII); drop it if its character is incomplete.
      if (end > 0) {
        const lead = data[end - 1]!;
        const need = lead >= 0xf0 ? 4 : lead >= 0xe0 ? 3 : lead >= 0xc0 ? 2 : 1;
        if (data.length - (end - 1) < need) data = data.subarray(0, end - 1);
      }
    }
    return data.toString('utf8');
  }
}

function abortError(signal: AbortSignal): Error {
  return signal.reason instanceof Error ? signal.reason : new Error('command cancelled');
}
