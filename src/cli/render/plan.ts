/**
 * A persisted plan in the transcript: the whole plan the first time, and for a later revision
 * what changed (steps added, removed, changed, then the unified diff of the markdown).
 */
import { stripTrackerBlock } from '../../core/api/basics';
import { diffPlans } from '../../core/api/plans';
import type { Printer } from './printer';
import type { Style } from './style';

export interface PlanShown {
  readonly file: string;
  readonly markdown: string;
  /** 0 when unknown (a plan read back from disk). */
  readonly revision: number;
}

function rule(title: string, style: Style): string {
  return style.cyan(`── ${title} ${'─'.repeat(Math.max(3, 60 - title.length))}`);
}

function diffLine(line: string, style: Style): string {
  if (line.startsWith('+') && !line.startsWith('+++')) return style.green(line);
  if (line.startsWith('-') && !line.startsWith('---')) return style.red(line);
  if (line.startsWith('@@')) return style.cyan(line);
  return line;
}

/** Prints the plan, or what changed against `previous`; says which it printed. */
export function printPlan(
  printer: Printer,
  style: Style,
  plan: PlanShown,
  shownPath: string,
  previous?: PlanShown,
): 'whole' | 'changes' {
  if (!previous || previous.markdown === plan.markdown) {
    printer.line(rule(`Plan${plan.revision > 0 ? ` · revision ${plan.revision}` : ''} · ${shownPath}`, style));
    // A plan read back from disk may carry the embedded tracker block; progress is shown elsewhere.
    for (const l of stripTrackerBlock(plan.markdown).trimEnd().split('\n')) printer.line(l);
    printer.line(rule('end of plan', style));
    return 'whole';
  }
  const d = diffPlans(previous.markdown, plan.markdown, {
    before: `revision ${previous.revision}`,
    after: `revision ${plan.revision}`,
  });
  printer.line(rule(`Plan · revision ${plan.revision} (changes against ${previous.revision}) · ${shownPath}`, style));
  for (const s of d.added) printer.line(style.green(`  + step ${s.index}: ${s.action}`));
  for (const s of d.removed) printer.line(style.red(`  - step ${s.index}: ${s.action}`));
  for (const c of d.changed) printer.line(style.yellow(`  ~ step ${c.after.index}: ${c.after.action}`));
  if (d.added.length + d.removed.length + d.changed.length === 0) printer.line(style.dim('  (no step changed)'));
  for (const l of d.unified.trimEnd().split('\n')) printer.line(diffLine(l, style));
  printer.line(rule('end of changes', style));
  return 'changes';
}

/**
 * The plans the transcript printed whole, by file and revision: the gate that follows names such a
 * plan and lists its choices without printing its steps a second time.
 */
export class PlansOnScreen {
  private readonly printed = new Set<string>();

  note(file: string, revision: number): void {
    this.printed.add(`${revision}\n${file}`);
  }

  has(file: string, revision: number): boolean {
    return this.printed.has(`${revision}\n${file}`);
  }
}
