/**
 * Drives the CLI's `main()` in-process with fake IO: captured stdout/stderr, a scripted stdin
 * (lines fed up front, then closed), and an environment of the test's choosing — pointed at the
 * scripted OpenAI-compatible server over loopback. `useCliScene` gives a test its servers and temp
 * workspaces and removes them after it.
 */
import { PassThrough, Writable } from 'node:stream';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { CliIO } from '../../src/cli/io';
import { main } from '../../src/cli/main';
import { ScriptedServer, type Script, type ScriptedServerOptions } from '../support/scriptedServer';
import { makeTempWorkspace, type TempWorkspace } from '../support/tempWorkspace';

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

/** The scripted servers and temp workspaces of one test. */
export interface CliScene {
  /** Starts a scripted server on loopback. */
  serve(script: Script, options?: ScriptedServerOptions): Promise<ScriptedServer>;
  /** Makes a temp workspace holding `files`. */
  workspace(files?: Record<string, string>): TempWorkspace;
  /** A server and a workspace (a README by default), and the flags that point a run at both. */
  setup(
    script: Script,
    files?: Record<string, string>,
  ): Promise<{ server: ScriptedServer; ws: TempWorkspace; args: string[] }>;
}

/** Call inside a `describe`: every server and workspace a test makes is closed and removed after it. */
export function useCliScene(): CliScene {
  const servers: ScriptedServer[] = [];
  const workspaces: TempWorkspace[] = [];
  afterEach(async () => {
    for (const server of servers.splice(0)) await server.close();
    for (const ws of workspaces.splice(0)) ws.cleanup();
  });
  const serve = async (script: Script, options?: ScriptedServerOptions) => {
    const server = await ScriptedServer.start(script, options);
    servers.push(server);
    return server;
  };
  const workspace = (files: Record<string, string> = {}) => {
    const ws = makeTempWorkspace(files);
    workspaces.push(ws);
    return ws;
  };
  const setup = async (script: Script, files: Record<string, string> = { 'README.md': '# demo\n' }) => {
    const server = await serve(script);
    const ws = workspace(files);
    return { server, ws, args: ['--workspace', ws.root, ...modelArgs(server.baseURL)] };
  };
  return { serve, workspace, setup };
}

/** Bundles the whole CLI into one file, `<dir>/cli.cjs` (as the shipped CLI, every command inside), and returns its path. */
export async function buildOneFileCli(dir: string): Promise<string> {
  const { build } = await import('esbuild');
  const cli = join(dir, 'cli.cjs');
  const pkg = JSON.parse(readFileSync('package.json', 'utf8')) as { version: string };
  await build({
    entryPoints: ['src/cli/index.ts'],
    outfile: cli,
    bundle: true,
    platform: 'node',
    target: 'node20',
    format: 'cjs',
    mainFields: ['module', 'main'],
    banner: { js: '#!/usr/bin/env node' },
    define: { PLANWISE_VERSION: JSON.stringify(pkg.version) },
    logLevel: 'silent',
  });
  return cli;
}
