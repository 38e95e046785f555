/**
 * "What changed since the last draft": two revisions compared at step level (added, removed,
 * changed) and as a unified diff of the markdown (the `diff` package). Embedded tracker blocks
 * are left out of both, so progress updates never show as plan changes.
 */
import { createTwoFilesPatch, FILE_HEADERS_ONLY } from 'diff';
import type { ParsedStep } from './types';
import { validatePlan } from './validator';
import { stripTrackerBlock } from './trackerBlock';
import { stripEmphasis } from './text';

export interface PlanDiff {
  added: ParsedStep[];
  removed: ParsedStep[];
  changed: { before: ParsedStep; after: ParsedStep }[];
  /** Unified diff of the markdown; '' when the texts are equal. */
  unified: string;
}

function actionKey(step: ParsedStep): string {
  return stripEmphasis(step.action).toLowerCase().replace(/\s+/g, ' ').trim();
}

function targetsKey(step: ParsedStep): string {
  return [...step.targets].sort().join('\n');
}

/** Two revisions' steps paired by identity: what `diffPlans` and the review's re-anchoring both use. */
export interface StepMatch {
  pairs: { before: ParsedStep; after: ParsedStep }[];
  /** Steps of the new revision with no partner. */
  added: ParsedStep[];
  /** Steps of the old revision with no partner. */
  removed: ParsedStep[];
}

/**
 * Pairs steps by their action text; steps left over are paired when they name the same targets
 * (an action reworded). Position plays no part: a reordered step keeps its partner.
 */
export function matchSteps(oldSteps: readonly ParsedStep[], newSteps: readonly ParsedStep[]): StepMatch {
  const pairs: { before: ParsedStep; after: ParsedStep }[] = [];
  const unmatchedOld = new Set(oldSteps);
  const unmatchedNew = new Set(newSteps);

  const pairBy = (key: (s: ParsedStep) => string) => {
    for (const n of newSteps) {
      if (!unmatchedNew.has(n)) continue;
      const k = key(n);
      if (k.length === 0) continue;
      const o = oldSteps.find((s) => unmatchedOld.has(s) && key(s) === k);
      if (!o) continue;
      unmatchedOld.delete(o);
      unmatchedNew.delete(n);
      pairs.push({ before: o, after: n });
    }
  };
  pairBy(actionKey);
  pairBy(targetsKey);
  return {
    pairs,
    added: newSteps.filter((s) => unmatchedNew.has(s)),
    removed: oldSteps.filter((s) => unmatchedOld.has(s)),
  };
}

/** A step's text without its number (`2.`, `Step 2:`), so renumbering alone is not a change. */
export function stepTextWithoutNumber(step: ParsedStep): string {
  return step.text.replace(/^\s*(?:\*\*|__)?(?:step\s+)?\d+\s*[.):]/i, '').trim();
}

/**
 * Compares two plan revisions. Steps are paired by `matchSteps`. Paired steps whose text differs
 * are `changed`; unpaired ones are `removed` or `added`. Renumbering alone is not a change.
 */
export function diffPlans(
  before: string,
  after: string,
  names: { before?: string; after?: string } = {},
  parse: (text: string) => ReturnType<typeof validatePlan> = validatePlan,
): PlanDiff {
  const a = stripTrackerBlock(before);
  const b = stripTrackerBlock(after);
  const { pairs, added, removed } = matchSteps(parse(a).summary.steps, parse(b).summary.steps);
  const changed = pairs
    .filter((p) => stepTextWithoutNumber(p.before) !== stepTextWithoutNumber(p.after))
    .sort((x, y) => x.after.index - y.after.index);
  const unified =
    a === b
      ? ''
      : createTwoFilesPatch(names.before ?? 'before.md', names.after ?? 'after.md', a, b, undefined, undefined, {
          context: 3,
          headerOptions: FILE_HEADERS_ONLY,
        });
  return {
    added,
    removed,
    changed,
    unified,
  };
}
