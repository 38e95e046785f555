/**
 * When a step's verification is satisfied (pure): every command entry's latest run passed and a
 * person signed every check off. "Awaiting your check" is a step in progress whose commands all
 * passed and whose checks are not all signed: shown on the step, never a fifth status.
 */
import type { VerifyEntry } from '../plan/types';
import type { TaskStatus } from '../plan/tracker';
import type { VerifyRecord } from './verifier';

export interface StepVerdict {
  /** Command entries whose latest run did not pass (failed, timed out, cancelled). */
  readonly failed: readonly string[];
  /** Command entries that never ran, or are running now. */
  readonly notRun: readonly string[];
  /** Check entries no person signed off yet. */
  readonly unsignedChecks: readonly string[];
  readonly complete: boolean;
}

export function stepVerdict(
  entries: readonly VerifyEntry[],
  latest: (entry: string) => VerifyRecord | undefined,
): StepVerdict {
  const failed: string[] = [];
  const notRun: string[] = [];
  const unsignedChecks: string[] = [];
  for (const e of entries) {
    const r = latest(e.text);
    if (e.kind === 'check') {
      if (r?.status !== 'checked') unsignedChecks.push(e.text);
    } else if (r === undefined || r.status === 'running') notRun.push(e.text);
    else if (r.status !== 'passed') failed.push(e.text);
  }
  return { failed, notRun, unsignedChecks, complete: failed.length + notRun.length + unsignedChecks.length === 0 };
}

/** The step waits for the person: in progress, its commands passed, a check not signed off. */
export function isAwaitingCheck(status: TaskStatus, verdict: StepVerdict): boolean {
  return (
    status === 'in_progress' &&
    verdict.unsignedChecks.length > 0 &&
    verdict.failed.length === 0 &&
    verdict.notRun.length === 0
  );
}
