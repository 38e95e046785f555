/**
 * Low-signal navigation while planning (rules §7): `consecutive` low-signal navigation results in
 * a row, or `total` in the turn, schedule one tool-free synthesis pass.
 *
 * Low-signal: an empty result, a search miss, a "not found" failure, or a result that only
 * repeats an earlier one (the caller decides and passes `low`). A productive navigation resets
 * only the consecutive count; verification, mutation, recovery and a new turn reset both.
 * Bookkeeping (tracker, interview) changes neither. A threshold of 0 disables that count.
 */
import { FamilyTally } from '../churnFamily';
import type { OutcomeCategory, Trip } from './types';

export class LowSignalGuard {
  private consecutiveCount = 0;
  private totalCount = 0;
  private readonly families = new FamilyTally();

  constructor(
    private readonly consecutiveMax: number,
    private readonly totalMax: number,
  ) {}

  get consecutive(): number {
    return this.consecutiveCount;
  }

  get total(): number {
    return this.totalCount;
  }

  observe(category: OutcomeCategory, low: boolean, family: string): Trip | undefined {
    if (category === 'verification' || category === 'mutation' || category === 'recovery') {
      this.reset();
      return undefined;
    }
    if (category !== 'navigation') return undefined;
    if (!low) {
      this.consecutiveCount = 0;
      return undefined;
    }
    this.consecutiveCount++;
    this.totalCount++;
    this.families.add(family);
    const inRow = this.consecutiveMax > 0 && this.consecutiveCount >= this.consecutiveMax;
    const inAll = this.totalMax > 0 && this.totalCount >= this.totalMax;
    if (!inRow && !inAll) return undefined;
    const what = inRow
      ? `${this.consecutiveCount} low-signal navigation results in a row`
      : `${this.totalCount} low-signal navigation results this turn`;
    return {
      guard: 'low_signal',
      reason:
        `${what} (empty results, search misses, missing files or repeats of earlier results); ` +
        `dominant churn family ${this.families.label()}. Draft the plan from the evidence already gathered.`,
    };
  }

  reset(): void {
    this.consecutiveCount = 0;
    this.totalCount = 0;
    this.families.clear();
  }
}
