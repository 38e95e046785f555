/**
 * Churn families: a coarse name for "the same kind of thing again", used to tell the model which
 * habit made a guard fire. The family of a call is
 *
 *     kind::category::program-or-tool::first path segment of the target
 *
 * e.g. `ls src/core` through `exec_command` is `exec::inspection::ls::src`. Shell calls are named
 * `exec` and navigation is named `inspection`, the words the model sees in its reasons; the other
 * kinds and categories keep their own names (`read::inspection::read_file::docs`).
 */
import {
  firstSegment,
  mainSegment,
  type CommandSegment,
  normalizePath,
  segmentTarget,
  toolPathArg,
  workdirOf,
} from './guards/commandShape';
import type { OutcomeCategory, OutcomeKind } from './guards/types';

export interface FamilyInput {
  readonly tool: string;
  readonly kind: OutcomeKind;
  readonly args: Record<string, unknown>;
  readonly shell?: readonly CommandSegment[];
  readonly category: OutcomeCategory;
}

function kindLabel(kind: OutcomeKind): string {
  return kind === 'shell' ? 'exec' : kind;
}

function categoryLabel(category: OutcomeCategory): string {
  return category === 'navigation' ? 'inspection' : category;
}

/** The family name from its parts; `target` is a normalised path (only its first segment is kept). */
export function familyName(kind: OutcomeKind, category: OutcomeCategory, program: string, target: string): string {
  return `${kindLabel(kind)}::${categoryLabel(category)}::${program}::${firstSegment(target)}`;
}

/** The churn family of a call; `root` (the workspace root) makes absolute paths relative. */
export function churnFamily(input: FamilyInput, root?: string): string {
  let program = input.tool;
  let target = '.';
  if (input.kind === 'shell') {
    const workdir = workdirOf(input.args);
    const seg = mainSegment(input);
    if (seg !== undefined) {
      program = seg.program;
      target = segmentTarget(seg, workdir, root);
    } else {
      target = normalizePath('.', workdir, root);
    }
  } else {
    const p = toolPathArg(input.args);
    target = p === undefined ? '.' : normalizePath(p, '.', root);
  }
  return familyName(input.kind, input.category, program, target);
}

/** Counts families; `dominant()` names the most frequent one (the earliest seen on a tie). */
export class FamilyTally {
  private readonly counts = new Map<string, number>();

  add(family: string): void {
    this.counts.set(family, (this.counts.get(family) ?? 0) + 1);
  }

  remove(family: string): void {
    const n = (this.counts.get(family) ?? 0) - 1;
    if (n > 0) this.counts.set(family, n);
    else this.counts.delete(family);
  }

  clear(): void {
    this.counts.clear();
  }

  get size(): number {
    let total = 0;
    for (const n of this.counts.values()) total += n;
    return total;
  }

  dominant(): { family: string; count: number } | undefined {
    let best: { family: string; count: number } | undefined;
    for (const [family, count] of this.counts) if (best === undefined || count > best.count) best = { family, count };
    return best;
  }

  /** `exec::inspection::ls::src ×3`, or '' when empty. */
  label(): string {
    const d = this.dominant();
    return d === undefined ? '' : `${d.family} ×${d.count}`;
  }
}
