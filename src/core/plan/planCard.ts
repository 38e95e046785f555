/**
 * The plan card's view of a plan, from the validator's one parse: each step as its action (the
 * title), its files and its verify entries as parsed (commands are runnable, checks are signed).
 * Hosts render it; the raw `-> files: [..] -> verify: [..]` syntax stays in the file.
 */
import type { PlanSummary, VerifyEntry } from './types';

export interface PlanStepView {
  /** 1-based; also the tracker path of the step. */
  readonly index: number;
  readonly title: string;
  readonly files: readonly string[];
  readonly verify: readonly VerifyEntry[];
}

export interface PlanView {
  readonly title: string;
  readonly summary: string;
  readonly steps: readonly PlanStepView[];
}

export function planViewOf(summary: PlanSummary): PlanView {
  return {
    title: summary.title,
    summary: summary.summary,
    steps: summary.steps.map((s) => ({ index: s.index, title: s.action, files: s.targets, verify: s.entries })),
  };
}
