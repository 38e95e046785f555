/**
 * Which CodeLenses a plan file gets, computed from its markdown alone: one "▶ command" lens per
 * `verify:` entry above each step (with the last result and when), and at the top "Run all
 * verify", "Approve"/"Revise" while the plan waits for approval, and "Compare with previous
 * revision" once there is one. In Restricted Mode the lenses say why verify is off.
 */
import { validatePlan } from '../../core/plan/validator';
import { startsWithCommand } from '../../core/plan/verification';
import { UNTRUSTED_VERIFY_LENS } from '../trust';

export interface VerifyRecord {
  readonly command: string;
  /** Null when the command was stopped (timeout, cancel) before it exited. */
  readonly exitCode: number | null;
  readonly at: number;
  readonly timedOut?: boolean;
  readonly running?: boolean;
}

export interface LensInput {
  readonly markdown: string;
  readonly trusted: boolean;
  readonly now: number;
  /** The last result of `command` run for step `stepIndex` of this plan. */
  readonly resultOf: (stepIndex: number, command: string) => VerifyRecord | undefined;
  /** The plan in this file is waiting for the person's decision. */
  readonly gateOpen: boolean;
  /** Saved revisions of this plan (its history entries). */
  readonly revisions: number;
}

export type LensAction =
  | { readonly kind: 'runVerify'; readonly stepIndex: number; readonly command: string }
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

/**
 * The shell command of a `verify:` entry, or undefined for a check a person performs
 * ("confirm the panel shows the plan"). A command in backticks wins; otherwise the entry itself
 * when it starts with a known command word or script path; `run X` counts as X.
 */
export function verifyCommandOf(entry: string): string | undefined {
  const text = entry.trim();
  for (const m of text.matchAll(/`([^`]+)`/g)) {
    const span = m[1]!.trim();
    if (startsWithCommand(span)) return span;
  }
  const unquoted = text.replace(/^["']|["']$/g, '').trim();
  if (startsWithCommand(unquoted)) return unquoted;
  // "confirm via cargo bench", "run npm test": the command after a cue word.
  const words = unquoted.split(/\s+/);
  for (let i = 0; i < words.length - 1; i++) {
    if (!CUE.test(words[i]!)) continue;
    const rest = words.slice(i + 1).join(' ');
    if (startsWithCommand(rest)) return rest;
  }
  return undefined;
}

const CUE = /^(?:run|runs|running|execute|via|with|using)$/i;

export function formatAgo(ms: number): string {
  const s = Math.max(0, Math.round(ms / 1000));
  if (s < 10) return 'just now';
  if (s < 60) return `${s} s ago`;
  const min = Math.round(s / 60);
  if (min < 60) return `${min} min ago`;
  const h = Math.round(min / 60);
  if (h < 24) return `${h} h ago`;
  return `${Math.round(h / 24)} d ago`;
}

/** "✓ passed 2 min ago", "✗ exit 1 · just now", "✗ timed out · 5 min ago", "running…". */
export function resultLabel(r: VerifyRecord, now: number): string {
  if (r.running) return '$(sync~spin) running…';
  const ago = formatAgo(now - r.at);
  if (r.exitCode === 0) return `✓ passed ${ago}`;
  if (r.timedOut) return `✗ timed out · ${ago}`;
  if (r.exitCode === null) return `✗ stopped · ${ago}`;
  return `✗ exit ${r.exitCode} · ${ago}`;
}

/** The 0-based line of the plan's `# Title`, or 0. */
function titleLine(markdown: string): number {
  const lines = markdown.split(/\r?\n/);
  const i = lines.findIndex((l) => /^#\s+\S/.test(l));
  return i >= 0 ? i : 0;
}

export function planLenses(input: LensInput): LensSpec[] {
  const { summary } = validatePlan(input.markdown);
  const top = titleLine(input.markdown);
  const out: LensSpec[] = [];
  const runnable = summary.steps.flatMap((s) =>
    s.verify.map((entry) => ({ step: s, entry, command: verifyCommandOf(entry) })),
  );
  const anyCommand = runnable.some((r) => r.command !== undefined);

  if (anyCommand) {
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
    out.push({ line: top, title: '$(edit) Revise', action: { kind: 'revise' } });
  }
  if (input.revisions >= 2) {
    out.push({ line: top, title: '$(diff) Compare with previous revision', action: { kind: 'compare' } });
  }

  for (const { step, entry, command } of runnable) {
    const line = Math.max(0, step.line - 1);
    if (command === undefined) {
      out.push({ line, title: `$(eye) Check by hand: ${entry}`, action: { kind: 'none' } });
      continue;
    }
    if (!input.trusted) {
      out.push({
        line,
        title: `$(workspace-untrusted) ${command}: verify is off in Restricted Mode`,
        tooltip: 'Trust the workspace to run verify commands.',
        action: { kind: 'manageTrust' },
      });
      continue;
    }
    const result = input.resultOf(step.index, command);
    out.push({
      line,
      title: `▶ ${command}${result ? `  ${resultLabel(result, input.now)}` : ''}`,
      tooltip: `Run \`${command}\` for step ${step.index} in the Planwise terminal`,
      action: { kind: 'runVerify', stepIndex: step.index, command },
    });
  }
  return out;
}
