/** Builders for the guard tests: tool outcomes as the runloop would report them. */
import type { GuardAction, GuardCall, ToolOutcome, TurnGuards } from '../../src/core/agent/guards';

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

export function shell(command: string, extra: Partial<ToolOutcome> = {}): ToolOutcome {
  return outcome({ tool: 'exec_command', kind: 'shell', args: { command }, ...extra });
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
