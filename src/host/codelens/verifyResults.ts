/**
 * The last verify result per plan file, step and command: what the lenses and the panel show,
 * and what the session consumes to complete tracker steps (rules: a step with `verify:` is
 * completed only after its command passed, when `requireVerifyToComplete` is on).
 */
import type { VerifyRecord } from './lenses';

export interface VerifyResultEvent {
  readonly planFile: string;
  readonly stepIndex: number;
  readonly record: VerifyRecord;
  /** The command's output (bounded), for the tracker item. */
  readonly output?: string;
}

const key = (planFile: string, stepIndex: number, command: string) => `${planFile}\u0000${stepIndex}\u0000${command}`;

export class VerifyResults {
  private readonly records = new Map<string, VerifyRecord>();
  private readonly listeners = new Set<(e: VerifyResultEvent) => void>();

  get(planFile: string, stepIndex: number, command: string): VerifyRecord | undefined {
    return this.records.get(key(planFile, stepIndex, command));
  }

  get size(): number {
    return this.records.size;
  }

  record(planFile: string, stepIndex: number, record: VerifyRecord, output?: string): void {
    this.records.set(key(planFile, stepIndex, record.command), record);
    const event: VerifyResultEvent = { planFile, stepIndex, record, ...(output !== undefined ? { output } : {}) };
    for (const l of [...this.listeners]) {
      try {
        l(event);
      } catch {
        // One failing consumer must not hide the result from the others.
      }
    }
  }

  /** Forget a plan's results (its file was replaced by a new plan). */
  clear(planFile?: string): void {
    if (planFile === undefined) this.records.clear();
    else for (const k of [...this.records.keys()]) if (k.startsWith(`${planFile}\u0000`)) this.records.delete(k);
  }

  onDidRecord(listener: (e: VerifyResultEvent) => void): { dispose(): void } {
    this.listeners.add(listener);
    return { dispose: () => this.listeners.delete(listener) };
  }
}
