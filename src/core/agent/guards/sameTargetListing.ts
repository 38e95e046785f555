/**
 * Same-target listings (rules §7): one listing tool (ls, find or fd through a shell command, or
 * the list_files tool) rescanning the same search root across argument variations schedules one
 * tool-free pass after `threshold` scans: 3 in execution, 5 while planning (so three successful
 * listings remain legitimate exploration). Scans of distinct trees never group: the key is the
 * tool plus the normalised root, so `ls src` and `ls src/core` are different targets. A mutation
 * starts the counts again (the tree changed); so does a new turn. A threshold of 0 disables it.
 */
import { familyName } from '../churnFamily';
import { callSegments, listingRoots, normalizePath, toolPathArg, workdirOf, type CommandSegment } from './commandShape';
import type { OutcomeCategory, OutcomeKind, Trip } from './types';

export interface ListingTarget {
  readonly program: string;
  readonly root: string;
}

/** The (program, root) pairs one call scans; [] for calls that list nothing. */
export function listingTargets(
  call: { tool: string; kind: OutcomeKind; args: Record<string, unknown>; shell?: readonly CommandSegment[] },
  workspaceRoot?: string,
): ListingTarget[] {
  if (call.kind === 'list') {
    return [{ program: call.tool, root: normalizePath(toolPathArg(call.args) ?? '.', '.', workspaceRoot) }];
  }
  if (call.kind !== 'shell') return [];
  const workdir = workdirOf(call.args);
  const out: ListingTarget[] = [];
  for (const seg of callSegments(call)) {
    const program = seg.program === 'fdfind' ? 'fd' : seg.program;
    for (const root of listingRoots(seg, workdir, workspaceRoot)) {
      if (!out.some((t) => t.program === program && t.root === root)) out.push({ program, root });
    }
  }
  return out;
}

export class SameTargetListingGuard {
  private readonly counts = new Map<string, number>();

  constructor(private readonly threshold: number) {}

  /** Highest scan count of any one target this turn. */
  get highest(): number {
    let n = 0;
    for (const c of this.counts.values()) n = Math.max(n, c);
    return n;
  }

  /** Records the scans of one call of `kind` (the family in the reason names the scanned root). */
  observe(category: OutcomeCategory, kind: OutcomeKind, targets: readonly ListingTarget[]): Trip | undefined {
    if (category === 'mutation') {
      this.reset();
      return undefined;
    }
    if (category !== 'navigation') return undefined;
    let trip: Trip | undefined;
    for (const t of targets) {
      const key = `${t.program}\u0000${t.root}`;
      const n = (this.counts.get(key) ?? 0) + 1;
      this.counts.set(key, n);
      if (trip === undefined && this.threshold > 0 && n >= this.threshold) {
        trip = {
          guard: 'same_target_listing',
          reason:
            `${t.program} scanned the same root "${t.root}" ${n} times this turn; dominant churn family ` +
            `${familyName(kind, category, t.program, t.root)} ×${n}. Use what the earlier listings showed instead of listing again.`,
        };
      }
    }
    return trip;
  }

  reset(): void {
    this.counts.clear();
  }
}
