/**
 * Runs a plan's verify commands for the CodeLens and the panel: in the Planwise terminal through
 * shell integration (exit code captured), one at a time, recording each result in
 * `VerifyResults`. Refused with an explanation in Restricted Mode.
 */
import type { CommandRunner } from '../../core/ports';
import { validatePlan } from '../../core/plan/validator';
import { EXEC_ENV } from '../../core/tools/execCommand';
import type { VerifyRecord } from '../codelens/lenses';
import { verifyCommandOf } from '../codelens/lenses';
import type { VerifyResults } from '../codelens/verifyResults';
import { UNTRUSTED_EXPLANATION, type TrustState } from '../trust';

export const VERIFY_TIMEOUT_MS = 10 * 60_000;
export const VERIFY_OUTPUT_BYTES = 256 * 1024;
/** The tail of the output kept with the result (what the tracker shows). */
const OUTPUT_TAIL = 4000;

export interface VerifyDeps {
  readonly runner: CommandRunner;
  readonly trust: TrustState;
  readonly results: VerifyResults;
  /** Where verify commands run: the workspace root. */
  readonly cwd: () => string;
  readonly now: () => number;
}

export interface RunAllSummary {
  readonly passed: number;
  readonly failed: number;
  /** Checks a person performs (no command). */
  readonly manual: number;
}

export class VerifyService {
  constructor(private readonly deps: VerifyDeps) {}

  async run(planFile: string, stepIndex: number, command: string, signal?: AbortSignal): Promise<VerifyRecord> {
    if (!this.deps.trust.trusted) throw new Error(UNTRUSTED_EXPLANATION);
    const { results, now } = this.deps;
    results.record(planFile, stepIndex, { command, exitCode: null, at: now(), running: true });
    try {
      const run = await this.deps.runner.run(command, {
        cwd: this.deps.cwd(),
        env: EXEC_ENV,
        timeoutMs: VERIFY_TIMEOUT_MS,
        maxOutputBytes: VERIFY_OUTPUT_BYTES,
        ...(signal ? { signal } : {}),
      });
      const record: VerifyRecord = {
        command,
        exitCode: run.exitCode,
        at: now(),
        ...(run.timedOut ? { timedOut: true } : {}),
      };
      const output = `${run.stdout}${run.stderr ? `\n${run.stderr}` : ''}`;
      results.record(planFile, stepIndex, record, output.slice(-OUTPUT_TAIL));
      return record;
    } catch (err) {
      const record: VerifyRecord = { command, exitCode: null, at: now() };
      results.record(planFile, stepIndex, record, err instanceof Error ? err.message : String(err));
      throw err;
    }
  }

  /** Every verify command of the plan, in step order; a failure does not stop the rest. */
  async runAll(planFile: string, markdown: string, signal?: AbortSignal): Promise<RunAllSummary> {
    if (!this.deps.trust.trusted) throw new Error(UNTRUSTED_EXPLANATION);
    let passed = 0;
    let failed = 0;
    let manual = 0;
    for (const step of validatePlan(markdown).summary.steps) {
      for (const entry of step.verify) {
        const command = verifyCommandOf(entry);
        if (command === undefined) {
          manual++;
          continue;
        }
        if (signal?.aborted) return { passed, failed, manual };
        const r = await this.run(planFile, step.index, command, signal).catch(() => undefined);
        if (r?.exitCode === 0) passed++;
        else failed++;
      }
    }
    return { passed, failed, manual };
  }
}
