/**
 * Bounded blocked-call recovery (rules §7, seed "Bounded blocked-call recovery").
 *
 * Two counters per turn: the consecutive streak of blocked calls and the turn's total. The
 * configured cap is the consecutive-call cap; the total fuse is cap×2 in build mode, cap×4 while
 * planning and cap×1 in recovery. Both are strict: they trip only when a count EXCEEDS its limit,
 * so with a cap of 3 planning permits 12 non-consecutive blocked calls and stops on call 13, and
 * the cap of 8 permits 8 blocked calls in a row and stops on the 9th (the cap is the most allowed,
 * exactly as the fuse is). An allowed call resets the streak but not the total. A cap of 0 turns
 * the fuse off.
 */
import type { Mode } from '../budgets';

const FUSE_FACTOR: Record<Mode, number> = { build: 2, plan: 4, recovery: 1 };

/** The total blocked-call fuse of a mode for a consecutive cap. */
export function blockedFuse(cap: number, mode: Mode): number {
  return cap * FUSE_FACTOR[mode];
}

export interface BlockedTrip {
  readonly budget: 'blocked_calls';
  readonly used: number;
  readonly max: number;
  readonly reason: string;
}

export class BlockedFuse {
  private consecutiveCount = 0;
  private totalCount = 0;

  constructor(
    private readonly cap: number,
    private mode: Mode,
  ) {}

  get consecutive(): number {
    return this.consecutiveCount;
  }

  get total(): number {
    return this.totalCount;
  }

  get fuse(): number {
    return blockedFuse(this.cap, this.mode);
  }

  get consecutiveCap(): number {
    return this.cap;
  }

  /** Records one call; returns the trip when this call exceeded the cap or the fuse. */
  record(blocked: boolean): BlockedTrip | undefined {
    if (!blocked) {
      this.consecutiveCount = 0;
      return undefined;
    }
    this.consecutiveCount++;
    this.totalCount++;
    if (this.cap <= 0) return undefined;
    if (this.consecutiveCount > this.cap) {
      return {
        budget: 'blocked_calls',
        used: this.consecutiveCount,
        max: this.cap,
        reason:
          `Stopped after ${this.consecutiveCount} blocked tool calls in a row (at most ${this.cap} allowed per turn). ` +
          'Each blocked call returned its reason; the next turn should take a different approach instead of retrying.',
      };
    }
    if (this.totalCount > this.fuse) {
      return {
        budget: 'blocked_calls',
        used: this.totalCount,
        max: this.fuse,
        reason:
          `Stopped after ${this.totalCount} blocked tool calls this turn (the ${this.mode} fuse allows ${this.fuse}). ` +
          'Each blocked call returned its reason; the next turn should take a different approach instead of retrying.',
      };
    }
    return undefined;
  }

  /** A new turn (optionally in another mode): both counts start again. */
  reset(mode: Mode = this.mode): void {
    this.mode = mode;
    this.consecutiveCount = 0;
    this.totalCount = 0;
  }
}
