/**
 * Where a session stands, folded from its own events: the latest budget, its plan's tracker
 * progress, and whether its last build can still be reverted.
 * Hosts read this (the status bar, "what a new start would throw away", whether to keep a session
 * across a reload) rather than any surface's projection of the same events.
 */
import type { BudgetSnapshot, ThreadEvent, TrackerCountsInfo, TrackerItemInfo } from '../events/types';

export interface TrackerStanding {
  readonly planFile?: string;
  readonly title: string;
  readonly counts: TrackerCountsInfo;
  readonly percent: number;
  /** Some step awaits the person's check ("Awaiting your check"). */
  readonly awaitingCheck: boolean;
}

export interface SessionStanding {
  readonly budget?: BudgetSnapshot;
  readonly tracker?: TrackerStanding;
  /** The last build's report offers Revert: it changed files or left checkpoints. */
  readonly buildRevertable: boolean;
}

export const NO_STANDING: SessionStanding = { buildRevertable: false };

const anyAwaiting = (items: readonly TrackerItemInfo[]): boolean =>
  items.some((i) => i.awaitingCheck || anyAwaiting(i.children));

/** The standing after one more event. */
export function foldStanding(s: SessionStanding, event: ThreadEvent): SessionStanding {
  switch (event.type) {
    case 'budget.updated':
      return { ...s, budget: event.budget };
    case 'tracker.updated':
      return {
        ...s,
        tracker: {
          ...(event.plan_file !== undefined ? { planFile: event.plan_file } : {}),
          title: event.title,
          counts: event.counts,
          percent: event.percent,
          awaitingCheck: anyAwaiting(event.items),
        },
      };
    case 'context.reset':
      // A fresh thread starts with no build behind it.
      return { ...s, buildRevertable: false };
    case 'plan.execution.completed':
      return {
        ...s,
        buildRevertable: event.report.changed.length > 0 || (event.checkpoints ?? []).length > 0,
      };
    default:
      return s;
  }
}

/** Follows a session's events; `seed` brings back what an archive already holds. */
export class StandingFollower {
  private current: SessionStanding = NO_STANDING;

  constructor(seed: readonly ThreadEvent[] = []) {
    for (const e of seed) this.current = foldStanding(this.current, e);
  }

  get standing(): SessionStanding {
    return this.current;
  }

  fold(event: ThreadEvent): void {
    this.current = foldStanding(this.current, event);
  }
}
