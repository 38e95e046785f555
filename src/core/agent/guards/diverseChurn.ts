/**
 * Diverse low-signal churn in execution (rules §7): `threshold` low-signal outcomes within one
 * window schedule one tool-free recovery pass, even when every query is new (so no repeat guard
 * sees it). Any mutation or verification resets the window, so churn interrupted by real work
 * does not accumulate. A threshold of 0 disables the guard.
 */
import { FamilyTally } from '../churnFamily';
import type { OutcomeCategory, Trip } from './types';

export class DiverseChurnGuard {
  private count = 0;
  private readonly families = new FamilyTally();

  constructor(private readonly threshold: number) {}

  get window(): number {
    return this.count;
  }

  observe(category: OutcomeCategory, low: boolean, family: string): Trip | undefined {
    if (category === 'mutation' || category === 'verification') {
      this.reset();
      return undefined;
    }
    if (!low) return undefined;
    this.count++;
    this.families.add(family);
    if (this.threshold <= 0 || this.count < this.threshold) return undefined;
    return {
      guard: 'diverse_churn',
      reason:
        `${this.count} low-signal results since the last edit or verification; ` +
        `dominant churn family ${this.families.label()}. Stop searching and act on, or report, what is known.`,
    };
  }

  reset(): void {
    this.count = 0;
    this.families.clear();
  }
}
