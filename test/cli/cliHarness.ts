/**
 * Drives the CLI's `main()` in-process with fake IO: captured stdout/stderr, a scripted stdin
 * (lines fed up front, then closed unless `keepStdinOpen`), and an environment of the test's
 * choosing — pointed at the scripted OpenAI-compatible server over loopback.
 */
import { PassThrough, Writable } from 'node:stream';
import type { CliIO } from '../../src/cli/io';
import { main } from '../../src/cli/main';

export class Capture extends Writable {
  private readonly chunks: string[] = [];
  isTTY?: boolean;

  constructor(tty = false) {
    super();
    if (tty) this.isTTY = true;
  }

  override _write(chunk: Buffer | string, _enc: BufferEncoding, done: () => void): void {
    this.chunks.push(typeof chunk === 'string' ? chunk : chunk.toString('utf8'));
    done();
  }

  get text(): string {
    return this.chunks.join('');
  }
}

export interface FakeRun {
  readonly code: number;
  readonly stdout: string;
  readonly stderr: string;
}

export interface FakeOptions {
  readonly env?: Record<string, string | undefined>;
  readonly cwd?: string;
  /** Lines typed on stdin, each followed by a newline. */
  readonly stdin?: readonly string[];
  readonly stdoutTTY?: boolean;
}

/** Runs `planwise <argv>` in-process; stdin ends after the scripted lines. */
export async function runCli(argv: readonly string[], opts: FakeOptions = {}): Promise<FakeRun> {
  const stdout = new Capture(opts.stdoutTTY);
  const stderr = new Capture();
  const stdin = new PassThrough();
  for (const line of opts.stdin ?? []) stdin.write(`${line}\n`);
  stdin.end();
  const io: CliIO = {
    stdout,
    stderr,
    stdin,
    env: { PATH: process.env['PATH'], HOME: process.env['HOME'], ...opts.env },
    cwd: opts.cwd ?? process.cwd(),
  };
  const code = await main([...argv], io);
  return { code, stdout: stdout.text, stderr: stderr.text };
}

/** The flags that point a run at the scripted server. */
export function modelArgs(baseURL: string, model = 'scripted-model'): string[] {
  return ['--base-url', baseURL, '--model', model];
}

/** No retries, so a failing endpoint fails at once. */
export const NO_RETRIES = { PLANWISE_MODEL_RETRIES: '0' } as const;

/** The session id printed at the start of a run. */
export function sessionIdOf(output: string): string {
  const m = /Session (\S+) ·/.exec(output);
  if (!m) throw new Error(`no session id in the output:\n${output}`);
  return m[1]!;
}

/** The plan path printed when a run stops at the gate. */
export function pendingPlanOf(output: string): string {
  const m = /Plan awaiting approval: (.+\.md)$/m.exec(output);
  if (!m) throw new Error(`no pending plan in the output:\n${output}`);
  return m[1]!;
}
