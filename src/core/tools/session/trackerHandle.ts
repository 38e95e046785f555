/**
 * A `TrackerHandle` over one tracker kept in memory. Each action is applied to a copy; only when
 * `persist` (the plan store write and the `tracker.updated` event) succeeds does the copy become
 * the live tracker. Actions are applied one at a time, in the order they arrive.
 */
import { cloneTracker, type Tracker } from '../../plan/tracker';
import { applyTrackerAction, type TrackerAction } from '../../plan/trackerActions';
import type { TrackerHandle } from './context';

export interface TrackerHandleOptions {
  readonly initial?: Tracker;
  /** Title of the checklist an action starts when there is none yet. */
  readonly defaultTitle?: string;
  /** Saves the new tracker; a rejection leaves the live tracker unchanged and is reported. */
  readonly persist?: (tracker: Tracker) => Promise<void>;
}

export function createTrackerHandle(options: TrackerHandleOptions = {}): TrackerHandle {
  let current: Tracker | undefined = options.initial ? cloneTracker(options.initial) : undefined;
  let queue: Promise<unknown> = Promise.resolve();
  const applyNow = async (action: TrackerAction) => {
    const base = current ?? { title: options.defaultTitle ?? 'Tasks', items: [] };
    const result = applyTrackerAction(base, action);
    if (!result.ok) return result;
    if (options.persist) {
      try {
        await options.persist(cloneTracker(result.tracker));
      } catch (err) {
        const why = err instanceof Error ? err.message : String(err);
        return { ok: false as const, error: `the checklist change could not be saved (${why}); it was not applied` };
      }
    }
    current = result.tracker;
    return { ok: true as const, tracker: cloneTracker(result.tracker) };
  };
  return {
    get: () => (current ? cloneTracker(current) : undefined),
    apply(action) {
      const next = queue.then(() => applyNow(action));
      queue = next.catch(() => undefined);
      return next;
    },
  };
}
