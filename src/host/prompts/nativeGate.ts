/**
 * The gate in native VS Code UI (the QuickPick offered while the panel is hidden, and the palette's
 * approve commands), as a flow over three small UI calls so it runs without VS Code in tests.
 *
 * The review's fact is the engine's: the card's `openComments` (the plan's unresolved threads,
 * listed once by the engine when it built the card). Approving while some are open asks once,
 * "Approve with 2 unresolved comments?", in the same words as the panel and the CLI; declining
 * goes back to the choices. A request the person already confirmed is not asked about again.
 *
 * When the card lists verify commands that will ask before they run, approving asks one more
 * question with the commands shown whole: approve the plan only (the first button), or the plan
 * and those commands, for this build. Approving the plan alone approves none of them.
 */
import type { ApprovalDecision } from '../../core/api/ports';
import type { GateCardInfo } from '../../core/api/sessions';
import { approvalItems, type PickItem } from './nativeModel';

export interface NativeGateUi {
  /** The gate's choices; undefined when the person pressed Esc. */
  pick(items: readonly PickItem<ApprovalDecision>[], title: string): Promise<ApprovalDecision | undefined>;
  /** A modal yes/no; false for "Back" or Esc. */
  confirm(message: string, detail: string): Promise<boolean>;
  /** Feedback for "stay in planning"; undefined when the person pressed Esc. */
  feedback(): Promise<string | undefined>;
  /**
   * A modal with the listed commands: `plan` (the first button) approves the plan only,
   * `commands` the plan and the commands; undefined for Esc.
   */
  commands(message: string, detail: string): Promise<'plan' | 'commands' | undefined>;
}

export interface NativeGateAnswer {
  readonly decision: ApprovalDecision;
  readonly feedback?: string;
  /** Verify commands approved with the plan, by their text (only when the person chose so). */
  readonly allowCommands?: readonly string[];
}

/** The listed verify commands the person may approve with the plan (they would ask before running). */
export function approvableCommands(card: GateCardInfo): string[] {
  return [...new Set((card.verifyCommands ?? []).filter((c) => c.approvable).map((c) => c.command))];
}

/** The words of the question "also allow these commands?", the same list the panel and the CLI show. */
export function commandsQuestion(commands: readonly string[]): { message: string; detail: string } {
  const n = commands.length;
  return {
    message: `The plan's ${n === 1 ? 'verify command asks' : `${n} verify commands ask`} before running. Allow ${n === 1 ? 'it' : 'them'} for this build too?`,
    detail:
      `${commands.map((c) => `$ ${c}`).join('\n')}\n\n` +
      'Approving the plan alone allows none of them: each is asked for when it first runs. A command that appears later is always asked for.',
  };
}

/** The number of unresolved review threads the engine listed on the card. */
export function openCommentCount(card: GateCardInfo): number {
  return card.openComments?.length ?? 0;
}

/** "Approve with 2 unresolved comments?" (the panel's and the CLI's words). */
export function unresolvedQuestion(open: number): string {
  return `Approve with ${open} unresolved comment${open === 1 ? '' : 's'}?`;
}

export function gateTitle(card: GateCardInfo): string {
  const open = openCommentCount(card);
  const parts = [`revision ${card.revision}`];
  if (card.author === 'person') parts.push('your edit');
  if (open > 0) parts.push(`${open} open comment${open === 1 ? '' : 's'}`);
  return card.revision > 0 ? `Planwise: Ready to code? (${parts.join(' · ')})` : 'Planwise: Ready to code?';
}

/** The gate's items; with open comments, "stay" says they go with the request. */
export function nativeGateItems(card: GateCardInfo): PickItem<ApprovalDecision>[] {
  const open = openCommentCount(card);
  return approvalItems(card.contextPercent).map((i) =>
    i.value === 'revise' && open > 0
      ? {
          ...i,
          detail: `Keep planning; ${open === 1 ? 'the open comment goes' : `the ${open} open comments go`} to the planner with what you say.`,
        }
      : i,
  );
}

/**
 * True when an approval may go ahead: no open comments, already confirmed for this request, or
 * the person says yes now.
 */
export async function confirmApproval(
  card: GateCardInfo,
  ui: Pick<NativeGateUi, 'confirm'>,
  alreadyConfirmed: boolean,
): Promise<boolean> {
  const open = openCommentCount(card);
  if (open === 0 || alreadyConfirmed) return true;
  return ui.confirm(
    unresolvedQuestion(open),
    `${open === 1 ? 'It stays' : 'They stay'} open on the plan file and the build starts with the plan as it is. ` +
      'To send them to the planner, choose "No, stay in Plan mode".',
  );
}

/**
 * The gate as a QuickPick: a choice, the one confirmation when approving with open comments
 * (declined: the choices again), feedback for "stay". Undefined when the person pressed Esc.
 */
export async function runNativeGate(
  card: GateCardInfo,
  ui: NativeGateUi,
  alreadyConfirmed = false,
): Promise<(NativeGateAnswer & { confirmed: boolean }) | undefined> {
  let confirmed = alreadyConfirmed;
  for (;;) {
    const decision = await ui.pick(nativeGateItems(card), gateTitle(card));
    if (decision === undefined) return undefined;
    if (decision === 'execute' || decision === 'fresh_context') {
      if (!(await confirmApproval(card, ui, confirmed))) continue;
      confirmed = true;
      const commands = approvableCommands(card);
      if (commands.length === 0) return { decision, confirmed };
      const q = commandsQuestion(commands);
      const chosen = await ui.commands(q.message, q.detail);
      if (chosen === undefined) continue;
      return { decision, confirmed, ...(chosen === 'commands' ? { allowCommands: commands } : {}) };
    }
    if (decision === 'revise') {
      const feedback = await ui.feedback();
      if (feedback === undefined) return undefined;
      const note = feedback.trim();
      return { decision, confirmed, ...(note !== '' ? { feedback: note } : {}) };
    }
    return { decision, confirmed };
  }
}
