/**
 * What a mode switch or a new start would throw away, read from the panel's view state: a plan
 * waiting at the gate, or a finished build whose report still offers Revert. The panel asks inline
 * before such a switch, the host's palette commands ask with a modal; both read this one answer.
 */
import type { BuildReportItem } from './buildReport';
import type { ViewState } from './viewState';

export type AtStake = 'plan' | 'build';

/** The build report's Revert buttons are offered: the build changed files or left checkpoints. */
export function canRevert(item: Pick<BuildReportItem, 'changed' | 'checkpoints'>): boolean {
  return item.changed.length > 0 || item.checkpoints.length > 0;
}

/**
 * `plan` while a plan waits for approval; `build` when the run is over and the last build's report
 * still offers Revert; undefined when nothing would be lost.
 */
export function atStake(state: Pick<ViewState, 'gate' | 'transcript' | 'lifecycle'>): AtStake | undefined {
  if (state.gate) return 'plan';
  if (state.lifecycle.busy) return undefined;
  for (let i = state.transcript.length - 1; i >= 0; i--) {
    const item = state.transcript[i]!;
    if (item.kind === 'build_report') return canRevert(item) ? 'build' : undefined;
  }
  return undefined;
}

/** The words for each, said the same way in the panel and in the host's modal. */
export const AT_STAKE_WORDS: Record<AtStake, { what: string; keep: string }> = {
  plan: { what: 'the plan waiting for your approval', keep: 'Keep the plan' },
  build: { what: "the finished build's report and its Revert buttons", keep: 'Keep the build report' },
};
