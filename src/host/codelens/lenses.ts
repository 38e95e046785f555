/**
 * Which CodeLenses a plan file gets, computed from its markdown alone: above each step one lens per
 * `verify:` entry as the engine parsed it: "▶ command" with the last result and when (plus
 * "Cancel" while it runs), or "Mark checked" for a check a person signs off. At the top "Run all
 * verify", "Approve"/"Revise" while the plan waits for approval, and "Compare with previous
 * revision" once there is one. In Restricted Mode the lenses say why verify is off.
 */
import type { PlanVerdict, Tracker } from '../../core/api/plans';
import type { VerifyRecord } from '../../core/api/build';
import { formatAgo } from '../../protocol/ago';
import { UNTRUSTED_VERIFY_LENS } from '../trust';

export { formatAgo };

export interface LensInput {
  readonly markdown: string;
  /** The engine's parse of `markdown` (the workspace's one parse of this text). */
  readonly verdict: Pick<PlanVerdict, 'summary'>;
  /**
   * A step's status in the plan's tracker (absent: the plan has no tracker, nothing was built). A
   * check is offered for sign-off only once its step was started.
   */
  readonly stepStatus?: (step: string) => Tracker['items'][number]['status'] | undefined;
  readonly trusted: boolean;
  readonly now: number;
  /** The engine's latest result of `entry` (as written) of step `step` ("2") of this plan. */
  readonly resultOf: (step: string, entry: string) => VerifyRecord | undefined;
  /** The plan in this file is waiting for the person's decision. */
  readonly gateOpen: boolean;
  /** Saved revisions of this plan (its history entries). */
  readonly revisions: number;
  /** Unresolved review threads on this plan (absent: none). */
  readonly openComments?: number;
}

export type LensAction =
  | { readonly kind: 'runVerify'; readonly step: string; readonly entry: string }
  | { readonly kind: 'cancelVerify'; readonly step: string; readonly entry: string }
  | { readonly kind: 'markChecked'; readonly step: string; readonly entry: string }
  | { readonly kind: 'runAllVerify' }
  | { readonly kind: 'approve' }
  | { readonly kind: 'revise' }
  | { readonly kind: 'compare' }
  | { readonly kind: 'manageTrust' }
  | { readonly kind: 'none' };

export interface LensSpec {
  /** 0-based line the lens sits above. */
  readonly line: number;
  readonly title: string;
  readonly tooltip?: string;
  readonly action: LensAction;
}

/** "✓ passed 2 min ago", "✗ exit 1 · just now", "✗ timed out · 5 min ago", "running…". */
export function resultLabel(r: VerifyRecord, now: number): string {
  if (r.status === 'running') return '$(sync~spin) running…';
  const ago = formatAgo(now - r.at);
  switch (r.status) {
    case 'passed':
      return `✓ passed ${ago}`;
    case 'checked':
      return `✓ checked ${ago}`;
    case 'awaiting':
      return 'awaiting your check';
    case 'timed_out':
      return `✗ timed out · ${ago}`;
    case 'cancelled':
      return `✗ cancelled · ${ago}`;
    case 'failed':
      return r.exitCode === null ? `✗ did not run · ${ago}` : `✗ exit ${r.exitCode} · ${ago}`;
  }
}

/** The 0-based line of the plan's `# Title`, or 0. */
function titleLine(markdown: string): number {
  const lines = markdown.split(/\r?\n/);
  const i = lines.findIndex((l) => /^#\s+\S/.test(l));
  return i >= 0 ? i : 0;
}

export function planLenses(input: LensInput): LensSpec[] {
  const { summary } = input.verdict;
  const top = titleLine(input.markdown);
  const out: LensSpec[] = [];
  const entries = summary.steps.flatMap((s) => s.entries.map((entry) => ({ step: s, entry })));

  if (entries.some((e) => e.entry.kind === 'command')) {
    out.push(
      input.trusted
        ? { line: top, title: '$(run-all) Run all verify', action: { kind: 'runAllVerify' } }
        : {
            line: top,
            title: UNTRUSTED_VERIFY_LENS,
            tooltip: 'Verify commands run in a terminal, which Restricted Mode does not allow.',
            action: { kind: 'manageTrust' },
          },
    );
  }
  if (input.gateOpen) {
    out.push({ line: top, title: '$(check) Approve', action: { kind: 'approve' } });
    const open = input.openComments ?? 0;
    out.push(
      open > 0
        ? {
            line: top,
            title: `$(comment-discussion) Request changes (${open} comment${open === 1 ? '' : 's'})`,
            tooltip: 'Send every unresolved comment to the planner, with an optional note',
            action: { kind: 'revise' },
          }
        : { line: top, title: '$(edit) Revise', action: { kind: 'revise' } },
    );
  }
  if (input.revisions >= 2) {
    out.push({ line: top, title: '$(diff) Compare with previous revision', action: { kind: 'compare' } });
  }

  for (const { step, entry } of entries) {
    const line = Math.max(0, step.line - 1);
    const path = String(step.index);
    const result = input.resultOf(path, entry.text);
    const key = { step: path, entry: entry.text };
    if (entry.kind === 'check') {
      const status = input.stepStatus?.(path);
      out.push(
        result?.status === 'checked'
          ? { line, title: `$(pass) ${entry.text}  ${resultLabel(result, input.now)}`, action: { kind: 'none' } }
          : status === undefined || status === 'pending'
            ? {
                line,
                title: `$(eye) Check after the build: ${entry.text}`,
                tooltip: `No command proves this: once step ${step.index} is built, check it yourself and mark it checked`,
                action: { kind: 'none' },
              }
            : {
                line,
                title: `$(eye) Mark checked: ${entry.text}`,
                tooltip: `No command proves this: check it yourself, then mark it checked for step ${step.index}`,
                action: { kind: 'markChecked', ...key },
              },
      );
      continue;
    }
    if (!input.trusted) {
      out.push({
        line,
        title: `$(workspace-untrusted) ${entry.command}: verify is off in Restricted Mode`,
        tooltip: 'Trust the workspace to run verify commands.',
        action: { kind: 'manageTrust' },
      });
      continue;
    }
    out.push({
      line,
      title: `▶ ${entry.command}${result ? `  ${resultLabel(result, input.now)}` : ''}`,
      tooltip: `Run \`${entry.command}\` for step ${step.index}`,
      action: { kind: 'runVerify', ...key },
    });
    if (result?.status === 'running') {
      out.push({
        line,
        title: '$(debug-stop) Cancel',
        tooltip: `Stop \`${entry.command}\``,
        action: { kind: 'cancelVerify', ...key },
      });
    }
  }
  return out;
}
