/**
 * `planwise check-command`: asks the read-only gate about one command, or about a batch of JSON
 * lines read from stdin, so anyone can audit the policy against their own command list.
 */
import { resolve } from 'node:path';
import { judgeCommand, type GateContext, type Judgement } from '../../core/api/gate';
import { NodeWorkspaceReader } from '../../node/fsWorkspace';
import { nodeSafeModes } from '../../node/gnuSed';
import { writeOnce } from '../directWrite';
import { EXIT_USAGE, type CliCommand, type CliIO } from '../io';

const USAGE = `Usage: planwise check-command [options] -- "<command>"
       planwise check-command [options] --batch < commands.jsonl

Checks a shell command against the planning agent's read-only gate and prints the reason. The
gate is the one exec_command uses: paths are resolved on the real file system of the workspace.

Options:
  --workspace DIR  workspace root the command would run in (default: the current directory)
  --untrusted      judge as in an untrusted workspace (project code such as 'npm test' is refused)
  --json           print {"command","allowed","rule","reason","runs","env"} as one JSON line; "runs" is
                   the command line that runs and "env" the environment changes it runs with
                   (null removes a variable; a name ending in * removes every one with that prefix)
  --batch          read JSON lines {"command": "..."} from stdin; write one JSON line per command
  -h, --help       show this help

Exit status: 0 allowed, 1 blocked, 2 usage error. With --batch: 0, or 2 when an input line was malformed.
`;

interface Options {
  workspace?: string;
  untrusted: boolean;
  json: boolean;
  batch: boolean;
  help: boolean;
  command: string[];
}

function parseArgs(args: readonly string[]): Options | string {
  const o: Options = { untrusted: false, json: false, batch: false, help: false, command: [] };
  for (let k = 0; k < args.length; k++) {
    const a = args[k] as string;
    if (a === '--') {
      o.command.push(...args.slice(k + 1));
      break;
    }
    if (a === '--workspace') {
      const dir = args[++k];
      if (dir === undefined) return '--workspace needs a directory';
      o.workspace = dir;
    } else if (a.startsWith('--workspace=')) o.workspace = a.slice('--workspace='.length);
    else if (a === '--untrusted') o.untrusted = true;
    else if (a === '--json') o.json = true;
    else if (a === '--batch') o.batch = true;
    else if (a === '--help' || a === '-h') o.help = true;
    else if (a.startsWith('-')) return `unknown option '${a}'`;
    else o.command.push(a);
  }
  if (o.help) return o;
  if (o.batch && o.command.length > 0) return '--batch reads commands from stdin; do not also give a command';
  if (!o.batch && o.command.length === 0)
    return 'no command given; put it after --, e.g. check-command -- "git status"';
  return o;
}

function usageError(io: CliIO, message: string): number {
  io.stderr.write(`planwise check-command: ${message}\n\n${USAGE}`);
  return EXIT_USAGE;
}

function line(command: string, j: Judgement): string {
  const v = j.verdict;
  // What runs: the command line and the environment changes it runs with (null: removed).
  const runs =
    v.allowed && j.parsed
      ? {
          runs: j.parsed.runnable,
          env: Object.fromEntries(Object.entries(j.parsed.env).map(([k, val]) => [k, val ?? null])),
        }
      : {};
  return `${JSON.stringify({ command, allowed: v.allowed, rule: v.rule, reason: v.reason, ...runs })}\n`;
}

/** A reader of our output went away (`| head -1`): stop writing, quietly. */
class OutputClosed extends Error {}

function write(io: CliIO, text: string): void {
  if ((io.stdout as { destroyed?: boolean }).destroyed) throw new OutputClosed();
  io.stdout.write(text);
}

/** Reads stdin line by line, answering each line as it arrives. Returns whether any line was malformed. */
async function runBatch(io: CliIO, ctx: GateContext): Promise<boolean> {
  let malformed = false;
  let lineNo = 0;
  let pending = '';
  const handle = async (raw: string) => {
    const text = lineNo === 0 && raw.charCodeAt(0) === 0xfeff ? raw.slice(1) : raw;
    lineNo++;
    if (text.trim() === '') return;
    let command: unknown;
    try {
      const value: unknown = JSON.parse(text);
      command = typeof value === 'object' && value !== null ? (value as { command?: unknown }).command : undefined;
    } catch {
      command = undefined;
    }
    if (typeof command !== 'string') {
      malformed = true;
      const error = `malformed input line ${lineNo}: expected a JSON object like {"command": "..."}`;
      write(io, `${JSON.stringify({ line: lineNo, error })}\n`);
      return;
    }
    write(io, line(command, await judgeCommand(command, ctx)));
  };
  for await (const chunk of io.stdin) {
    pending += typeof chunk === 'string' ? chunk : Buffer.from(chunk as Uint8Array).toString('utf8');
    let nl = pending.indexOf('\n');
    while (nl >= 0) {
      await handle(pending.slice(0, nl).replace(/\r$/, ''));
      pending = pending.slice(nl + 1);
      nl = pending.indexOf('\n');
    }
  }
  if (pending !== '') await handle(pending.replace(/\r$/, ''));
  return malformed;
}

/** The reader of the workspace folder `dir`; undefined when it is no folder. */
function workspaceReader(dir: string): NodeWorkspaceReader | undefined {
  try {
    return new NodeWorkspaceReader([dir]);
  } catch {
    return undefined;
  }
}

export const checkCommand: CliCommand = async (args, io) => {
  const o = parseArgs(args);
  if (typeof o === 'string') return usageError(io, o);
  if (o.help) {
    io.stdout.write(USAGE);
    return 0;
  }
  const workspace = resolve(io.cwd, o.workspace ?? '.');
  const reader = workspaceReader(workspace);
  if (!reader) return usageError(io, `workspace '${workspace}' is not an existing directory`);
  const roots = reader.roots;
  const home = io.env['HOME'] ?? io.env['USERPROFILE'];
  const ctx: GateContext = {
    roots,
    trusted: !o.untrusted,
    fs: reader,
    // Asked only when a command runs sed: finding out spawns `sed --version`, a process of its own.
    safeModes: nodeSafeModes,
    ...(home !== undefined ? { home } : {}),
  };
  if (!o.batch) {
    const command = o.command.join(' ');
    const judgement = await judgeCommand(command, ctx);
    const text = o.json ? line(command, judgement) : `${judgement.verdict.reason}\n`;
    const code = judgement.verdict.allowed ? 0 : 1;
    const rest = writeOnce(io, text);
    if (rest === 'closed') return 0;
    if (rest === '') return code;
    const closed = onOutputClosed(io);
    try {
      write(io, rest);
      return code;
    } catch (err) {
      if (err instanceof OutputClosed || closed.happened) return 0;
      throw err;
    } finally {
      closed.dispose();
    }
  }
  const closed = onOutputClosed(io);
  try {
    return (await runBatch(io, ctx)) ? EXIT_USAGE : 0;
  } catch (err) {
    if (err instanceof OutputClosed || closed.happened) return 0;
    throw err;
  } finally {
    closed.dispose();
  }
};

/** Notes an EPIPE on stdout (the reader closed the pipe) instead of letting it crash the process. */
function onOutputClosed(io: CliIO): { readonly happened: boolean; dispose(): void } {
  const out = io.stdout as {
    on?: (e: string, f: (err: NodeJS.ErrnoException) => void) => void;
    off?: (e: string, f: (err: NodeJS.ErrnoException) => void) => void;
    destroy?: () => void;
  };
  const state = { happened: false, dispose: () => {} };
  if (typeof out.on !== 'function') return state;
  const listener = (err: NodeJS.ErrnoException) => {
    if (err.code === 'EPIPE') {
      state.happened = true;
      out.destroy?.();
    } else throw err;
  };
  // The listener stays: a late EPIPE after the command returned must not crash the process either.
  out.on('error', listener);
  return state;
}
