/**
 * When plan-file lenses are asked for again: on every verify result the engine records (running,
 * passed, cancelled…), and once a minute while any result is kept, so "2 min ago" stays true.
 */
import type { Verifier } from '../../core/api/build';

/** Lens timestamps ("2 min ago") are refreshed this often while results exist. */
export const LENS_TICK_MS = 60_000;

export interface LensRefreshDeps {
  readonly verifier: Pick<Verifier, 'onRecorded' | 'hasResults'>;
  /** Asks VS Code for the lenses again. */
  readonly fire: () => void;
  readonly tickMs?: number;
  readonly timers?: { set(fn: () => void, ms: number): unknown; clear(handle: unknown): void };
}

export function lensRefresh(deps: LensRefreshDeps): { dispose(): void } {
  const timers = deps.timers ?? {
    set: (fn, ms) => setInterval(fn, ms),
    clear: (h) => clearInterval(h as ReturnType<typeof setInterval>),
  };
  const unsubscribe = deps.verifier.onRecorded(() => deps.fire());
  const tick = timers.set(() => {
    if (deps.verifier.hasResults) deps.fire();
  }, deps.tickMs ?? LENS_TICK_MS);
  return {
    dispose: () => {
      unsubscribe();
      timers.clear(tick);
    },
  };
}
