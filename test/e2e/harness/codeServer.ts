// Starts and stops a real VS Code server (code-server) for one scenario. See ./index.ts for the API guide.
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { codeServerEntry, codeServerNode, type CodeServerInstall } from './paths';

export interface CodeServerOptions {
  /** Folder opened as the workspace. */
  workspace: string;
  /** VSIX file(s) installed with `--install-extension` before the server starts. */
  vsix?: string | string[];
  /** User settings written to `<userDataDir>/User/settings.json`, merged over the harness defaults. */
  settings?: Record<string, unknown>;
  /**
   * true (default): workspace trust is off (`--disable-workspace-trust`), so the folder is trusted.
   * false: workspace trust is on and the folder is NOT trusted (Restricted Mode, no startup prompt).
   */
  trustWorkspace?: boolean;
  /** Extra environment for the server and its extension host. */
  env?: Record<string, string>;
  /** Extra code-server arguments, e.g. `['--enable-proposed-api', '<publisher.name>']`. */
  args?: string[];
  /** Milliseconds to wait for the server to listen (default 60 000). */
  startTimeoutMs?: number;
  /**
   * Which code-server (see ./paths.ts): `current` (default: 4.106.3 on Node 22, whose VS Code has
   * the final Language Model provider API), or `minimum` (4.100.3, the lowest VS Code Planwise supports).
   */
  install?: CodeServerInstall;
}

export interface CodeServer {
  /** Root URL of the workbench, e.g. http://127.0.0.1:41234/ (the workspace opens there). */
  url: string;
  workspace: string;
  userDataDir: string;
  extensionsDir: string;
  /** Which code-server it is. */
  install: CodeServerInstall;
  /** Milliseconds from spawning the server to its "listening" line. */
  bootMs: number;
  /** Everything the server printed so far (stdout and stderr). */
  logs(): string;
  /** Stops the server (its whole process group) and removes its temporary folders. */
  stop(): Promise<void>;
}

/** Settings that keep the workbench quiet and deterministic under test. */
export const DEFAULT_SETTINGS: Readonly<Record<string, unknown>> = {
  'workbench.startupEditor': 'none',
  'workbench.tips.enabled': false,
  'workbench.enableExperiments': false,
  'workbench.welcomePage.walkthroughs.openOnInstall': false,
  'telemetry.telemetryLevel': 'off',
  'update.mode': 'none',
  'extensions.autoCheckUpdates': false,
  'extensions.autoUpdate': false,
  'extensions.ignoreRecommendations': true,
  'git.enabled': false,
  'git.autoRepositoryDetection': false,
  'chat.commandCenter.enabled': false,
  'workbench.editor.enablePreview': false,
  // VS Code 1.106 opens its Chat view in the secondary side bar on first start (1.100 ignores this).
  'workbench.secondarySideBar.defaultVisibility': 'hidden',
};

const live = new Set<ChildProcess>();
let exitHookInstalled = false;

/** If mocha dies mid-scenario, do not leave servers running behind it. */
function installExitHook(): void {
  if (exitHookInstalled) return;
  exitHookInstalled = true;
  process.once('exit', () => {
    for (const child of live) killGroup(child, 'SIGKILL');
  });
}

function killGroup(child: ChildProcess, signal: NodeJS.Signals): void {
  if (child.pid === undefined) return;
  try {
    process.kill(-child.pid, signal);
  } catch {
    // already gone
  }
}

/** Environment for code-server: never talk to a VS Code that may be hosting this test run. */
function serverEnv(extra: Record<string, string> | undefined): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...process.env, ...extra };
  for (const key of Object.keys(env)) {
    if (key.startsWith('VSCODE_') || key === 'ELECTRON_RUN_AS_NODE') delete env[key];
  }
  return env;
}

function dirArgs(userDataDir: string, extensionsDir: string, configFile: string): string[] {
  return ['--config', configFile, '--user-data-dir', userDataDir, '--extensions-dir', extensionsDir];
}

/** Runs code-server's CLI (install/list extensions) against the given folders; throws with its output on failure. */
export function codeServerCli(
  args: string[],
  dirs: { userDataDir: string; extensionsDir: string; configFile: string },
  install: CodeServerInstall = 'current',
): string {
  const r = spawnSync(
    codeServerNode(install),
    [codeServerEntry(install), ...dirArgs(dirs.userDataDir, dirs.extensionsDir, dirs.configFile), ...args],
    { encoding: 'utf8', env: serverEnv(undefined), timeout: 120_000 },
  );
  const out = `${r.stdout ?? ''}${r.stderr ?? ''}`;
  if (r.status !== 0) {
    throw new Error(`code-server ${args.join(' ')} failed (exit ${r.status ?? r.signal}):\n${out}`);
  }
  return out;
}

export async function startCodeServer(opts: CodeServerOptions): Promise<CodeServer> {
  const install = opts.install ?? 'current';
  const entry = codeServerEntry(install);
  const node = codeServerNode(install);
  const root = mkdtempSync(path.join(os.tmpdir(), 'planwise-e2e-'));
  const userDataDir = path.join(root, 'user-data');
  const extensionsDir = path.join(root, 'extensions');
  const configFile = path.join(root, 'config.yaml');
  mkdirSync(path.join(userDataDir, 'User'), { recursive: true });
  mkdirSync(extensionsDir, { recursive: true });
  // Our own config file, so code-server never writes one into the user's home.
  writeFileSync(configFile, 'auth: none\n');
  const trust = opts.trustWorkspace ?? true;
  const settings: Record<string, unknown> = { ...DEFAULT_SETTINGS };
  if (!trust) {
    settings['security.workspace.trust.enabled'] = true;
    settings['security.workspace.trust.startupPrompt'] = 'never';
    settings['security.workspace.trust.emptyWindow'] = false;
  }
  Object.assign(settings, opts.settings);
  writeFileSync(path.join(userDataDir, 'User', 'settings.json'), JSON.stringify(settings, null, 2));

  const dirs = { userDataDir, extensionsDir, configFile };
  const vsixes = opts.vsix === undefined ? [] : Array.isArray(opts.vsix) ? opts.vsix : [opts.vsix];
  for (const vsix of vsixes) codeServerCli(['--install-extension', vsix, '--force'], dirs, install);

  const args = [
    entry,
    ...dirArgs(userDataDir, extensionsDir, configFile),
    '--auth',
    'none',
    '--bind-addr',
    '127.0.0.1:0',
    '--disable-telemetry',
    '--disable-update-check',
    '--disable-getting-started-override',
    '--ignore-last-opened',
    ...(trust ? ['--disable-workspace-trust'] : []),
    ...(opts.args ?? []),
    opts.workspace,
  ];
  installExitHook();
  const started = Date.now();
  // VS Code leaves IPC sockets in the temp folder; keep them inside ours so stop() removes them.
  const tmp = path.join(root, 'tmp');
  mkdirSync(tmp);
  const child = spawn(node, args, {
    env: serverEnv({ TMPDIR: tmp, ...opts.env }),
    detached: true,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  live.add(child);
  let output = '';
  child.stdout?.on('data', (b: Buffer) => (output += b.toString()));
  child.stderr?.on('data', (b: Buffer) => (output += b.toString()));
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));

  let stopped = false;
  const stop = async (): Promise<void> => {
    if (stopped) return;
    stopped = true;
    if (child.exitCode === null && child.signalCode === null) {
      killGroup(child, 'SIGTERM');
      const timer = setTimeout(() => killGroup(child, 'SIGKILL'), 5000);
      await exited;
      clearTimeout(timer);
    }
    // The extension host and pty host may outlive the main process for a moment.
    killGroup(child, 'SIGKILL');
    live.delete(child);
    if (!process.env.PLANWISE_E2E_KEEP) rmSync(root, { recursive: true, force: true });
  };

  const timeoutMs = opts.startTimeoutMs ?? 60_000;
  const url = await new Promise<string>((resolve, reject) => {
    const poll = setInterval(() => {
      const m = /HTTP server listening on (http:\/\/\S+)/.exec(output);
      if (m?.[1]) {
        clearInterval(poll);
        resolve(m[1].endsWith('/') ? m[1] : `${m[1]}/`);
      } else if (child.exitCode !== null || Date.now() - started > timeoutMs) {
        clearInterval(poll);
        const why =
          child.exitCode !== null ? `exited with code ${child.exitCode}` : `did not listen within ${timeoutMs} ms`;
        reject(new Error(`code-server ${why}. Its output:\n${output}`));
      }
    }, 50);
  }).catch(async (err: unknown) => {
    await stop();
    throw err;
  });

  return {
    url,
    workspace: opts.workspace,
    userDataDir,
    extensionsDir,
    install,
    bootMs: Date.now() - started,
    logs: () => output,
    stop,
  };
}

/** `code-server --list-extensions --show-versions` for a running (or stopped, not yet cleaned) server. */
export function listExtensions(
  server: Pick<CodeServer, 'userDataDir' | 'extensionsDir'> & { install?: CodeServerInstall },
): string[] {
  const configFile = path.join(path.dirname(server.userDataDir), 'config.yaml');
  const out = codeServerCli(['--list-extensions', '--show-versions'], { ...server, configFile }, server.install);
  return out
    .split('\n')
    .map((l) => l.trim())
    .filter((l) => /^[\w-]+\.[\w-]+@/.test(l));
}
