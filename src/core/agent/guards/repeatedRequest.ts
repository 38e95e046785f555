/**
 * Repeated semantic requests while planning (rules §7): successful reads can still drift into a
 * loop, so `window` consecutive planning inspections containing even one repeated request
 * schedule the synthesis pass. A request repeats when the same tool asks again with the same
 * normalised arguments; output controls (max_output_tokens, limit, head, …) do not make a request
 * new. `window` genuinely distinct inspections stay eligible for more research.
 *
 * Inspections are navigation outcomes. Verification, mutation and recovery end the run of
 * inspections and forget earlier requests (the workspace may have changed); bookkeeping
 * (tracker, interview) neither counts nor breaks the run. A window of 0 disables the guard.
 */
import { FamilyTally } from '../churnFamily';
import { callSegments, normalizePath, workdirOf, type CommandSegment } from './commandShape';
import type { OutcomeCategory, OutcomeKind, Trip } from './types';

/** Argument names that only shape how much output comes back. */
export const OUTPUT_CONTROL_KEYS: ReadonlySet<string> = new Set([
  'max_output_tokens',
  'max_tokens',
  'limit',
  'head',
  'head_limit',
  'max_results',
  'max_matches',
  'max_count',
  'max_bytes',
  'max_chars',
  'max_lines',
  'yield_time_ms',
  'timeout',
  'timeout_ms',
  'timeout_secs',
]);

const PATH_KEYS = new Set(['path', 'file_path', 'file', 'dir', 'directory', 'root', 'target']);

function canonical(value: unknown, key?: string): unknown {
  if (typeof value === 'string') {
    const s = value.trim();
    return key !== undefined && PATH_KEYS.has(key) ? normalizePath(s) : s;
  }
  if (Array.isArray(value)) return value.map((v) => canonical(v));
  if (value !== null && typeof value === 'object') {
    const out: Record<string, unknown> = {};
    for (const k of Object.keys(value).sort()) {
      if (OUTPUT_CONTROL_KEYS.has(k)) continue;
      out[k] = canonical((value as Record<string, unknown>)[k], k);
    }
    return out;
  }
  return value;
}

/** A shell command without its output controls: `| head …` dropped, a leading head keeps its files. */
function canonicalCommand(args: Record<string, unknown>, shell?: readonly CommandSegment[]): unknown {
  const workdir = workdirOf(args);
  return callSegments(shell ? { args, shell } : { args }).flatMap((seg) => {
    if (seg.program === 'head') {
      if (seg.piped) return [];
      const files = seg.args.filter((a, i) => !a.startsWith('-') && !/^-[nc]$/.test(seg.args[i - 1] ?? ''));
      return [['head', normalizePath(seg.cwd, workdir), ...files.map((f) => normalizePath(f, '.'))]];
    }
    return [[seg.program, normalizePath(seg.cwd, workdir), ...seg.args]];
  });
}

/** The semantic identity of a request: tool plus normalised arguments, output controls ignored. */
export function requestKey(
  tool: string,
  kind: OutcomeKind,
  args: Record<string, unknown>,
  shell?: readonly CommandSegment[],
): string {
  if (kind === 'shell') {
    const rest: Record<string, unknown> = { ...args };
    for (const k of ['command', 'cmd', 'workdir', 'cwd']) delete rest[k];
    return JSON.stringify([tool, canonicalCommand(args, shell), canonical(rest)]);
  }
  return JSON.stringify([tool, canonical(args)]);
}

export class RepeatedRequestGuard {
  private readonly seen = new Set<string>();
  /** The last `window` inspections: whether each repeated an earlier request, and its family. */
  private recent: { repeat: boolean; family: string }[] = [];

  constructor(private readonly window: number) {}

  /** Inspections in the current run (at most the window). */
  get run(): number {
    return this.recent.length;
  }

  /** Repeated requests among them. */
  get repeats(): number {
    return this.recent.filter((r) => r.repeat).length;
  }

  observe(category: OutcomeCategory, key: string, family: string): Trip | undefined {
    if (category === 'verification' || category === 'mutation' || category === 'recovery') {
      this.reset();
      return undefined;
    }
    if (category !== 'navigation' || this.window <= 0) return undefined;
    const repeat = this.seen.has(key);
    this.seen.add(key);
    this.recent.push({ repeat, family });
    if (this.recent.length > this.window) this.recent.shift();
    if (this.recent.length < this.window || !this.recent.some((r) => r.repeat)) return undefined;
    const tally = new FamilyTally();
    for (const r of this.recent) if (r.repeat) tally.add(r.family);
    return {
      guard: 'repeated_request',
      reason:
        `${this.window} consecutive inspections include ${this.repeats} repeated request(s); ` +
        `dominant churn family ${tally.label()}. Draft the plan from the evidence already gathered.`,
    };
  }

  reset(): void {
    this.seen.clear();
    this.recent = [];
  }
}
