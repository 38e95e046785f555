/**
 * The host's verify actions (CodeLens, the panel's buttons, Run All Verify) on top of the engine's
 * one `Verifier`: a run, a cancel or a sign-off names a plan file, a step and an entry as written;
 * the entry must be one the plan holds, and its parse is the engine's (`verifyEntryOf`), so the
 * command runs exactly as the validator understood it. Every run goes through the engine's command
 * policy (rules §9): a click on a lens or Run button, which shows the whole command, is the
 * person's yes for that one command; Run All Verify asks for each command that needs a yes, with
 * the command shown whole. Refused with an explanation in Restricted Mode. Results are the
 * verifier's; this file keeps none.
 */
import type { Approver } from '../../core/api/ports';
import type { Tracker, VerifyEntry } from '../../core/api/plans';
import type { VerifyRecord, Verifier } from '../../core/api/build';
import { itemAtPath, verifyEntryOf, type PlanVerdict } from '../../core/api/plans';
import { UNTRUSTED_EXPLANATION, type TrustState } from '../trust';

export interface VerifyDeps {
  readonly verifier: Verifier;
  readonly trust: TrustState;
  /** The plan file's text (the editor's or the disk's). */
  readonly read: (planFile: string) => Promise<string>;
  /** The engine's one parse of a plan text. */
  readonly parse: (markdown: string) => Pick<PlanVerdict, 'summary'>;
  /**
   * The plan's tracker as the workspace holds it: a sub-item the build agent added has entries the
   * plan text does not.
   */
  readonly trackerOf?: (planFile: string) => Promise<Tracker | undefined>;
  /** Asks the person about a command Run All Verify would run that needs a yes (a modal). */
  readonly approver: Pick<Approver, 'approveCommand'>;
}

export interface RunAllSummary {
  readonly passed: number;
  readonly failed: number;
  /** Checks a person signs off (no command). */
  readonly manual: number;
  /** Commands that did not run: the person said no, or the policy refuses them. */
  readonly notRun: number;
}

/** Whether the tracker holds `text` as a verify entry of item `step` ("2", "2.1"). */
export function trackerHolds(tracker: Tracker | undefined, step: string, text: string): boolean {
  return itemAtPath(tracker?.items ?? [], step)?.verify.some((v) => v.trim() === text) ?? false;
}

export class VerifyService {
  constructor(private readonly deps: VerifyDeps) {}

  get verifier(): Verifier {
    return this.deps.verifier;
  }

  /** The parsed entry `text` of item `step` ("2", "2.1"), when the plan holds it. */
  async entryOf(planFile: string, step: string, text: string): Promise<VerifyEntry> {
    const steps = this.deps.parse(await this.deps.read(planFile)).summary.steps;
    const top = steps[Number(step.split('.')[0]) - 1];
    const entry = top?.entries.find((e) => e.text === text);
    if (entry) return entry;
    // A sub-item's entries live on its checkbox line inside the step, or only in the tracker.
    if (top && step.includes('.') && top.text.includes(text)) return verifyEntryOf(text);
    if (this.deps.trackerOf && trackerHolds(await this.deps.trackerOf(planFile), step, text))
      return verifyEntryOf(text);
    throw new Error(`step ${step} of this plan has no verify entry "${text}"`);
  }

  /** A click on a lens or a Run button that showed the whole command: the person's yes for it. */
  async run(planFile: string, step: string, text: string): Promise<VerifyRecord> {
    if (!this.deps.trust.trusted) throw new Error(UNTRUSTED_EXPLANATION);
    const entry = await this.entryOf(planFile, step, text);
    return this.deps.verifier.run(planFile, step, entry, { origin: 'person', clicked: true });
  }

  cancel(planFile: string, step: string, text: string): boolean {
    return this.deps.verifier.cancel(planFile, step, text);
  }

  /** The person signs a check off ("Mark checked"). */
  async markChecked(planFile: string, step: string, text: string): Promise<VerifyRecord> {
    const entry = await this.entryOf(planFile, step, text);
    if (entry.kind !== 'check') throw new Error(`"${text}" is a command: run it instead`);
    return this.deps.verifier.signOff(planFile, step, entry.text);
  }

  /** Every command entry of the plan, in step order; a failure does not stop the rest. */
  async runAll(planFile: string, signal?: AbortSignal): Promise<RunAllSummary> {
    if (!this.deps.trust.trusted) throw new Error(UNTRUSTED_EXPLANATION);
    let passed = 0;
    let failed = 0;
    let manual = 0;
    let notRun = 0;
    const steps = this.deps.parse(await this.deps.read(planFile)).summary.steps;
    for (const step of steps) {
      for (const entry of step.entries) {
        if (entry.kind === 'check') {
          manual++;
          continue;
        }
        if (signal?.aborted) return { passed, failed, manual, notRun };
        // One click ran them all, but it showed none of them: each that needs a yes is asked for.
        const r = await this.deps.verifier.run(planFile, String(step.index), entry, {
          origin: 'person',
          approver: this.deps.approver,
          ...(signal ? { signal } : {}),
        });
        if (r.refused) notRun++;
        else if (r.status === 'passed') passed++;
        else failed++;
      }
    }
    return { passed, failed, manual, notRun };
  }
}
