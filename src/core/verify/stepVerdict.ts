/**
 * When a step's verification is satisfied (pure): every command entry's latest run passed and a
 * person signed every check off. "Awaiting your check" is a step in progress whose commands all
 * passed and whose checks the build asked the person for (it reported the step done) and no one
 * signed yet: shown on the step, never a fifth status. A step only started waits for its build.
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
  /** Of those, the ones the build asked the person for. */
  readonly requestedChecks: readonly string[];
  readonly complete: boolean;
}

export function stepVerdict(
  entries: readonly VerifyEntry[],
  latest: (entry: string) => VerifyRecord | undefined,
): StepVerdict {
  const failed: string[] = [];
  const notRun: string[] = [];
  const unsignedChecks: string[] = [];
  const requestedChecks: string[] = [];
  for (const e of entries) {
    const r = latest(e.text);
    if (e.kind === 'check') {
      if (r?.status !== 'checked') unsignedChecks.push(e.text);
      if (r?.status === 'awaiting') requestedChecks.push(e.text);
    } else if (r === undefined || r.status === 'running') notRun.push(e.text);
    else if (r.status !== 'passed') failed.push(e.text);
  }
  return {
    failed,
    notRun,
    unsignedChecks,
    requestedChecks,
    complete: failed.length + notRun.length + unsignedChecks.length === 0,
  };
}

/** The step waits for the person: in progress, its commands passed, a check not signed off. */
export function isAwaitingCheck(status: TaskStatus, verdict: StepVerdict): boolean {
  return (
    status === 'in_progress' &&
    verdict.unsignedChecks.length > 0 &&
    verdict.requestedChecks.length === verdict.unsignedChecks.length &&
    verdict.failed.length === 0 &&
    verdict.notRun.length === 0
  );
}
