/** Builders for the guard tests: tool outcomes as the runloop would report them. */
import { mkdirSync, mkdtempSync, realpathSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import type { GuardAction, GuardCall, ToolOutcome, TurnGuards } from '../../src/core/agent/guards';
import { judgeCommand, type ShapeSegment } from '../../src/core/gate';
import { NodeWorkspaceReader } from '../../src/node/fsWorkspace';

/**
 * The workspace the guard tests' shell commands are judged in: as in a session, a shell call
 * reaches the guards with the gate's parse of its command (`shell`), never a scan of their own.
 */
export const GUARD_ROOT = realpathSync(mkdtempSync(join(tmpdir(), 'planwise-guards-')));
for (const f of ['README.md', 'src/a.ts', 'src/core/agent/x.ts', 'lib/x.ts', 'test/a.ts', 'docs/a.md', 'pkg/a/x.ts']) {
  mkdirSync(dirname(join(GUARD_ROOT, f)), { recursive: true });
  writeFileSync(join(GUARD_ROOT, f), 'x\n');
}
for (let i = 0; i < 40; i++) mkdirSync(join(GUARD_ROOT, `docs${i}`), { recursive: true });

const shapes = new Map<string, readonly ShapeSegment[]>();
const unjudged = new Set<string>();

/** Judges every command a `shell(...)` outcome was made with so far (a root hook runs it before the tests). */
export async function judgeShellCommands(): Promise<void> {
  const ctx = { roots: [GUARD_ROOT], trusted: true, fs: new NodeWorkspaceReader([GUARD_ROOT]) };
  for (const command of [...unjudged]) {
    shapes.set(command, (await judgeCommand(command, ctx)).shape ?? []);
    unjudged.delete(command);
  }
}
before(judgeShellCommands);

/** The outcomes, once every shell command among them has the gate's parse. */
export async function judged(outcomes: readonly ToolOutcome[]): Promise<ToolOutcome[]> {
  await judgeShellCommands();
  return [...outcomes];
}

let hashCounter = 0;

/** A distinct result hash each time, so an outcome is not a repeat unless a test says so. */
export function freshHash(): string {
  return `h${++hashCounter}`;
}

export function outcome(partial: Partial<ToolOutcome> & Pick<ToolOutcome, 'tool' | 'kind'>): ToolOutcome {
  return {
    args: {},
    blocked: false,
    ok: true,
    lowSignal: false,
    resultHash: freshHash(),
    bytes: 100,
    category: 'navigation',
    ...partial,
  };
}

/**
 * A shell call with the gate's parse of its command, judged in `GUARD_ROOT` before the tests run.
 * One made in a test's body has none until `judgeShellCommands()` is awaited, like a call made
 * outside the dispatcher.
 */
export function shell(command: string, extra: Partial<ToolOutcome> = {}): ToolOutcome {
  const o = outcome({ tool: 'exec_command', kind: 'shell', args: { command }, ...extra });
  const text = String(o.args['command']);
  if (!shapes.has(text)) unjudged.add(text);
  return Object.defineProperty(o, 'shell', {
    enumerable: true,
    get: () => shapes.get(text),
  });
}

export function read(path: string, extra: Partial<ToolOutcome> = {}): ToolOutcome {
  return outcome({ tool: 'read_file', kind: 'read', args: { path }, ...extra });
}

export function search(pattern: string, extra: Partial<ToolOutcome> = {}): ToolOutcome {
  return outcome({ tool: 'code_search', kind: 'search', args: { pattern }, ...extra });
}

export function listFiles(path: string, extra: Partial<ToolOutcome> = {}): ToolOutcome {
  return outcome({ tool: 'list_files', kind: 'list', args: { path }, ...extra });
}

export const verification = (): ToolOutcome => shell('npm test', { category: 'verification' });
export const mutation = (): ToolOutcome =>
  outcome({ tool: 'write_file', kind: 'write', args: { path: 'src/a.ts' }, category: 'mutation' });
export const recovery = (): ToolOutcome => outcome({ tool: 'recover', kind: 'other', category: 'recovery' });
export const bookkeeping = (): ToolOutcome =>
  outcome({ tool: 'task_tracker', kind: 'tracker', args: { action: 'update' }, category: 'bookkeeping' });

/** A search miss with a distinct query each time. */
export function miss(i: number): ToolOutcome {
  return search(`query${i}`, { lowSignal: true, ok: true });
}

/** Runs each outcome through admission and afterCall, like the runloop; returns every afterCall action. */
export function drive(guards: TurnGuards, outcomes: readonly ToolOutcome[]): GuardAction[] {
  const actions: GuardAction[] = [];
  for (const o of outcomes) {
    const call: GuardCall = { tool: o.tool, kind: o.kind, args: o.args, category: o.category };
    const admission = guards.beforeCall(call);
    if (!admission.admit) throw new Error(`unexpected rejection of ${o.tool}: ${admission.reason}`);
    guards.previewFor(o.bytes);
    actions.push(guards.afterCall(o));
  }
  return actions;
}

/** Index (0-based) of the first non-continue action, or -1. */
export function firstTrip(actions: readonly GuardAction[]): number {
  return actions.findIndex((a) => a.type !== 'continue');
}

export function times<T>(n: number, make: (i: number) => T): T[] {
  return Array.from({ length: n }, (_, i) => make(i));
}
