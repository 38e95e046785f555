/**
 * The approved-plan loop allowance (rules §7): the implementation turn that starts an approved
 * plan gets one internal +50 tool-loop allowance, clamped to the ordinary hard cap
 * min(base×3, 120). A configured base of 0 means unlimited and stays unlimited.
 *
 * It does not stack with manual grants: the turn gets whichever is larger, the allowance or the
 * base plus what the person granted by hand, never both added together. It never lowers a limit:
 * a base already above the hard cap keeps its value. Each approved-plan turn (current context or
 * fresh context) computes it again from the configured base, so it is one-time per turn.
 */

export const APPROVED_PLAN_LOOP_BONUS = 50;
export const LOOP_HARD_CAP_CEILING = 120;
export const LOOP_HARD_CAP_FACTOR = 3;

function checkCount(name: string, value: number): void {
  if (!Number.isInteger(value) || value < 0) {
    throw new RangeError(`${name} must be a whole number of loop iterations, 0 or more (got ${String(value)})`);
  }
}

/** The ordinary loop hard cap for a configured base: min(base×3, 120); 0 (unlimited) stays 0. */
export function loopHardCap(base: number): number {
  checkCount('the configured loop limit', base);
  if (base === 0) return 0;
  return Math.min(base * LOOP_HARD_CAP_FACTOR, LOOP_HARD_CAP_CEILING);
}

/**
 * The loop limit of an approved-plan implementation turn.
 * @param base the configured loop limit (0 = unlimited)
 * @param manualGrants loop iterations the person granted by hand on top of the base
 */
export function approvedPlanLoopLimit(base: number, manualGrants: number): number {
  checkCount('the configured loop limit', base);
  checkCount('the manually granted loop iterations', manualGrants);
  if (base === 0) return 0;
  const withAllowance = Math.max(base, Math.min(base + APPROVED_PLAN_LOOP_BONUS, loopHardCap(base)));
  return Math.max(withAllowance, base + manualGrants);
}
